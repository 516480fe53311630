package bound

import "github.com/mecanim/mecanim/model"

// Item is one object a set of inputs offers, as a listing shows it.
type Item struct {
	Name   string
	Source model.Source
	// Label is the name, with the reference added when other objects of
	// the kind share the name: what tells duplicates apart on screen.
	Label string
	// Ref is the reference that chooses the object on a command line
	// ("FILE#PATHID").
	Ref string
}

// Library is what a set of inputs offers to play, as the viewer browses
// it: characters, clips and controllers by index, and their bindings.
// bind.Set is one.
type Library interface {
	// Items lists the characters, the clips or the controllers.
	Characters() []Item
	Clips() []Item
	Controllers() []Item
	// Character binds character i.
	Character(i int) (*Character, error)
	// CharacterController returns the controller character i plays (-1
	// for none, or one the inputs lack).
	CharacterController(i int) int
	// Motion binds clip i to character j; j < 0 lets the binding choose,
	// and refuses (listing the candidates) when several characters fit.
	Motion(clip, character int) (*Motion, error)
	// ControllerModel decodes controller i (for an override controller,
	// its base with the clips replaced).
	ControllerModel(i int) (*model.Controller, error)
	// BindController binds controller i to character j; j < 0 lets the
	// binding choose (the character whose Animator plays it, if any; a
	// refusal listing them when several do).
	BindController(ctl, character int) (*Controller, error)
}
