package serialized

import (
	"errors"
	"fmt"

	"github.com/mecanim/mecanim/unity/typetree"
)

// ErrNoTypeTree is wrapped when an object's type carries no type tree (a
// stripped build): decoding it needs Unity's built-in class layouts for the
// file's engine version instead.
var ErrNoTypeTree = errors.New("no type tree in the file: decoding needs built-in class layouts for its Unity version")

// ObjectError says which object of which file failed.
type ObjectError struct {
	File    string
	PathID  int64
	ClassID int32
	Err     error
}

// Error describes the failure and where it happened.
func (e *ObjectError) Error() string {
	return fmt.Sprintf("serialized file %q: object %d (class %d): %v", e.File, e.PathID, e.ClassID, e.Err)
}

// Unwrap returns the cause.
func (e *ObjectError) Unwrap() error { return e.Err }

// Layout returns the compiled type tree of t, compiling it once per file
// (once for all the files sharing the file's Trees). It fails with
// ErrNoTypeTree when t has no tree.
func (f *File) Layout(t *Type) (*typetree.Layout, error) {
	if t == nil || t.Tree == nil {
		return nil, ErrNoTypeTree
	}
	if f.trees != nil {
		return f.trees.layout(t.Tree)
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if l, ok := f.layouts[t.Tree]; ok {
		return l, nil
	}
	l, err := typetree.Compile(t.Tree)
	if err != nil {
		return nil, err
	}
	if f.layouts == nil {
		f.layouts = make(map[*typetree.Tree]*typetree.Layout)
	}
	f.layouts[t.Tree] = l
	return l, nil
}

// ErrUnreadBytes is wrapped when a layout reads fewer bytes than an object
// holds and nothing explains the rest: a type tree describes every byte of
// its objects, and a built-in layout every byte of its class's objects but
// a MonoBehaviour's (whose script's fields follow the native ones). Unity
// writes no such bytes; damage to a count or a size leaves them.
var ErrUnreadBytes = errors.New("bytes left unread after the object's last field")

// CheckTrailing turns the *typetree.TrailingError a decode returned for
// object o into an error wrapping ErrUnreadBytes (and a nil value), unless
// o is a MonoBehaviour, whose trailing bytes are its script's fields. Other
// results pass through.
func CheckTrailing(o *Object, v *typetree.Value, err error) (*typetree.Value, error) {
	var te *typetree.TrailingError
	if err == nil || !errors.As(err, &te) || o.ClassID == ClassMonoBehaviour {
		return v, err
	}
	return nil, fmt.Errorf("%w: the layout reads %d of the object's %d bytes; the %d at offset %d of the object are unexplained",
		ErrUnreadBytes, te.Consumed, te.Size, te.Size-te.Consumed, te.Consumed)
}

// Decode reads object o and decodes it with its type's tree. Errors are
// *ObjectError values wrapping the cause: ErrNoTypeTree for stripped files,
// a *typetree.DecodeError for bad data, ErrUnreadBytes when the tree reads
// fewer bytes than the object holds. For a MonoBehaviour, whose script's
// fields may follow what the tree reads, Decode returns the value together
// with an error wrapping *typetree.TrailingError instead.
func (f *File) Decode(o *Object) (*typetree.Value, error) {
	wrap := func(err error) error {
		return &ObjectError{File: f.Name, PathID: o.PathID, ClassID: o.ClassID, Err: err}
	}
	t := f.TypeOf(o)
	if t == nil {
		return nil, wrap(&FormatError{File: f.Name, Offset: -1, What: "the object's type is not in the type table"})
	}
	l, err := f.Layout(t)
	if err != nil {
		return nil, wrap(err)
	}
	b, err := f.ReadObject(o)
	if err != nil {
		return nil, err
	}
	v, err := l.DecodeWith(b, f.order(), f.DecodeOptions())
	v, err = CheckTrailing(o, v, err)
	if err != nil {
		return v, wrap(err)
	}
	return v, nil
}

// DecodeOptions returns the typetree options for decoding this file's
// objects: managed-reference types resolve to the file's RefTypes, and
// every PPtr's m_FileID must name this file or one of its externals.
func (f *File) DecodeOptions() typetree.Options {
	return typetree.Options{RefTypes: f.refLayout, CheckFileIDs: true, Externals: len(f.Externals)}
}

// refLayout resolves a managed-reference type among the file's RefTypes.
func (f *File) refLayout(class, ns, asm string) *typetree.Layout {
	for i := range f.RefTypes {
		t := &f.RefTypes[i]
		if t.ClassName == class && t.Namespace == ns && t.Assembly == asm {
			l, err := f.Layout(t)
			if err != nil {
				return nil
			}
			return l
		}
	}
	return nil
}
