package view

import (
	"errors"
	"fmt"
	"math"
	"net/http"
	"path/filepath"
	"strconv"

	"github.com/mecanim/mecanim/bound"
	"github.com/mecanim/mecanim/geom"
	"github.com/mecanim/mecanim/model"
)

// Scene is what GET /api/scene answers: the inputs' characters, clips and
// controllers, each with the id the other requests take.
type Scene struct {
	Files       []string          `json:"files"`
	Rigs        []SceneRig        `json:"rigs"`
	Clips       []SceneClip       `json:"clips"`
	Controllers []SceneController `json:"controllers"`
}

// SceneItem is what every listed object has: its id, name, a label that
// tells it apart from others of its name, and where it was read.
type SceneItem struct {
	ID    int    `json:"id"`
	Name  string `json:"name"`
	Label string `json:"label"`
	File  string `json:"file"`
	// Ref chooses the object on a command line ("FILE#PATHID").
	Ref string `json:"ref"`
}

// SceneRig is a character.
type SceneRig struct {
	SceneItem
	Joints int `json:"joints"`
	// Controller is the id of the character's controller (-1 for none or
	// one not in the inputs).
	Controller int `json:"controller"`
	// Error says why the character cannot be shown.
	Error string `json:"error,omitempty"`
}

// SceneClip is an AnimationClip.
type SceneClip struct {
	SceneItem
}

// SceneController is an AnimatorController (or an override controller)
// with its parameters.
type SceneController struct {
	SceneItem
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

func sceneItem(id int, it bound.Item) SceneItem {
	f := it.Source.File
	if f == "" {
		f = filepath.Base(it.Source.Container)
	}
	return SceneItem{ID: id, Name: it.Name, Label: it.Label, File: f, Ref: it.Ref}
}

// Scene lists the inputs' characters, clips and controllers.
func (s *Server) Scene() *Scene {
	sc := &Scene{Files: []string{}, Rigs: []SceneRig{}, Clips: []SceneClip{}, Controllers: []SceneController{}}
	files := map[string]bool{}
	for _, group := range [][]bound.Item{s.rigs, s.clips, s.ctls} {
		for _, it := range group {
			if f := filepath.Base(it.Source.Container); !files[f] {
				files[f] = true
				sc.Files = append(sc.Files, f)
			}
		}
	}
	for i, it := range s.rigs {
		sr := SceneRig{SceneItem: sceneItem(i, it), Controller: s.lib.CharacterController(i)}
		if ch, err := s.lib.Character(i); err != nil {
			sr.Error = err.Error()
			s.logf("%v", err)
		} else {
			sr.Joints = ch.Skeleton().Len()
		}
		sc.Rigs = append(sc.Rigs, sr)
	}
	for i, it := range s.clips {
		sc.Clips = append(sc.Clips, SceneClip{SceneItem: sceneItem(i, it)})
	}
	for i, it := range s.ctls {
		c := SceneController{SceneItem: sceneItem(i, it), Parameters: []SceneParam{}, Layers: []string{}}
		ctl, err := s.lib.ControllerModel(i)
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
	// Helpers marks the joints that are not part of a humanoid body (drawn
	// faintly, as render draws them).
	Helpers []bool `json:"helpers"`
	// Positions holds Frames x len(Paths) x 3 floats: each joint's
	// position in model space (Unity's left-handed frame; see package
	// bound).
	Positions []float32 `json:"positions"`
	// NonFinite counts values that were not finite and were sent as 0.
	NonFinite int `json:"nonfinite,omitempty"`

	// With meshes asked for: each joint's model-space rotation (x, y, z,
	// w) and scale per frame, parallel to Positions, and the character's
	// meshes with what kept others out.
	Rotations []float32 `json:"rotations,omitempty"`
	Scales    []float32 `json:"scales,omitempty"`
	Meshes    []Mesh    `json:"meshes,omitempty"`
	MeshNotes []string  `json:"mesh_notes,omitempty"`
}

// errNotPlayable marks a clip that loaded but has nothing to play on.
var errNotPlayable = errors.New("not playable")

// Motion returns clip id bound to character rig (-1: the character the
// binding chooses, the first of several). Results are cached.
func (s *Server) Motion(clip, rig int) (*bound.Motion, error) {
	if clip < 0 || clip >= len(s.clips) || rig < -1 || rig >= len(s.rigs) {
		return nil, fmt.Errorf("view: no clip %d on rig %d", clip, rig)
	}
	k := playKey{clip, rig}
	s.mu.Lock()
	res, ok := s.playables[k]
	s.mu.Unlock()
	if ok {
		return res.m, res.err
	}
	m, err := s.lib.Motion(clip, rig)
	if err != nil {
		err = fmt.Errorf("%w: %w", errNotPlayable, err)
	}
	s.mu.Lock()
	s.playables[k] = &playResult{m, err}
	s.mu.Unlock()
	return m, err
}

// ClipFrames poses clip id on rig id (-1: chosen as Motion does) at rate
// frames per second; the rate is lowered when the clip is too long for
// MaxFrameValues. With meshes, the answer also carries the joints'
// rotations and scales and the character's meshes.
func (s *Server) ClipFrames(clip, rig int, rate float64, meshes bool) (*Frames, error) {
	m, err := s.Motion(clip, rig)
	if err != nil {
		return nil, err
	}
	ch := m.On()
	sk := ch.Skeleton()
	n := sk.Len()
	dur := m.Duration()
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
		Name: m.Clip().Name, On: ch.Describe(), Humanoid: m.Humanoid(), Loop: m.Clip().Loops(), Duration: dur,
		Rate: rate, Frames: frames, Paths: sk.Paths, Parents: sk.Parents, Helpers: helpers(ch),
		Positions: make([]float32, 0, frames*n*3),
	}
	local := make([]geom.Transform, n)
	world := make([]geom.Transform, n)
	for k := 0; k < frames; k++ {
		t := float32(float64(k) / rate)
		if t > dur {
			t = dur
		}
		m.Pose(t, local, world)
		f.Positions, f.NonFinite = appendPositions(f.Positions, world, f.NonFinite)
		if meshes {
			f.Rotations, f.Scales, f.NonFinite = appendRotScale(f.Rotations, f.Scales, world, f.NonFinite)
		}
	}
	if meshes {
		f.Meshes, f.MeshNotes = s.meshesFor(ch)
	}
	return f, nil
}

// helpers lists the joints drawn faintly (bound.Character.Helpers), never
// nil.
func helpers(ch *bound.Character) []bool {
	if h := ch.Helpers(); h != nil {
		return h
	}
	return make([]bool, ch.Skeleton().Len())
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
			// Full float32 precision: the frames are the model-space
			// positions every command gives (a fixed rounding would be
			// coarse on a small character).
			dst = append(dst, v)
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
