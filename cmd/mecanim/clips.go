package main

import (
	"bufio"
	"context"
	"fmt"
	"strconv"

	"github.com/mecanim/mecanim/bound"
	"github.com/mecanim/mecanim/model"
)

// clipRecord is one clip in `clips --json`.
type clipRecord struct {
	Container            string    `json:"container"`
	File                 string    `json:"file"`
	PathID               int64     `json:"path_id"`
	Ref                  string    `json:"ref"`
	Name                 string    `json:"name"`
	Length               jsonFloat `json:"length"`
	SampleRate           jsonFloat `json:"sample_rate"`
	Legacy               bool      `json:"legacy"`
	Humanoid             bool      `json:"humanoid"`
	Loop                 bool      `json:"loop"`
	Streamed             int       `json:"streamed_curves"`
	Dense                int       `json:"dense_curves"`
	Constant             int       `json:"constant_curves"`
	Keyframed            int       `json:"keyframed_curves"`
	IntCurves            int       `json:"int_curves"`
	ObjectCurves         int       `json:"object_curves"`
	Bindings             int       `json:"bindings"`
	Events               int       `json:"events"`
	UnresolvedPaths      int       `json:"unresolved_paths"`
	UnresolvedProperties int       `json:"unresolved_properties"`
	KeysPastCurveCount   int       `json:"keys_past_curve_count"`
	// NotFinite counts the float curves holding a value that is NaN or
	// infinite (each named in a note).
	NotFinite int `json:"not_finite_curves"`
}

func clipLength(c *model.Clip) float32 {
	if c.Legacy {
		var end float32
		for i := range c.Curves {
			if k := c.Curves[i].Keys; len(k) > 0 && k[len(k)-1].Time > end {
				end = k[len(k)-1].Time
			}
		}
		for i := range c.IntCurves {
			if k := c.IntCurves[i].Keys; len(k) > 0 && k[len(k)-1].Time > end {
				end = k[len(k)-1].Time
			}
		}
		for i := range c.ObjectCurves {
			if k := c.ObjectCurves[i].Keys; len(k) > 0 && k[len(k)-1].Time > end {
				end = k[len(k)-1].Time
			}
		}
		return end
	}
	return c.Length()
}

const clipsSynopsis = "FILE... [--json]"

const clipsAbout = `
Lists every animation clip of the files: name, length in seconds, sample
rate, legacy or Mecanim, humanoid, loop, curves per block (streamed,
dense, constant; keyframed for legacy and editor clips; integer curves of
int, enum and hash properties), bindings, events,
channels whose path or property no name table names, and the reference
(FILE#PATHID) that chooses the clip when several share its name. --json
prints one JSON object per clip, per line (schema docs/schema/clips.json).
Files with no clip say so, and the command exits 1.`

func runClips(e *env, args []string) error {
	fs := newFlags(e, "clips", clipsSynopsis)
	asJSON := fs.Bool("json", false, "one JSON object per clip, one per line")
	var rf readerFlags
	rf.register(fs)
	files, err := parseArgs(fs, args)
	if err != nil {
		return err
	}
	set, _, err := openSet(context.Background(), e, "clips", files, &rf)
	if err != nil {
		return err
	}
	defer set.Close()
	items := set.Clips()
	if len(items) == 0 {
		if e.failures < len(files) {
			e.failf("no clip in the inputs")
		}
		return e.done()
	}
	w := bufio.NewWriter(e.stdout)
	defer w.Flush()
	if !*asJSON {
		fmt.Fprintf(w, "%-28s %10s %6s %-6s %-8s %-4s %8s %5s %5s %5s %5s %6s %10s  %s\n",
			"name", "length(s)", "rate", "kind", "humanoid", "loop", "streamed", "dense", "const", "keys", "binds", "events", "unresolved", "ref")
	}
	for i, it := range items {
		c, err := set.Clip(bound.ClipID(i))
		if err != nil {
			e.fail(err)
			continue
		}
		o := it.Source
		r := clipRecord{
			Container: o.Container, File: o.File, PathID: o.PathID, Name: c.Name, Ref: it.Ref,
			Length: jsonFloat(clipLength(c)), SampleRate: jsonFloat(c.SampleRate), Legacy: c.Legacy, Humanoid: c.Humanoid,
			Loop: c.Loops(), Streamed: c.Stats.Streamed, Dense: c.Stats.Dense, Constant: c.Stats.Constant,
			Keyframed: c.Stats.Keyframed, IntCurves: len(c.IntCurves), ObjectCurves: len(c.ObjectCurves), Bindings: c.Stats.Bindings,
			Events: len(c.Events), UnresolvedPaths: c.Stats.UnresolvedPaths,
			UnresolvedProperties: c.Stats.UnresolvedProperties, KeysPastCurveCount: c.Stats.KeysPastCurveCount,
		}
		nf := c.NotFinite()
		r.NotFinite = len(nf)
		for _, x := range nf {
			e.notef("%s: clip %q: %v: read as it is, held where it would enter a pose", o, c.Name, x)
		}
		if r.KeysPastCurveCount > 0 {
			e.notef("%s: %d streamed keys index curves past the block's curve count (kept and counted, see the spec)", o, r.KeysPastCurveCount)
		}
		if *asJSON {
			if err := writeJSONLine(w, r); err != nil {
				return err
			}
			continue
		}
		kind := "mecanim"
		if c.Legacy {
			kind = "legacy"
		}
		fmt.Fprintf(w, "%-28s %10.4g %6g %-6s %-8v %-4v %8d %5d %5d %5d %5d %6d %10d  %s\n",
			strconv.Quote(c.Name), float32(r.Length), float32(r.SampleRate), kind, r.Humanoid, r.Loop, r.Streamed, r.Dense,
			r.Constant, r.Keyframed, r.Bindings, r.Events, r.UnresolvedPaths+r.UnresolvedProperties, it.Ref)
	}
	return e.done()
}
