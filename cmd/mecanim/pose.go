package main

import (
	"bufio"
	"fmt"

	"github.com/mecanim/mecanim/bind"
	"github.com/mecanim/mecanim/bound"
	"github.com/mecanim/mecanim/geom"
)

const poseSynopsis = "FILE... (--clip NAME | --path-id N) [--avatar NAME | --animator NAME | --onto CHARACTER.glb] (--at T[,T...] | --rate HZ) [--json]"

const poseAbout = `
Poses the character a clip plays on at the times asked for and prints every
joint's local transform and its transform in model space (the space of the
character's root GameObject's parent). A generic clip plays on the
character whose paths it animates, a humanoid clip through the muscles of
a humanoid avatar: --avatar or --animator choose when the inputs hold
several. The character is said on the first line (in JSON: "on", with its
avatar). --json prints one document (schema docs/schema/pose.json).`

type jointJSON struct {
	Path  string    `json:"path"`
	Local xformJSON `json:"local"`
	Model xformJSON `json:"model"`
}

type poseFrame struct {
	Time   jsonFloat   `json:"time"`
	Joints []jointJSON `json:"joints"`
}

// poseJSON is what pose --json prints.
type poseJSON struct {
	Clip   objectRef    `json:"clip"`
	On     characterRef `json:"on"`
	Frames []poseFrame  `json:"frames"`
}

func runPose(e *env, args []string) error {
	c := newClipCommand(e, "pose", poseSynopsis)
	c.onFlags()
	var at multiFlag
	c.fs.Var(&at, "at", "times in seconds from the clip's start, comma-separated (repeatable)")
	rate := c.fs.Float64("rate", 0, "pose the whole clip at this many frames per second")
	asJSON := c.fs.Bool("json", false, "JSON output (one document)")
	return c.run(args, nil, func(set *bind.Set, i bound.ClipID) error {
		m, err := c.motion(set, i)
		if err != nil {
			return err
		}
		return printPose(e, m, at, *rate, *asJSON)
	})
}

// printPose poses the character a clip is bound to at the times asked
// for.
func printPose(e *env, m *bound.Motion, at []string, rate float64, asJSON bool) error {
	times, err := sampleTimes(at, rate, m.Duration())
	if err != nil {
		return err
	}
	times = clipTimes(e, m.Clip().Name, times, m.Duration(), m.Clip().Loops())
	sk := m.On().Skeleton()
	n := sk.Len()
	local := make([]geom.Transform, n)
	world := make([]geom.Transform, n)
	out := poseJSON{Clip: refOf(m.Clip().Name, m.Source()), On: characterOf(m.On()), Frames: make([]poseFrame, 0, len(times))}
	for _, t := range times {
		m.Pose(t, local, world)
		pj := poseFrame{Time: jsonFloat(t), Joints: make([]jointJSON, n)}
		for j := 0; j < n; j++ {
			pj.Joints[j] = jointJSON{Path: sk.Paths[j], Local: xform(local[j]), Model: xform(world[j])}
		}
		out.Frames = append(out.Frames, pj)
	}
	w := bufio.NewWriter(e.stdout)
	defer w.Flush()
	if asJSON {
		return writeJSONLine(w, out)
	}
	fmt.Fprintf(w, "clip %q (%s) on %s, %d joints\n", out.Clip.Name, m.Source(), m.On().Describe(), n)
	for _, pj := range out.Frames {
		fmt.Fprintf(w, "time %g\n", float32(pj.Time))
		for _, j := range pj.Joints {
			path := j.Path
			if path == "" {
				path = "(root)"
			}
			fmt.Fprintf(w, "  %-48s model pos %8.4f %8.4f %8.4f  local rot %8.5f %8.5f %8.5f %8.5f\n", path,
				float32(j.Model.T[0]), float32(j.Model.T[1]), float32(j.Model.T[2]),
				float32(j.Local.R[0]), float32(j.Local.R[1]), float32(j.Local.R[2]), float32(j.Local.R[3]))
		}
	}
	return nil
}
