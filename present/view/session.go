package view

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"net/http"
	"sort"
	"sync"

	"github.com/mecanim/mecanim/anim"
	"github.com/mecanim/mecanim/animator"
	"github.com/mecanim/mecanim/bound"
	"github.com/mecanim/mecanim/geom"
	"github.com/mecanim/mecanim/model"
)

// session is one running controller: its Animator on the server and, when
// it plays on a character of the inputs, the poser that turns its layers
// into the character's pose and the root motion accumulated since the
// start. One per controller: the viewer has one user.
type session struct {
	mu  sync.Mutex
	bc  *bound.Controller
	ctl *model.Controller
	a   *animator.Animator
	// poser poses the character (nil when the controller plays on none):
	// in muscle space for a humanoid one (bound.Controller.NewPoser).
	poser *bound.Poser
	ch    *bound.Character
	on    string
	local []geom.Transform
	world []geom.Transform
	// root is where the root motion has carried the character since the
	// start (or the last reset).
	root  anim.RootMotion
	notes []string
}

// ControllerInfo is what GET /api/controller/{id} answers.
type ControllerInfo struct {
	ID         int          `json:"id"`
	Name       string       `json:"name"`
	On         string       `json:"on"`
	Parameters []SceneParam `json:"parameters"`
	Layers     []string     `json:"layers"`
	Paths      []string     `json:"paths"`
	Parents    []int        `json:"parents"`
	// Helpers marks the joints drawn faintly (see Frames).
	Helpers []bool `json:"helpers"`
	// Notes lists clips that could not be loaded or baked.
	Notes []string `json:"notes"`
	// Meshes (with mesh=1) are the rig's meshes, as in Frames.
	Meshes    []Mesh   `json:"meshes,omitempty"`
	MeshNotes []string `json:"mesh_notes,omitempty"`
}

// Tick is the body of POST /api/controller/{id}/tick: parameter changes
// applied first (numbers for floats and ints, booleans for bools; true
// sets a trigger), then the controller advances by DT seconds (0 to 1).
// Reset restarts the controller from its defaults before anything else.
type Tick struct {
	Reset bool                       `json:"reset"`
	Set   map[string]json.RawMessage `json:"set"`
	DT    float64                    `json:"dt"`
	// Mesh asks for the joints' rotations and scales too.
	Mesh bool `json:"mesh"`
	// LayerWeights sets layers' weights (0 to 1) by layer index, before
	// the step (the base layer always plays at 1).
	LayerWeights map[int]float64 `json:"layer_weights"`
}

// TickResult is the controller's state after a tick.
type TickResult struct {
	Time   float64       `json:"time"`
	Params []float64     `json:"params"`
	Layers []LayerResult `json:"layers"`
	// Positions holds each joint's model-space position (empty without a
	// skeleton).
	Positions []float32 `json:"positions"`
	// Events are the animation events the step crossed.
	Events []EventResult `json:"events"`
	// RootMotion is how the root moved in this tick; Root where root
	// motion has carried the character since the start (or the last
	// reset): a game applying root motion moves the character's
	// GameObject by it. Positions are in model space, without it.
	RootMotion MotionResult `json:"root_motion"`
	Root       MotionResult `json:"root"`
	// Rotations (x, y, z, w) and Scales per joint, when asked for.
	Rotations []float32 `json:"rotations,omitempty"`
	Scales    []float32 `json:"scales,omitempty"`
	NonFinite int       `json:"nonfinite,omitempty"`
}

// MotionResult is a root motion: translation t and rotation r (x, y, z,
// w), in Unity's frame.
type MotionResult struct {
	T [3]float32 `json:"t"`
	R [4]float32 `json:"r"`
}

func motionResult(m anim.RootMotion) MotionResult {
	return MotionResult{T: [3]float32{finite32(m.T.X), finite32(m.T.Y), finite32(m.T.Z)},
		R: [4]float32{finite32(m.R.X), finite32(m.R.Y), finite32(m.R.Z), finite32(m.R.W)}}
}

