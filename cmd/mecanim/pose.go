package main

import (
	"bufio"
	"fmt"

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
	fs := newFlags(e, "pose", "FILE... --clip NAME [--avatar NAME | --animator NAME] --at T [--at T]... [--json]")
	var sel clipSelector
	sel.register(fs)
	avatar := fs.String("avatar", "", "avatar to play the clip on (humanoid clips; or a generic avatar's skeleton)")
	animatorName := fs.String("animator", "", "GameObject name of the Animator whose rig the clip plays on")
	var at multiFlag
	fs.Var(&at, "at", "time in seconds from the clip's start (repeatable)")
	rate := fs.Float64("rate", 0, "pose the whole clip at this rate (Hz)")
	asJSON := fs.Bool("json", false, "JSON output")
	var rf readerFlags
	rf.register(fs)
	files, err := parseArgs(fs, args)
	if err != nil {
		return err
	}
	cat, failed, err := openCatalog(e, "pose", files, &rf)
	if err != nil {
		return err
	}
	defer cat.Close()
	o, err := sel.find(cat)
	if err != nil {
		return err
	}
	p, err := playable.Load(cat, o, playable.Options{Avatar: *avatar, Animator: *animatorName})
	if err != nil {
		return err
	}
	times, err := sampleTimes(at, *rate, p.Sampler.Duration())
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
	if *asJSON {
		if err := writeJSONLine(w, out); err != nil {
			return err
		}
	} else {
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
	}
	if failed > 0 {
		return &failedError{failed}
	}
	return nil
}
