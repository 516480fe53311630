package robustness

import (
	"bytes"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/mecanim/mecanim/anim"
	"github.com/mecanim/mecanim/animator"
	"github.com/mecanim/mecanim/decode/yamlasset"
	"github.com/mecanim/mecanim/geom"
	"github.com/mecanim/mecanim/humanoid"
	"github.com/mecanim/mecanim/internal/corpustest"
	"github.com/mecanim/mecanim/internal/synth"
	"github.com/mecanim/mecanim/model"
)

// yamlExts are the Unity YAML text assets the sweep damages.
var yamlExts = map[string]bool{".anim": true, ".controller": true, ".prefab": true, ".asset": true,
	".meta": true, ".mask": true, ".overrideController": true, ".mat": true, ".unity": true}

// pathSkeleton is a skeleton of every Transform path a clip animates (with
// their ancestors), so that .anim files, which carry no rig, can be baked
// and sampled.
func pathSkeleton(c *model.Clip) (*anim.Skeleton, error) {
	set := map[string]bool{"": true}
	for _, cv := range c.Curves {
		if cv.Target.Transform == 0 {
			continue
		}
		p := cv.Target.Path
		for p != "" && !set[p] {
			set[p] = true
			if i := strings.LastIndexByte(p, '/'); i >= 0 {
				p = p[:i]
			} else {
				p = ""
			}
		}
	}
	paths := make([]string, 0, len(set))
	for p := range set {
		paths = append(paths, p)
	}
	// Shorter paths first puts every parent before its children.
	sort.Slice(paths, func(i, j int) bool {
		if len(paths[i]) != len(paths[j]) {
			return len(paths[i]) < len(paths[j])
		}
		return paths[i] < paths[j]
	})
	index := map[string]int{}
	parents := make([]int, len(paths))
	rest := make([]geom.Transform, len(paths))
	for i, p := range paths {
		index[p] = i
		rest[i] = geom.Identity
		parents[i] = -1
		if p == "" {
			continue
		}
		parent := ""
		if k := strings.LastIndexByte(p, '/'); k >= 0 {
			parent = p[:k]
		}
		parents[i] = index[parent]
	}
	return anim.NewSkeleton(paths, parents, rest)
}

