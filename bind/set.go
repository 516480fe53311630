// Package bind is the one stage between the decoders and everything that
// shows, writes or runs a pose. Given a set of inputs opened together
// (Unity files, YAML assets, project folders), it alone decides:
//
//   - which object a name means: every clip, character (Animator rig),
//     avatar and controller can be chosen by name or by reference
//     ("FILE#PATHID"); a name that means several different objects is an
//     error listing each with its container, file and path id;
//   - what a clip plays on: the character whose paths a generic clip
//     animates, the one character with a humanoid avatar for a humanoid
//     clip, or the one asked for;
//   - what stands where nothing animates: the character's GameObjects at
//     their scene transforms whenever the inputs hold them, the avatar's
//     default pose only when they do not;
//   - a controller's clip set (across files; an override controller's
//     replacements applied) and where its root motion comes from;
//   - the origin of model space (see package bound).
//
// What it makes are runtime values of package bound; the commands, the
// viewer, pictures and glTF export all take them.
//
// Every call that loads or binds takes a context.Context and stops, with
// an error wrapping ctx.Err(), when it ends: Open between inputs and
// between the objects it lists, the bindings between the objects they
// decode. Open reports the inputs it could not open in one error, joining
// one per input (Errors lists them). Notes — what the inputs lack, what
// was left out — are returned with what they are about and logged to
// Options.Logger with structured attributes.
package bind

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/mecanim/mecanim/bound"
	"github.com/mecanim/mecanim/decode/catalog"
	"github.com/mecanim/mecanim/decode/gltfchar"
	"github.com/mecanim/mecanim/decode/yamlasset"
	"github.com/mecanim/mecanim/inputs"
	"github.com/mecanim/mecanim/model"
	"github.com/mecanim/mecanim/unity/assets"
)

// Kind is a kind of object a set of inputs offers.
type Kind uint8

// The kinds of objects.
const (
	KindClip Kind = iota
	KindCharacter
	KindAvatar
	KindController
	kinds
)

var kindNames = [kinds]string{"clip", "character", "avatar", "controller"}

// String names the kind.
func (k Kind) String() string {
	if k < kinds {
		return kindNames[k]
	}
	return "Kind(" + strconv.Itoa(int(k)) + ")"
}

// Errors the selection and binding return (wrapped with what was asked).
var (
	// ErrNotFound: no object of the kind has the name or reference.
	ErrNotFound = errors.New("not found")
	// ErrAmbiguous: several different objects have the name.
	ErrAmbiguous = errors.New("ambiguous")
	// ErrNoCharacter: nothing in the inputs can play the clip.
	ErrNoCharacter = errors.New("nothing to play the clip on")
)

// Options configure how inputs are read.
type Options struct {
	// Reader is how Unity files are read (layouts, Unity version).
	Reader assets.Options
	// HumanMap, when not nil, is the human bone map of the glTF
	// characters given (gltfchar.ParseHumanMap); without it their VRM
	// extension or their bone names give it.
	HumanMap gltfchar.HumanMap
	// Logger, when not nil, receives every note the set makes as it
	// loads and binds — what the inputs lack, what was left out and why
	// — when the call that makes it returns it: one record per note at
	// slog.LevelInfo, its message the note's text, with the input, the
	// object, its kind and its reference as attributes (AttrInput,
	// AttrObject, AttrKind, AttrRef; AttrCharacter for a binding's
	// character, AttrController for a controller's clip). The notes are returned all the same, with what they
	// are about (a bound controller's Notes, Motions' notes).
	Logger *slog.Logger
}

// Set is a set of inputs opened together: a clip in one bundle plays on a
// character of another, a controller's clips are found in the others. It
// decodes each object at most once, however many bindings use it, and is
// safe for concurrent use. Close it when done.
type Set struct {
	opts    Options
	cat     *catalog.Catalog
	entries [kinds][]*entry
	inputs  []string

	mu          sync.Mutex
	byObj       map[objKey]*entry
	byYAML      map[yamlKey]*entry
	guidPath    map[string]string          // asset GUID -> path, from the inputs' .meta files
	prefabs     map[string]*yamlasset.File // parsed prefabs by path, for the instances scenes make of them
	avatarChars map[*entry]*avatarChar
	pathChars   map[*entry]*avatarChar // a clip's entry -> its own paths' character
	gltfAvatars map[*entry]*entry      // a glTF character's entry -> its built avatar's
	duplicates  []string
	// sharedName holds the serialized file names and container base names
	// several containers have (see ref), found once.
	refOnce    sync.Once
	sharedName map[string]bool
	// meshSources are what characters decode their meshes from; Close
	// drops them, so that characters kept after it hold none of the files.
	meshSources []*meshSource
}

