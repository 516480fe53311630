package extract

import (
	"context"
	"errors"
	"github.com/mecanim/mecanim/inputs"
)

// discover finds the inputs of the paths as every command finds them
// (inputs.Discover), their failures in extract's terms. The folder out (the
// output) is not walked.
func discover(ctx context.Context, paths []string, out string) (ins []inputs.Found, skipped []inputs.Passed, failed []Failure) {
	found, passed, errs := inputs.Discover(ctx, paths, out)
	for _, err := range errs {
		in := ""
		var ie *inputs.Error
		if errors.As(err, &ie) {
			in = ie.Input
		}
		failed = append(failed, Failure{Input: in, Error: err.Error(), err: err})
	}
	return found, passed, failed
}
