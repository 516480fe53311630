package main

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"path/filepath"
	"strings"

	"github.com/mecanim/mecanim/bind"
	"github.com/mecanim/mecanim/decode/yamlasset"
	"github.com/mecanim/mecanim/humanoid"
)

// defaultRetargetRate is the rate of a recorded clip when neither --rate
// nor the source clip gives one.
const defaultRetargetRate = 30

// runRetarget records a clip playing on a humanoid character as a
// humanoid clip (RootT, RootQ, the IK goals, the 95 muscles) with
// humanoid.Record: a generic clip animating the character's bones (a glTF
// character's own animation, say) becomes a humanoid clip any humanoid
// avatar plays; a humanoid clip is read back as that avatar shows it. It
// prints the curves as `sample` does, or writes the clip with -o: as the
// editor's .anim asset (Unity imports it), or as JSON.
func runRetarget(e *env, args []string) error {
	c := newClipCommand(e, "retarget", "FILE... (--clip NAME | --path-id N) [--avatar NAME | --animator NAME | --onto FILE.vrm] [--rate HZ] [--json] [-o OUT.anim|OUT.json]")
	c.onFlags()
	rate := c.fs.Float64("rate", 0, "frames per second of the humanoid clip (default: the clip's own rate, else 30)")
	asJSON := c.fs.Bool("json", false, "JSON output (the shape of sample --json)")
	outPath := c.fs.String("o", "", "write the clip to this file instead of printing its curves: a Unity .anim (YAML), or .json")
	check := func() error {
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
	return c.run(args, check, func(set *bind.Set, i int) error {
		return retarget(e, c, set, i, *rate, *asJSON, *outPath)
	})
}

// retarget records clip i on the humanoid character --avatar, --animator
// or --onto chooses (else the one the clip plays on) and prints or writes
// its curves.
func retarget(e *env, c *clipCommand, set *bind.Set, i int, rate float64, asJSON bool, outPath string) error {
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

	out := struct {
		Clip   string        `json:"clip"`
		On     string        `json:"on"`
		Rate   jsonFloat     `json:"rate"`
		Times  []jsonFloat   `json:"times"`
		Curves []sampleCurve `json:"curves"`
	}{Clip: hc.Name, On: ch.Describe(), Rate: jsonFloat(hc.SampleRate)}
	if len(hc.Curves) > 0 {
		for i := range hc.Curves[0].Samples {
			t := float32(float64(i) / float64(hc.SampleRate))
			if t > hc.Stop {
				t = hc.Stop
			}
			out.Times = append(out.Times, jsonFloat(t))
		}
	}
	for i := range hc.Curves {
		cv := &hc.Curves[i]
		sc := sampleCurve{Path: targetPath(&cv.Target), ClassID: cv.Target.ClassID, Property: targetProperty(&cv.Target)}
		for _, v := range cv.Samples {
			sc.Values = append(sc.Values, jsonFloat(v))
		}
		out.Curves = append(out.Curves, sc)
	}

	if outPath != "" {
		err := writeFileAtomic(outPath, func(w io.Writer) error {
			if strings.EqualFold(filepath.Ext(outPath), ".anim") {
				return yamlasset.WriteClip(w, hc)
			}
			return writeJSONLine(w, out)
		})
		if err != nil {
			return err
		}
		fmt.Fprintf(e.stdout, "clip %q on %s: %d curves, %d frames at %g Hz written to %s\n", out.Clip, out.On, len(out.Curves), len(out.Times), hc.SampleRate, outPath)
	} else {
		w := bufio.NewWriter(e.stdout)
		if asJSON {
			err = writeJSONLine(w, out)
		} else {
			fmt.Fprintf(w, "humanoid clip %q recorded on %s, %d curves, %d frames at %g Hz\n%-28s", out.Clip, out.On, len(out.Curves), len(out.Times), hc.SampleRate, "property")
			for _, t := range out.Times {
				fmt.Fprintf(w, " %12s", fmt.Sprintf("t=%g", float32(t)))
			}
			fmt.Fprintln(w)
			for _, c := range out.Curves {
				fmt.Fprintf(w, "%-28s", c.Property)
				for _, v := range c.Values {
					fmt.Fprintf(w, " %12.6g", float32(v))
				}
				fmt.Fprintln(w)
			}
		}
		if ferr := w.Flush(); err == nil {
			err = ferr
		}
		if err != nil {
			return err
		}
	}
	return nil
}
