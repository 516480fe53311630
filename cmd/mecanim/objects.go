package main

import (
	"bufio"
	"context"
	"flag"
	"io"

	"github.com/mecanim/mecanim/bind"
	"github.com/mecanim/mecanim/bound"
)

// objectCommand is a command that shows every object of one class in the
// files given (or the one named with --name): avatar, controller.
type objectCommand struct {
	name string // the command
	kind bind.Kind
	// list lists the objects of the kind; find finds one by name or
	// reference (its place in the list).
	list func(set *bind.Set) []bound.Item
	find func(set *bind.Set, sel string) (int, error)
	// view decodes object i of the kind (listed as it) into what the
	// command prints (as JSON).
	view func(set *bind.Set, i int, it bound.Item) (any, error)
	// text writes the readable form of a view.
	text func(w io.Writer, v any)
	// flags, if set, registers the command's own flags.
	flags func(fs *flag.FlagSet)
}

func (c objectCommand) run(e *env, args []string) error {
	fs := newFlags(e, c.name, "")
	name := fs.String("name", "", c.kind.String()+": its name or FILE#PATHID (default: every one)")
	if c.flags != nil {
		c.flags(fs)
	}
	asJSON := fs.Bool("json", false, "JSON output, one object per line")
	var rf readerFlags
	rf.register(fs)
	files, err := parseArgs(fs, args)
	if err != nil {
		return err
	}
	set, _, err := openSet(context.Background(), e, c.name, files, &rf)
	if err != nil {
		return err
	}
	defer set.Close()
	items := c.list(set)
	var objs []int
	if *name != "" {
		i, err := c.find(set, *name)
		if err != nil {
			return err
		}
		objs = []int{i}
	} else {
		for i := range items {
			objs = append(objs, i)
		}
		if len(objs) == 0 {
			e.failf("no %s in the inputs", c.kind)
		}
	}
	w := bufio.NewWriter(e.stdout)
	defer w.Flush()
	for _, o := range objs {
		v, err := c.view(set, o, items[o])
		if err != nil {
			// A view with an error is shown, and its error counted: a
			// controller whose clip does not decode.
			e.fail(err)
			if v == nil {
				continue
			}
		}
		if *asJSON {
			if err := writeJSONLine(w, v); err != nil {
				return err
			}
			continue
		}
		c.text(w, v)
	}
	return e.done()
}