// ErrClosed is wrapped when a character's meshes are asked for after its
// set was closed.
var ErrClosed = errors.New("bind: the set was closed")

// meshSource is the set and file a character's meshes are read from, until
// the set is closed.
type meshSource struct {
	mu sync.Mutex
	s  *Set
	f  *assets.File
}

// meshSource returns a source of meshes in file f, dropped by Close.
func (s *Set) meshSource(f *assets.File) *meshSource {
	m := &meshSource{s: s, f: f}
	s.mu.Lock()
	s.meshSources = append(s.meshSources, m)
	s.mu.Unlock()
	return m
}

func (m *meshSource) get() (*Set, *assets.File) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.s, m.f
}

func (m *meshSource) drop() {
	m.mu.Lock()
	m.s, m.f = nil, nil
	m.mu.Unlock()
}

// avatarChar is the character of an avatar no character uses, built once.
type avatarChar struct {
	once sync.Once
	c    *bound.Character
	err  error
}

// objKey names an object of a serialized file of the catalog.
type objKey struct {
	f   *assets.File
	pid int64
}

// entry is one object the set offers, with how to decode it and what was
// decoded (once).
type entry struct {
	kind    Kind
	index   int
	name    string
	nameErr error // why name could not be read ("" then)
	src     model.Source
	origin  origin

	once sync.Once
	val  decoded
	err  error
}

// decoded is what an entry's object decodes to: the one field of its kind.
type decoded struct {
	clip   *model.Clip
	avatar *model.Avatar
	ctl    *controllerSet
	char   *bound.Character
}

// origin is where an entry's object lives and how to decode it.
type origin interface {
	// identical reports whether another entry's object is the same asset
	// (the same bytes), so that one name meaning both is no ambiguity.
	identical(o origin) bool
}

// Open opens every input: Unity files (bundles, serialized files, WebGL
// .data), glTF and VRM characters (.glb, .gltf, .vrm: their avatar built
// from their human bone map, their animations as clips), model importer
// settings (.fbx.meta: the avatar their human description builds), the
// editor's text assets (.anim, .controller, .overrideController, .mask,
// .prefab, .unity, avatar .asset), editor packages (.unitypackage, read as
// a project) and folders: a game's data folder or a mod's (every input
// found in it, see Discover), a project (its editor assets, references
// followed through the GUIDs their .meta files give). The same file given
// twice, or two files of the same content, count once.
//
// An input that cannot be opened is left out and reported in the
// returned error, which joins one error per input, each naming it (an
// *inputs.Error or an *assets.Error; Errors lists them); the set holds
// the others and is returned with it. ctx is checked between inputs and
// between the objects listed: when it ends, Open closes what it opened
// and returns a nil set and an error wrapping ctx.Err().
func Open(ctx context.Context, paths []string, opts Options) (*Set, error) {
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("bind: open: %w", err)
	}
	s := newSet(opts)
	var unity []string
	found, passed, errs := inputs.Discover(ctx, paths, "")
	for _, f := range found {
		if f.Built {
			unity = append(unity, f.Path)
			continue
		}
		if err := ctx.Err(); err != nil {
			return nil, fmt.Errorf("bind: open: %w", err)
		}
		errs = append(errs, s.addInput(ctx, f.Path, f.Kind == inputs.Project)...)
	}
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("bind: open: %w", err)
	}
	for _, p := range passed {
		if p.Same != "" {
			s.duplicates = append(s.duplicates, p.Path)
			s.logInput(ctx, p.Path, fmt.Sprintf("%s: the same as %s: read once", p.Path, p.Same))
		}
	}
	cat, err := catalog.Open(ctx, unity, opts.Reader)
	if cat == nil {
		return nil, fmt.Errorf("bind: open: %w", err)
	}
	errs = append(errs, Errors(err)...)
	s.cat = cat
	s.inputs = append(s.inputs, paths...)
	if err := s.addCatalog(ctx, &errs); err != nil {
		s.Close()
		return nil, fmt.Errorf("bind: open: %w", err)
	}
	return s, errors.Join(errs...)
}

