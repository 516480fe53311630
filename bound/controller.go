package bound

import (
	"fmt"

	"github.com/mecanim/mecanim/anim"
	"github.com/mecanim/mecanim/animator"
	"github.com/mecanim/mecanim/geom"
	"github.com/mecanim/mecanim/humanoid"
	"github.com/mecanim/mecanim/model"
)

// Controller is a controller with its clip set, bound to the character that
// plays it (or to none: then it runs its state machines, lengths and events
// only). Build it with NewController; it is immutable and shared by every
// Animator made from it.
type Controller struct {
	model   *model.Controller
	src     model.Source
	clips   []*Motion
	sources []model.Source
	notes   []string
	on      *Character
	def     *animator.Definition
	in      ControllerInput
}

// ControllerInput is what NewController builds a bound controller from.
type ControllerInput struct {
	Controller *model.Controller
	Source     model.Source
	// Clips are the controller's clips, parallel to Controller.Clips (nil
	// for a null slot or a clip the inputs lack), and ClipSources where
	// each was read.
	Clips       []*model.Clip
	ClipSources []model.Source
	// On is the character the controller plays on (nil: none).
	On *Character
	// Motions, when not nil, are the clips already bound to On, parallel
	// to Clips (nil where a clip could not be bound: Notes say why); nil
	// binds each clip to On with Bind.
	Motions []*Motion
	// Notes are what could not be resolved (clips in files not given...).
	Notes []string
}

// NewController binds a controller's clips to its character (a clip that
// cannot be bound plays by its timing only, and says why in Notes) and
// compiles it for Animators.
func NewController(in ControllerInput) (*Controller, error) {
	if in.Controller == nil {
		return nil, fmt.Errorf("bound: NewController: nil controller")
	}
	c := &Controller{model: in.Controller, src: in.Source, on: in.On,
		clips:   make([]*Motion, len(in.Controller.Clips)),
		sources: make([]model.Source, len(in.Controller.Clips)),
		notes:   append([]string(nil), in.Notes...)}
	c.in = in
	c.in.Clips = append([]*model.Clip(nil), in.Clips...)
	c.in.ClipSources = append([]model.Source(nil), in.ClipSources...)
	c.in.Notes = append([]string(nil), in.Notes...)
	copy(c.sources, in.ClipSources)
	ac := make([]animator.Clip, len(c.clips))
	seen := map[*model.Clip]*Motion{}
	for i := range c.clips {
		if i >= len(in.Clips) || in.Clips[i] == nil {
			continue
		}
		mc := in.Clips[i]
		ac[i] = animator.TimingClip(mc)
		if in.On == nil {
			continue
		}
		m, ok := seen[mc]
		if in.Motions != nil {
			m, ok = nil, true
			if i < len(in.Motions) {
				m = in.Motions[i]
			}
		}
		if !ok {
			var err error
			if m, err = Bind(mc, c.sources[i], in.On); err != nil {
				c.notes = append(c.notes, err.Error())
			}
			seen[mc] = m
		}
		if m != nil {
			c.clips[i] = m
			ac[i] = m.AnimatorClip()
		}
	}
	def, err := animator.Compile(in.Controller, ac)
	if err != nil {
		return nil, fmt.Errorf("controller %q (%s): %w", in.Controller.Name, in.Source, err)
	}
	c.def = def
	return c, nil
}

// Input returns what the controller was built from (NewController of it
// builds the same controller again): how a controller is saved and loaded
// without its files. Shared: do not modify.
func (c *Controller) Input() ControllerInput { return c.in }

// Model returns the decoded controller (for an override controller, the
// base controller with its clips replaced). Shared: do not modify.
func (c *Controller) Model() *model.Controller { return c.model }

// Source returns where the controller was read.
func (c *Controller) Source() model.Source { return c.src }

// Clips returns the bound clips, parallel to Model().Clips (nil where a
// slot is null or its clip could not be bound).
func (c *Controller) Clips() []*Motion { return c.clips }

