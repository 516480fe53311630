package view

import (
	"errors"
	"fmt"
	"math"
	"net/http"
	"path/filepath"
	"strconv"

	"github.com/mecanim/mecanim/anim"
	"github.com/mecanim/mecanim/decode/catalog"
	"github.com/mecanim/mecanim/geom"
	"github.com/mecanim/mecanim/model"
	"github.com/mecanim/mecanim/present/playable"
)

// Scene is what GET /api/scene answers: the files' rigs, clips and
// controllers, each with the id the other requests take.
type Scene struct {
	Files       []string          `json:"files"`
	Rigs        []SceneRig        `json:"rigs"`
	Clips       []SceneClip       `json:"clips"`
	Controllers []SceneController `json:"controllers"`
}

// SceneRig is an Animator's rig.
type SceneRig struct {
	ID     int    `json:"id"`
	Name   string `json:"name"`
	File   string `json:"file"`
	Joints int    `json:"joints"`
	// Controller is the id of the rig's controller (-1 for none or one not
	// in the files).
	Controller int `json:"controller"`
}

// SceneClip is an AnimationClip.
type SceneClip struct {
	ID   int    `json:"id"`
	Name string `json:"name"`
	File string `json:"file"`
}

// SceneController is an AnimatorController with its parameters.
type SceneController struct {
	ID         int          `json:"id"`
	Name       string       `json:"name"`
	File       string       `json:"file"`
	Parameters []SceneParam `json:"parameters"`
	Layers     []string     `json:"layers"`
	Error      string       `json:"error,omitempty"`
}

// SceneParam is a controller parameter: type is float, int, bool or
// trigger.
type SceneParam struct {
	Name    string  `json:"name"`
	Type    string  `json:"type"`
	Default float64 `json:"default"`
}

func fileName(o catalog.Object) string { return filepath.Base(o.Container()) }

// Scene lists the catalog's rigs, clips and controllers.
func (s *Server) Scene() *Scene {
	sc := &Scene{Files: []string{}, Rigs: []SceneRig{}, Clips: []SceneClip{}, Controllers: []SceneController{}}
	for _, ct := range s.cat.Containers {
		sc.Files = append(sc.Files, filepath.Base(ct.Path))
	}
	for i, r := range s.rigs {
		sr := SceneRig{ID: i, Name: r.Name, File: filepath.Base(r.File.Container.Path), Joints: len(r.Nodes), Controller: -1}
		if r.Animator != nil {
			if o, ok := s.cat.Resolve(r.File, r.Animator.Controller); ok {
				sr.Controller = s.controllerID(o)
			}
		}
		sc.Rigs = append(sc.Rigs, sr)
	}
	for i, o := range s.clips {
		sc.Clips = append(sc.Clips, SceneClip{ID: i, Name: s.cat.Name(o), File: fileName(o)})
	}
	for i, o := range s.ctls {
		c := SceneController{ID: i, Name: s.cat.Name(o), File: fileName(o), Parameters: []SceneParam{}, Layers: []string{}}
		ctl, err := s.cat.Controller(o)
		if err != nil {
			c.Error = err.Error()
			s.logf("%v", err)
		} else {
			c.Parameters, c.Layers = controllerLists(ctl)
		}
		sc.Controllers = append(sc.Controllers, c)
	}
	return sc
}

// controllerLists returns a controller's parameters and the names of its
// layers, as the scene and a controller answer list them (never nil).
func controllerLists(ctl *model.Controller) ([]SceneParam, []string) {
	params, layers := []SceneParam{}, []string{}
	for _, p := range ctl.Parameters {
		params = append(params, SceneParam{Name: p.Name, Type: p.Type.String(), Default: finite(p.Default)})
	}
	for _, l := range ctl.Layers {
		layers = append(layers, l.Name)
	}
	return params, layers
}

func finite(x float64) float64 {
	if !geom.Finite64(x) {
		return 0
	}
	return x
}

func (s *Server) controllerID(o catalog.Object) int {
	for i, c := range s.ctls {
		if c.File == o.File && c.Object.PathID == o.Object.PathID {
			return i
		}
	}
	return -1
}

func (s *Server) handleScene(w http.ResponseWriter, r *http.Request) {
	s.sceneOnce.Do(func() {
		b, err := jsonBytes(s.Scene())
		if err != nil {
			b, _ = jsonBytes(map[string]string{"error": err.Error()})
		}
		s.scene = b
	})
	w.Header().Set("Content-Type", "application/json")
	w.Write(s.scene)
}