// LayerResult is one layer's state: Next is "" outside a transition.
type LayerResult struct {
	Name           string  `json:"name"`
	State          string  `json:"state"`
	NormalizedTime float32 `json:"normalized_time"`
	Next           string  `json:"next"`
	Transition     float32 `json:"transition"`
	Weight         float32 `json:"weight"`
}

// EventResult is an animation event crossed during a tick.
type EventResult struct {
	Layer    int     `json:"layer"`
	State    string  `json:"state"`
	Clip     string  `json:"clip"`
	Function string  `json:"function"`
	Time     float32 `json:"time"`
	Weight   float32 `json:"weight"`
	String   string  `json:"string,omitempty"`
	Float    float32 `json:"float,omitempty"`
	Int      int32   `json:"int,omitempty"`
}

// errBadTick marks a tick request that cannot be applied.
var errBadTick = errors.New("bad tick")

// session returns the running controller id, starting it on first use.
func (s *Server) session(id int) (*session, error) {
	s.mu.Lock()
	se, ok := s.sessions[id]
	s.mu.Unlock()
	if ok {
		return se, nil
	}
	se, err := s.newSession(id)
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	if old, ok := s.sessions[id]; ok {
		se = old
	} else {
		s.sessions[id] = se
	}
	s.mu.Unlock()
	return se, nil
}

func (s *Server) newSession(id int) (*session, error) {
	bc, err := s.lib.BindController(id, -1)
	if err != nil {
		return nil, err
	}
	se := &session{bc: bc, ctl: bc.Model(), a: bc.NewAnimator(), notes: append([]string{}, bc.Notes()...),
		root: anim.RootMotion{R: geom.IdentityQuat}}
	ch := bc.On()
	if ch == nil {
		return se, nil
	}
	p, err := bc.NewPoser()
	if err != nil {
		return nil, err
	}
	n := ch.Skeleton().Len()
	se.poser, se.ch, se.on = p, ch, ch.Describe()
	se.local, se.world = make([]geom.Transform, n), make([]geom.Transform, n)
	return se, nil
}

func (s *Server) handleController(w http.ResponseWriter, r *http.Request) {
	id, ok := index(r, "id", len(s.ctls))
	if !ok {
		writeError(w, http.StatusNotFound, "no such controller")
		return
	}
	se, err := s.session(id)
	if err != nil {
		writeError(w, http.StatusUnprocessableEntity, err.Error())
		return
	}
	info := ControllerInfo{ID: id, Name: se.ctl.Name, On: se.on, Paths: []string{}, Parents: []int{}, Notes: se.notes}
	if info.Notes == nil {
		info.Notes = []string{}
	}
	info.Parameters, info.Layers = controllerLists(se.ctl)
	if se.ch != nil {
		sk := se.ch.Skeleton()
		info.Paths, info.Parents, info.Helpers = sk.Paths, sk.Parents, helpers(se.ch)
	}
	meshes, ok := meshParam(w, r)
	if !ok {
		return
	}
	if meshes && se.ch != nil {
		info.Meshes, info.MeshNotes = s.meshesFor(se.ch)
	}
	writeJSON(w, r, info)
}

func (s *Server) handleTick(w http.ResponseWriter, r *http.Request) {
	id, ok := index(r, "id", len(s.ctls))
	if !ok {
		writeError(w, http.StatusNotFound, "no such controller")
		return
	}
	var t Tick
	if !readJSON(w, r, &t) {
		return
	}
	se, err := s.session(id)
	if err != nil {
		writeError(w, http.StatusUnprocessableEntity, err.Error())
		return
	}
	res, err := se.tick(&t)
	if err != nil {
		writeError(w, http.StatusBadRequest, err.Error())
		return
	}
	writeJSON(w, r, res)
}

