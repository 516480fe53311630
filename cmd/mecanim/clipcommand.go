package main

import (
	"flag"
	"fmt"

	"github.com/mecanim/mecanim/decode/catalog"
	"github.com/mecanim/mecanim/model"
	"github.com/mecanim/mecanim/present/playable"
)

// clipSelector picks one clip by name or path id.
type clipSelector struct {
	name   string
	pathID int64
	file   string
}

func (s *clipSelector) register(fs interface {
	StringVar(*string, string, string, string)
	Int64Var(*int64, string, int64, string)
}) {
	fs.StringVar(&s.name, "clip", "", "clip name")
	fs.Int64Var(&s.pathID, "path-id", 0, "clip path id")
	fs.StringVar(&s.file, "file", "", "serialized file holding the clip (when several do)")
}

func (s *clipSelector) find(cat *catalog.Catalog) (catalog.Object, error) {
	if (s.name == "") == (s.pathID == 0) {
		return catalog.Object{}, usagef("give exactly one of --clip and --path-id")
	}
	var hits []catalog.Object
	for _, o := range cat.ByClass(model.ClassAnimationClip) {
		if s.file != "" && o.File.Name != s.file {
			continue
		}
		if (s.pathID != 0 && o.PathID() == s.pathID) || (s.name != "" && cat.Name(o) == s.name) {
			hits = append(hits, o)
		}
	}
	if len(hits) == 0 {
		if s.name != "" {
			return cat.One(model.ClassAnimationClip, "AnimationClip", s.name)
		}
		return catalog.Object{}, fmt.Errorf("no AnimationClip with path id %d", s.pathID)
	}
	return hits[0], nil
}

// clipCommand is what the commands that work on one clip (sample, pose,
// retarget, render) share, so that they pick the clip, read the files and
// report the ones that failed alike: the flags --clip, --path-id, --file
// and the reader flags, opening the files, finding the clip, and the exit
// status. A command makes one with newClipCommand, adds its own flags to
// fs (and --avatar/--animator with rigFlags when the clip plays on a rig),
// then calls run.
type clipCommand struct {
	e    *env
	name string
	fs   *flag.FlagSet
	sel  clipSelector
	rf   readerFlags
	// avatar and animator pick the rig the clip plays on (rigFlags).
	avatar, animator string
}

func newClipCommand(e *env, name, synopsis string) *clipCommand {
	c := &clipCommand{e: e, name: name, fs: newFlags(e, name, synopsis)}
	c.sel.register(c.fs)
	c.rf.register(c.fs)
	return c
}

// rigFlags adds --avatar and --animator, which name the rig playable loads
// the clip onto.
func (c *clipCommand) rigFlags() {
	c.fs.StringVar(&c.avatar, "avatar", "", "avatar to play the clip on (humanoid clips; or a generic avatar's skeleton)")
	c.fs.StringVar(&c.animator, "animator", "", "GameObject name of the Animator whose rig the clip plays on")
}

// playable loads the clip onto the rig --avatar or --animator names.
func (c *clipCommand) playable(cat *catalog.Catalog, o catalog.Object) (*playable.Playable, error) {
	return playable.Load(cat, o, playable.Options{Avatar: c.avatar, Animator: c.animator})
}

// run parses the arguments, calls check (when not nil) to vet the
// command's own flags before any file is opened, opens the files (printing
// the ones that fail), finds the clip and hands it to do. Once do succeeds,
// files that failed to open make it a failedError.
func (c *clipCommand) run(args []string, check func() error, do func(cat *catalog.Catalog, o catalog.Object) error) error {
	files, err := parseArgs(c.fs, args)
	if err != nil {
		return err
	}
	if check != nil {
		if err := check(); err != nil {
			return err
		}
	}
	cat, failed, err := openCatalog(c.e, c.name, files, &c.rf)
	if err != nil {
		return err
	}
	defer cat.Close()
	o, err := c.sel.find(cat)
	if err != nil {
		return err
	}
	if err := do(cat, o); err != nil {
		return err
	}
	if failed > 0 {
		return &failedError{failed}
	}
	return nil
}
