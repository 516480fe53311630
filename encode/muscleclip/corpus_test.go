package muscleclip

import (
	"encoding/binary"
	"fmt"
	"math"
	"sort"
	"strings"
	"testing"

	"github.com/mecanim/mecanim/decode/compiled"
	"github.com/mecanim/mecanim/decode/yamlasset"
	"github.com/mecanim/mecanim/internal/corpustest"
	"github.com/mecanim/mecanim/model"
	"github.com/mecanim/mecanim/unity/assets"
	"github.com/mecanim/mecanim/unity/typetree"
	"github.com/mecanim/mecanim/unity/unityversion"
	"github.com/mecanim/mecanim/unity/unitywrite"
)

// unityClip is a clip Unity compiled, with the tree it was written by.
type unityClip struct {
	value   *typetree.Value
	tree    *typetree.Tree
	version string
}

func openUnityClip(t *testing.T, bundle, name string) unityClip {
	t.Helper()
	c, err := assets.Open(bundle, assets.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	for _, f := range c.Files {
		if found := f.Find(name, model.ClassAnimationClip); len(found) > 0 {
			v, err := f.Decode(found[0])
			if err != nil {
				t.Fatal(err)
			}
			return unityClip{v, f.TypeOf(found[0]).Tree, f.UnityVersion}
		}
	}
	t.Fatalf("%s: no clip %q", bundle, name)
	return unityClip{}
}

// encodeAs encodes fields by tree and decodes them again, as a reader of the
// packed file would see them.
func encodeAs(t *testing.T, tree *typetree.Tree, f unitywrite.Fields) *typetree.Value {
	t.Helper()
	b, err := unitywrite.Encode(tree, f)
	if err != nil {
		t.Fatal(err)
	}
	l, err := typetree.Compile(tree)
	if err != nil {
		t.Fatal(err)
	}
	v, err := l.Decode(b, binary.LittleEndian)
	if err != nil {
		t.Fatalf("compiled clip does not read back: %v", err)
	}
	return v
}

// fieldTally counts a group of leaf values: bit-equal, equal within float
// precision, different.
type fieldTally struct {
	equal, near, differ int
	worst               float64
	first               string
}

// compareValues walks two decoded values leaf by leaf and tallies them by
// group (the field path with array indexes dropped, cut at depth).
func compareValues(a, b *typetree.Value, path string, out map[string]*fieldTally) {
	group := func(p string) string {
		parts := strings.Split(p, ".")
		var keep []string
		for _, s := range parts {
			if strings.HasPrefix(s, "[") {
				continue
			}
			keep = append(keep, s)
		}
		if len(keep) > 4 {
			keep = keep[:4]
		}
		return strings.Join(keep, ".")
	}
	g := group(path)
	tally := func() *fieldTally {
		if out[g] == nil {
			out[g] = &fieldTally{}
		}
		return out[g]
	}
	switch a.Kind() {
	case typetree.KindStruct:
		for _, f := range a.Fields() {
			bf := b.Field(f.Name())
			p := strings.TrimPrefix(path+"."+f.Name(), ".")
			if bf == nil {
				tally().differ++
				continue
			}
			ff := f
			compareValues(&ff, bf, p, out)
		}
	case typetree.KindArray:
		if a.Len() != b.Len() {
			ft := tally()
			ft.differ++
			if ft.first == "" {
				ft.first = fmt.Sprintf("%s: %d items, Unity %d", path, a.Len(), b.Len())
			}
			return
		}
		for i := 0; i < a.Len(); i++ {
			compareValues(a.Index(i), b.Index(i), fmt.Sprintf("%s.[%d]", path, i), out)
		}
	default:
		ft := tally()
		if a.Node().Type == "string" {
			if a.Str() == b.Str() {
				ft.equal++
			} else {
				ft.differ++
			}
			return
		}
		x, y := a.Float(), b.Float()
		if a.Node().Type != "float" && a.Node().Type != "double" {
			x, y = float64(a.Int()), float64(b.Int())
		}
		switch d := math.Abs(x - y); {
		case x == y || (x != x && y != y):
			ft.equal++
		case d <= 1e-4*math.Max(1, math.Abs(y)):
			ft.near++
			ft.worst = math.Max(ft.worst, d)
		default:
			ft.differ++
			if ft.first == "" {
				ft.first = fmt.Sprintf("%s: %g, Unity %g", path, x, y)
			}
		}
	}
}

// sampleDiff is the largest difference between two clips' curves sampled at
// their keys and between, curves matched by target.
func sampleDiff(t *testing.T, ours, unity *model.Clip) float64 {
	t.Helper()
	type key struct {
		path uint32
		attr uint32
		comp int
	}
	byTarget := map[key]*model.Curve{}
	for i := range unity.Curves {
		c := &unity.Curves[i]
		byTarget[key{c.Target.PathHash, c.Target.Attribute, c.Target.Component}] = c
	}
	worst := 0.0
	for i := range ours.Curves {
		c := &ours.Curves[i]
		u := byTarget[key{c.Target.PathHash, c.Target.Attribute, c.Target.Component}]
		if u == nil {
			t.Errorf("curve %s has no counterpart in Unity's clip", describe(c.Target))
			continue
		}
		n := int((unity.Stop-unity.Start)*unity.SampleRate*4) + 1
		for s := 0; s <= n; s++ {
			tm := unity.Start + (unity.Stop-unity.Start)*float32(s)/float32(n)
			d := math.Abs(float64(c.Eval(tm) - u.Eval(tm)))
			scale := math.Max(1, math.Abs(float64(u.Eval(tm))))
			worst = math.Max(worst, d/scale)
		}
	}
	return worst
}

// TestCompilingEditorSourcesGivesUnitysClips compiles each editor .anim of
// the corpus and compares the result, field by field, with the clip Unity
// compiled from it; it prints the table of what is equal and what differs.
func TestCompilingEditorSourcesGivesUnitysClips(t *testing.T) {
	cases := []struct{ source, bundle, name string }{
		{"lc-example-enemy/source/walkCycle.anim", "lc-example-enemy/modassets", "walkCycle"},
		{"lc-example-enemy/source/HeadBop.anim", "lc-example-enemy/modassets", "HeadBop"},
		{"lc-example-enemy/source/die-Head.anim", "lc-example-enemy/modassets", "die-Head"},
		{"lc-example-enemy/source/die-Legs.anim", "lc-example-enemy/modassets", "die-Legs"},
		{"lc-example-enemy/source/die-Toilet.anim", "lc-example-enemy/modassets", "die-Toilet"},
		{"lc-example-enemy/source/swingAttack.anim", "lc-example-enemy/modassets", "swingAttack"},
		{"lethal-emotes/source/Dab.anim", "lethal-emotes/customemotespackage", "Dab"},
		{"lethal-emotes/source/Dab.anim", "lethal-emotes/customemotespackage2", "Dab 1"},
		{"lethal-emotes/source/Floss.anim", "lethal-emotes/customemotespackage", "Floss"},
		{"lethal-emotes/source/nobones.anim", "lethal-emotes/customemotespackage", "nobones"},
	}
	total := map[string]*fieldTally{}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			f, err := yamlasset.ParseFile(corpustest.Path(t, tc.source))
			if err != nil {
				t.Fatal(err)
			}
			src, err := f.Clip()
			if err != nil {
				t.Fatal(err)
			}
			u := openUnityClip(t, corpustest.Path(t, tc.bundle), tc.name)
			fields, err := Compile(src, Options{Version: unityversion.MustParse(u.version)})
			if err != nil {
				t.Fatal(err)
			}
			fields["m_Name"] = tc.name
			ours := encodeAs(t, u.tree, fields)
			tally := map[string]*fieldTally{}
			compareValues(ours, u.value, "", tally)
			for g, ft := range tally {
				if total[g] == nil {
					total[g] = &fieldTally{}
				}
				tt := total[g]
				tt.equal += ft.equal
				tt.near += ft.near
				tt.differ += ft.differ
				tt.worst = math.Max(tt.worst, ft.worst)
				if tt.first == "" {
					tt.first = ft.first
				}
			}
			oc, err := compiled.Clip(ours, u.version)
			if err != nil {
				t.Fatalf("our compiled clip does not decode: %v", err)
			}
			uc, err := compiled.Clip(u.value, u.version)
			if err != nil {
				t.Fatal(err)
			}
			if d := sampleDiff(t, oc, uc); d > 1e-4 {
				t.Errorf("sampled values differ from Unity's by up to %g (relative)", d)
			} else {
				t.Logf("sampled values within %.2g of Unity's", d)
			}
		})
	}
	var groups []string
	for g := range total {
		groups = append(groups, g)
	}
	sort.Strings(groups)
	var sb strings.Builder
	fmt.Fprintf(&sb, "\n%-62s %8s %8s %8s  %s\n", "field", "equal", "near", "differ", "first difference")
	for _, g := range groups {
		ft := total[g]
		fmt.Fprintf(&sb, "%-62s %8d %8d %8d  %s\n", g, ft.equal, ft.near, ft.differ, ft.first)
		if ft.differ > 0 {
			t.Errorf("%s: %d values differ from Unity's (first: %s)", g, ft.differ, ft.first)
		}
		// Only what goes through a quaternion normalisation may differ in
		// its last bits: every curve word, sample, value and binding is
		// Unity's bit for bit.
		quat := strings.Contains(g, "StartX.q") || strings.Contains(g, "StopX.q") || strings.Contains(g, "m_DeltaPose.m_RootX") ||
			strings.Contains(g, "m_DeltaPose.m_GoalArray.m_X")
		if ft.near > 0 && !quat {
			t.Errorf("%s: %d values differ from Unity's in their last bits", g, ft.near)
		}
	}
	t.Log(sb.String())
}
