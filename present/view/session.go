package view

import (
	"context"
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
	"github.com/mecanim/mecanim/humanoid"
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
	poser *bound.PoseWorker
	ch    *bound.Character
	on    string
	local []geom.Transform
	world []geom.Transform
	// root is where the root motion has carried the character since the
	// start (or the last reset).
	root  anim.RootMotion
	notes []string

	// How the pose is held in place while root motion carries it (see
	// TickResult.Carried): the joint at the top of what moves (the root
	// motion joint; a humanoid's hips) and the joints that move with it;
	// the body frame at the last reset.
	held    int
	moves   []bool
	bodyRef geom.Transform
	haveRef bool
	// For a humanoid pose, its own poser to read the body's position and
	// rotation (RootT, RootQ), the human scale, and the human space in
	// model space.
	human      *animator.HumanPoser
	humanSc    *animator.HumanScratch
	humanScale float32
	humanRoot  geom.Transform
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
	// Look is how to draw the character (see Frames); Box its body's
	// bounds at its scene pose (nil without a character). The page
	// moves the character by TickResult.Root and follows it.
	Look
	Box *Box `json:"box,omitempty"`
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
	// reset), in its body frame at the start: a game applying root motion
	// moves the character's GameObject by it.
	RootMotion MotionResult `json:"root_motion"`
	Root       MotionResult `json:"root"`
	// Positions (and rotations) hold the pose in place: what root motion
	// takes from the pose (the root motion joint's motion, a humanoid
	// body's) is left at where it was at the start, so that Carried, the
	// model-space transform root motion has carried the character by (Root
	// in model space), places it. Carried applied to the positions is the
	// character where the game would show it; the pose alone never moves
	// it twice, nor snaps it back when a clip loops.
	Carried MotionResult `json:"carried"`
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

// sessionSlot is a controller's session, started once however many
// requests ask at the same time.
type sessionSlot struct {
	once sync.Once
	se   *session
	err  error
}

// sessionKey names a session: a controller on a rig (-1: the character
// the binding chooses for it).
type sessionKey struct{ ctl, rig int }

// session returns the running controller id on rig, starting it on first
// use.
func (s *Server) session(id, rig int) (*session, error) {
	k := sessionKey{id, rig}
	s.mu.Lock()
	slot, ok := s.sessions[k]
	if !ok {
		slot = &sessionSlot{}
		s.sessions[k] = slot
	}
	s.mu.Unlock()
	slot.once.Do(func() { slot.se, slot.err = s.newSession(id, rig) })
	return slot.se, slot.err
}

// started reports whether controller id's session on rig was asked for
// before.
func (s *Server) started(id, rig int) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	_, ok := s.sessions[sessionKey{id, rig}]
	return ok
}

// newSession binds the session every request for it shares (and keeps):
// under no one request's context.
func (s *Server) newSession(id, rig int) (*session, error) {
	var on *bound.Character
	if rig >= 0 {
		var err error
		if on, err = s.lib.Character(context.Background(), bound.CharacterID(rig)); err != nil {
			return nil, err
		}
	}
	bc, err := s.lib.BindController(context.Background(), bound.ControllerID(id), on)
	if err != nil {
		return nil, err
	}
	se := &session{bc: bc, ctl: bc.Model(), a: bc.NewAnimator(), notes: append([]string{}, bc.Notes()...),
		root: anim.RootMotion{R: geom.IdentityQuat}}
	ch := bc.On()
	if ch == nil {
		return se, nil
	}
	p, err := bc.NewPoseWorker()
	if err != nil {
		return nil, err
	}
	sk := ch.Skeleton()
	n := sk.Len()
	se.poser, se.ch, se.on = p, ch, ch.Describe()
	se.local, se.world = make([]geom.Transform, n), make([]geom.Transform, n)
	se.held = ch.RootMotionJoint()
	if p.Humanoid() {
		if se.human, err = animator.NewHumanPoser(bc.Definition(), ch.Human()); err != nil {
			return nil, err
		}
		se.humanSc = se.human.NewScratch()
		se.held = ch.Human().AvatarNode(humanoid.Hips)
		av, _ := ch.Avatar()
		se.humanScale, se.humanRoot = humanSpace(av)
	}
	se.moves = make([]bool, n)
	for j, par := range sk.Parents {
		se.moves[j] = j == se.held || (par >= 0 && se.moves[par])
	}
	return se, nil
}

// humanSpace returns an avatar's human scale and the inverse of the root
// transform it stored, which places its human space under the Animator's
// GameObject (see humanoid.Rig).
func humanSpace(av *model.Avatar) (float32, geom.Transform) {
	scale, root := float32(1), geom.Identity
	if av == nil {
		return scale, root
	}
	if s := av.Human.Scale; s > 0 && geom.Finite(s) {
		scale = s
	}
	stored := av.DefaultPose
	if len(stored) != len(av.Skeleton.Nodes) {
		stored = av.SkeletonPose
	}
	if len(stored) > 0 && len(av.Skeleton.Nodes) > 0 && av.Skeleton.Nodes[0].Parent < 0 && stored[0].Finite() {
		root = stored[0].Inverse()
	}
	return scale, root
}

// rigid is a transform's translation and rotation.
func rigid(t geom.Transform) geom.Transform {
	return geom.Transform{T: t.T, R: t.R.Normalize(), S: geom.V3(1, 1, 1)}
}

