package view

import (
	"context"
	"errors"
	"fmt"
	"math"
	"net/http"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/mecanim/mecanim/anim"
	"github.com/mecanim/mecanim/bound"
	"github.com/mecanim/mecanim/geom"
	"github.com/mecanim/mecanim/model"
	"github.com/mecanim/mecanim/present/render"
)

// Scene is what GET /api/scene answers: the inputs' characters, clips and
// controllers, each with the id the other requests take.
type Scene struct {
	// Files names the inputs (see SceneItem.Input).
	Files       []string          `json:"files"`
	Rigs        []SceneRig        `json:"rigs"`
	Clips       []SceneClip       `json:"clips"`
	Controllers []SceneController `json:"controllers"`
	// Start is what the page opens playing.
	Start Start `json:"start"`
}

// Start is what the page opens playing: clip Clip on character Rig, or
// controller Controller (on the character whose Animator plays it); -1
// for none. The rule: the first character that loads, with the first clip
// (in input order) that plays on it, else its controller; else the first
// clip that plays on any character; else the first controller.
type Start struct {
	Rig        int `json:"rig"`
	Clip       int `json:"clip"`
	Controller int `json:"controller"`
}

// maxStartScan is how many clips Start binds at most, looking for one of
// the first character's (each is baked, once, as a click would).
const maxStartScan = 64

