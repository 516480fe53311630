package gltfchar

import (
	"errors"
	"fmt"
)

// ErrMalformed is wrapped by every FormatError: the file contradicts the
// glTF 2.0 specification or itself (an index out of range, a count past
// the end of its buffer, times going backwards).
var ErrMalformed = errors.New("gltfchar: malformed file")

// ErrUnsupported is wrapped by every UnsupportedError: the file is valid
// but uses something this reader does not decode (compressed geometry, an
// unknown required extension).
var ErrUnsupported = errors.New("gltfchar: unsupported feature")

// FormatError says which file and which glTF element ("node 12",
// "accessor 5", "animation 0 sampler 3") was malformed and how.
type FormatError struct {
	File    string
	Element string // empty for the container (GLB header, JSON)
	Detail  string
}

// Error describes the failure and where it happened.
func (e *FormatError) Error() string { return describe(ErrMalformed, e.File, e.Element, e.Detail) }

// Unwrap returns ErrMalformed.
func (e *FormatError) Unwrap() error { return ErrMalformed }

// UnsupportedError says which file and element use a feature this reader
// does not decode.
type UnsupportedError struct {
	File    string
	Element string
	Feature string
}

// Error describes the failure and where it happened.
func (e *UnsupportedError) Error() string {
	return describe(ErrUnsupported, e.File, e.Element, e.Feature)
}

// Unwrap returns ErrUnsupported.
func (e *UnsupportedError) Unwrap() error { return ErrUnsupported }

func describe(base error, file, elem, detail string) string {
	s := base.Error()
	if file != "" {
		s += ": " + file
	}
	if elem != "" {
		s += ": " + elem
	}
	return s + ": " + detail
}

// malformed builds a FormatError for element elem of the file being read.
func (d *decoder) malformed(elem, format string, args ...any) error {
	return &FormatError{File: d.name, Element: elem, Detail: fmt.Sprintf(format, args...)}
}

// within names the element an error of a part was found in: a
// FormatError or UnsupportedError gets ctx before its element, so that
// the message still begins with the sentinel and the file; other errors
// are wrapped.
func within(ctx string, err error) error {
	var fe *FormatError
	var ue *UnsupportedError
	switch {
	case errors.As(err, &fe):
		c := *fe
		c.Element = joinElem(ctx, c.Element)
		return &c
	case errors.As(err, &ue):
		c := *ue
		c.Element = joinElem(ctx, c.Element)
		return &c
	}
	return fmt.Errorf("%s: %w", ctx, err)
}

func joinElem(ctx, elem string) string {
	if elem == "" {
		return ctx
	}
	return ctx + ": " + elem
}

// unsupported builds an UnsupportedError for element elem.
func (d *decoder) unsupported(elem, format string, args ...any) error {
	return &UnsupportedError{File: d.name, Element: elem, Feature: fmt.Sprintf(format, args...)}
}
