package main

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"path/filepath"
	"strings"

	"github.com/mecanim/mecanim/bind"
	"github.com/mecanim/mecanim/bound"
	"github.com/mecanim/mecanim/decode/yamlasset"
	"github.com/mecanim/mecanim/humanoid"
	"github.com/mecanim/mecanim/internal/atomicfile"
)

// defaultRetargetRate is the rate of a recorded clip when neither --rate
// nor the source clip gives one.
const defaultRetargetRate = 30

const retargetSynopsis = "FILE... (--clip NAME | --path-id N) [--avatar NAME | --animator NAME | --onto FILE.vrm] [--rate HZ] [--json | --csv] [-o OUT.anim|OUT.json]"

const retargetAbout = `
Records a clip playing on a humanoid character as a humanoid clip: RootT,
RootQ, the IK goals and the 95 muscles, at --rate frames per second
(default: the clip's own rate, else 30). A generic clip animating the
character's bones (a glTF character's own animation, say) becomes a
humanoid clip any humanoid avatar plays; a humanoid clip is read back as
that avatar shows it. --avatar, --animator or --onto choose the character
(else the one the clip plays on).

The table is sample's: one row per time, one column per curve; --csv and
--json as in sample (schema docs/schema/retarget.json). -o writes the clip
to a file instead: the editor's .anim asset (Unity imports it), or the JSON;
what was written is noted on stderr.`

// retargetJSON is what retarget --json prints (and -o OUT.json writes).
type retargetJSON struct {
	Clip       objectRef     `json:"clip"`
	On         characterRef  `json:"on"`
	SampleRate jsonFloat     `json:"sample_rate"`
	Curves     []curveJSON   `json:"curves"`
	Frames     []valuesFrame `json:"frames"`
}

// runRetarget records a clip playing on a humanoid character as a
// humanoid clip with humanoid.Record, and prints its curves as `sample`
// does, or writes the clip with -o.
func runRetarget(e *env, args []string) error {
	c := newClipCommand(e, "retarget", retargetSynopsis)
	c.onFlags()
	rate := c.fs.Float64("rate", 0, "frames per second of the humanoid clip (default: the clip's own rate, else 30)")
	format := formatFlags(c)
	outPath := c.fs.String("o", "", "write the clip to this file instead of printing its curves: a Unity .anim (YAML), or .json")
	var f tableFormat
	check := func() error {
		var err error
		if f, err = format(); err != nil {
			return err
		}
		if !(*rate >= 0) || *rate > humanoid.MaxRecordRate || math.IsInf(*rate, 0) {
			return usagef("--rate %g is not a rate from 0 to %d Hz", *rate, humanoid.MaxRecordRate)
		}
		switch strings.ToLower(filepath.Ext(*outPath)) {
		case "", ".anim", ".json":
		default:
			return usagef("-o %s: write a .anim or a .json", *outPath)
		}
		return nil
	}
	return c.run(args, check, func(set *bind.Set, i bound.ClipID) error {
		return retarget(e, c, set, i, *rate, f, *outPath)
	})
}

// retarget records clip i on the humanoid character --avatar, --animator
// or --onto chooses (else the one the clip plays on) and prints or writes
// its curves.
func retarget(e *env, c *clipCommand, set *bind.Set, i bound.ClipID, rate float64, f tableFormat, outPath string) error {
	m, err := c.motion(set, i)
	if err != nil {
		return err
	}
	ch := m.On()
	if ch.Human() == nil {
		return fmt.Errorf("%s has no humanoid avatar: a clip can be recorded only as a humanoid character shows it (choose one with --avatar, --animator or --onto)", ch.Describe())
	}
	clip := m.Clip()
	if g := m.Generic(); g != nil && g.TrackCount() == 0 {
		return fmt.Errorf("clip %q animates none of %s's bones (%d Transform channels name paths it lacks)", clip.Name, ch.Describe(), g.UnresolvedChannels())
	}
	r := float32(rate)
	if r == 0 {
		r = clip.SampleRate
	}
	if !(r > 0) || r > humanoid.MaxRecordRate {
		r = defaultRetargetRate
	}
	hc, err := humanoid.Record(m, ch.Human(), r, clip.Name)
	if err != nil {
		return err
	}

	out := retargetJSON{Clip: refOf(clip.Name, m.Source()), On: characterOf(ch), SampleRate: jsonFloat(hc.SampleRate),
		Curves: make([]curveJSON, len(hc.Curves)), Frames: []valuesFrame{}}
	for i := range hc.Curves {
		out.Curves[i] = curveOf(&hc.Curves[i].Target)
	}
	if len(hc.Curves) > 0 {
		for k := range hc.Curves[0].Samples {
			t := float32(float64(k) / float64(hc.SampleRate))
			if t > hc.Stop {
				t = hc.Stop
			}
			fr := valuesFrame{Time: jsonFloat(t), Values: make([]tableValue, len(hc.Curves))}
			for i := range hc.Curves {
				fr.Values[i] = floatValue(hc.Curves[i].Samples[k])
			}
			out.Frames = append(out.Frames, fr)
		}
	}

	if outPath != "" {
		err := atomicfile.Write(outPath, func(w io.Writer) error {
			if strings.EqualFold(filepath.Ext(outPath), ".anim") {
				return yamlasset.WriteClip(w, hc)
			}
			return writeJSONLine(w, out)
		})
		if err != nil {
			return err
		}
		e.notef("clip %q on %s: %d curves, %d frames at %g Hz written to %s", clip.Name, ch.Describe(), len(out.Curves), len(out.Frames), hc.SampleRate, outPath)
		return nil
	}
	w := bufio.NewWriter(e.stdout)
	title := fmt.Sprintf("humanoid clip %q (%s) recorded on %s, %d curves, %d frames at %g Hz", clip.Name, m.Source(), ch.Describe(), len(out.Curves), len(out.Frames), hc.SampleRate)
	err = writeTable(w, f, out, title)
	if ferr := w.Flush(); err == nil {
		err = ferr
	}
	return err
}
