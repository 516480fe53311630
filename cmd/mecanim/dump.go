package main

import (
	"errors"
	"flag"
	"fmt"
	"strings"

	"github.com/mecanim/mecanim/unity/assets"
	"github.com/mecanim/mecanim/unity/serialized"
	"github.com/mecanim/mecanim/unity/typetree"
)

func runDump(e *env, args []string) error {
	fs := newFlags(e, "dump", "FILE (--path-id N | --name NAME [--type T]) [--file SERIALIZED_FILE_NAME]")
	pathID := fs.Int64("path-id", 0, "path id of the object")
	name := fs.String("name", "", "m_Name of the object")
	typ := fs.String("type", "", "class name (or id) of the object, with --name")
	file := fs.String("file", "", "serialized file inside the container (when several hold the object)")
	var rf readerFlags
	rf.register(fs)
	pos, err := parseArgs(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return usagef("want exactly one FILE, got %d", len(pos))
	}
	havePID := false
	fs.Visit(func(f *flag.Flag) { havePID = havePID || f.Name == "path-id" })
	if havePID == (*name != "") {
		return usagef("give exactly one of --path-id and --name")
	}
	opts, err := rf.options()
	if err != nil {
		return err
	}
	c, err := assets.Open(pos[0], opts)
	if err != nil {
		return err
	}
	defer c.Close()
	type hit struct {
		f *assets.File
		o *serialized.Object
	}
	var hits []hit
	for _, f := range c.Files {
		if *file != "" && f.Name != *file && !strings.HasSuffix(f.Name, "/"+*file) {
			continue
		}
		if havePID {
			if o, ok := f.Object(*pathID); ok {
				hits = append(hits, hit{f, o})
			}
			continue
		}
		for i := range f.Objects {
			o := &f.Objects[i]
			if *typ != "" && !classMatches(f, o, *typ) {
				continue
			}
			if n, err := f.ObjectName(o); err == nil && n == *name {
				hits = append(hits, hit{f, o})
			}
		}
	}
	what := fmt.Sprintf("path id %d", *pathID)
	if !havePID {
		what = fmt.Sprintf("name %q", *name)
		if *typ != "" {
			what += " of type " + *typ
		}
	}
	switch len(hits) {
	case 0:
		return fmt.Errorf("%s: no object with %s", pos[0], what)
	case 1:
	default:
		var b strings.Builder
		for _, h := range hits {
			fmt.Fprintf(&b, "\n  --file %s --path-id %d (%s)", h.f.Name, h.o.PathID, h.f.ClassName(h.o))
		}
		return usagef("%s: %d objects with %s; choose one:%s", pos[0], len(hits), what, b.String())
	}
	h := hits[0]
	v, err := h.f.Decode(h.o)
	var te *typetree.TrailingError
	if err != nil && !(v != nil && errors.As(err, &te)) {
		return fmt.Errorf("%s: %w", pos[0], err)
	}
	if err != nil {
		fmt.Fprintf(e.stderr, "mecanim dump: note: %s: %v\n", pos[0], err)
	}
	return typetree.WriteJSON(e.stdout, v)
}

func classMatches(f *assets.File, o *serialized.Object, typ string) bool {
	if strings.EqualFold(f.ClassName(o), typ) {
		return true
	}
	return fmt.Sprint(o.ClassID) == typ
}