// addInput adds an input that is not a built Unity file: a project
// folder, or a file of an inputs.KindOf. Each error is an *inputs.Error
// naming p; ctx is checked between the assets of a folder or package.
func (s *Set) addInput(ctx context.Context, p string, dir bool) []error {
	var errs []error
	switch {
	case dir:
		errs = s.addProject(ctx, p)
	default:
		var err error
		switch inputs.KindOf(p) {
		case inputs.GLTF:
			err = s.addCharacterFile(p)
		case inputs.Package:
			errs = s.addUnityPackage(ctx, p)
		case inputs.Model:
			err = s.addModelMeta(p)
		case inputs.YAML:
			err = s.addYAML(p, p, "")
		default:
			err = errors.New("not a glTF character, model settings, Unity YAML asset or package")
		}
		if err != nil {
			errs = append(errs, err)
		}
	}
	for i, err := range errs {
		var ie *inputs.Error
		if !errors.As(err, &ie) {
			errs[i] = &inputs.Error{Input: p, Err: err}
		}
	}
	return errs
}

// NewWith makes a set of Unity files already opened as a catalog (the set
// does not close it) and of the other inputs Open reads: project folders
// and files of an inputs.KindOf, each read as Open reads it. The error
// joins one *inputs.Error for each of others that could not be read (and
// the catalog's rigs that do not decode); the set holds what could be
// read. When ctx ends, NewWith returns a nil set and an error wrapping
// ctx.Err() (cat is left open: its caller closes it).
func NewWith(ctx context.Context, cat *catalog.Catalog, others []string, opts Options) (*Set, error) {
	s := newSet(opts)
	var errs []error
	for _, p := range others {
		if err := ctx.Err(); err != nil {
			return nil, fmt.Errorf("bind: open: %w", err)
		}
		st, err := os.Stat(p)
		if err != nil {
			errs = append(errs, &inputs.Error{Input: p, Err: err})
			continue
		}
		errs = append(errs, s.addInput(ctx, p, st.IsDir())...)
	}
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("bind: open: %w", err)
	}
	s.cat = cat
	s.inputs = append(s.inputs, others...)
	if err := s.addCatalog(ctx, &errs); err != nil {
		return nil, fmt.Errorf("bind: open: %w", err)
	}
	return s, errors.Join(errs...)
}

// Errors lists the errors err joins (Open's and NewWith's: one per input
// that failed), for callers that report each: nil for nil, err itself
// when it joins none.
func Errors(err error) []error {
	if err == nil {
		return nil
	}
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		return j.Unwrap()
	}
	return []error{err}
}

func newSet(opts Options) *Set {
	return &Set{opts: opts, byObj: map[objKey]*entry{}, byYAML: map[yamlKey]*entry{}, guidPath: map[string]string{}, prefabs: map[string]*yamlasset.File{}, gltfAvatars: map[*entry]*entry{}}
}

var _ bound.Library = (*Set)(nil)

// Close closes every input.
func (s *Set) Close() error {
	s.mu.Lock()
	for _, m := range s.meshSources {
		m.drop()
	}
	s.meshSources = nil
	s.mu.Unlock()
	if s.cat != nil {
		return s.cat.Close()
	}
	return nil
}

// Catalog returns the Unity files of the set, for the commands that list
// and dump raw objects.
func (s *Set) Catalog() *catalog.Catalog { return s.cat }

// add appends an entry of its kind.
func (s *Set) add(e *entry) *entry {
	e.index = len(s.entries[e.kind])
	s.entries[e.kind] = append(s.entries[e.kind], e)
	return e
}

// items lists the objects of a kind, in input order (an object's handle
// is its position), each with a label that tells it apart from others of
// its name.
func (s *Set) items(k Kind) []bound.Item {
	es := s.entries[k]
	count := map[string]int{}
	for _, e := range es {
		count[e.name]++
	}
	out := make([]bound.Item, len(es))
	for i, e := range es {
		out[i] = s.item(e)
		if count[e.name] > 1 {
			out[i].Label = fmt.Sprintf("%s (%s)", e.name, out[i].Ref)
		}
	}
	return out
}

