package inputs

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"time"

	"github.com/mecanim/mecanim/internal/samefile"
	"github.com/mecanim/mecanim/unity/assets"
	"github.com/mecanim/mecanim/unity/serialized"
	"github.com/mecanim/mecanim/unity/unityfs"
	"github.com/mecanim/mecanim/unity/webdata"
)

// Found is one input Discover found: a built Unity file, or one of the
// other inputs a set reads (a glTF character, a model's settings, an
// editor YAML asset or package, a project folder).
type Found struct {
	// Path is as the input is opened: a split file's first part, a
	// project's folder.
	Path string
	// Size is its bytes on disk (every part of a split file; a project's
	// assets and .meta files); ModTime the latest of them.
	Size    int64
	ModTime time.Time
	// Kind is what its first bytes say it is: an assets.Kind, "split
	// SerializedFile", "gzip WebGL data", "unrecognised" (a file given, or
	// named as Unity names its files, that starts like none: the reader
	// says what is wrong), or a Kind of KindOf.
	Kind string
	// Built reports a built Unity file (read through the catalog).
	Built bool
}

// Passed is a file of a folder given that is not read, and why; Same
// names the earlier input of the same content when that is why.
type Passed struct {
	Path, Why, Same string
}

// Discover finds the inputs among paths, as every command reads them:
// files as given; folders walked (in name order) for every file whose
// first bytes are a built Unity file's (UnityFS, UnityWebData, gzip or
// brotli WebGL data, a serialized file), the first parts of split files,
// the inputs KindOf names, and, where a folder holds editor YAML
// assets, the folder as one Project (its .meta GUIDs resolve the
// references between them). A file given twice, or of the same content as
// an earlier one (a mod's bundle shipped twice), counts once. Hidden
// folders and a project's Library, Temp and obj are not walked, nor the
// folder skip (an output folder inside the input). A path that cannot be
// read is an *Error. ctx is checked between files: when it ends, Discover
// returns what it found so far and, last of its errors, one wrapping
// ctx.Err().
func Discover(ctx context.Context, paths []string, skip string) (found []Found, passed []Passed, errs []error) {
	seen := map[string]bool{}
	var same samefile.Index
	skipAbs := ""
	if skip != "" {
		skipAbs, _ = filepath.Abs(skip)
	}
	add := func(p string, explicit bool) {
		if base, part, ok := assets.SplitBase(p); ok && part > 0 {
			if !explicit {
				return // read with the first part
			}
			p = base + ".split0"
		}
		if abs, err := filepath.Abs(p); err == nil {
			if seen[abs] {
				return
			}
			seen[abs] = true
		}
		in, why, err := classify(p, explicit)
		switch {
		case err != nil:
			errs = append(errs, &Error{Input: p, Err: err})
		case why != "" && explicit:
			errs = append(errs, &Error{Input: p, Err: errors.New(why)})
		case why != "":
			passed = append(passed, Passed{Path: p, Why: why})
		default:
			if first, dup := sameContent(&same, in); dup {
				passed = append(passed, Passed{Path: p, Why: "the same content as " + first + " (counted once)", Same: first})
				return
			}
			found = append(found, in)
		}
	}
	ended := func() bool {
		if err := ctx.Err(); err != nil {
			errs = append(errs, fmt.Errorf("inputs: discover: %w", err))
			return true
		}
		return false
	}
	for _, p := range paths {
		if ended() {
			return found, passed, errs
		}
		st, err := os.Stat(p)
		if err != nil {
			// The whole name of a split file, whose parts are on disk.
			if _, serr := os.Stat(p + ".split0"); serr == nil {
				add(p+".split0", true)
				continue
			}
			errs = append(errs, &Error{Input: p, Err: err})
			continue
		}
		if !st.IsDir() {
			add(p, true)
			continue
		}
		if abs, err := filepath.Abs(p); err == nil {
			if seen[abs] {
				continue // a folder given twice is read once
			}
			seen[abs] = true
		}
		var files []string
		err = filepath.WalkDir(p, func(q string, d fs.DirEntry, err error) error {
			if ctx.Err() != nil {
				return fs.SkipAll
			}
			if err != nil {
				errs = append(errs, &Error{Input: q, Err: err})
				if d != nil && d.IsDir() {
					return fs.SkipDir
				}
				return nil
			}
			if d.IsDir() {
				if q != p && NotWalked(d.Name()) {
					return fs.SkipDir
				}
				if abs, err := filepath.Abs(q); err == nil && abs == skipAbs {
					return fs.SkipDir
				}
			}
			if d.Type().IsRegular() {
				files = append(files, q)
			}
			return nil
		})
		if err != nil {
			errs = append(errs, &Error{Input: p, Err: err})
		}
		sort.Strings(files)
		files, project := projectOf(p, files)
		if project != nil {
			found = append(found, *project)
		}
		for _, q := range files {
			if ended() {
				return found, passed, errs
			}
			add(q, false)
		}
	}
	ended()
	return found, passed, errs
}

