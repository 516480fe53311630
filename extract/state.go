package extract

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"sync"

	"github.com/mecanim/mecanim/internal/atomicfile"
)

// What lets a second run skip what is up to date, and an interrupted run
// be finished: every output, once renamed into place, is recorded in a
// journal in the output folder with a stamp of everything it was made from
// (the version of this package's output, the options, the output's plan,
// and the size and time of every input file its objects come from). A run
// skips an output whose file exists with the stamp recorded; a run whose
// inputs and options are all as the last complete run's skips everything
// without reading the files.

// journalName is the journal's file name in the output folder.
const journalName = ".mecanim-extract.journal"

// tmpPattern is how temporary files are named (removed when a write
// fails, and at the start of a run for those an abrupt stop left).

// stampVersion changes whenever what this package writes for the same
// inputs changes, so outputs of an older version are redone.
const stampVersion = "mecanim extract 1"

// journal is the record of the outputs written.
type journal struct {
	path string

	mu      sync.Mutex
	f       *os.File
	stamps  map[string]string // output -> its stamp, a space, what writing it gave (JSON)
	inputs  string            // stamp of the inputs of the last complete run
	outputs []string          // outputs of the last complete run
}

// record is one journal line.
type record struct {
	Output  string   `json:"output,omitempty"`
	Stamp   string   `json:"stamp,omitempty"`
	Inputs  string   `json:"inputs,omitempty"`  // a complete run's inputs stamp
	Outputs []string `json:"outputs,omitempty"` // and its outputs
}

// openJournal reads the journal of dir (a torn last line is ignored) and
// opens it to append to.
func openJournal(dir string) (*journal, error) {
	j := &journal{path: filepath.Join(dir, journalName), stamps: map[string]string{}}
	if b, err := os.ReadFile(j.path); err == nil {
		sc := bufio.NewScanner(bytes.NewReader(b))
		sc.Buffer(nil, 64<<20)
		for sc.Scan() {
			var r record
			if json.Unmarshal(sc.Bytes(), &r) != nil {
				continue
			}
			if r.Output != "" {
				j.stamps[r.Output] = r.Stamp
			}
			if r.Inputs != "" {
				j.inputs, j.outputs = r.Inputs, r.Outputs
			}
		}
	}
	f, err := os.OpenFile(j.path, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return nil, err
	}
	j.f = f
	return j, nil
}

// addInfo records an output written: its stamp and what writing it gave.
func (j *journal) addInfo(output, info string) error {
	b, _ := json.Marshal(record{Output: output, Stamp: info})
	j.mu.Lock()
	defer j.mu.Unlock()
	j.stamps[output] = info
	_, err := j.f.Write(append(b, '\n'))
	return err
}

// complete rewrites the journal as the record of a complete run: its
// outputs' stamps and the stamp of its inputs.
func (j *journal) complete(inputs string, outputs []string) error {
	j.mu.Lock()
	defer j.mu.Unlock()
	sort.Strings(outputs)
	return atomicfile.Write(j.path, func(w io.Writer) error {
		enc := json.NewEncoder(w)
		for _, o := range outputs {
			if s, ok := j.stamps[o]; ok {
				if err := enc.Encode(record{Output: o, Stamp: s}); err != nil {
					return err
				}
			}
		}
		return enc.Encode(record{Inputs: inputs, Outputs: outputs})
	})
}

func (j *journal) close() error { return j.f.Close() }

// stamp hashes the parts of a stamp.
func stamp(parts ...string) string {
	h := sha256.New()
	for _, p := range parts {
		fmt.Fprintf(h, "%d:%s\n", len(p), p)
	}
	return hex.EncodeToString(h.Sum(nil)[:16])
}

// removeStaleTemps removes the temporary files an abrupt stop (a second
// Ctrl-C, a kill) left in dir and its subfolders.
func removeStaleTemps(dir string) {
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() && atomicfile.IsTemp(d.Name()) {
			os.Remove(p)
		}
		return nil
	})
}
