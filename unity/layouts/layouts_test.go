package layouts

import (
	"compress/gzip"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"testing"

	"github.com/mecanim/mecanim/internal/fuzzcount"
	"github.com/mecanim/mecanim/unity/typetree"
	"github.com/mecanim/mecanim/unity/unityversion"
)

// dumpNode and dump mirror layouts-dedup.json.gz (see ../shared/typetrees/README.md).
type dumpNode struct {
	Level     int    `json:"level"`
	Type      string `json:"type"`
	Name      string `json:"name"`
	ByteSize  int32  `json:"byteSize"`
	Flags     uint32 `json:"flags"`
	Version   int32  `json:"version"`
	TypeFlags uint8  `json:"typeFlags"`
}

type dump struct {
	Classes  map[string]string         `json:"classes"`
	Layouts  map[string][][]dumpNode   `json:"layouts"`
	Versions map[string]map[string]int `json:"versions"`
}

// loadDump reads the shared layout dump beside the checkout, or skips.
func loadDump(t *testing.T) *dump {
	t.Helper()
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	dir := wd
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			break
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Skip("module root not found; cannot locate ../shared/typetrees")
		}
		dir = parent
	}
	path := filepath.Join(dir, "..", "shared", "typetrees", "layouts-dedup.json.gz")
	f, err := os.Open(path)
	if err != nil {
		t.Skipf("layout dump not present (%v): skipping the comparison with the source data", err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	var d dump
	if err := json.NewDecoder(zr).Decode(&d); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return &d
}

func TestLookupGivesEveryDumpedLayoutExactly(t *testing.T) {
	d := loadDump(t)
	if got, want := len(Versions()), len(d.Versions); got != want {
		t.Errorf("%d versions embedded, the dump has %d", got, want)
	}
	classes := Classes()
	for k := range d.Layouts {
		id, _ := strconv.Atoi(k)
		if _, ok := classes[int32(id)]; !ok {
			t.Errorf("class %s missing from Classes()", k)
		}
	}
	checked := 0
	for vs, m := range d.Versions {
		v, err := unityversion.Parse(vs)
		if err != nil {
			t.Fatal(err)
		}
		for id := range classes {
			li, ok := m[strconv.Itoa(int(id))]
			tree, matched, err := Lookup(v, id)
			if !ok {
				if !errors.Is(err, ErrNoVersion) {
					t.Errorf("Lookup(%s, %d) for a class absent in that version: %v, want ErrNoVersion", vs, id, err)
				}
				continue
			}
			if err != nil {
				t.Errorf("Lookup(%s, %d): %v", vs, id, err)
				continue
			}
			if matched != v {
				t.Errorf("Lookup(%s, %d) matched %s, want the exact version", vs, id, matched)
			}
			want := d.Layouts[strconv.Itoa(int(id))][li]
			if len(tree.Nodes) != len(want) {
				t.Errorf("%s class %d: %d nodes, want %d", vs, id, len(tree.Nodes), len(want))
				continue
			}
			for i, w := range want {
				n := tree.Nodes[i]
				wn := typetree.Node{Level: w.Level, Type: w.Type, Name: w.Name, ByteSize: w.ByteSize, Index: int32(i),
					Flags: w.Flags, Version: w.Version, TypeFlags: w.TypeFlags}
				if n != wn {
					t.Errorf("%s class %d node %d = %+v, want %+v", vs, id, i, n, wn)
					break
				}
			}
			checked++
		}
	}
	t.Logf("%d (version, class) layouts equal the dump node for node", checked)
}

func TestLookupFallsBackWithinMajorMinorOnly(t *testing.T) {
	all := Versions()
	latest := func(prefix unityversion.Version) unityversion.Version {
		var best unityversion.Version
		for _, v := range all {
			if v.SameMinor(prefix) {
				best = v
			}
		}
		return best
	}
	tests := []struct {
		in      string
		class   int32
		want    unityversion.Version // matched version; zero with wantErr
		wantErr error
	}{
		{"2022.3.9f1", 74, unityversion.MustParse("2022.3.9f1"), nil},
		{"2022.3.999f1", 74, latest(unityversion.MustParse("2022.3.0")), nil},
		{"2022.3.999f1", 95, latest(unityversion.MustParse("2022.3.0")), nil},
		{"2019.4.26f1c1", 74, unityversion.MustParse("2019.4.26f1"), nil},
		{"5.6.7f1", 1, unityversion.MustParse("5.6.7f1"), nil},
		{"2017.1.0b1", 74, unityversion.MustParse("2017.1.0b1"), nil},
		{"2018.5.0f1", 74, unityversion.Version{}, ErrNoVersion},   // no such minor
		{"2017.1.0a1", 74, unityversion.Version{}, ErrNoVersion},   // below the first 2017.1 dump; never 5.6
		{"0.0.0", 74, unityversion.Version{}, ErrNoVersion},        // blank: use InferVersion
		{"5.x.x", 74, unityversion.Version{}, ErrNoVersion},        // wildcard is not a version
		{"2022.3.9f1", 1011, unityversion.Version{}, ErrNoVersion}, // AvatarMask's old id
		{"2022.3.9f1", 93, unityversion.Version{}, ErrUnknownClass},
		{"2022.3.9f1", 28, unityversion.Version{}, ErrUnknownClass},
	}
	for _, tt := range tests {
		_, got, err := Lookup(unityversion.MustParse(tt.in), tt.class)
		if tt.wantErr != nil {
			if !errors.Is(err, tt.wantErr) {
				t.Errorf("Lookup(%s, %d) = %s, %v; want error %v", tt.in, tt.class, got, err, tt.wantErr)
			}
			continue
		}
		if err != nil || got != tt.want {
			t.Errorf("Lookup(%s, %d) matched %s, %v; want %s", tt.in, tt.class, got, err, tt.want)
		}
	}
}

// TestLookupMatchesBruteForceRule checks the rule against a plain scan for
// versions around every dumped one (just above it, between builds, patches).
func TestLookupMatchesBruteForceRule(t *testing.T) {
	all := Versions()
	rule := func(v unityversion.Version) (unityversion.Version, bool) {
		var best unityversion.Version
		found := false
		for _, w := range all {
			if w.SameMinor(v) && unityversion.Compare(w, v) <= 0 {
				best, found = w, true
			}
		}
		return best, found
	}
	probes := 0
	for _, d := range all {
		next := []unityversion.Version{d}
		a := d
		a.Number++
		next = append(next, a)
		b := d
		b.China = 1
		next = append(next, b)
		c := d
		c.Patch++
		c.Type, c.Number = unityversion.TypeNone, 0
		next = append(next, c)
		e := d
		e.Type, e.Number = unityversion.TypeAlpha, 0
		next = append(next, e)
		for _, p := range next {
			want, ok := rule(p)
			_, got, err := Lookup(p, 1)
			if !ok {
				if !errors.Is(err, ErrNoVersion) {
					t.Errorf("Lookup(%s): %s, %v; want ErrNoVersion", p, got, err)
				}
				continue
			}
			if err != nil || got != want {
				t.Errorf("Lookup(%s) matched %s, %v; want %s", p, got, err, want)
			}
			probes++
		}
	}
	t.Logf("%d probe versions follow the rule", probes)
}

func TestCandidatesPartitionTheVersions(t *testing.T) {
	nv := len(Versions())
	for id := range Classes() {
		cands := Candidates(id)
		if len(cands) == 0 {
			t.Errorf("class %d: no candidates", id)
		}
		seen := 0
		for i, c := range cands {
			vs := VersionsOfLayout(id, i)
			if len(vs) == 0 {
				t.Errorf("class %d layout %d: no versions", id, i)
			}
			if !slices.IsSortedFunc(vs, unityversion.Compare) {
				t.Errorf("class %d layout %d: versions not sorted", id, i)
			}
			for _, v := range vs {
				tree, _, err := Lookup(v, id)
				if err != nil || tree != c {
					t.Errorf("Lookup(%s, %d) is not candidate %d: %v", v, id, i, err)
				}
			}
			for j := range i {
				if SameLayout(c, cands[j]) {
					t.Errorf("class %d layouts %d and %d are the same", id, j, i)
				}
			}
			seen += len(vs)
		}
		if seen > nv {
			t.Errorf("class %d: %d versions over its layouts, only %d exist", id, seen, nv)
		}
		if VersionsOfLayout(id, len(cands)) != nil || VersionsOfLayout(id, -1) != nil {
			t.Errorf("class %d: out-of-range layout index gives versions", id)
		}
	}
	if Candidates(93) != nil {
		t.Error("Candidates of an uncovered class is not nil")
	}
}

func TestInferVersionFindsTheVersionsSharingAllLayouts(t *testing.T) {
	for _, s := range []string{"2022.3.9f1", "2022.3.19f1", "5.6.7f1", "2019.4.26f1", "6000.0.23f1"} {
		v := unityversion.MustParse(s)
		trees := map[int32]*typetree.Tree{}
		for id := range Classes() {
			if tr, _, err := Lookup(v, id); err == nil {
				// Copy, so that equality is by content and not by pointer.
				trees[id] = &typetree.Tree{Nodes: slices.Clone(tr.Nodes)}
			}
		}
		trees[28] = &typetree.Tree{} // an uncovered class is ignored
		got := InferVersion(trees)
		if !slices.Contains(got, v) {
			t.Errorf("InferVersion(trees of %s) = %v lacks it", s, got)
		}
		for _, w := range got {
			for id, tr := range trees {
				if id == 28 {
					continue
				}
				wt, _, err := Lookup(w, id)
				if err != nil || !SameLayout(wt, tr) {
					t.Errorf("InferVersion(trees of %s) gives %s whose class %d differs", s, w, id)
				}
			}
		}
		t.Logf("all layouts of %s: %d candidate versions %v … %v", s, len(got), got[0], got[len(got)-1])
	}
	if got := InferVersion(map[int32]*typetree.Tree{28: {}}); got != nil {
		t.Errorf("InferVersion with no covered class = %v, want nil", got)
	}
	// A tree matching no layout leaves no candidate.
	tr, _, _ := Lookup(unityversion.MustParse("2022.3.9f1"), 74)
	bad := &typetree.Tree{Nodes: slices.Clone(tr.Nodes)}
	bad.Nodes[1].Name = "m_Nonexistent"
	if got := InferVersion(map[int32]*typetree.Tree{74: bad}); len(got) != 0 {
		t.Errorf("InferVersion with an unknown layout = %v, want none", got)
	}
}

func TestTreesAreWellFormed(t *testing.T) {
	for id := range Classes() {
		for i, c := range Candidates(id) {
			for j, n := range c.Nodes {
				if n.Index != int32(j) {
					t.Errorf("class %d layout %d node %d has Index %d", id, i, j, n.Index)
				}
				if j == 0 && n.Level != 0 || j > 0 && (n.Level < 1 || n.Level > c.Nodes[j-1].Level+1) {
					t.Errorf("class %d layout %d node %d: level %d breaks pre-order", id, i, j, n.Level)
				}
			}
		}
	}
}

func TestDecodeRejectsCorruptTables(t *testing.T) {
	if _, err := decode(embedded[:len(embedded)/2]); err == nil {
		t.Error("half a table decodes")
	}
	if _, err := decode([]byte{1, 2, 3}); err == nil {
		t.Error("garbage decodes")
	}
}

func TestEmbeddedSize(t *testing.T) {
	tab, err := load()
	if err != nil {
		t.Fatal(err)
	}
	nodes := 0
	for _, c := range tab.classes {
		for _, l := range c.layouts {
			nodes += l.nodes
		}
	}
	t.Logf("embedded table: %d bytes compressed, %d inflated; %d classes, %d distinct layouts' %d nodes, %d strings, %d versions",
		EmbeddedSize(), len(tab.raw), len(tab.classes), layoutCount(tab), nodes, len(tab.str), len(tab.versions))
}

func layoutCount(tab *table) int {
	n := 0
	for _, c := range tab.classes {
		n += len(c.layouts)
	}
	return n
}

func BenchmarkDecodeTable(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if _, err := decode(embedded); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkLookupCold measures a first Lookup: decoding the table and
// building one AnimationClip tree.
func BenchmarkLookupCold(b *testing.B) {
	b.ReportAllocs()
	v := unityversion.MustParse("2022.3.9f1")
	for b.Loop() {
		tab, err := decode(embedded)
		if err != nil {
			b.Fatal(err)
		}
		ci := tab.class(74)
		li := tab.use[tab.version(v)*len(tab.classes)+ci]
		if _, err := tab.build(&tab.classes[ci], int(li)); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkLookupWarm measures Lookup once the table and tree are cached.
func BenchmarkLookupWarm(b *testing.B) {
	v := unityversion.MustParse("2022.3.999f1")
	if _, _, err := Lookup(v, 74); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, _, err := Lookup(v, 74); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkLookupWarmParallel(b *testing.B) {
	v := unityversion.MustParse("2021.3.16f1")
	if _, _, err := Lookup(v, 95); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			if _, _, err := Lookup(v, 95); err != nil {
				b.Error(err)
				return
			}
		}
	})
}

// FuzzParse feeds mutated inflated tables to the parser and tree builder,
// which must fail cleanly rather than panic or allocate without bound.
func FuzzParse(f *testing.F) {
	tab, err := load()
	if err != nil {
		f.Fatal(err)
	}
	// A prefix holding the string table and the first classes (the whole
	// table is too large for the fuzzer to mutate quickly).
	f.Add(tab.raw[:4096])
	f.Add([]byte(magic + "\x01\x00\x01\x05\x00\x01"))
	count := fuzzcount.Counter("FuzzParse")
	f.Fuzz(func(t *testing.T, raw []byte) {
		count()
		tab, err := parse(raw)
		if err != nil {
			return
		}
		for ci := range tab.classes {
			for li := range tab.classes[ci].layouts {
				tab.build(&tab.classes[ci], li)
			}
		}
	})
}

// TestConcurrentBuildsShareOneTree builds the same layouts from many
// goroutines on a fresh table (run with -race): each gets the same tree.
func TestConcurrentBuildsShareOneTree(t *testing.T) {
	tab, err := decode(embedded)
	if err != nil {
		t.Fatal(err)
	}
	const workers = 8
	got := make([][]*typetree.Tree, workers)
	done := make(chan int)
	for w := range workers {
		go func() {
			for ci := range tab.classes {
				for li := range tab.classes[ci].layouts {
					tr, err := tab.build(&tab.classes[ci], li)
					if err != nil {
						t.Error(err)
					}
					got[w] = append(got[w], tr)
				}
			}
			done <- w
		}()
	}
	for range workers {
		<-done
	}
	for w := 1; w < workers; w++ {
		if !slices.Equal(got[w], got[0]) {
			t.Fatalf("worker %d got different trees", w)
		}
	}
}