// SceneItem is what every listed object has: its id, name, a label that
// tells it apart from others of its name, and where it was read.
type SceneItem struct {
	ID    int    `json:"id"`
	Name  string `json:"name"`
	Label string `json:"label"`
	File  string `json:"file"`
	// Input names the input it was read from: the shortest end of its
	// path that tells the inputs apart (never a whole absolute path).
	Input string `json:"input"`
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

func (s *Server) sceneItem(id int, it bound.Item) SceneItem {
	f := it.Source.File
	if f == "" {
		f = filepath.Base(it.Source.Container)
	}
	return SceneItem{ID: id, Name: it.Name, Label: it.Label, File: f, Input: s.inputs[it.Source.Container], Ref: it.Ref}
}

// inputNames names each container by the shortest end of its path (whole
// components) that no other container's path ends with. An absolute path
// never shows whole: where only the whole path would tell two apart (or
// the same input is given twice), the base name gets a number, in input
// order.
func inputNames(containers []string) map[string]string {
	var order []string
	parts := map[string][]string{}
	for _, c := range containers {
		if _, ok := parts[c]; !ok {
			order = append(order, c)
			parts[c] = strings.FieldsFunc(filepath.ToSlash(c), func(r rune) bool { return r == '/' })
		}
	}
	end := func(p []string, k int) string { return strings.Join(p[max(len(p)-k, 0):], "/") }
	names := map[string]string{}
	for _, c := range order {
		p := parts[c]
		names[c] = filepath.Base(c)
		for k := 1; k <= len(p); k++ {
			unique := true
			for o, q := range parts {
				if o != c && len(q) >= k && end(q, k) == end(p, k) {
					unique = false
					break
				}
			}
			if unique {
				if k < len(p) || !filepath.IsAbs(c) {
					names[c] = end(p, k)
				}
				break
			}
		}
	}
	count, seen := map[string]int{}, map[string]int{}
	for _, c := range order {
		count[names[c]]++
	}
	for _, c := range order {
		if n := names[c]; count[n] > 1 {
			seen[n]++
			names[c] = fmt.Sprintf("%s (%d)", n, seen[n])
		}
	}
	return names
}

// Scene lists the inputs' characters, clips and controllers, and what the
// page opens playing. It is made once.
func (s *Server) Scene() *Scene {
	s.sceneOnce.Do(func() {
		s.sceneVal = s.makeScene()
		b, err := jsonBytes(s.sceneVal)
		if err != nil {
			b, _ = jsonBytes(map[string]string{"error": "encoding the scene failed"})
		}
		s.scene = b
	})
	return s.sceneVal
}

func (s *Server) makeScene() *Scene {
	sc := &Scene{Files: []string{}, Rigs: []SceneRig{}, Clips: []SceneClip{}, Controllers: []SceneController{}}
	files := map[string]bool{}
	for _, group := range [][]bound.Item{s.rigs, s.clips, s.ctls} {
		for _, it := range group {
			if f := s.inputs[it.Source.Container]; !files[f] {
				files[f] = true
				sc.Files = append(sc.Files, f)
			}
		}
	}
	loads := make([]bool, len(s.rigs))
	for i, it := range s.rigs {
		sr := SceneRig{SceneItem: s.sceneItem(i, it), Controller: s.characterController(i)}
		if ch, err := s.lib.Character(context.Background(), bound.CharacterID(i)); err != nil {
			sr.Error = s.public(err.Error())
			s.logf("%v", err)
		} else {
			sr.Joints = ch.Skeleton().Len()
			loads[i] = true
		}
		sc.Rigs = append(sc.Rigs, sr)
	}
	for i, it := range s.clips {
		sc.Clips = append(sc.Clips, SceneClip{SceneItem: s.sceneItem(i, it)})
	}
	for i, it := range s.ctls {
		c := SceneController{SceneItem: s.sceneItem(i, it), Parameters: []SceneParam{}, Layers: []string{}}
		cc, err := s.lib.Controller(context.Background(), bound.ControllerID(i))
		if err != nil {
			c.Error = s.public(err.Error())
			s.logf("%v", err)
		} else {
			c.Parameters, c.Layers = controllerLists(cc.Controller)
		}
		sc.Controllers = append(sc.Controllers, c)
	}
	sc.Start = s.start(loads)
	return sc
}

// start chooses what the page opens playing (see Start).
func (s *Server) start(loads []bool) Start {
	first := -1
	for i, ok := range loads {
		if ok {
			first = i
			break
		}
	}
	var ch0 *bound.Character
	if first >= 0 {
		ch0, _ = s.lib.Character(context.Background(), bound.CharacterID(first))
	}
	anyClip, anyRig := -1, -1
	for j := range s.clips {
		if j == maxStartScan {
			break
		}
		m, err := s.Motion(j, -1)
		if ch0 != nil && ch0.Human() != nil && (err != nil || m.On() != ch0) {
			// A humanoid clip plays on every humanoid character; the
			// binding chose another for it, or refused to choose.
			if h, err := s.Motion(j, first); err == nil && h.Humanoid() {
				return Start{Rig: first, Clip: j, Controller: -1}
			}
		}
		if err != nil {
			continue
		}
		if ch0 != nil && m.On() == ch0 {
			return Start{Rig: first, Clip: j, Controller: -1}
		}
		if anyClip < 0 {
			anyClip = j
			for i := range s.rigs {
				if ch, err := s.lib.Character(context.Background(), bound.CharacterID(i)); err == nil && ch == m.On() {
					anyRig = i
					break
				}
			}
		}
	}
	if first >= 0 {
		if c := s.characterController(first); c >= 0 && c < len(s.ctls) {
			return Start{Rig: first, Clip: -1, Controller: c}
		}
	}
	if anyClip >= 0 {
		return Start{Rig: anyRig, Clip: anyClip, Controller: -1}
	}
	if len(s.ctls) > 0 {
		return Start{Rig: -1, Clip: -1, Controller: 0}
	}
	return Start{Rig: -1, Clip: -1, Controller: -1}
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
	s.Scene()
	w.Header().Set("Content-Type", "application/json")
	w.Write(s.scene)
}

// Frames is what GET /api/clip/{id}/frames answers: the skeleton the clip
// plays on, how to draw it, and its joints' model-space positions at a
// fixed rate.
type Frames struct {
	ID   int    `json:"id"`
	Name string `json:"name"`
	On   string `json:"on"`
	// From names the character the clip is made for when it plays on On
	// through muscles (bound.Motion.RetargetedFrom); "" when it plays as
	// it is.
	From     string  `json:"from,omitempty"`
	Humanoid bool    `json:"humanoid"`
	Loop     bool    `json:"loop"`
	Duration float32 `json:"duration"`
	// Rate is the frame rate; frame k is the pose at min(k/Rate, Duration).
	Rate    float64  `json:"rate"`
	Frames  int      `json:"frames"`
	Paths   []string `json:"paths"`
	Parents []int    `json:"parents"`
	Look
	// Box is the body's bounds over the clip (see Look.Body): what the
	// page frames (nil when no body joint is finite).
	Box *Box `json:"box,omitempty"`
	// Positions holds Frames x len(Paths) x 3 floats: each joint's
	// position in model space (Unity's left-handed frame; see package
	// bound).
	Positions []float32 `json:"positions,omitempty"`
	// NonFinite counts values that were not finite and were sent as 0.
	NonFinite int `json:"nonfinite,omitempty"`

	// With meshes asked for: each joint's model-space rotation (x, y, z,
	// w) and scale per frame, parallel to Positions, and the character's
	// meshes with what kept others out.
	Rotations []float32 `json:"rotations,omitempty"`
	Scales    []float32 `json:"scales,omitempty"`
	Meshes    []Mesh    `json:"meshes,omitempty"`
	MeshNotes []string  `json:"mesh_notes,omitempty"`
	// MorphWeights holds, per frame, the weight (0..100) of every morph
	// of Meshes, mesh by mesh in order: what the clip's blend-shape
	// channels set, the renderer's weight elsewhere.
	MorphWeights []float32 `json:"morph_weights,omitempty"`
}

// Look is how the page draws a character's joints, as present/render
// draws them: bones coloured by side, helpers faint, no bone along the
// chain from joint 0 to Root.
type Look struct {
	// Helpers marks the joints that are not part of a humanoid body (IK
	// targets, props, jiggle chains: bound.Character.Helpers), drawn
	// faintly.
	Helpers []bool `json:"helpers"`
	// Sides is each joint's side by its name (render.JointSide): -1 left,
	// 1 right, 0 neither.
	Sides []int `json:"sides"`
	// Root is the joint that carries the character through the world (a
	// humanoid's hips; bound.Motion.TraceJoint), -1 for none: no bone is
	// drawn from joint 0 down to it (armature objects, not bones).
	Root int `json:"root"`
	// Body marks the joints the camera frames: those that are not
	// helpers, less any far from the others (a prop parked kilometres
	// away).
	Body []bool `json:"body"`
}

// Box is an axis-aligned box in model space (Unity's frame).
type Box struct {
	Min [3]float32 `json:"min"`
	Max [3]float32 `json:"max"`
}

// lookOf says how to draw character ch with root joint root; rest is a
// pose of it (model space) that tells joints far from the body.
func lookOf(ch *bound.Character, root int, rest []geom.Transform) Look {
	sk := ch.Skeleton()
	n := sk.Len()
	l := Look{Helpers: ch.Helpers(), Sides: make([]int, n), Root: root, Body: make([]bool, n)}
	if l.Helpers == nil {
		l.Helpers = make([]bool, n)
	}
	if root < -1 || root >= n {
		l.Root = -1
	}
	for j, p := range sk.Paths {
		l.Sides[j] = render.JointSide(p)
	}
	anyBody := false
	for j := range l.Body {
		l.Body[j] = !l.Helpers[j]
		anyBody = anyBody || l.Body[j]
	}
	if !anyBody {
		for j := range l.Body {
			l.Body[j] = true
		}
	}
	dropFar(l.Body, rest)
	return l
}

// dropFar unmarks the body joints far from the others in pose: farther
// from the median joint than four times the distance three quarters of
// them are within (and than 10 cm).
func dropFar(body []bool, pose []geom.Transform) {
	var xs [3][]float64
	for j, b := range body {
		if b && j < len(pose) && finiteVec(pose[j].T) {
			xs[0] = append(xs[0], float64(pose[j].T.X))
			xs[1] = append(xs[1], float64(pose[j].T.Y))
			xs[2] = append(xs[2], float64(pose[j].T.Z))
		}
	}
	if len(xs[0]) < 4 {
		return
	}
	var mid [3]float64
	for k := range xs {
		sort.Float64s(xs[k])
		mid[k] = xs[k][len(xs[k])/2]
	}
	dist := func(v geom.Vec3) float64 {
		return math.Sqrt(sq(float64(v.X)-mid[0]) + sq(float64(v.Y)-mid[1]) + sq(float64(v.Z)-mid[2]))
	}
	var ds []float64
	for j, b := range body {
		if b && j < len(pose) && finiteVec(pose[j].T) {
			ds = append(ds, dist(pose[j].T))
		}
	}
	sort.Float64s(ds)
	limit := math.Max(4*ds[len(ds)*3/4], 0.1)
	for j, b := range body {
		if b && (j >= len(pose) || !finiteVec(pose[j].T) || dist(pose[j].T) > limit) {
			body[j] = false
		}
	}
}

func sq(x float64) float64 { return x * x }

func finiteVec(v geom.Vec3) bool { return geom.Finite(v.X) && geom.Finite(v.Y) && geom.Finite(v.Z) }

// boxer grows a box over the body joints of poses.
type boxer struct {
	body []bool
	box  Box
	any  bool
}

func (b *boxer) add(world []geom.Transform) {
	for j, x := range world {
		if !b.body[j] || !finiteVec(x.T) {
			continue
		}
		v := [3]float32{x.T.X, x.T.Y, x.T.Z}
		if !b.any {
			b.box = Box{v, v}
			b.any = true
			continue
		}
		for k := range v {
			b.box.Min[k] = min(b.box.Min[k], v[k])
			b.box.Max[k] = max(b.box.Max[k], v[k])
		}
	}
}

// result returns the box (nil when nothing was added).
func (b *boxer) result() *Box {
	if !b.any {
		return nil
	}
	box := b.box
	return &box
}

// errNotPlayable marks a clip that loaded but has nothing to play on.
var errNotPlayable = errors.New("not playable")

// Motion returns clip id bound to character rig (-1: the character the
// binding chooses; a refusal when several fit). Results are cached; concurrent
// callers for one pair bind it once.
func (s *Server) Motion(clip, rig int) (*bound.Motion, error) {
	if clip < 0 || clip >= len(s.clips) || rig < -1 || rig >= len(s.rigs) {
		return nil, fmt.Errorf("view: no clip %d on rig %d", clip, rig)
	}
	k := playKey{clip, rig}
	s.mu.Lock()
	res, ok := s.playables[k]
	if !ok {
		res = &playResult{}
		s.playables[k] = res
	}
	s.mu.Unlock()
	res.once.Do(func() {
		// Shared by every request that asks for it (and kept): bound
		// under no one request's context.
		var on *bound.Character
		if rig >= 0 {
			on, res.err = s.lib.Character(context.Background(), bound.CharacterID(rig))
		}
		if res.err == nil {
			res.m, res.err = s.lib.Motion(context.Background(), bound.ClipID(clip), on)
		}
		if res.err != nil {
			res.err = fmt.Errorf("%w: %w", errNotPlayable, res.err)
		}
	})
	return res.m, res.err
}

// framesPlan is a frames answer before its per-frame arrays: the header
// and how to pose each frame.
type framesPlan struct {
	f      *Frames
	m      *bound.Motion
	meshes bool
	local  []geom.Transform
	world  []geom.Transform
	box    boxer
}

// planFrames binds clip on rig and fixes the rate and frame count: rate
// frames per second, lowered when the clip is too long for
// MaxFrameValues.
func (s *Server) planFrames(clip, rig int, rate float64, meshes bool) (*framesPlan, error) {
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
	p := &framesPlan{m: m, meshes: meshes, local: make([]geom.Transform, n), world: make([]geom.Transform, n)}
	m.Pose(0, p.local, p.world)
	p.f = &Frames{
		ID: clip, Name: m.Clip().Name, On: ch.Describe(), Humanoid: m.Humanoid(), Loop: m.Clip().Loops(), Duration: dur,
		Rate: rate, Frames: frames, Paths: sk.Paths, Parents: sk.Parents, Look: lookOf(ch, m.TraceJoint(), p.world),
	}
	if from := m.RetargetedFrom(); from != nil {
		p.f.From = from.Describe()
	}
	p.box.body = p.f.Body
	return p, nil
}

// pose poses frame k into p.world.
func (p *framesPlan) pose(k int) []geom.Transform {
	p.m.Pose(p.time(k), p.local, p.world)
	return p.world
}

// time is frame k's clip time.
func (p *framesPlan) time(k int) float32 {
	t := float32(float64(k) / p.f.Rate)
	if t > p.f.Duration {
		t = p.f.Duration
	}
	return t
}

// ClipFrames poses clip id on rig id (-1: chosen as Motion does) at rate
// frames per second, in memory; the rate is lowered when the clip is too
// long for MaxFrameValues. With meshes, the answer also carries the
// joints' rotations and scales and the character's meshes. (The server
// streams the same answer rather than building it.)
func (s *Server) ClipFrames(clip, rig int, rate float64, meshes bool) (*Frames, error) {
	p, err := s.planFrames(clip, rig, rate, meshes)
	if err != nil {
		return nil, err
	}
	f := p.f
	n := len(f.Paths)
	f.Positions = make([]float32, 0, f.Frames*n*3)
	for k := 0; k < f.Frames; k++ {
		world := p.pose(k)
		p.box.add(world)
		f.Positions, f.NonFinite = appendPositions(f.Positions, world, f.NonFinite)
		if meshes {
			f.Rotations, f.NonFinite = appendRotations(f.Rotations, world, f.NonFinite)
			f.Scales, f.NonFinite = appendScales(f.Scales, world, f.NonFinite)
		}
	}
	f.Box = p.box.result()
	if meshes {
		mr := s.meshesFor(p.m.On())
		f.Meshes, f.MeshNotes = mr.meshes, s.publicAll(mr.notes)
		if ms := newMorphSampler(p, mr); ms != nil {
			for k := 0; k < f.Frames; k++ {
				f.MorphWeights = ms.frame(f.MorphWeights, k)
			}
		}
	}
	return f, nil
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

// appendRotations appends the rotations of model-space transforms (x, y,
// z, w), replacing values that are not finite (and counting them).
func appendRotations(dst []float32, world []geom.Transform, bad int) ([]float32, int) {
	for _, x := range world {
		q := x.R
		if !(q.X == q.X && q.Y == q.Y && q.Z == q.Z && q.W == q.W) {
			q = geom.IdentityQuat
			bad++
		}
		for _, v := range [4]float32{q.X, q.Y, q.Z, q.W} {
			if !geom.Finite(v) {
				v = 0
				bad++
			}
			dst = append(dst, v)
		}
	}
	return dst, bad
}

// appendScales appends the scales of model-space transforms, zeroing (and
// counting) values that are not finite.
func appendScales(dst []float32, world []geom.Transform, bad int) ([]float32, int) {
	for _, x := range world {
		for _, v := range [3]float32{x.S.X, x.S.Y, x.S.Z} {
			if !geom.Finite(v) {
				v = 0
				bad++
			}
			dst = append(dst, v)
		}
	}
	return dst, bad
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
	rig, ok := s.rigParam(w, r)
	if !ok {
		return
	}
	meshes, ok := meshParam(w, r)
	if !ok {
		return
	}
	release, ok := s.admit(w, r)
	if !ok {
		return
	}
	defer release()
	p, err := s.planFrames(id, rig, rate, meshes)
	if err != nil {
		code := http.StatusInternalServerError
		if errors.Is(err, errNotPlayable) {
			code = http.StatusUnprocessableEntity
		}
		s.logf("%v", err)
		writeError(w, code, s.public(err.Error()))
		return
	}
	var mr *meshResult
	if meshes {
		mr = s.meshesFor(p.m.On())
	}
	s.streamFrames(s.newAnswer(w, r), p, mr)
}

// streamFrames sends a frames answer as it is formatted: the header, then
// the positions frame by frame (and with meshes the rotations and the
// scales, each a pass over the frames), the meshes, and what is known
// only at the end.
func (s *Server) streamFrames(a *answer, p *framesPlan, mr *meshResult) {
	f := p.f
	a.object(f)
	bad := 0
	pass := func(key string, each func([]float32, []geom.Transform, int) ([]float32, int)) bool {
		a.field(key)
		a.raw("[")
		var vals []float32
		for k := 0; k < f.Frames; k++ {
			world := p.pose(k)
			if key == "positions" {
				p.box.add(world)
			}
			vals, bad = each(vals[:0], world, bad)
			for i, v := range vals {
				if k > 0 || i > 0 {
					a.raw(",")
				}
				a.buf = appendFloat32(a.buf, v)
			}
			if !a.ok() {
				return false
			}
		}
		a.raw("]")
		return true
	}
	if !pass("positions", appendPositions) {
		return
	}
	if mr != nil {
		if !pass("rotations", appendRotations) || !pass("scales", appendScales) {
			return
		}
		if !s.streamMeshes(a, mr) {
			return
		}
		if !streamMorphWeights(a, p, mr) {
			return
		}
	}
	if b := p.box.result(); b != nil {
		a.field("box")
		a.value(b)
	}
	if bad > 0 {
		a.field("nonfinite")
		a.value(bad)
	}
	a.raw("}\n")
	a.finish()
}

// streamMorphWeights appends `,"morph_weights":[...]` when the meshes
// have blend shapes (see Frames.MorphWeights).
func streamMorphWeights(a *answer, p *framesPlan, mr *meshResult) bool {
	ms := newMorphSampler(p, mr)
	if ms == nil {
		return true
	}
	var w []float32
	a.field("morph_weights")
	a.raw("[")
	for k := 0; k < p.f.Frames; k++ {
		w = ms.frame(w[:0], k)
		for i, v := range w {
			if k > 0 || i > 0 {
				a.raw(",")
			}
			a.buf = appendFloat32(a.buf, v)
		}
		if !a.ok() {
			return false
		}
	}
	a.raw("]")
	return true
}

// morphSampler gives a clip's morph weights frame by frame.
type morphSampler struct {
	p     *framesPlan
	mr    *meshResult
	fl    *anim.Clip
	binds []morphBind
	vals  []float32
}

// newMorphSampler binds the clip of p to the morphs of mr; nil when the
// meshes have none.
func newMorphSampler(p *framesPlan, mr *meshResult) *morphSampler {
	fl := p.m.Floats()
	var targets []model.Target
	if fl != nil {
		targets = fl.FloatTargets()
	}
	binds, slots := bindMorphs(targets, mr)
	if slots == 0 {
		return nil
	}
	return &morphSampler{p: p, mr: mr, fl: fl, binds: binds, vals: make([]float32, len(targets))}
}

// frame appends frame k's morph weights to dst.
func (ms *morphSampler) frame(dst []float32, k int) []float32 {
	if len(ms.binds) > 0 {
		ms.fl.SampleFloats(ms.p.time(k), ms.vals)
	}
	return morphWeights(dst, ms.mr, ms.binds, ms.vals)
}

// rigParam reads the rig a request asks to play on (?rig=R): -1 when it
// names none (the binding chooses, or refuses listing the candidates).
func (s *Server) rigParam(w http.ResponseWriter, r *http.Request) (int, bool) {
	v := r.URL.Query().Get("rig")
	if v == "" || v == "-1" {
		return -1, true
	}
	i, err := strconv.Atoi(v)
	if err != nil || i < 0 || i >= len(s.rigs) {
		writeError(w, http.StatusNotFound, "no such rig")
		return 0, false
	}
	return i, true
}

// characterController is the id of the controller rig i's Animator plays
// (-1 for none, or one not in the inputs).
func (s *Server) characterController(i int) int {
	if c, ok := s.lib.CharacterController(bound.CharacterID(i)); ok {
		return int(c)
	}
	return -1
}
