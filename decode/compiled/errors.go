// Package compiled converts compiled Unity objects, decoded generically by
// their type trees (*typetree.Value), into the format-free model: animation
// clips (Mecanim and legacy), avatars, animator controllers, Animators and
// the rigs below them.
//
// Layouts differ between Unity versions; the converters decide by the
// presence of fields (as the type tree states them), not by version
// numbers, wherever that is possible. Every count read from the data is
// checked against the data actually present before anything is allocated,
// so hostile input yields an *Error, never a panic or a huge allocation.
package compiled

import (
	"errors"
	"fmt"
)

// ErrMalformed is wrapped by errors about data that contradicts itself
// (counts that disagree, indexes out of range, times going backwards).
var ErrMalformed = errors.New("malformed data")

// ErrMissingField is wrapped when a field the converter needs is absent.
var ErrMissingField = errors.New("missing field")

// Error says which object and which field a conversion failed on.
type Error struct {
	Class  string // "AnimationClip", "Avatar", ...
	Object string // the object's m_Name (may be empty)
	Field  string // dotted field path, e.g. "m_MuscleClip.m_Clip.data.m_StreamedClip.data"
	Err    error
}

// Error describes the failure and where it happened.
func (e *Error) Error() string {
	obj := e.Class
	if e.Object != "" {
		obj += fmt.Sprintf(" %q", e.Object)
	}
	if e.Field != "" {
		return fmt.Sprintf("%s: %s: %v", obj, e.Field, e.Err)
	}
	return fmt.Sprintf("%s: %v", obj, e.Err)
}

// Unwrap returns the cause.
func (e *Error) Unwrap() error { return e.Err }

// errf builds an error wrapping base with a formatted detail.
func errf(base error, format string, args ...any) error {
	return fmt.Errorf("%w: %s", base, fmt.Sprintf(format, args...))
}
