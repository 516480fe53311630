package bind

import (
	"context"
	"fmt"
	"log/slog"

	"github.com/mecanim/mecanim/bound"
)

// The attributes of the notes a set logs (Options.Logger), so that a
// handler can sort, filter or index them.
const (
	// AttrInput is the input file (or folder, or package) the note is
	// about, or the one holding the object it is about.
	AttrInput = "input"
	// AttrObject is the name of the object the note is about.
	AttrObject = "object"
	// AttrKind is the kind of that object (Kind's String: "clip",
	// "character", "avatar", "controller").
	AttrKind = "kind"
	// AttrRef is the reference that chooses the object (see FindClip).
	AttrRef = "ref"
	// AttrCharacter describes the character a binding plays on.
	AttrCharacter = "character"
	// AttrController is the reference of the controller whose clip a
	// note is about (a clip that plays by its timing only).
	AttrController = "controller"
)

// noteLevel is the level of every note: what the inputs lack or what was
// left out, which the set's results say too; not a failure.
const noteLevel = slog.LevelInfo

// log logs one note, its message the note's text as the set returns it.
func (s *Set) log(ctx context.Context, msg string, attrs ...slog.Attr) {
	if s.opts.Logger == nil {
		return
	}
	s.opts.Logger.LogAttrs(ctx, noteLevel, msg, attrs...)
}

// logInput logs a note about an input.
func (s *Set) logInput(ctx context.Context, input, msg string, attrs ...slog.Attr) {
	s.log(ctx, msg, append([]slog.Attr{slog.String(AttrInput, input)}, attrs...)...)
}

// entryAttrs are the attributes of a note about an object of the set.
func (s *Set) entryAttrs(e *entry) []slog.Attr {
	return []slog.Attr{slog.String(AttrInput, e.src.Container), slog.String(AttrObject, e.name),
		slog.String(AttrKind, e.kind.String()), slog.String(AttrRef, s.ref(e.src))}
}

// logNotes logs notes about an object of the set (a controller, a clip
// left out, a character), with the character bound to when there is one
// and the attributes more.
func (s *Set) logNotes(ctx context.Context, e *entry, ch *bound.Character, notes []string, more ...slog.Attr) {
	if s.opts.Logger == nil || len(notes) == 0 {
		return
	}
	attrs := s.entryAttrs(e)
	if ch != nil {
		attrs = append(attrs, slog.String(AttrCharacter, ch.Describe()))
	}
	attrs = append(attrs, more...)
	for _, n := range notes {
		s.log(ctx, n, attrs...)
	}
}

// cancelled is ctx's error, if it ended, wrapped as the set's.
func cancelled(ctx context.Context) error {
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("bind: %w", err)
	}
	return nil
}