// Clips lists the clips of the inputs; a clip's ClipID is its position.
func (s *Set) Clips() []bound.Item { return s.items(KindClip) }

// Characters lists the characters of the inputs; a character's
// CharacterID is its position.
func (s *Set) Characters() []bound.Item { return s.items(KindCharacter) }

// Avatars lists the avatars of the inputs; an avatar's AvatarID is its
// position.
func (s *Set) Avatars() []bound.Item { return s.items(KindAvatar) }

// Controllers lists the controllers of the inputs; a controller's
// ControllerID is its position.
func (s *Set) Controllers() []bound.Item { return s.items(KindController) }

// item is an entry as a listing shows it.
func (s *Set) item(e *entry) bound.Item {
	return bound.Item{Name: e.name, Source: e.src, Label: e.name, Ref: s.ref(e.src)}
}

// ref is the reference that chooses the object of a source on a command
// line: "FILE#PATHID", FILE the serialized file (or the container's base
// name when it is the file). When other inputs hold a serialized file of
// that name (two builds of one project: one CAB name, other contents), or
// a container of that base name, the container's path names it instead:
// "CONTAINER/FILE#PATHID" ("CONTAINER#PATHID" when the container is the
// file), so that every reference the set prints chooses one object.
func (s *Set) ref(src model.Source) string {
	s.refOnce.Do(s.indexNames)
	if src.File == "" || src.File == filepath.Base(src.Container) {
		if base := filepath.Base(src.Container); s.sharedName[base] || src.File != "" && s.sharedName[src.File] {
			return fmt.Sprintf("%s#%d", src.Container, src.PathID)
		}
		return fmt.Sprintf("%s#%d", filepath.Base(src.Container), src.PathID)
	}
	if s.sharedName[src.File] {
		return fmt.Sprintf("%s/%s#%d", src.Container, src.File, src.PathID)
	}
	return fmt.Sprintf("%s#%d", src.File, src.PathID)
}

// indexNames finds the serialized file names and container base names
// that more than one container of the inputs has (see ref).
func (s *Set) indexNames() {
	where := map[string]map[string]bool{} // name -> containers
	note := func(name, container string) {
		if where[name] == nil {
			where[name] = map[string]bool{}
		}
		where[name][container] = true
	}
	for k := range s.entries {
		for _, e := range s.entries[k] {
			if e.src.File != "" {
				note(e.src.File, e.src.Container)
			}
			note(filepath.Base(e.src.Container), e.src.Container)
		}
	}
	s.sharedName = map[string]bool{}
	for name, cs := range where {
		if len(cs) > 1 {
			s.sharedName[name] = true
		}
	}
}

// refPattern is a reference: an optional file, "#", a path id.
var refPattern = regexp.MustCompile(`^(.*)#(-?[0-9]+)$`)

// FindClip returns the clip sel chooses: a name, or a reference
// "#PATHID" or "FILE#PATHID" (FILE the serialized file, the container's
// base name or path, or a project asset's path), as every listing and
// refusal of the set gives it. A name that several different objects have
// is a *ChoiceError (ErrAmbiguous) listing each; the same asset shipped in
// several files (the same bytes) counts once. None is ErrNotFound.
func (s *Set) FindClip(sel string) (bound.ClipID, error) {
	i, err := s.find(KindClip, sel)
	return bound.ClipID(i), err
}

// FindCharacter returns the character sel chooses (see FindClip).
func (s *Set) FindCharacter(sel string) (bound.CharacterID, error) {
	i, err := s.find(KindCharacter, sel)
	return bound.CharacterID(i), err
}

// FindAvatar returns the avatar sel chooses (see FindClip).
func (s *Set) FindAvatar(sel string) (bound.AvatarID, error) {
	i, err := s.find(KindAvatar, sel)
	return bound.AvatarID(i), err
}

// FindController returns the controller sel chooses (see FindClip).
func (s *Set) FindController(sel string) (bound.ControllerID, error) {
	i, err := s.find(KindController, sel)
	return bound.ControllerID(i), err
}