// NotWalked reports a folder a walk passes over: hidden ones, and the
// editor's caches in a project (Library holds imported copies of every
// asset, which would make each name ambiguous).
func NotWalked(name string) bool {
	return strings.HasPrefix(name, ".") || name == "Library" || name == "Temp" || name == "obj"
}

// projectOf finds the editor's YAML assets among the files of a folder
// walked: when there are any, the folder is a project (or a ripped one),
// read as one input. It returns the files left to classify one by one,
// and the project input.
func projectOf(dir string, files []string) (rest []string, project *Found) {
	var yaml, metas []string
	for _, q := range files {
		switch k := KindOf(q); {
		case k == YAML:
			yaml = append(yaml, q)
		case k == "" && strings.EqualFold(filepath.Ext(q), ".meta"):
			metas = append(metas, q)
		default:
			rest = append(rest, q)
		}
	}
	if len(yaml) == 0 {
		return files, nil
	}
	in := &Found{Path: dir, Kind: Project}
	for _, q := range append(yaml, metas...) {
		if st, err := os.Stat(q); err == nil {
			in.Size += st.Size()
			if st.ModTime().After(in.ModTime) {
				in.ModTime = st.ModTime()
			}
		}
	}
	return rest, in
}

// classify reads the first bytes of a file to tell what input it is; why
// says why it is none. A file given (explicit) that starts like no Unity
// file is still read as one: the reader says what is wrong.
func classify(p string, explicit bool) (in Found, why string, err error) {
	if base, _, ok := assets.SplitBase(p); ok {
		return splitInput(p, base)
	}
	lower := strings.ToLower(p)
	for _, ext := range []string{".ress", ".resource"} {
		if strings.HasSuffix(lower, ext) {
			return Found{}, "streamed data of a serialized file (read through it)", nil
		}
	}
	f, err := os.Open(p)
	if err != nil {
		return Found{}, "", err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return Found{}, "", err
	}
	prefix := make([]byte, 64)
	n, err := io.ReadFull(f, prefix)
	if err != nil && err != io.ErrUnexpectedEOF && err != io.EOF {
		return Found{}, "", err
	}
	if k := KindOfHead(p, prefix[:n]); k != "" {
		return Found{Path: p, Size: st.Size(), ModTime: st.ModTime(), Kind: k}, "", nil
	}
	kind := sniff(prefix[:n], p, st.Size())
	if kind == "" && (explicit || namedLikeUnity(p)) {
		// Damaged, most likely: the reader says what is wrong.
		kind = "unrecognised"
	}
	if kind == "" {
		return Found{}, "not a Unity file", nil
	}
	return Found{Path: p, Size: st.Size(), ModTime: st.ModTime(), Kind: kind, Built: true}, "", nil
}

// sniff names the kind of Unity file prefix starts, or "".
func sniff(prefix []byte, name string, size int64) string {
	switch {
	case unityfs.IsUnityFS(prefix):
		return string(assets.KindUnityFS)
	case webdata.IsWebData(prefix):
		return string(assets.KindWebData)
	case serialized.IsSerializedFile(prefix, size):
		return string(assets.KindSerialized)
	}
	if c := webdata.Detect(prefix, name); c != webdata.CompressionNone {
		return c.String() + " WebGL data"
	}
	return ""
}

// splitInput describes a split file from its parts.
func splitInput(first, base string) (Found, string, error) {
	in := Found{Path: first, Kind: "split " + string(assets.KindSerialized), Built: true}
	for i := 0; ; i++ {
		st, err := os.Stat(fmt.Sprintf("%s.split%d", base, i))
		if errors.Is(err, os.ErrNotExist) && i > 0 {
			break
		}
		if err != nil {
			return Found{}, "", err
		}
		in.Size += st.Size()
		if st.ModTime().After(in.ModTime) {
			in.ModTime = st.ModTime()
		}
	}
	return in, "", nil
}

// unityName matches the names Unity gives the data files of a player and
// the usual names of asset bundles.
var unityName = regexp.MustCompile(`(?i)^(level[0-9]+|sharedassets[0-9]+\.assets|resources\.assets|globalgamemanagers(\.assets)?|unity default resources|.*\.(assets|bundle|unity3d|ab|data|unityweb))$`)

// namedLikeUnity reports whether a file's name is one Unity gives its
// data files: such a file that does not start like one is damaged, and
// is reported rather than passed over.
func namedLikeUnity(p string) bool { return unityName.MatchString(filepath.Base(p)) }

// sameContent reports whether an earlier input has in's content, and
// which; split files (whose parts are read as one) and project folders
// are never compared.
func sameContent(x *samefile.Index, in Found) (string, bool) {
	if strings.HasPrefix(in.Kind, "split ") || in.Kind == Project {
		return "", false
	}
	return x.Seen(in.Path, in.Size)
}
