package main

import (
	"bufio"
	"fmt"

	"github.com/mecanim/mecanim/decode/catalog"
	"github.com/mecanim/mecanim/geom"
	"github.com/mecanim/mecanim/present/playable"
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
	c.rigFlags()
	var at multiFlag
	c.fs.Var(&at, "at", "time in seconds from the clip's start (repeatable)")
	rate := c.fs.Float64("rate", 0, "pose the whole clip at this rate (Hz)")
	asJSON := c.fs.Bool("json", false, "JSON output")
	return c.run(args, nil, func(cat *catalog.Catalog, o catalog.Object) error {
		p, err := c.playable(cat, o)
		if err != nil {
			return err
		}
		return printPose(e, p, at, *rate, *asJSON)
	})
}

// printPose poses the rig a clip plays on at the times asked for.
func printPose(e *env, p *playable.Playable, at []string, rate float64, asJSON bool) error {
	times, err := sampleTimes(at, rate, p.Sampler.Duration())
	if err != nil {
		return err
	}
	n := p.Skeleton.Len()
	local := make([]geom.Transform, n)
	world := make([]geom.Transform, n)
	out := struct {
		Clip  string     `json:"clip"`
		On    string     `json:"on"`
		Poses []poseJSON `json:"poses"`
	}{Clip: p.Clip.Name, On: p.On}
	for _, t := range times {
		p.Pose(t, local, world)
		pj := poseJSON{Time: jsonFloat(t)}
		for j := 0; j < n; j++ {
			pj.Joints = append(pj.Joints, jointJSON{Path: p.Skeleton.Paths[j], Local: xform(local[j]), Model: xform(world[j])})
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
