package extract

import (
	"errors"

	"github.com/mecanim/mecanim/bind"
)

// discover finds the inputs of the paths as every command finds them
// (bind.Discover), their failures in extract's terms. The folder out (the
// output) is not walked.
func discover(paths []string, out string) (ins []bind.Found, skipped []bind.Passed, failed []Failure) {
	found, passed, errs := bind.Discover(paths, out)
	for _, err := range errs {
		in := ""
		var ie *bind.InputError
		if errors.As(err, &ie) {
			in = ie.Input
		}
		failed = append(failed, Failure{Input: in, Error: err.Error(), err: err})
	}
	return found, passed, failed
}