// bodyFrame is the frame root motion moves, in model space, in the pose
// se.world holds: the root motion joint's; for a humanoid, the body's
// position and rotation (RootT scaled, RootQ) in the human space.
func (se *session) bodyFrame() geom.Transform {
	if se.human != nil {
		var hp humanoid.Pose
		se.human.Pose(se.a, se.humanSc, &hp)
		body := geom.Transform{T: hp.RootT.Scale(se.humanScale), R: hp.RootQ, S: geom.V3(1, 1, 1)}
		return rigid(se.world[0].Mul(se.humanRoot).Mul(body))
	}
	if se.held < 0 || se.held >= len(se.world) {
		return geom.Identity
	}
	return rigid(se.world[se.held])
}

// poseHeld poses the character into se.world with what root motion takes
// from the pose held at the body frame of the last reset (see
// TickResult.Carried).
func (se *session) poseHeld() {
	se.poser.Pose(se.a, se.local)
	anim.LocalToModel(se.ch.Skeleton(), se.local, se.world)
	b := se.bodyFrame()
	if !se.haveRef {
		se.bodyRef, se.haveRef = b, true
	}
	d := se.bodyRef.Mul(b.Inverse())
	for j, m := range se.moves {
		if m {
			se.world[j] = d.Mul(se.world[j])
		}
	}
}

// carried is the accumulated root motion as a model-space transform of
// the held pose: Root, a motion in the body frame at the reset, turned
// into one of model space.
func (se *session) carried() geom.Transform {
	w := geom.Transform{T: se.root.T, R: se.root.R.Normalize(), S: geom.V3(1, 1, 1)}
	if se.human != nil {
		w.T = w.T.Scale(se.humanScale)
	}
	return se.bodyRef.Mul(w).Mul(se.bodyRef.Inverse())
}

// controllerRoot is the joint that carries a controller's character
// through the world: its clips' (bound.Motion.TraceJoint), else a
// humanoid's hips, else the root motion joint.
func controllerRoot(bc *bound.Controller, ch *bound.Character) int {
	for _, m := range bc.Clips() {
		if m != nil {
			return m.TraceJoint()
		}
	}
	if h := ch.Human(); h != nil {
		return h.AvatarNode(humanoid.Hips)
	}
	return ch.RootMotionJoint()
}

func (s *Server) handleController(w http.ResponseWriter, r *http.Request) {
	id, ok := index(r, "id", len(s.ctls))
	if !ok {
		writeError(w, http.StatusNotFound, "no such controller")
		return
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
	se, err := s.session(id, rig)
	if err != nil {
		s.logf("%v", err)
		writeError(w, http.StatusUnprocessableEntity, s.public(err.Error()))
		return
	}
	info := ControllerInfo{ID: id, Name: se.ctl.Name, On: se.on, Paths: []string{}, Parents: []int{},
		Look: Look{Helpers: []bool{}, Sides: []int{}, Root: -1, Body: []bool{}}, Notes: s.publicAll(se.notes)}
	info.Parameters, info.Layers = controllerLists(se.ctl)
	if se.ch != nil {
		sk := se.ch.Skeleton()
		rest := make([]geom.Transform, sk.Len())
		anim.LocalToModel(sk, sk.Rest, rest)
		info.Paths, info.Parents = sk.Paths, sk.Parents
		info.Look = lookOf(se.ch, controllerRoot(se.bc, se.ch), rest)
		b := boxer{body: info.Body}
		b.add(rest)
		info.Box = b.result()
	}
	if !meshes || se.ch == nil {
		writeJSON(w, r, info)
		return
	}
	a := s.newAnswer(w, r)
	a.object(info)
	if s.streamMeshes(a, s.meshesFor(se.ch)) {
		a.raw("}\n")
		a.finish()
	}
}

func (s *Server) handleTick(w http.ResponseWriter, r *http.Request) {
	id, ok := index(r, "id", len(s.ctls))
	if !ok {
		writeError(w, http.StatusNotFound, "no such controller")
		return
	}
	rig, ok := s.rigParam(w, r)
	if !ok {
		return
	}
	var t Tick
	if !readJSON(w, r, &t) {
		return
	}
	if !s.started(id, rig) {
		// starting a controller binds its clips: heavy work
		release, ok := s.admit(w, r)
		if !ok {
			return
		}
		defer release()
	}
	se, err := s.session(id, rig)
	if err != nil {
		s.logf("%v", err)
		writeError(w, http.StatusUnprocessableEntity, s.public(err.Error()))
		return
	}
	res, err := se.tick(&t)
	if err != nil {
		writeError(w, http.StatusBadRequest, s.public(err.Error()))
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
		se.haveRef = false
	}
	if se.poser != nil && !se.haveRef {
		se.poseHeld() // the body frame at the start
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
		se.a.Tick(float64(float32(t.DT)))
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
	res.Carried = motionResult(anim.RootMotion{R: geom.IdentityQuat})
	if se.poser != nil {
		se.poseHeld()
		c := se.carried()
		res.Carried = motionResult(anim.RootMotion{T: c.T, R: c.R})
		res.Positions, res.NonFinite = appendPositions(make([]float32, 0, 3*len(se.world)), se.world, 0)
		if t.Mesh {
			res.Rotations, res.NonFinite = appendRotations(nil, se.world, res.NonFinite)
			res.Scales, res.NonFinite = appendScales(nil, se.world, res.NonFinite)
		}
	}
	return res, nil
}

func finite32(x float32) float32 { return float32(finite(float64(x))) }
