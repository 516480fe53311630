package bound

import (
	"context"

	"github.com/mecanim/mecanim/model"
)

// Handles name the objects a set of inputs offers, one type per kind so
// that a clip cannot be passed where a character is meant. Each is the
// object's position in its kind's listing (Library's Clips, Characters,
// Controllers; bind.Set's Avatars).
type (
	// ClipID names an animation clip.
	ClipID int
	// CharacterID names a character (an Animator's GameObjects, a glTF
	// character).
	CharacterID int
	// AvatarID names an avatar.
	AvatarID int
	// ControllerID names an animator controller (or an override
	// controller).
	ControllerID int
)

// Item is one object a set of inputs offers, as a listing shows it.
type Item struct {
	Name   string
	Source model.Source
	// Label is the name, with the reference added when other objects of
	// the kind share the name: what tells duplicates apart on screen.
	Label string
	// Ref is the reference that chooses the object on a command line
	// ("FILE#PATHID"): it chooses this object alone among the inputs.
	Ref string
}

// ControllerClips is a controller as decoded, with the clip each of its
// slots plays: its model (an override controller's replacements applied:
// its clip names are those of the clips it plays), the clips, and what
// could not be resolved.
type ControllerClips struct {
	Controller *model.Controller
	// Clips are the clips each slot plays, parallel to Controller.Clips
	// (-1 for a null slot or a clip the inputs lack).
	Clips []ClipID
	// Notes say which clips are missing and where they are (the file that
	// holds them, the path id).
	Notes []string
}

// Library is what a set of inputs offers to play, as the viewer browses
// it: characters, clips and controllers, and their bindings, each decided
// by the set's one rule. bind.Set is one. The methods that decode and
// bind take the context of the request they serve: when it ends, they
// return an error wrapping its Err.
type Library interface {
	// Characters, Clips and Controllers list the objects of each kind;
	// an object's handle is its position in the list.
	Characters() []Item
	Clips() []Item
	Controllers() []Item
	// Character puts character id together.
	Character(ctx context.Context, id CharacterID) (*Character, error)
	// CharacterController returns the controller character id's Animator
	// plays (false for none, or one the inputs lack).
	CharacterController(id CharacterID) (ControllerID, bool)
	// Motion binds a clip to a character of the library; on nil lets
	// the binding choose, and refuses (listing the candidates) when
	// several characters fit.
	Motion(ctx context.Context, clip ClipID, on *Character) (*Motion, error)
	// Controller decodes a controller (for an override controller, its
	// base with the clips replaced) and finds the clips it plays.
	Controller(ctx context.Context, id ControllerID) (*ControllerClips, error)
	// BindController binds a controller to a character of the library;
	// on nil lets the binding choose (the character whose Animator plays
	// it, if any; a refusal listing them when several do).
	BindController(ctx context.Context, id ControllerID, on *Character) (*Controller, error)
}