// find returns the index of the object of kind k that sel chooses.
func (s *Set) find(k Kind, sel string) (int, error) {
	es := s.entries[k]
	if m := refPattern.FindStringSubmatch(sel); m != nil {
		pid, err := strconv.ParseInt(m[2], 10, 64)
		if err == nil {
			var hits []*entry
			for _, e := range es {
				if e.src.PathID == pid && (m[1] == "" || m[1] == e.src.File || m[1] == e.src.Container ||
					m[1] == filepath.Base(e.src.Container) || m[1] == filepath.Base(e.src.File) ||
					m[1] == e.src.Container+"/"+e.src.File) {
					hits = append(hits, e)
				}
			}
			if len(hits) > 0 {
				return s.one(k, sel, hits)
			}
		}
	}
	var hits []*entry
	for _, e := range es {
		if e.name == sel {
			hits = append(hits, e)
		}
	}
	if len(hits) == 0 {
		return -1, s.notFound(k, sel)
	}
	return s.one(k, sel, hits)
}

// one returns the single object hits stand for, or ErrAmbiguous.
func (s *Set) one(k Kind, sel string, hits []*entry) (int, error) {
	if distinct(hits) {
		return -1, s.ambiguous(k, fmt.Sprintf("%s %q names %d different objects", k, sel, len(hits)), hits)
	}
	return hits[0].index, nil
}

// distinct reports whether entries are different objects (not the same
// asset shipped several times).
func distinct(hits []*entry) bool {
	for _, e := range hits[1:] {
		if e.origin == nil || hits[0].origin == nil || !hits[0].origin.identical(e.origin) {
			return true
		}
	}
	return false
}

// ChoiceError is what a selection or a binding that could mean several
// different objects returns: what was asked, the kind of the objects and
// each candidate, so that the caller can say how to choose one (a command
// line by its option for the kind, a picker by listing them). It wraps
// ErrAmbiguous.
type ChoiceError struct {
	Kind       Kind
	What       string
	Candidates []bound.Item
}

// Error says what was ambiguous and lists each candidate by the reference
// that chooses it.
func (e *ChoiceError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%v: %s; choose one by reference:", ErrAmbiguous, e.What)
	for _, c := range e.Candidates {
		fmt.Fprintf(&b, "\n  %-40q %q in %s", c.Ref, c.Name, c.Source)
	}
	return b.String()
}

// Unwrap returns ErrAmbiguous.
func (e *ChoiceError) Unwrap() error { return ErrAmbiguous }

// ambiguous is a ChoiceError saying what, listing the candidates.
func (s *Set) ambiguous(k Kind, what string, hits []*entry) error {
	e := &ChoiceError{Kind: k, What: what}
	for _, h := range hits {
		e.Candidates = append(e.Candidates, s.item(h))
	}
	return e
}

// notFound lists what the set has of a kind, and the objects of the kind
// whose names could not be read (one of them may be the one asked for).
func (s *Set) notFound(k Kind, sel string) error {
	names := map[string]bool{}
	var have []string
	var unread []error
	for _, e := range s.entries[k] {
		if e.nameErr != nil {
			unread = append(unread, e.nameErr)
			continue
		}
		if !names[e.name] {
			names[e.name] = true
			have = append(have, strconv.Quote(e.name))
		}
	}
	sort.Strings(have)
	if len(have) > 12 {
		have = append(have[:12], fmt.Sprintf("... %d more", len(have)-12))
	}
	var err error
	switch {
	case len(have) == 0 && len(unread) > 0:
		err = fmt.Errorf("%w: no %s %q", ErrNotFound, k, sel)
	case len(have) == 0:
		err = fmt.Errorf("%w: no %s %q: the inputs hold no %s", ErrNotFound, k, sel, k)
	default:
		err = fmt.Errorf("%w: no %s %q (the inputs have %s)", ErrNotFound, k, sel, strings.Join(have, ", "))
	}
	switch len(unread) {
	case 0:
		return err
	case 1:
		return fmt.Errorf("%w; the name of one %s could not be read: %v", err, k, unread[0])
	}
	return fmt.Errorf("%w; the names of %d %ss could not be read, the first: %v", err, len(unread), k, unread[0])
}

// entry returns object i of kind k, or an error naming the index.
func (s *Set) entry(k Kind, i int) (*entry, error) {
	if i < 0 || i >= len(s.entries[k]) {
		return nil, fmt.Errorf("%w: no %s %d (the inputs have %d)", ErrNotFound, k, i, len(s.entries[k]))
	}
	return s.entries[k][i], nil
}
