package main

import (
	"bufio"
	"fmt"
	"io"
	"math"

	"github.com/mecanim/mecanim/bind"
	"github.com/mecanim/mecanim/humanoid"
)

// defaultRetargetRate is the rate of a recorded clip when neither --rate
// nor the source clip gives one.
const defaultRetargetRate = 30

const retargetSynopsis = "FILE... (--clip NAME | --path-id N) (--avatar NAME | --animator NAME) [--rate HZ] [--json | --csv] [-o OUT.json]"

const retargetAbout = `
Plays a clip on a humanoid avatar's character (the Animator's GameObjects
when the inputs hold them, else the avatar's own skeleton; --animator
chooses the character when several use the avatar) and records it
as a humanoid clip: RootT, RootQ and the 95 muscles, at --rate frames per
second (default: the clip's own rate, else 30). A humanoid clip played on
another avatar gives that avatar's reading of it.

The table is sample's: one row per time, one column per curve; --csv and
--json as in sample (schema docs/schema/retarget.json); -o writes the JSON
to a file instead (what was written is noted on stderr).`

// retargetJSON is what retarget --json prints (and -o writes).
type retargetJSON struct {
	Clip       objectRef     `json:"clip"`
	On         characterRef  `json:"on"`
	SampleRate jsonFloat     `json:"sample_rate"`
	Curves     []curveJSON   `json:"curves"`
	Frames     []valuesFrame `json:"frames"`
}

// runRetarget turns a clip playing on a humanoid avatar's skeleton into a
// humanoid clip (RootT, RootQ, the 95 muscles) with humanoid.Record and
// prints its curves as `sample` does, or writes them as JSON with -o.
func runRetarget(e *env, args []string) error {
	c := newClipCommand(e, "retarget", retargetSynopsis)
	avatarName := c.fs.String("avatar", "", "humanoid avatar whose skeleton the clip plays on: name or FILE#PATHID")
	animatorName := c.fs.String("animator", "", "the character (by its Animator's GameObject name or FILE#PATHID) whose humanoid avatar the clip plays on")
	rate := c.fs.Float64("rate", 0, "frames per second of the humanoid clip (default: the clip's own rate, else 30)")
	format := formatFlags(c)
	outPath := c.fs.String("o", "", "write the JSON to this file instead of printing the curves")
	var f tableFormat
	check := func() error {
		var err error
		if f, err = format(); err != nil {
			return err
		}
		if (*avatarName == "") == (*animatorName == "") {
			return usagef("give --avatar NAME or --animator NAME: the humanoid avatar (or the character of one) the clip plays on")
		}
		if !(*rate >= 0) || *rate > humanoid.MaxRecordRate || math.IsInf(*rate, 0) {
			return usagef("--rate %g is not a rate from 0 to %d Hz", *rate, humanoid.MaxRecordRate)
		}
		return nil
	}
	return c.run(args, check, func(set *bind.Set, i int) error {
		return retarget(e, set, i, bind.On{Avatar: *avatarName, Character: *animatorName}, *rate, f, *outPath)
	})
}

// retarget records clip i on the character on names (an avatar's: its
// Animator's when the inputs hold it) as a humanoid clip and prints or
// writes its curves.
func retarget(e *env, set *bind.Set, i int, on bind.On, rate float64, f tableFormat, outPath string) error {
	ch, err := set.CharacterOn(on)
	if err != nil {
		return err
	}
	if ch.Human() == nil {
		if av, _ := ch.Avatar(); av != nil {
			return fmt.Errorf("avatar %q of %s is not humanoid", av.Name, ch.Describe())
		}
		return fmt.Errorf("%s has no avatar: nothing to record muscles through", ch.Describe())
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
			fr := valuesFrame{Time: jsonFloat(t), Values: make([]jsonFloat, len(hc.Curves))}
			for i := range hc.Curves {
				fr.Values[i] = jsonFloat(hc.Curves[i].Samples[k])
			}
			out.Frames = append(out.Frames, fr)
		}
	}

	if outPath != "" {
		err := writeFileAtomic(outPath, func(w io.Writer) error { return writeJSONLine(w, out) })
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
