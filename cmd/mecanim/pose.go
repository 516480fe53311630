package main

import (
	"bufio"
	"fmt"

	"github.com/mecanim/mecanim/bind"
	"github.com/mecanim/mecanim/bound"
	"github.com/mecanim/mecanim/geom"
)

type jointJSON struct {
	Path  string    `json:"path"`
	Local xformJSON `json:"local"`
	Model xformJSON `json:"model"`
}

type poseJSON struct {
	Time   jsonFloat   `json:"time"`
	Joints []jointJSON `json:"joints"`
}

func runPose(e *env, args []string) error {
	c := newClipCommand(e, "pose", "FILE... --clip NAME [--avatar NAME | --animator NAME] --at T [--at T]... [--json]")
	c.onFlags()
	var at multiFlag
	c.fs.Var(&at, "at", "time in seconds from the clip's start (repeatable)")
	rate := c.fs.Float64("rate", 0, "pose the whole clip at this rate (Hz)")
	asJSON := c.fs.Bool("json", false, "JSON output")
	return c.run(args, nil, func(set *bind.Set, i int) error {
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
	sk := m.On().Skeleton()
	n := sk.Len()
	local := make([]geom.Transform, n)
	world := make([]geom.Transform, n)
	out := struct {
		Clip  string     `json:"clip"`
		On    string     `json:"on"`
		Poses []poseJSON `json:"poses"`
	}{Clip: m.Clip().Name, On: m.On().Describe()}
	for _, t := range times {
		m.Pose(t, local, world)
		pj := poseJSON{Time: jsonFloat(t)}
		for j := 0; j < n; j++ {
			pj.Joints = append(pj.Joints, jointJSON{Path: sk.Paths[j], Local: xform(local[j]), Model: xform(world[j])})
		}
		out.Poses = append(out.Poses, pj)
	}
	w := bufio.NewWriter(e.stdout)
	defer w.Flush()
	if asJSON {
		return writeJSONLine(w, out)
	}
	fmt.Fprintf(w, "clip %q on %s, %d joints\n", out.Clip, out.On, n)
	for _, pj := range out.Poses {
		fmt.Fprintf(w, "t=%g\n", float32(pj.Time))
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
