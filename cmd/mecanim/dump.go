package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"github.com/mecanim/mecanim/inputs"
	"strings"

	"github.com/mecanim/mecanim/unity/assets"
	"github.com/mecanim/mecanim/unity/serialized"
	"github.com/mecanim/mecanim/unity/typetree"
)

const dumpSynopsis = "FILE (--path-id N | --name NAME [--type T]) [--file SERIALIZED_FILE]"

const dumpAbout = `
Prints one object of a Unity file or of an editor YAML asset (by its file
id as --path-id) as JSON, always: its identity (container,
serialized file, path id, class id, class name, name) and, under "object",
every field its type tree gives, keys in type-tree order, 64-bit integers
exact (docs/json.md, schema docs/schema/dump.json). A name that several
objects have is a usage error listing each by --file and --path-id.`

// dumpHeader is the identity dump prints before the object.
type dumpHeader struct {
	Container string `json:"container"`
	File      string `json:"file"`
	PathID    int64  `json:"path_id"`
	ClassID   int32  `json:"class_id"`
	Type      string `json:"type"`
	Name      string `json:"name"`
}

func runDump(e *env, args []string) error {
	fs := newFlags(e, "dump", dumpSynopsis)
	fs.Bool("json", true, "JSON output (always; accepted for symmetry with the other commands)")
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
	switch inputs.KindOf(pos[0]) {
	case inputs.YAML, inputs.Model:
		return dumpYAML(e, pos[0], *pathID, havePID, *name, *typ)
	case inputs.GLTF, inputs.Package:
		return usagef("%s: dump prints an object of a Unity file or YAML asset; list what a %s holds with ls", pos[0], inputs.KindOf(pos[0]))
	}
	c, err := assets.Open(pos[0], opts)
	if err != nil {
		return err
	}
	defer c.Close()
	noteVersions(e, c)
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
		e.notef("%s: %v", pos[0], err)
	}
	objName, _ := h.f.ObjectName(h.o)
	head, err := json.Marshal(dumpHeader{Container: pos[0], File: h.f.Name, PathID: h.o.PathID, ClassID: h.o.ClassID,
		Type: h.f.ClassName(h.o), Name: objName})
	if err != nil {
		return err
	}
	var body bytes.Buffer
	if err := typetree.WriteJSON(&body, v); err != nil {
		return err
	}
	out := append(head[:len(head)-1], `,"object":`...)
	out = append(out, bytes.TrimRight(body.Bytes(), "\n")...)
	out = append(out, "}\n"...)
	_, err = e.stdout.Write(out)
	return err
}

func classMatches(f *assets.File, o *serialized.Object, typ string) bool {
	if strings.EqualFold(f.ClassName(o), typ) {
		return true
	}
	return fmt.Sprint(o.ClassID) == typ
}
