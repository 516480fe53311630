package main

import (
	"io"
	"path/filepath"
	"strings"

	"github.com/mecanim/mecanim/bound"
	"github.com/mecanim/mecanim/export/curves"
	"github.com/mecanim/mecanim/internal/atomicfile"
)

// writeCurves writes, beside the file at path of a character made of a
// clip's own paths, the curves of its clips that glTF does not hold:
// NAME.curves.json and NAME.curves.csv (export/curves; a second clip's
// NAME.CLIP.curves.*). It returns the files written and, per motion,
// whether it has such curves.
func writeCurves(ch *bound.Character, motions []*bound.Motion, path string, rate float32) (files []string, has []bool, err error) {
	has = make([]bool, len(motions))
	if !ch.OwnPaths() {
		return nil, has, nil
	}
	base := strings.TrimSuffix(path, filepath.Ext(path))
	for i, m := range motions {
		t := curves.Of(m.Clip(), m.Source(), rate)
		if t == nil {
			continue
		}
		has[i] = true
		b := base
		if i > 0 {
			b += "." + m.Clip().Name
		}
		for _, f := range []struct {
			ext   string
			write func(io.Writer) error
		}{{".curves.json", t.WriteJSON}, {".curves.csv", t.WriteCSV}} {
			if err := atomicfile.Write(b+f.ext, f.write); err != nil {
				return files, has, err
			}
			files = append(files, b+f.ext)
		}
	}
	return files, has, nil
}
