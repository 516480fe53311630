package serialized

import (
	"bufio"
	"bytes"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/mecanim/mecanim/internal/corpustest"
	"github.com/mecanim/mecanim/unity/typetree"
	"github.com/mecanim/mecanim/unity/unityfs"
)

// This file proves the reader against Unity's own: the corpus holds text
// dumps made by UnityDataTool (Unity's reader) of the same files. For every
// object and every line of those dumps, the test renders the decoded value
// in the same text form and compares line by line.
//
// Numbers: integers and bools must match exactly. Floats are printed by
// UnityDataTool (.NET) in shortest round-trip form for their width
// ("4.16028E-08"), so the test parses the reference text at the field's
// width (float32 for float, float64 for double) and requires the same value
// bit for bit: no tolerance is needed, since shortest round-trip text parsed
// at the same width gives back the exact value. dump-s files replace the content of large byte
// arrays with "<Skipped>"; those contents are not compared.

// refObject is one object of a reference dump.
type refObject struct {
	header string   // "ID: <pid> (ClassID: n) <Type>"
	lines  []string // the indented field lines
	line   int      // line number of the header in the dump
}

// readDump parses a UnityDataTool dump into its external reference lines and objects by path id.
func readDump(t *testing.T, path string) (externals []string, objs map[int64]*refObject, order []int64) {
	t.Helper()
	fh, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer fh.Close()
	sc := bufio.NewScanner(fh)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	objs = map[int64]*refObject{}
	var cur *refObject
	n := 0
	for sc.Scan() {
		n++
		s := sc.Text()
		switch {
		case strings.HasPrefix(s, "ID: "):
			rest := strings.TrimPrefix(s, "ID: ")
			sp := strings.IndexByte(rest, ' ')
			if sp < 0 {
				t.Fatalf("%s:%d: bad object header %q", path, n, s)
			}
			pid, err := strconv.ParseInt(rest[:sp], 10, 64)
			if err != nil {
				t.Fatalf("%s:%d: bad path id: %v", path, n, err)
			}
			cur = &refObject{header: s, line: n}
			objs[pid] = cur
			order = append(order, pid)
		case strings.HasPrefix(s, "path("):
			externals = append(externals, s)
		case s == "" || s == "External References":
		case cur != nil:
			cur.lines = append(cur.lines, s)
		default:
			t.Fatalf("%s:%d: unexpected line %q", path, n, s)
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return externals, objs, order
}

// render writes v's fields in UnityDataTool's dump layout.
func render(v *typetree.Value) []string {
	var out []string
	for i := range v.Fields() {
		out = renderField(out, &v.Fields()[i], v.Fields()[i].Name(), 1)
	}
	return out
}

func pad(depth int) string { return strings.Repeat("  ", depth) }

func scalarText(v *typetree.Value) string {
	switch v.Kind() {
	case typetree.KindBool:
		if v.Bool() {
			return "True"
		}
		return "False"
	case typetree.KindInt:
		return strconv.FormatInt(v.Int(), 10)
	case typetree.KindUint:
		return strconv.FormatUint(v.Uint(), 10)
	case typetree.KindFloat:
		if v.Prim() == typetree.PrimFloat32 {
			return strconv.FormatFloat(v.Float(), 'g', -1, 32)
		}
		return strconv.FormatFloat(v.Float(), 'g', -1, 64)
	case typetree.KindString:
		return v.Str()
	}
	return fmt.Sprintf("<%s>", v.Kind())
}

func isDirectArray(n *typetree.Node) bool {
	return n.IsArray() || n.Type == "TypelessData" || (n.Type == "Array" && n.Name == "Array")
}

func renderField(out []string, v *typetree.Value, name string, depth int) []string {
	if v.Type() == "ManagedReferencesRegistry" {
		return renderRegistry(out, v, name, depth)
	}
	switch v.Kind() {
	case typetree.KindStruct:
		out = append(out, fmt.Sprintf("%s%s (%s)", pad(depth), name, v.Type()))
		for i := range v.Fields() {
			f := &v.Fields()[i]
			out = renderField(out, f, f.Name(), depth+1)
		}
	case typetree.KindArray:
		if !isDirectArray(v.Node()) {
			out = append(out, fmt.Sprintf("%s%s (%s)", pad(depth), name, v.Type()))
			depth++
		}
		out = append(out, fmt.Sprintf("%sArray<%s>[%d]", pad(depth), v.ElemNode().Type, v.Len()))
		if v.Len() == 0 {
			break
		}
		if v.Packed() {
			parts := make([]string, v.Len())
			for i := range parts {
				parts[i] = scalarText(v.Index(i))
			}
			out = append(out, pad(depth+1)+strings.Join(parts, ", "))
			break
		}
		for i := 0; i < v.Len(); i++ {
			out = renderField(out, v.Index(i), fmt.Sprintf("data[%d]", i), depth+1)
		}
	default:
		out = append(out, fmt.Sprintf("%s%s (%s) %s", pad(depth), name, v.Type(), scalarText(v)))
	}
	return out
}

// renderRegistry renders managed references as UnityDataTool does: each
// ReferencedObject as "rid(N) ReferencedObject" (N its rid, or its index in
// version 1) with its type and the referenced object's fields under "data".
func renderRegistry(out []string, v *typetree.Value, name string, depth int) []string {
	out = append(out, fmt.Sprintf("%s%s (%s)", pad(depth), name, v.Type()))
	out = renderField(out, v.Field("version"), "version", depth+1)
	ids := v.Field("RefIds")
	for i := 0; i < ids.Len(); i++ {
		o := ids.Index(i)
		rid := int64(i)
		if r := o.Field("rid"); r != nil {
			rid = r.Int()
		}
		out = append(out, fmt.Sprintf("%srid(%d) ReferencedObject", pad(depth+1), rid))
		if o.Path("type", "class").Str() == "Terminus" {
			continue
		}
		out = renderField(out, o.Field("type"), "type", depth+2)
		data := o.Field("data")
		out = append(out, fmt.Sprintf("%sdata %s ", pad(depth+2), data.Type()))
		for k := range data.Fields() {
			f := &data.Fields()[k]
			out = renderField(out, f, f.Name(), depth+3)
		}
	}
	return out
}

func indentOf(s string) int { return len(s) - len(strings.TrimLeft(s, " ")) }

// sameNumber compares two numeric texts: equal strings, or the same value
// when parsed at bits' precision.
func sameNumber(want, got string, bits int) bool {
	if want == got {
		return true
	}
	w, err1 := strconv.ParseFloat(want, bits)
	g, err2 := strconv.ParseFloat(got, bits)
	if err1 != nil || err2 != nil {
		return false
	}
	return w == g || (math.IsNaN(w) && math.IsNaN(g))
}

// lineCheck counts how reference lines matched.
type lineCheck struct {
	exact   int // identical text
	numeric int // same value, different text (float formatting)
}

// sameLine compares a reference line with a rendered one. Floats are
// compared by value at the field's width; elemType is the element type of
// the array whose element list this line may be.
func sameLine(want, got, elemType string, c *lineCheck) bool {
	if want == got {
		c.exact++
		return true
	}
	if indentOf(want) != indentOf(got) {
		return false
	}
	for _, typ := range []struct {
		tag  string
		bits int
	}{{" (float) ", 32}, {" (double) ", 64}} {
		i, j := strings.Index(want, typ.tag), strings.Index(got, typ.tag)
		if i >= 0 && i == j && want[:i] == got[:j] {
			if sameNumber(want[i+len(typ.tag):], got[j+len(typ.tag):], typ.bits) {
				c.numeric++
				return true
			}
			return false
		}
	}
	bits := map[string]int{"float": 32, "double": 64}[elemType]
	if bits == 0 {
		return false
	}
	ws, gs := strings.Split(strings.TrimSpace(want), ", "), strings.Split(strings.TrimSpace(got), ", ")
	if len(ws) != len(gs) {
		return false
	}
	for k := range ws {
		if !sameNumber(ws[k], gs[k], bits) {
			return false
		}
	}
	c.numeric++
	return true
}

// compareObject compares a reference object's lines with the rendering of v
// and returns the first mismatches.
func compareObject(ref *refObject, got []string, c *lineCheck) (problems []string) {
	i, j := 0, 0
	elemType := ""
	for i < len(ref.lines) && j < len(got) {
		w := ref.lines[i]
		if strings.TrimSpace(w) == "<Skipped>" {
			ind := indentOf(w)
			for j < len(got) && indentOf(got[j]) >= ind {
				j++
			}
			i++
			continue
		}
		if !sameLine(w, got[j], elemType, c) {
			return append(problems, fmt.Sprintf("dump line %d: want %.200q, got %.200q", ref.line+1+i, w, got[j]))
		}
		elemType = ""
		if t := strings.TrimSpace(w); strings.HasPrefix(t, "Array<") {
			elemType = t[len("Array<"):strings.LastIndex(t, ">[")]
		}
		i++
		j++
	}
	if i < len(ref.lines) {
		problems = append(problems, fmt.Sprintf("rendering ends early; dump line %d: %.200q not produced", ref.line+1+i, ref.lines[i]))
	}
	if j < len(got) {
		problems = append(problems, fmt.Sprintf("rendering has %d extra lines, first %.200q", len(got)-j, got[j]))
	}
	return problems
}

// checkAgainstDump compares every object and external of f with the dump at path.
func checkAgainstDump(t *testing.T, f *File, dumpPath string) {
	t.Helper()
	exts, objs, _ := readDump(t, dumpPath)
	if len(exts) != len(f.Externals) {
		t.Errorf("%d externals, dump has %d", len(f.Externals), len(exts))
	} else {
		for i, e := range f.Externals {
			want := fmt.Sprintf("path(%d): %q GUID: %s Type: %d", i+1, e.Path, GUIDString(e.GUID), e.Type)
			if exts[i] != want {
				t.Errorf("external %d: got %q, dump has %q", i+1, want, exts[i])
			}
		}
	}
	if len(objs) != len(f.Objects) {
		t.Errorf("%d objects, dump has %d", len(f.Objects), len(objs))
	}
	var lc lineCheck
	failed := 0
	for k := range f.Objects {
		o := &f.Objects[k]
		ref, ok := objs[o.PathID]
		if !ok {
			t.Errorf("object %d (class %d) missing from the dump", o.PathID, o.ClassID)
			continue
		}
		v, err := f.Decode(o)
		if err != nil {
			t.Errorf("object %d: %v", o.PathID, err)
			failed++
			continue
		}
		header := fmt.Sprintf("ID: %d (ClassID: %d) %s", o.PathID, o.ClassID, v.Type())
		if header != ref.header {
			t.Errorf("header %q, dump has %q", header, ref.header)
		}
		probs := compareObject(ref, render(v), &lc)
		if len(probs) > 0 {
			failed++
			t.Errorf("object %d (%s): %s", o.PathID, v.Type(), strings.Join(probs, "; "))
		}
	}
	t.Logf("%s: %d objects, %d lines identical, %d equal by value (float text), %d objects differ",
		strings.TrimPrefix(dumpPath, filepath.Dir(filepath.Dir(filepath.Dir(dumpPath)))+"/"), len(f.Objects), lc.exact, lc.numeric, failed)
}

func TestPlayerLevelMatchesUnityDataTool(t *testing.T) {
	f, _ := openCorpus(t, "unitydatatools/player-2022.1.20f1/level0")
	checkAgainstDump(t, f, corpustest.Path(t, "unitydatatools/reference/2022.1.20f1/level0.txt"))
}

func TestBundlesMatchUnityDataTool(t *testing.T) {
	dir := corpustest.Dir(t)
	for _, ver := range []string{"2020.3.0f1", "2021.3.0f1", "2022.1.20f1", "2023.1.0a16"} {
		t.Run(ver, func(t *testing.T) {
			b, err := os.ReadFile(filepath.Join(dir, "unitydatatools", ver, "assetbundle"))
			if err != nil {
				t.Fatal(err)
			}
			a, err := unityfs.Open(bytes.NewReader(b), int64(len(b)))
			if err != nil {
				t.Fatal(err)
			}
			const cab = "CAB-5d40f7cad7c871cf2ad2af19ac542994"
			i, ok := a.Node(cab)
			if !ok {
				t.Fatalf("bundle has no %s", cab)
			}
			sr := a.NodeReader(i)
			f, err := Open(sr, sr.Size(), cab)
			if err != nil {
				t.Fatal(err)
			}
			for _, kind := range []string{"dump", "dump-s"} {
				p := filepath.Join(dir, "unitydatatools", "reference", ver, kind, cab+".txt")
				if _, err := os.Stat(p); err != nil {
					continue
				}
				t.Run(kind, func(t *testing.T) { checkAgainstDump(t, f, p) })
			}
		})
	}
}
