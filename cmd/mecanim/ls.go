package main

import (
	"bufio"
	"fmt"

	"github.com/mecanim/mecanim/unity/assets"
)

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
	fs := newFlags(e, "ls", "[--json] FILE...")
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
	w := bufio.NewWriterSize(e.stdout, 64<<10)
	defer w.Flush()
	failed := 0
	for _, name := range files {
		c, err := assets.Open(name, opts)
		if err != nil {
			fmt.Fprintf(e.stderr, "mecanim ls: %v\n", err)
			failed++
			continue
		}
		for _, f := range c.Files {
			if f.VersionNote != "" {
				fmt.Fprintf(e.stderr, "mecanim ls: %s: %s: %s\n", name, f.Name, f.VersionNote)
			}
			for i := range f.Objects {
				o := &f.Objects[i]
				objName, nerr := f.ObjectName(o)
				if nerr != nil {
					fmt.Fprintf(e.stderr, "mecanim ls: %s: %v\n", name, nerr)
					failed++
				}
				rec := lsRecord{Container: name, File: f.Name, PathID: o.PathID, ClassID: o.ClassID,
					Type: f.ClassName(o), Name: objName}
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
	}
	if failed > 0 {
		return &failedError{failed}
	}
	return nil
}
