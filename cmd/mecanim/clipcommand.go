package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"strconv"

	"github.com/mecanim/mecanim/bind"
	"github.com/mecanim/mecanim/bound"
)

// clipSelector picks one clip by name or reference.
type clipSelector struct {
	name   string
	pathID int64
	file   string
}

func (s *clipSelector) register(fs *flag.FlagSet) {
	fs.StringVar(&s.name, "clip", "", "the clip: its name, or FILE#PATHID when several share the name")
	fs.Int64Var(&s.pathID, "path-id", 0, "the clip by path id (with --file when several files have it)")
	fs.StringVar(&s.file, "file", "", "serialized file holding the clip, with --path-id")
}

// find returns the clip chosen.
func (s *clipSelector) find(set *bind.Set) (bound.ClipID, error) {
	if (s.name == "") == (s.pathID == 0) {
		return -1, usagef("give exactly one of --clip and --path-id")
	}
	if s.name != "" {
		return set.FindClip(s.name)
	}
	return set.FindClip(s.file + "#" + strconv.FormatInt(s.pathID, 10))
}

// clipCommand is what the commands that work on one clip (sample, pose,
// retarget, render) share, so that they pick the clip, read the files and
// report the ones that failed alike: the flags --clip, --path-id, --file
// and the reader flags, opening the files, finding the clip, and the exit
// status. A command makes one with newClipCommand, adds its own flags to
// fs (and --avatar/--animator with onFlags when the clip plays on a
// character), then calls run.
type clipCommand struct {
	e    *env
	name string
	fs   *flag.FlagSet
	sel  clipSelector
	rf   readerFlags
	on   bind.On
	onto string
}

func newClipCommand(e *env, name, synopsis string) *clipCommand {
	c := &clipCommand{e: e, name: name, fs: newFlags(e, name, synopsis)}
	c.sel.register(c.fs)
	c.rf.register(c.fs)
	return c
}

// onFlags adds --avatar and --animator, which choose what the clip plays
// on.
func (c *clipCommand) onFlags() {
	c.fs.StringVar(&c.on.Avatar, "avatar", "", "avatar to play the clip on (its Animator's character when the inputs hold it): name or FILE#PATHID")
	c.fs.StringVar(&c.on.Character, "animator", "", "character to play the clip on, by its Animator's GameObject name or FILE#PATHID")
	c.fs.StringVar(&c.onto, "onto", "", "the character to play the clip on, any source: a glTF/VRM file, a prefab with its avatar, a bundle (read with the inputs), or an Animator or avatar by name or FILE#PATHID")
}

// ontoFlag chooses what --onto names: a character source of any kind (a
// glTF or VRM file, a prefab with its avatar, a bundle with one Animator:
// added to the inputs when not among them; else a character or avatar of
// the inputs by name or reference).
func ontoFlag(files []string, onto string, on *bind.On) ([]string, error) {
	if onto == "" {
		return files, nil
	}
	if on.Avatar != "" || on.Character != "" {
		return nil, usagef("give --onto, --animator or --avatar, not several")
	}
	on.Onto = onto
	if _, err := os.Stat(onto); err != nil {
		return files, nil // a name or reference
	}
	for _, f := range files {
		if f == onto {
			return files, nil
		}
	}
	return append(files, onto), nil
}

// motion binds the clip to what --avatar or --animator choose, or to the
// character bind's one rule chooses for it.
func (c *clipCommand) motion(set *bind.Set, clip bound.ClipID) (*bound.Motion, error) {
	if c.on.Avatar != "" && c.on.Character != "" {
		return nil, usagef("give --avatar or --animator, not both")
	}
	ch, err := set.CharacterFor(context.Background(), c.on, clip)
	if err != nil {
		return nil, err
	}
	m, err := set.Motion(context.Background(), clip, ch)
	if err != nil {
		return nil, err
	}
	noteRetarget(c.e, m)
	return m, nil
}

// noteRetarget says on stderr that a clip plays through muscles, recorded
// on its own humanoid character (see bind.Set.Bind).
func noteRetarget(e *env, m *bound.Motion) {
	if from := m.RetargetedFrom(); from != nil {
		e.notef("%s", retargetNote(m))
	}
}

// retargetNote says how a retargeted motion plays ("" when it is not).
func retargetNote(m *bound.Motion) string {
	from := m.RetargetedFrom()
	if from == nil {
		return ""
	}
	return fmt.Sprintf("clip %q is made for %s: retargeted onto %s through muscles (humanoid avatars)", m.Clip().Name, from.Describe(), m.On().Describe())
}

// noteNotFinite notes each curve of clip i holding a value that is NaN or
// infinite (model.Clip.NotFinite): read as it is, held where it would
// enter a pose or a file. A clip that does not decode is the command's to
// report.
func (c *clipCommand) noteNotFinite(set *bind.Set, i bound.ClipID) {
	clip, err := set.Clip(i)
	if err != nil {
		return
	}
	it := set.Clips()[i]
	for _, x := range clip.NotFinite() {
		c.e.notef("clip %q (%s): %v: read as it is, held at the value before it where it enters a pose or a file", clip.Name, it.Source, x)
	}
}

// run parses the arguments, calls check (when not nil) to vet the
// command's own flags before any file is opened, opens the files (printing
// the ones that fail), finds the clip and hands it to do. Once do succeeds,
// the failures reported (files that failed to open...) make the exit
// status 1.
func (c *clipCommand) run(args []string, check func() error, do func(set *bind.Set, clip bound.ClipID) error) error {
	files, err := parseArgs(c.fs, args)
	if err != nil {
		return err
	}
	if files, err = ontoFlag(files, c.onto, &c.on); err != nil {
		return err
	}
	if check != nil {
		if err := check(); err != nil {
			return err
		}
	}
	set, _, err := openSet(context.Background(), c.e, c.name, files, &c.rf)
	if err != nil {
		return err
	}
	defer set.Close()
	i, err := c.sel.find(set)
	if err != nil {
		return err
	}
	c.noteNotFinite(set, i)
	if err := do(set, i); err != nil {
		return err
	}
	return c.e.done()
}
