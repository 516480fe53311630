package extract

import (
	"errors"
	"time"

	"github.com/mecanim/mecanim/bind"
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

// discover lists the inputs of the paths as every command finds them
// (bind.Discover), in extract's terms. The folder out (the output) is not
// walked.
func discover(paths []string, out string) (ins []input, skipped []ignored, failed []Failure) {
	found, passed, errs := bind.Discover(paths, out)
	for _, f := range found {
		ins = append(ins, input{path: f.Path, size: f.Size, modTime: f.ModTime, kind: f.Kind, other: !f.Built})
	}
	for _, p := range passed {
		skipped = append(skipped, ignored{p.Path, p.Why})
	}
	for _, err := range errs {
		in := ""
		var ie *bind.InputError
		if errors.As(err, &ie) {
			in = ie.Input
		}
		failed = append(failed, Failure{Input: in, Error: err.Error(), err: err})
	}
	return ins, skipped, failed
}
