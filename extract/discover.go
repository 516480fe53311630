package extract

import (
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

	"github.com/mecanim/mecanim/bind"
	"github.com/mecanim/mecanim/internal/samefile"
	"github.com/mecanim/mecanim/unity/assets"
	"github.com/mecanim/mecanim/unity/serialized"
	"github.com/mecanim/mecanim/unity/unityfs"
	"github.com/mecanim/mecanim/unity/webdata"
)

// input is one Unity file found among the paths given, or one of the
// other inputs the set reads (other: a glTF character, a model's
// settings, an editor YAML asset, a project folder).
type input struct {
	path    string    // as opened (a split file's first part)
	size    int64     // bytes on disk (all parts of a split file; a project's assets and .meta files)
	modTime time.Time // the latest of its parts
	kind    string    // what its first bytes say it is
	other   bool      // read by bind, not as a built Unity file
}

// ignored is a file found in a folder that is not read, and why.
type ignored struct {
	path, why string
}

// discover lists the Unity files of the paths: files as given, folders
// walked (in name order) for every file whose first bytes are a Unity
// file's (UnityFS, UnityWebData, gzip or brotli WebGL data, a serialized
// file) and the first parts of split files. A file given twice, or of the
// same content as an earlier one (a mod's bundle shipped twice), counts
// once. Folder files that are not read are listed with why; a path that
// cannot be read is a failure. The folder out (the output) is not walked.
func discover(paths []string, out string) (ins []input, skipped []ignored, failed []Failure) {
	seen := map[string]bool{}
	var same samefile.Index
	outAbs, _ := filepath.Abs(out)
	add := func(p string, explicit bool) {
		if base, part, ok := assets.SplitBase(p); ok && part > 0 {
			if !explicit {
				return // read with the first part
			}
			p = base + ".split0"
		}
		abs, err := filepath.Abs(p)
		if err == nil {
			if seen[abs] {
				return
			}
			seen[abs] = true
		}
		in, why, err := classify(p)
		switch {
		case err != nil:
			failed = append(failed, Failure{Input: p, Error: err.Error(), err: err})
		case why != "" && explicit:
			failed = append(failed, Failure{Input: p, Error: why})
		case why != "":
			skipped = append(skipped, ignored{p, why})
		default:
			if first, dup := sameAs(&same, in); dup {
				skipped = append(skipped, ignored{p, "the same content as " + first + " (counted once)"})
				return
			}
			ins = append(ins, in)
		}
	}
	for _, p := range paths {
		st, err := os.Stat(p)
		if err != nil {
			// The whole name of a split file, whose parts are on disk.
			if _, serr := os.Stat(p + ".split0"); serr == nil {
				add(p+".split0", true)
				continue
			}
			failed = append(failed, Failure{Input: p, Error: err.Error(), err: err})
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
			if err != nil {
				failed = append(failed, Failure{Input: q, Error: err.Error(), err: err})
				if d != nil && d.IsDir() {
					return fs.SkipDir
				}
				return nil
			}
			if d.IsDir() {
				if abs, err := filepath.Abs(q); err == nil && abs == outAbs {
					return fs.SkipDir
				}
			}
			if d.Type().IsRegular() {
				files = append(files, q)
			}
			return nil
		})
		if err != nil {
			failed = append(failed, Failure{Input: p, Error: err.Error(), err: err})
		}
		sort.Strings(files)
		files, project := projectOf(p, files)
		if project != nil {
			ins = append(ins, *project)
		}
		for _, q := range files {
			add(q, false)
		}
	}
	return ins, skipped, failed
}

// projectOf finds the editor's YAML assets among the files of a folder
// walked: when there are any, the folder is a project (or a ripped one),
// read as one input so that the GUIDs of its .meta files resolve the
// references between its assets. It returns the files left to classify
// one by one, and the project input.
func projectOf(dir string, files []string) (rest []string, project *input) {
	var yaml, metas []string
	for _, q := range files {
		switch k := bind.InputKind(q); {
		case k == bind.InputYAML:
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
	in := &input{path: dir, kind: bind.InputProject, other: true}
	for _, q := range append(yaml, metas...) {
		if st, err := os.Stat(q); err == nil {
			in.size += st.Size()
			if st.ModTime().After(in.modTime) {
				in.modTime = st.ModTime()
			}
		}
	}
	return rest, in
}

// classify reads the first bytes of a file to tell whether it is a Unity
// file; why says why not.
func classify(p string) (in input, why string, err error) {
	if base, _, ok := assets.SplitBase(p); ok {
		return splitInput(p, base)
	}
	lower := strings.ToLower(p)
	for _, ext := range []string{".ress", ".resource"} {
		if strings.HasSuffix(lower, ext) {
			return input{}, "streamed data of a serialized file (read through it)", nil
		}
	}
	f, err := os.Open(p)
	if err != nil {
		return input{}, "", err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return input{}, "", err
	}
	prefix := make([]byte, 64)
	n, err := io.ReadFull(f, prefix)
	if err != nil && err != io.ErrUnexpectedEOF && err != io.EOF {
		return input{}, "", err
	}
	if k := bind.InputKindOf(p, prefix[:n]); k != "" {
		return input{path: p, size: st.Size(), modTime: st.ModTime(), kind: k, other: true}, "", nil
	}
	kind := sniff(prefix[:n], p, st.Size())
	if kind == "" && namedLikeUnity(p) {
		// Damaged, most likely: the reader says what is wrong.
		kind = "unrecognised"
	}
	if kind == "" {
		return input{}, "not a Unity file", nil
	}
	return input{path: p, size: st.Size(), modTime: st.ModTime(), kind: kind}, "", nil
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
func splitInput(first, base string) (input, string, error) {
	in := input{path: first, kind: "split " + string(assets.KindSerialized)}
	for i := 0; ; i++ {
		st, err := os.Stat(fmt.Sprintf("%s.split%d", base, i))
		if errors.Is(err, os.ErrNotExist) && i > 0 {
			break
		}
		if err != nil {
			return input{}, "", err
		}
		in.size += st.Size()
		if st.ModTime().After(in.modTime) {
			in.modTime = st.ModTime()
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

// sameAs reports whether an earlier input has in's content, and which;
// split files (whose parts are read as one) are never compared.
func sameAs(x *samefile.Index, in input) (string, bool) {
	if strings.HasPrefix(in.kind, "split ") {
		return "", false
	}
	return x.Seen(in.path, in.size)
}
