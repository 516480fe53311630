package main

import (
	"bufio"
	"fmt"
	"math"
	"os"

	"github.com/mecanim/mecanim/bind"
	"github.com/mecanim/mecanim/humanoid"
)

// defaultRetargetRate is the rate of a recorded clip when neither --rate
// nor the source clip gives one.
const defaultRetargetRate = 30

// runRetarget turns a clip playing on a humanoid avatar's skeleton into a
// humanoid clip (RootT, RootQ, the 95 muscles) with humanoid.Record and
// prints its curves as `sample` does, or writes them as JSON with -o.
func runRetarget(e *env, args []string) error {
	c := newClipCommand(e, "retarget", "FILE... (--clip NAME | --path-id N) --avatar NAME [--rate HZ] [--json] [-o OUT.json]")
	avatarName := c.fs.String("avatar", "", "humanoid avatar whose skeleton the clip plays on (required)")
	rate := c.fs.Float64("rate", 0, "frames per second of the humanoid clip (default: the clip's own rate, else 30)")
	asJSON := c.fs.Bool("json", false, "JSON output (the shape of sample --json)")
	outPath := c.fs.String("o", "", "write the JSON to this file instead of printing the curves")
	check := func() error {
		if *avatarName == "" {
			return usagef("give --avatar NAME: the humanoid avatar whose skeleton the clip animates")
		}
		if !(*rate >= 0) || *rate > humanoid.MaxRecordRate || math.IsInf(*rate, 0) {
			return usagef("--rate %g is not a rate from 0 to %d Hz", *rate, humanoid.MaxRecordRate)
		}
		return nil
	}
	return c.run(args, check, func(set *bind.Set, i int) error {
		return retarget(e, set, i, *avatarName, *rate, *asJSON, *outPath)
	})
}

// retarget records clip i on the avatar named (on its character when the
// inputs hold it) as a humanoid clip and prints or writes its curves.
func retarget(e *env, set *bind.Set, i int, avatarName string, rate float64, asJSON bool, outPath string) error {
	ai, err := set.Find(bind.KindAvatar, avatarName)
	if err != nil {
		return err
	}
	ch, err := set.AvatarCharacter(ai)
	if err != nil {
		return err
	}
	av, _ := ch.Avatar()
	if ch.Human() == nil {
		return fmt.Errorf("avatar %q is not humanoid", av.Name)
	}
	m, err := bindOn(set, i, ch)
	if err != nil {
		return err
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
		f, err := os.Create(outPath)
		if err != nil {
			return err
		}
		w := bufio.NewWriter(f)
		err = writeJSONLine(w, out)
		if ferr := w.Flush(); err == nil {
			err = ferr
		}
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return fmt.Errorf("writing %s: %w", outPath, err)
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
