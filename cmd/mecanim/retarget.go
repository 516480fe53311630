package main

import (
	"bufio"
	"fmt"
	"math"
	"os"

	"github.com/mecanim/mecanim/anim"
	"github.com/mecanim/mecanim/decode/catalog"
	"github.com/mecanim/mecanim/humanoid"
	"github.com/mecanim/mecanim/model"
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
	return c.run(args, check, func(cat *catalog.Catalog, o catalog.Object) error {
		clip, err := cat.Clip(o)
		if err != nil {
			return err
		}
		return retarget(e, cat, clip, *avatarName, *rate, *asJSON, *outPath)
	})
}

// retarget records clip on the avatar named as a humanoid clip and prints
// or writes its curves.
func retarget(e *env, cat *catalog.Catalog, clip *model.Clip, avatarName string, rate float64, asJSON bool, outPath string) error {
	ao, err := cat.One(model.ClassAvatar, "Avatar", avatarName)
	if err != nil {
		return err
	}
	av, err := cat.Avatar(ao)
	if err != nil {
		return err
	}
	rig, err := humanoid.NewRig(av)
	if err != nil {
		return err
	}
	var src humanoid.Sampler
	if clip.Humanoid {
		// Already humanoid: read back as this avatar shows it.
		hc, err := humanoid.Bake(clip, rig)
		if err != nil {
			return err
		}
		src = hc
	} else {
		gc, err := anim.Bake(clip, rig.Skeleton())
		if err != nil {
			return err
		}
		if gc.TrackCount() == 0 {
			return fmt.Errorf("clip %q animates none of avatar %q's bones (%d Transform channels name paths it lacks)", clip.Name, av.Name, gc.UnresolvedChannels())
		}
		src = gc
	}
	r := float32(rate)
	if r == 0 {
		r = clip.SampleRate
	}
	if !(r > 0) || r > humanoid.MaxRecordRate {
		r = defaultRetargetRate
	}
	hc, err := humanoid.Record(src, rig, r, clip.Name)
	if err != nil {
		return err
	}

	out := struct {
		Clip   string        `json:"clip"`
		On     string        `json:"on"`
		Rate   jsonFloat     `json:"rate"`
		Times  []jsonFloat   `json:"times"`
		Curves []sampleCurve `json:"curves"`
	}{Clip: hc.Name, On: fmt.Sprintf("avatar %q", av.Name), Rate: jsonFloat(hc.SampleRate)}
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