// Frames is what GET /api/clip/{id}/frames answers: the skeleton the clip
// plays on and its joints' model-space positions at a fixed rate.
type Frames struct {
	ID       int     `json:"id"`
	Name     string  `json:"name"`
	On       string  `json:"on"`
	Humanoid bool    `json:"humanoid"`
	Loop     bool    `json:"loop"`
	Duration float32 `json:"duration"`
	// Rate is the frame rate; frame k is the pose at min(k/Rate, Duration).
	Rate    float64  `json:"rate"`
	Frames  int      `json:"frames"`
	Paths   []string `json:"paths"`
	Parents []int    `json:"parents"`
	// Positions holds Frames x len(Paths) x 3 floats: each joint's
	// position in the Animator's space (Unity's left-handed frame; see
	// Origin).
	Positions []float32 `json:"positions"`
	// NonFinite counts values that were not finite and were sent as 0.
	NonFinite int `json:"nonfinite,omitempty"`

	// With meshes asked for: each joint's model-space rotation (x, y, z,
	// w) and scale per frame, parallel to Positions, and the meshes of
	// the rig with what kept others out.
	Rotations []float32 `json:"rotations,omitempty"`
	Scales    []float32 `json:"scales,omitempty"`
	Meshes    []Mesh    `json:"meshes,omitempty"`
	MeshNotes []string  `json:"mesh_notes,omitempty"`
}

// errNotPlayable marks a clip that loaded but has nothing to play on.
var errNotPlayable = errors.New("not playable")

// Playable returns clip id played on rig id (-1: the rig the clip suits
// best, else the first rig it plays on). Results are cached.
func (s *Server) Playable(clip, rig int) (*playable.Playable, error) {
	if clip < 0 || clip >= len(s.clips) || rig < -1 || rig >= len(s.rigs) {
		return nil, fmt.Errorf("view: no clip %d on rig %d", clip, rig)
	}
	k := playKey{clip, rig}
	s.mu.Lock()
	res, ok := s.playables[k]
	s.mu.Unlock()
	if ok {
		return res.p, res.err
	}
	p, err := s.load(clip, rig)
	s.mu.Lock()
	s.playables[k] = &playResult{p, err}
	s.mu.Unlock()
	return p, err
}

func (s *Server) load(clip, rig int) (*playable.Playable, error) {
	o := s.clips[clip]
	c, err := s.cat.Clip(o)
	if err != nil {
		return nil, err
	}
	if rig >= 0 {
		p, err := s.loader.LoadClip(c, playable.Options{Animator: s.rigs[rig].Name})
		if err != nil {
			return nil, fmt.Errorf("%w: %w", errNotPlayable, err)
		}
		return p, nil
	}
	p, first := s.loader.LoadClip(c, playable.Options{})
	if first == nil {
		return p, nil
	}
	// The default choice failed (several humanoid avatars, say): the first
	// rig the clip plays on will do.
	for _, r := range s.rigs {
		if p, err := s.loader.LoadClip(c, playable.Options{Animator: r.Name}); err == nil {
			return p, nil
		}
	}
	return nil, fmt.Errorf("%w: %w", errNotPlayable, first)
}

// ClipFrames poses clip id on rig id (-1: chosen as Playable does) at rate
// frames per second; the rate is lowered when the clip is too long for
// MaxFrameValues. With meshes, the answer also carries the joints'
// rotations and scales and the rig's meshes.
func (s *Server) ClipFrames(clip, rig int, rate float64, meshes bool) (*Frames, error) {
	p, err := s.Playable(clip, rig)
	if err != nil {
		return nil, err
	}
	n := p.Skeleton.Len()
	dur := p.Sampler.Duration()
	if !(dur > 0) || math.IsInf(float64(dur), 0) {
		dur = 0
	}
	if !(rate > 0) {
		rate = 30
	}
	rate = min(rate, MaxRate)
	per := 3
	if meshes {
		per = 10
	}
	maxFrames := MaxFrameValues / max(per*n, 1)
	if maxFrames < 2 {
		return nil, fmt.Errorf("%w: skeleton of %d joints is too large", errNotPlayable, n)
	}
	frames := int(math.Ceil(float64(dur)*rate-1e-6)) + 1
	if frames > maxFrames {
		rate = float64(maxFrames-1) / float64(dur)
		frames = int(math.Ceil(float64(dur)*rate-1e-6)) + 1
		if frames > maxFrames {
			frames = maxFrames
		}
	}
	f := &Frames{
		Name: p.Clip.Name, On: p.On, Humanoid: p.Humanoid, Loop: p.Clip.Loops(), Duration: dur,
		Rate: rate, Frames: frames, Paths: p.Skeleton.Paths, Parents: p.Skeleton.Parents,
		Positions: make([]float32, 0, frames*n*3),
	}
	local := make([]geom.Transform, n)
	world := make([]geom.Transform, n)
	origin := Origin(p.Skeleton)
	for k := 0; k < frames; k++ {
		t := float32(float64(k) / rate)
		if t > dur {
			t = dur
		}
		p.Pose(t, local, world)
		rebase(world, origin)
		f.Positions, f.NonFinite = appendPositions(f.Positions, world, f.NonFinite)
		if meshes {
			f.Rotations, f.Scales, f.NonFinite = appendRotScale(f.Rotations, f.Scales, world, f.NonFinite)
		}
	}
	if meshes {
		f.Meshes, f.MeshNotes = s.meshesFor(p)
	}
	return f, nil
}