// exerciseYAML runs what the commands do with a YAML asset: parse it, then
// convert every kind of object it may hold, bake and sample its clips
// (generic clips on a skeleton of their paths and on the file's rigs,
// humanoid ones on the synthetic humanoid), prepare humanoid avatars and
// tick controllers. It returns how many steps failed with an error.
func exerciseYAML(data []byte, name string, human *humanoid.Rig) (errs int) {
	f, err := yamlasset.Parse(bytes.NewReader(data), name)
	if err != nil {
		return 1
	}
	fail := func(err error) {
		if err != nil {
			errs++
		}
	}
	rigs, err := f.Rigs()
	fail(err)
	var skels []*anim.Skeleton
	for _, r := range rigs {
		s, err := anim.SkeletonFromRig(r)
		fail(err)
		if err == nil {
			skels = append(skels, s)
		}
	}
	_, err = f.Hierarchy()
	fail(err)
	clips, err := f.Clips()
	fail(err)
	times := []float32{-1, 0, 0.37, 1e9}
	for _, c := range clips {
		for i := range c.Curves {
			for _, t := range times {
				c.Curves[i].Eval(t)
			}
		}
		if c.Humanoid && human != nil {
			hc, err := humanoid.Bake(c, human)
			fail(err)
			if err == nil {
				dst := make([]geom.Transform, human.Skeleton().Len())
				for _, t := range times {
					hc.Sample(t, dst)
				}
			}
		}
		own, err := pathSkeleton(c)
		fail(err)
		if err == nil {
			skels = append(skels, own)
		}
		for _, s := range skels {
			bc, err := anim.Bake(c, s)
			fail(err)
			if err != nil {
				continue
			}
			dst := make([]geom.Transform, s.Len())
			for _, t := range times {
				bc.Sample(t, dst)
			}
		}
		skels = skels[:len(skels)-boolInt(own != nil)]
	}
	if a, err := f.Avatar(); err == nil {
		if a.IsHuman() {
			_, err := humanoid.NewRig(a)
			fail(err)
		}
	}
	_, _ = f.HumanDescription()
	_, _ = f.ClipImports()
	_, _ = f.AvatarMask()
	if ctl, err := f.Controller(); err == nil {
		a, err := animator.New(ctl, nil)
		fail(err)
		if err == nil {
			for _, p := range ctl.Parameters {
				a.Set(p.Name, 1.0)
			}
			for i := 0; i < 30; i++ {
				a.Tick(1.0 / 30)
			}
		}
	}
	return errs
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

var (
	fileIDRe = regexp.MustCompile(`fileID: (-?[0-9]+)`)
	numberRe = regexp.MustCompile(`-?[0-9]+(\.[0-9]+)?(e-?[0-9]+)?`)
	// hostileNumbers replace numbers: out of every integer range, NaN,
	// infinite, negative counts and indexes.
	hostileNumbers = []string{"-1", "4294967295", "2147483648", "-9223372036854775809", "1e39", "-1e39",
		"nan", ".inf", "-.inf", "99999999999999999999", "0", "1e-45"}
	hostileBytes = []byte(":-{}[],&*!|>'\"#%@`\n\t 0")
)

// damageYAML returns one damaged copy of a YAML text by kind k%6:
// truncation, a byte changed, a line deleted, duplicated or re-indented, a
// number made hostile, and a fileID pointed at another object of the file
// (which makes cycles in hierarchies and state machines).
func damageYAML(rng *rand.Rand, data []byte, k int) ([]byte, string) {
	switch k % 6 {
	case 0:
		n := rng.IntN(len(data))
		return data[:n], fmt.Sprintf("cut at %d", n)
	case 1:
		b := append([]byte(nil), data...)
		off := rng.IntN(len(b))
		b[off] = hostileBytes[rng.IntN(len(hostileBytes))]
		return b, fmt.Sprintf("byte %d = %q", off, b[off])
	case 2:
		lines := bytes.SplitAfter(data, []byte("\n"))
		i := rng.IntN(len(lines))
		var out [][]byte
		what := ""
		switch rng.IntN(3) {
		case 0:
			out, what = append(append(out, lines[:i]...), lines[i+1:]...), "deleted"
		case 1:
			out, what = append(append(append(out, lines[:i+1]...), lines[i]), lines[i+1:]...), "duplicated"
		default:
			out = append(out, lines...)
			if bytes.HasPrefix(lines[i], []byte("  ")) {
				out[i], what = lines[i][2:], "dedented"
			} else {
				out[i], what = append([]byte("    "), lines[i]...), "indented"
			}
		}
		return bytes.Join(out, nil), fmt.Sprintf("line %d %s", i+1, what)
	case 3, 4:
		re := numberRe
		if k%6 == 4 {
			re = fileIDRe
		}
		locs := re.FindAllSubmatchIndex(data, -1)
		if len(locs) == 0 {
			return damageYAML(rng, data, 1)
		}
		l := locs[rng.IntN(len(locs))]
		start, end := l[0], l[1]
		repl := hostileNumbers[rng.IntN(len(hostileNumbers))]
		if k%6 == 4 {
			start, end = l[2], l[3]
			other := locs[rng.IntN(len(locs))]
			repl = string(data[other[2]:other[3]])
			if rng.IntN(4) == 0 {
				repl = hostileNumbers[rng.IntN(len(hostileNumbers))]
			}
		}
		b := append(append(append([]byte(nil), data[:start]...), repl...), data[end:]...)
		return b, fmt.Sprintf("%q at %d -> %s", data[start:end], start, repl)
	default:
		// Repeat a random stretch many times (deep or wide structures).
		a := rng.IntN(len(data))
		n := min(1+rng.IntN(200), len(data)-a)
		piece := data[a : a+n]
		b := append([]byte(nil), data[:a+n]...)
		for i := 0; i < 50; i++ {
			b = append(b, piece...)
		}
		return append(b, data[a+n:]...), fmt.Sprintf("%d bytes at %d repeated 50 times", n, a)
	}
}

// TestYAMLCorruptionSweep damages every YAML text asset of the corpus
// (truncations, byte changes, line edits, hostile numbers, fileIDs pointed
// at other objects) and runs each copy through every YAML path of the
// commands: no panic, no hang, bounded allocation. MECANIM_SWEEP=long
// tries ten times as many cases.
func TestYAMLCorruptionSweep(t *testing.T) {
	if testing.Short() {
		t.Skip("sweep skipped in -short mode")
	}
	dir := corpustest.Dir(t)
	inputs := map[string][]byte{}
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !yamlExts[filepath.Ext(p)] {
			return nil
		}
		if b, err := os.ReadFile(p); err == nil && len(b) > 0 {
			rel, _ := filepath.Rel(dir, p)
			inputs[rel] = b
		}
		return nil
	})
	if len(inputs) < 10 {
		t.Fatalf("only %d YAML inputs", len(inputs))
	}
	human, err := humanoid.NewRig(synth.HumanAvatar())
	if err != nil {
		t.Fatal(err)
	}
	// The YAML path is cheap (a 1.9 MB clip parses in tens of
	// milliseconds), so it gets twice the binary sweep's cases.
	cases, peak, _ := sweep(t, inputs, 48, 0x79616d6c,
		func(rng *rand.Rand, name string, data []byte, k int) ([]byte, string) {
			buf, how := damageYAML(rng, data, k)
			return buf, name + ": " + how
		},
		func(buf []byte, what string) { exerciseYAML(buf, what, human) })
	t.Logf("%d cases over %d YAML inputs: no panic, no hang; largest allocation of one case %d MiB", cases, len(inputs), peak>>20)
}