// ClipSource returns where clip slot i was read (the zero Source when the
// inputs lack it).
func (c *Controller) ClipSource(i int) model.Source {
	if i < 0 || i >= len(c.sources) {
		return model.Source{}
	}
	return c.sources[i]
}

// Notes returns what could not be resolved or bound, one line each.
func (c *Controller) Notes() []string { return c.notes }

// On returns the character the controller plays on (nil: none).
func (c *Controller) On() *Character { return c.on }

// Definition returns the compiled controller every Animator of it shares.
func (c *Controller) Definition() *animator.Definition { return c.def }

// NewAnimator returns an Animator over the controller, in its entry states.
func (c *Controller) NewAnimator() *animator.Animator { return animator.NewAnimator(c.def) }

// PoseWorker turns Animators of a bound controller into local poses of its
// character. It holds its own buffers, so each goroutine that poses has its
// own (animator.Poser and HumanPoser, which it wraps, are shared by all).
type PoseWorker struct {
	hp     *animator.HumanPoser
	hs     *animator.HumanScratch
	part   *humanoid.Part // nil: every joint
	gp     *animator.Poser
	gs     *animator.PoseScratch
	joints *anim.Joints
}

// NewPoseWorker prepares posing the controller's character: in muscle space
// (animator.HumanPoser) when the character is humanoid and a clip of the
// controller is humanoid, as Mecanim blends a humanoid Animator's layers;
// in local transforms (animator.Poser) otherwise. Given the joints the
// caller reads (hitboxes, say), it poses those and their ancestors
// (Joints) and may skip the others: a humanoid's fingers, toes and other
// bones no hitbox hangs from cost nothing then. Without, it poses every
// joint. It fails when the controller has no character or a joint is not
// one of the character's.
func (c *Controller) NewPoseWorker(read ...int) (*PoseWorker, error) {
	if c.on == nil {
		return nil, fmt.Errorf("controller %q (%s): %w: it plays on no character in the inputs", c.model.Name, c.src, ErrNoSkeleton)
	}
	w := &PoseWorker{joints: c.on.skel.AllJoints()}
	if len(read) > 0 {
		js, err := c.on.skel.Joints(read...)
		if err != nil {
			return nil, fmt.Errorf("controller %q (%s) on %q: %w", c.model.Name, c.src, c.on.Name(), err)
		}
		w.joints = js
	}
	human := false
	for _, m := range c.clips {
		human = human || (m != nil && m.human != nil)
	}
	if human && c.on.human != nil {
		hp, err := animator.NewHumanPoser(c.def, c.on.human)
		if err != nil {
			return nil, err
		}
		w.hp, w.hs = hp, hp.NewScratch()
		if len(read) > 0 {
			if w.part, err = c.on.human.Part(w.joints); err != nil {
				return nil, err
			}
		}
		return w, nil
	}
	gp, err := animator.NewPoser(c.def, c.on.skel)
	if err != nil {
		return nil, err
	}
	w.gp, w.gs = gp, gp.NewScratch()
	return w, nil
}

// Joints returns the joints Pose writes: those NewPoseWorker was given
// and their ancestors, or every joint. anim.LocalToModelJoints composes
// them.
func (p *PoseWorker) Joints() *anim.Joints { return p.joints }

// Humanoid reports whether the poser blends muscles.
func (p *PoseWorker) Humanoid() bool { return p.hp != nil }

// Pose writes a's current local pose of the character into dst (one
// transform per joint of the skeleton): at least the joints of Joints(),
// each as posing every joint gives it. It allocates nothing.
func (p *PoseWorker) Pose(a *animator.Animator, dst []geom.Transform) {
	if p.part != nil {
		p.hp.ApplyPart(a, p.hs, p.part, dst)
		return
	}
	if p.hp != nil {
		p.hp.Apply(a, p.hs, dst)
		return
	}
	p.gp.Pose(a, p.gs, dst)
}