// tick applies t and returns the state after it.
func (se *session) tick(t *Tick) (*TickResult, error) {
	if math.IsNaN(t.DT) || t.DT < 0 || t.DT > maxTick {
		return nil, fmt.Errorf("%w: dt must be in [0, %g]", errBadTick, maxTick)
	}
	// Decode every value before changing anything, so a bad request
	// changes nothing.
	names := make([]string, 0, len(t.Set))
	vals := map[string]any{}
	for name, raw := range t.Set {
		var v any
		if err := json.Unmarshal(raw, &v); err != nil {
			return nil, fmt.Errorf("%w: parameter %q: %v", errBadTick, name, err)
		}
		switch x := v.(type) {
		case bool:
		case float64:
			if !geom.Finite64(x) {
				return nil, fmt.Errorf("%w: parameter %q is not finite", errBadTick, name)
			}
		default:
			return nil, fmt.Errorf("%w: parameter %q must be a number or a boolean", errBadTick, name)
		}
		names = append(names, name)
		vals[name] = v
	}
	sort.Strings(names)
	for l, w := range t.LayerWeights {
		if l < 0 || l >= len(se.ctl.Layers) || !(w >= 0 && w <= 1) {
			return nil, fmt.Errorf("%w: layer weight %d=%v: want a layer index and a weight in [0, 1]", errBadTick, l, w)
		}
	}
	se.mu.Lock()
	defer se.mu.Unlock()
	for _, name := range names {
		if se.a.Param(name) < 0 {
			return nil, fmt.Errorf("%w: no parameter %q", errBadTick, name)
		}
	}
	if t.Reset {
		se.a.Reset()
		se.root = anim.RootMotion{R: geom.IdentityQuat}
	}
	for _, name := range names {
		if err := se.a.Set(name, vals[name]); err != nil {
			return nil, fmt.Errorf("%w: %v", errBadTick, err)
		}
	}
	for l, w := range t.LayerWeights {
		se.a.SetLayerWeight(l, float32(w))
	}
	events := []EventResult{}
	if t.DT > 0 {
		se.a.Tick(float32(t.DT))
		se.root = se.root.Then(se.a.RootMotion())
		for _, e := range se.a.Events() {
			er := EventResult{Layer: e.Layer, State: se.a.StateName(e.Layer, e.State), Weight: finite32(e.Weight)}
			if e.Clip >= 0 && e.Clip < len(se.ctl.ClipNames) {
				er.Clip = se.ctl.ClipNames[e.Clip]
			}
			if e.Event != nil {
				er.Function, er.Time, er.String = e.Event.Function, finite32(e.Event.Time), e.Event.Data
				er.Float, er.Int = finite32(e.Event.Float), e.Event.Int
			}
			events = append(events, er)
		}
	}
	res := &TickResult{Time: se.a.Time(), Params: make([]float64, len(se.ctl.Parameters)), Layers: []LayerResult{},
		Events: events, Positions: []float32{}}
	for i := range res.Params {
		res.Params[i] = finite(se.a.Value(i))
	}
	for i := 0; i < se.a.Layers(); i++ {
		li := se.a.Layer(i)
		lr := LayerResult{State: se.a.StateName(i, li.State), NormalizedTime: finite32(li.NormalizedTime),
			Transition: finite32(li.Transition), Weight: finite32(li.Weight)}
		if i < len(se.ctl.Layers) {
			lr.Name = se.ctl.Layers[i].Name
		}
		if li.InTransition {
			lr.Next = se.a.StateName(i, li.Next)
		}
		res.Layers = append(res.Layers, lr)
	}
	res.RootMotion = motionResult(se.a.RootMotion())
	res.Root = motionResult(se.root)
	if se.poser != nil {
		se.poser.Pose(se.a, se.local)
		anim.LocalToModel(se.ch.Skeleton(), se.local, se.world)
		res.Positions, res.NonFinite = appendPositions(make([]float32, 0, 3*len(se.world)), se.world, 0)
		if t.Mesh {
			res.Rotations, res.Scales, res.NonFinite = appendRotScale(nil, nil, se.world, res.NonFinite)
		}
	}
	return res, nil
}

func finite32(x float32) float32 { return float32(finite(float64(x))) }
