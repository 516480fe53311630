package avatarasset

import (
	"encoding/binary"
	"fmt"
	"math"
	"sort"
	"strings"
	"testing"

	"github.com/mecanim/mecanim/decode/compiled"
	"github.com/mecanim/mecanim/internal/corpustest"
	"github.com/mecanim/mecanim/model"
	"github.com/mecanim/mecanim/unity/assets"
	"github.com/mecanim/mecanim/unity/typetree"
	"github.com/mecanim/mecanim/unity/unitywrite"
)

// leafDiffs walks two decoded values and counts, per field (array indexes
// dropped), the leaves that differ; first keeps the first difference.
func leafDiffs(a, b *typetree.Value, p string, diff map[string]int, total map[string]int, first map[string]string) {
	g := func() string {
		var keep []string
		for _, s := range strings.Split(p, ".") {
			if !strings.HasPrefix(s, "[") {
				keep = append(keep, s)
			}
		}
		return strings.Join(keep, ".")
	}
	switch a.Kind() {
	case typetree.KindStruct:
		for _, f := range a.Fields() {
			ff := f
			leafDiffs(&ff, b.Field(f.Name()), strings.TrimPrefix(p+"."+f.Name(), "."), diff, total, first)
		}
	case typetree.KindArray:
		if b == nil || a.Len() != b.Len() {
			diff[g()]++
			total[g()]++
			if first[g()] == "" && b != nil {
				first[g()] = fmt.Sprintf("%d items, Unity %d", a.Len(), b.Len())
			}
			return
		}
		for i := 0; i < a.Len(); i++ {
			leafDiffs(a.Index(i), b.Index(i), fmt.Sprintf("%s.[%d]", p, i), diff, total, first)
		}
	default:
		total[g()]++
		if b == nil {
			diff[g()]++
			return
		}
		same := a.Str() == b.Str()
		if a.Node().Type != "string" {
			x, y := a.Float(), b.Float()
			same = math.Float64bits(x) == math.Float64bits(y) || (x != x && y != y)
		}
		if !same {
			diff[g()]++
			if first[g()] == "" {
				first[g()] = fmt.Sprintf("%s: %v, Unity %v", p, a.Float(), b.Float())
			}
		}
	}
}

// TestAvatarsOfGamesCompileBackToThemselves decodes the avatars Unity built
// for several games, writes each again from the model and compares every
// field with Unity's.
func TestAvatarsOfGamesCompileBackToThemselves(t *testing.T) {
	diff, total, first := map[string]int{}, map[string]int{}, map[string]string{}
	count := 0
	for _, rel := range []string{"lethal-emotes/customemotespackage", "lethal-emotes/scavbody", "plateup-emotes/customemotespackage",
		"beatsaber-avatars/Template.avatar", "ror2-skeletons/dlc3emoteskeletons"} {
		c, err := assets.Open(corpustest.Path(t, rel), assets.Options{})
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range c.Files {
			for i := range f.Objects {
				o := &f.Objects[i]
				if o.ClassID != model.ClassAvatar {
					continue
				}
				v, err := f.Decode(o)
				if err != nil {
					t.Fatal(err)
				}
				av, err := compiled.Avatar(v, f.UnityVersion)
				if err != nil {
					t.Fatal(err)
				}
				fields, err := Compile(av)
				if err != nil {
					t.Fatalf("%s %s: %v", rel, av.Name, err)
				}
				tree := f.TypeOf(o).Tree
				b, err := unitywrite.Encode(tree, fields)
				if err != nil {
					t.Fatal(err)
				}
				l, _ := typetree.Compile(tree)
				got, err := l.Decode(b, binary.LittleEndian)
				if err != nil {
					t.Fatalf("%s %s: does not read back: %v", rel, av.Name, err)
				}
				// m_TOS is a hash map in Unity, written in its table's
				// order: compared as a set.
				gotTOS, wantTOS := map[uint64]string{}, map[uint64]string{}
				for _, e := range got.Field("m_TOS").Elems() {
					gotTOS[e.Field("first").Uint()] = e.Field("second").Str()
				}
				for _, e := range v.Field("m_TOS").Elems() {
					wantTOS[e.Field("first").Uint()] = e.Field("second").Str()
				}
				if fmt.Sprint(gotTOS) != fmt.Sprint(wantTOS) {
					t.Errorf("%s %s: m_TOS differs", rel, av.Name)
				}
				if gs, ws := got.Field("m_AvatarSize").Int(), v.Field("m_AvatarSize").Int(); gs < ws || gs > ws+192 {
					t.Errorf("%s %s: m_AvatarSize %d, Unity %d", rel, av.Name, gs, ws)
				}
				leafDiffs(got, v, "", diff, total, first)
				count++
			}
		}
		c.Close()
	}
	var groups []string
	for g := range total {
		groups = append(groups, g)
	}
	sort.Strings(groups)
	var sb strings.Builder
	fmt.Fprintf(&sb, "%d avatars\n", count)
	for _, g := range groups {
		if diff[g] > 0 {
			fmt.Fprintf(&sb, "%-70s %7d of %7d differ  %s\n", g, diff[g], total[g], first[g])
			if !strings.HasPrefix(g, "m_TOS") && g != "m_AvatarSize" {
				t.Errorf("%s: %d of %d values differ from Unity's (first: %s)", g, diff[g], total[g], first[g])
			}
		}
	}
	t.Log(sb.String())
}