// Origin returns the transform that takes a skeleton's model space to the
// space the viewer shows: the inverse of the root joint's rest transform.
// The root is the Animator's own GameObject, and its rest transform is
// where the prefab placed it (a model imported from Blender often carries
// a -90° turn about x there); taking it out shows the character as it
// stands with its Animator at the scene's origin, while whatever a clip
// does to the root still shows.
func Origin(s *anim.Skeleton) geom.Transform {
	if s == nil || s.Len() == 0 || s.Parents[0] != -1 {
		return geom.Identity
	}
	return s.Rest[0].Inverse()
}

// rebase puts model-space transforms in the space of origin.
func rebase(world []geom.Transform, origin geom.Transform) {
	if origin == geom.Identity {
		return
	}
	for i := range world {
		world[i] = origin.Mul(world[i])
	}
}

// appendPositions appends the translations of model-space transforms,
// zeroing (and counting) values that are not finite.
func appendPositions(dst []float32, world []geom.Transform, bad int) ([]float32, int) {
	for _, x := range world {
		for _, v := range [3]float32{x.T.X, x.T.Y, x.T.Z} {
			if !geom.Finite(v) {
				v = 0
				bad++
			}
			// A hundredth of a millimetre is finer than a screen shows
			// and keeps the JSON short.
			dst = append(dst, float32(math.Round(float64(v)*1e5)/1e5))
		}
	}
	return dst, bad
}

// appendRotScale appends the rotations and scales of model-space
// transforms, replacing values that are not finite (and counting them).
func appendRotScale(rots, scales []float32, world []geom.Transform, bad int) ([]float32, []float32, int) {
	fix := func(v float32) float32 {
		if !geom.Finite(v) {
			bad++
			return 0
		}
		return v
	}
	for _, x := range world {
		q := x.R
		if !(q.X == q.X && q.Y == q.Y && q.Z == q.Z && q.W == q.W) {
			q = geom.IdentityQuat
			bad++
		}
		rots = append(rots, fix(q.X), fix(q.Y), fix(q.Z), fix(q.W))
		scales = append(scales, fix(x.S.X), fix(x.S.Y), fix(x.S.Z))
	}
	return rots, scales, bad
}

func (s *Server) handleFrames(w http.ResponseWriter, r *http.Request) {
	id, ok := index(r, "id", len(s.clips))
	if !ok {
		writeError(w, http.StatusNotFound, "no such clip")
		return
	}
	q := r.URL.Query()
	rate := 30.0
	if v := q.Get("rate"); v != "" {
		x, err := strconv.ParseFloat(v, 64)
		if err != nil || !(x > 0) || x > MaxRate {
			writeError(w, http.StatusBadRequest, fmt.Sprintf("rate must be in (0, %d]", MaxRate))
			return
		}
		rate = x
	}
	rig := -1
	if v := q.Get("rig"); v != "" && v != "-1" {
		i, err := strconv.Atoi(v)
		if err != nil || i < 0 || i >= len(s.rigs) {
			writeError(w, http.StatusNotFound, "no such rig")
			return
		}
		rig = i
	}
	meshes, ok := meshParam(w, r)
	if !ok {
		return
	}
	f, err := s.ClipFrames(id, rig, rate, meshes)
	if err != nil {
		code := http.StatusInternalServerError
		if errors.Is(err, errNotPlayable) {
			code = http.StatusUnprocessableEntity
		}
		writeError(w, code, err.Error())
		return
	}
	f.ID = id
	writeJSON(w, r, f)
}
