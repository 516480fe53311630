package extract

import (
	"github.com/mecanim/mecanim/model"
)

// Manifest says what an extraction read and wrote: every input file, every
// character, clip, avatar and controller of the inputs with where it was
// read (container, serialized file, path id) and the outputs it went into,
// or why it went into none. It is written as OUT/manifest.json, in the JSON
// vocabulary of every command (docs/json.md; its schema is
// docs/schema/manifest.json); the same inputs and options give the same
// manifest, byte for byte.
type Manifest struct {
	Generator   string       `json:"generator"`
	Inputs      []Input      `json:"inputs"`
	Ignored     []Ignored    `json:"ignored,omitempty"`
	Characters  []Character  `json:"characters"`
	Clips       []Clip       `json:"clips"`
	Avatars     []Object     `json:"avatars"`
	Controllers []Object     `json:"controllers"`
	Outputs     []OutputInfo `json:"outputs"`
	// Failed lists the inputs that could not be read, the characters,
	// clips, avatars and controllers that do not decode, and the outputs
	// that could not be written: an extraction with any is incomplete.
	Failed []Failure `json:"failed,omitempty"`
}

// Input is one Unity file read.
type Input struct {
	Path string `json:"path"`
	Kind string `json:"kind"`
	Size int64  `json:"size"`
	// Expanded is what a compressed WebGL data file expanded to.
	Expanded int64 `json:"expanded,omitempty"`
	// Files are the serialized files it holds.
	Files   []string `json:"files,omitempty"`
	Objects int      `json:"objects"`
}

// Ignored is a file found in a folder given that is not a Unity file read.
type Ignored struct {
	Path string `json:"path"`
	Why  string `json:"why"`
}

// Source is where an object was read (model.Source) and the reference that
// chooses it on a command line (FILE#PATHID).
type Source struct {
	Container string `json:"container"`
	File      string `json:"file"`
	PathID    int64  `json:"path_id"`
	Ref       string `json:"ref"`
}

func sourceOf(s model.Source, ref string) Source {
	return Source{Container: s.Container, File: s.File, PathID: s.PathID, Ref: ref}
}

// Character is one character (an Animator's rig) and what was made of it.
type Character struct {
	Name   string `json:"name"`
	Source Source `json:"source"`
	// Output is the .glb written (relative to the output folder); empty
	// when the character could not be exported (Error says why).
	Output   string   `json:"output,omitempty"`
	Pictures []string `json:"pictures,omitempty"`
	// OwnPaths: the character is the clip's own paths made into a rig
	// (the inputs hold none for it); Curves the tables of its curves glTF
	// does not hold, written beside Output (NAME.curves.json, .csv).
	OwnPaths   bool     `json:"own_paths,omitempty"`
	Curves     []string `json:"curves,omitempty"`
	Avatar     string   `json:"avatar,omitempty"`     // its avatar's reference
	Controller string   `json:"controller,omitempty"` // its controller's reference
	// Clips are the references of the clips exported on it, in the
	// output's animation order, each with why it is there.
	Clips []ClipUse `json:"clips"`
	// Notes say what was left out of its output and why.
	Notes []string `json:"notes,omitempty"`
	Error string   `json:"error,omitempty"`
}

// ClipUse is a clip exported on a character and why it plays there.
type ClipUse struct {
	Ref  string `json:"ref"`
	Name string `json:"name"`
	// Why: "controller" (its controller plays it), "animation" (its
	// Animation component lists it), "binds" (a clip no character plays
	// whose curves animate this character's GameObjects most), "avatar"
	// (a humanoid clip no character plays, put on the --avatar), "paths"
	// (a generic clip no character takes, on a rig of its own paths).
	Why string `json:"why"`
}

// Clip is one clip of the inputs and where it went.
type Clip struct {
	Name     string   `json:"name"`
	Source   Source   `json:"source"`
	Humanoid bool     `json:"humanoid"`
	Outputs  []string `json:"outputs,omitempty"`
	// SameAs is the reference of an identical clip (the same bytes in
	// another file) exported in its place.
	SameAs string `json:"same_as,omitempty"`
	// Skipped says why the clip is in no output.
	Skipped string `json:"skipped,omitempty"`
	// Note says what else there is to know (several characters it binds
	// to alike).
	Note string `json:"note,omitempty"`
}

// Object is an avatar or a controller and the outputs that use it.
type Object struct {
	Name    string   `json:"name"`
	Source  Source   `json:"source"`
	Outputs []string `json:"outputs,omitempty"`
	Notes   []string `json:"notes,omitempty"`
	Error   string   `json:"error,omitempty"`
}

// OutputInfo is one file written.
type OutputInfo struct {
	Path string `json:"path"`
	// Kind: "character", "avatar" (an avatar's skeleton with the clips
	// put on it), "paths" (a clip on a rig of its own paths), "picture" (a
	// contact sheet) or "curves" (a table of a clip's curves glTF does not
	// hold).
	Kind      string `json:"kind"`
	Character string `json:"character,omitempty"` // the character's or avatar's reference
	Clip      string `json:"clip,omitempty"`      // a picture's clip
}

// Failure is an input that could not be read, an object of it that does
// not decode (Input is its container), or an output that could not be
// written.
type Failure struct {
	Input  string `json:"input,omitempty"`
	Output string `json:"output,omitempty"`
	Error  string `json:"error"`

	err error // the cause, when this run saw it
}

// Err is the error behind the failure when this run met it (nil for a
// failure recorded by an earlier run), for errors.Is and errors.As.
func (f Failure) Err() error { return f.err }
