package main

import (
	"bufio"
	"context"
	"fmt"
	"github.com/mecanim/mecanim/inputs"

	"github.com/mecanim/mecanim/unity/assets"
)

const lsSynopsis = "FILE... [--json] [--layouts auto|builtin] [--unity-version V]"

const lsAbout = `
Lists every object of the inputs given (bundles, serialized files, WebGL
.data, and those in folders given, told by their first bytes; the editor's
YAML assets, alone or in a project folder, each document by its file id;
glTF/VRM characters and .unitypackage files, as what the other commands
read of them: characters, avatars, controllers, clips): one line each with its container (the
file as given or found), its serialized file, path id, class id, class
name and name. --json prints one
JSON object per line (docs/json.md, schema docs/schema/ls.json).

Stripped game files have no type trees: --layouts builtin reads them with
the built-in class layouts of the Unity version the file names; a file
whose version is blanked has it inferred, said on stderr (--unity-version
sets it instead).

Decompressed bundle data, with what the open files' directories, object
tables and type trees hold, is kept within one memory limit for all the
files of a command, 256MiB unless --block-cache says otherwise; a bundle
block or a file that needs more cannot be read, and its file's error says
so.`

// lsRecord is one line of `ls --json`.
type lsRecord struct {
	Container string `json:"container"`
	File      string `json:"file"`
	PathID    int64  `json:"path_id"`
	ClassID   int32  `json:"class_id"`
	Type      string `json:"type"`
	Name      string `json:"name"`
}

func runLs(e *env, args []string) error {
	fs := newFlags(e, "ls", lsSynopsis)
	asJSON := fs.Bool("json", false, "one JSON object per line")
	var rf readerFlags
	rf.register(fs)
	files, err := parseArgs(fs, args)
	if err != nil {
		return err
	}
	if len(files) == 0 {
		return usagef("no files given")
	}
	opts, err := rf.options()
	if err != nil {
		return err
	}
	given := map[string]bool{}
	for _, f := range files {
		given[f] = true
	}
	found, passed, errs := inputs.Discover(context.Background(), files, "")
	for _, err := range errs {
		e.fail(err)
	}
	for _, p := range passed {
		if p.Same != "" {
			e.notef("%s: the same content as %s: listed once", p.Path, p.Same)
		}
	}
	var names []string
	var text []lsRecord
	listText := func(path string, recs []lsRecord, err error) {
		if err != nil {
			e.fail(err)
			return
		}
		if len(recs) == 0 {
			e.failf("%s: holds no objects", path)
		}
		text = append(text, recs...)
	}
	for _, f := range found {
		switch {
		case f.Built:
			names = append(names, f.Path)
		case f.Kind == inputs.YAML || f.Kind == inputs.Model:
			recs, err := yamlRecords(f.Path)
			listText(f.Path, recs, err)
		case f.Kind == inputs.GLTF || f.Kind == inputs.Package:
			recs, err := characterRecords(f.Path)
			listText(f.Path, recs, err)
		case f.Kind == inputs.Project:
			assets, err := projectAssets(f.Path)
			if err != nil {
				e.fail(err)
			}
			for _, a := range assets {
				recs, err := yamlRecords(a)
				listText(a, recs, err)
			}
		case given[f.Path]:
			e.failf("%s: a %s: ls lists the objects of built files, YAML assets, projects and glTF/VRM characters (clips, avatar and controller read it)", f.Path, f.Kind)
		default:
			e.notef("%s: a %s: not listed", f.Path, f.Kind)
		}
	}
	w := bufio.NewWriterSize(e.stdout, 64<<10)
	defer w.Flush()
	for _, rec := range text {
		if *asJSON {
			if err := writeJSONLine(w, rec); err != nil {
				return err
			}
		} else {
			fmt.Fprintf(w, "%s\t%s\t%d\t%d\t%s\t%s\n", rec.Container, rec.File, rec.PathID, rec.ClassID, rec.Type, rec.Name)
		}
	}
	for _, name := range names {
		c, err := assets.Open(name, opts)
		if err != nil {
			e.fail(err)
			continue
		}
		noteVersions(e, c)
		n := 0
		for _, f := range c.Files {
			for i := range f.Objects {
				o := &f.Objects[i]
				objName, nerr := f.ObjectName(o)
				if nerr != nil {
					e.fail(fmt.Errorf("%s: %w", name, nerr))
				}
				rec := lsRecord{Container: name, File: f.Name, PathID: o.PathID, ClassID: o.ClassID,
					Type: f.ClassName(o), Name: objName}
				n++
				if *asJSON {
					if err := writeJSONLine(w, rec); err != nil {
						return err
					}
				} else {
					fmt.Fprintf(w, "%s\t%s\t%d\t%d\t%s\t%s\n", rec.Container, rec.File, rec.PathID, rec.ClassID, rec.Type, rec.Name)
				}
			}
		}
		c.Close()
		if n == 0 {
			e.failf("%s: holds no objects", name)
		}
	}
	return e.done()
}
