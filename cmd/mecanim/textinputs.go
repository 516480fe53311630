package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"github.com/mecanim/mecanim/inputs"
	"io/fs"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/mecanim/mecanim/bind"
	"github.com/mecanim/mecanim/bound"
	"github.com/mecanim/mecanim/decode/yamlasset"
	"github.com/mecanim/mecanim/model"
)

// The inputs ls and dump read besides built Unity files: the editor's YAML
// assets (alone, or in a project folder) and glTF/VRM characters.

// yamlRecords lists the objects (documents) of a YAML asset as ls does:
// each by its file id as its path id.
func yamlRecords(path string) ([]lsRecord, error) {
	f, err := yamlasset.ParseFile(path)
	if err != nil {
		return nil, err
	}
	var out []lsRecord
	for _, d := range f.Docs {
		out = append(out, lsRecord{Container: path, PathID: d.FileID, ClassID: d.ClassID, Type: yamlType(d), Name: d.Name()})
	}
	return out, nil
}

// yamlType is a document's class name: its header's, else (a .meta file)
// the importer whose settings it holds.
func yamlType(d *yamlasset.Document) string {
	if d.Type != "" || d.Root == nil || d.Root.Kind != yamlasset.Mapping {
		return d.Type
	}
	for i, k := range d.Root.Keys {
		if d.Root.Values[i].Kind == yamlasset.Mapping {
			return k
		}
	}
	return ""
}

// projectAssets lists the YAML assets of a project folder, in name order,
// skipping what Discover skips (hidden folders, Library, Temp, obj).
func projectAssets(dir string) ([]string, error) {
	var out []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			n := d.Name()
			if p != dir && (strings.HasPrefix(n, ".") || n == "Library" || n == "Temp" || n == "obj") {
				return filepath.SkipDir
			}
			return nil
		}
		if k := inputs.KindOf(p); k == inputs.YAML || k == inputs.Model {
			out = append(out, p)
		}
		return nil
	})
	return out, err
}

// characterRecords lists what a glTF or VRM file or an editor package
// offers, as the other commands see it: its characters (as Animators), its
// avatars (a glTF's built from its human bone map), its controllers and its
// clips (a glTF's animations).
func characterRecords(path string) ([]lsRecord, error) {
	set, err := bind.Open(context.Background(), []string{path}, bind.Options{})
	if set == nil {
		return nil, err
	}
	defer set.Close()
	if err != nil {
		return nil, bind.Errors(err)[0]
	}
	var out []lsRecord
	for _, k := range []struct {
		items []bound.Item
		class int32
		typ   string
	}{{set.Characters(), model.ClassAnimator, "Animator"}, {set.Avatars(), model.ClassAvatar, "Avatar"},
		{set.Controllers(), model.ClassAnimatorController, "AnimatorController"}, {set.Clips(), model.ClassAnimationClip, "AnimationClip"}} {
		for _, it := range k.items {
			out = append(out, lsRecord{Container: path, File: it.Source.File, PathID: it.Source.PathID, ClassID: k.class, Type: k.typ, Name: it.Name})
		}
	}
	return out, nil
}

// dumpYAML prints one document of a YAML asset as dump prints an object:
// its identity and, under "object", its fields in file order (numbers as
// JSON numbers, 64-bit integers exact, other scalars as strings).
func dumpYAML(e *env, path string, pathID int64, havePID bool, name, typ string) error {
	f, err := yamlasset.ParseFile(path)
	if err != nil {
		return err
	}
	var hits []*yamlasset.Document
	for _, d := range f.Docs {
		switch {
		case havePID && d.FileID == pathID:
		case !havePID && d.Name() == name && (typ == "" || strings.EqualFold(yamlType(d), typ) || strconv.Itoa(int(d.ClassID)) == typ):
		default:
			continue
		}
		hits = append(hits, d)
	}
	what := fmt.Sprintf("path id (file id) %d", pathID)
	if !havePID {
		what = fmt.Sprintf("name %q", name)
	}
	switch len(hits) {
	case 0:
		return fmt.Errorf("%s: no object with %s", path, what)
	case 1:
	default:
		var b strings.Builder
		for _, d := range hits {
			fmt.Fprintf(&b, "\n  --path-id %d (%s, line %d)", d.FileID, yamlType(d), d.Line)
		}
		return usagef("%s: %d objects with %s; choose one:%s", path, len(hits), what, b.String())
	}
	d := hits[0]
	head, err := json.Marshal(dumpHeader{Container: path, PathID: d.FileID, ClassID: d.ClassID, Type: yamlType(d), Name: d.Name()})
	if err != nil {
		return err
	}
	var body bytes.Buffer
	writeYAMLJSON(&body, d.Body)
	out := append(head[:len(head)-1], `,"object":`...)
	if d.Body == nil || d.Body.Kind != yamlasset.Mapping {
		out = append(out, `{"value":`...)
		out = append(out, body.Bytes()...)
		out = append(out, '}')
	} else {
		out = append(out, body.Bytes()...)
	}
	out = append(out, "}\n"...)
	_, err = e.stdout.Write(out)
	return err
}

// writeYAMLJSON writes a YAML node as JSON.
func writeYAMLJSON(b *bytes.Buffer, n *yamlasset.Node) {
	if n == nil {
		b.WriteString("null")
		return
	}
	switch n.Kind {
	case yamlasset.Mapping:
		b.WriteByte('{')
		for i, k := range n.Keys {
			if i > 0 {
				b.WriteByte(',')
			}
			kj, _ := json.Marshal(k)
			b.Write(kj)
			b.WriteByte(':')
			writeYAMLJSON(b, n.Values[i])
		}
		b.WriteByte('}')
	case yamlasset.Sequence:
		b.WriteByte('[')
		for i, it := range n.Items {
			if i > 0 {
				b.WriteByte(',')
			}
			writeYAMLJSON(b, it)
		}
		b.WriteByte(']')
	default:
		if !n.Quoted && isJSONNumber(n.Value) {
			b.WriteString(n.Value)
			return
		}
		vj, _ := json.Marshal(n.Value)
		b.Write(vj)
	}
}

// isJSONNumber reports whether a YAML scalar is a number JSON writes as
// it is (integers of any size exactly; no NaN, infinities or hex).
func isJSONNumber(s string) bool {
	if s == "" {
		return false
	}
	if _, err := strconv.ParseInt(s, 10, 64); err == nil {
		return !strings.HasPrefix(s, "+") && !(len(s) > 1 && s[0] == '0') && !strings.HasPrefix(s, "-0")
	}
	if _, err := strconv.ParseUint(s, 10, 64); err == nil {
		return s[0] != '0' && s[0] != '+'
	}
	return json.Valid([]byte(s)) && strings.ContainsAny(s, "0123456789") && !strings.ContainsAny(s, "\"{[tfn")
}
