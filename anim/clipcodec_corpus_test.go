package anim_test

import (
	"sort"
	"strings"
	"testing"

	"github.com/mecanim/mecanim/anim"
	"github.com/mecanim/mecanim/internal/corpustest"
	"github.com/mecanim/mecanim/internal/fuzzcount"
)

// TestEveryCorpusClipLoadsAsBaked: every corpus clip, baked, encoded and
// decoded, is Bake's layout to the bit and samples bit for bit as the
// clip baked, at 500 times each (and NaN, ±Inf, -0).
func TestEveryCorpusClipLoadsAsBaked(t *testing.T) {
	clips := loadCorpusClips(t, corpustest.Dir(t))
	if len(clips) == 0 {
		t.Fatal("no corpus clips decoded")
	}
	var n, bytes int
	for _, cc := range clips {
		mc, s, err := clipSkeleton(cc.clip)
		if err != nil {
			continue
		}
		c, err := anim.Bake(mc, s)
		if err != nil {
			continue
		}
		b, err := c.MarshalBinary()
		if err != nil {
			t.Errorf("%s: %v", cc.where, err)
			continue
		}
		got, err := anim.UnmarshalClip(b, s)
		if err != nil {
			t.Errorf("%s: %v", cc.where, err)
			continue
		}
		if d := anim.SameLayout(c, got); d != "" {
			t.Errorf("%s: decoded clip differs: %s", cc.where, d)
			continue
		}
		anim.SameSamples(t, c, got, 500)
		n++
		bytes += len(b)
	}
	t.Logf("%d corpus clips round-tripped, %d bytes encoded", n, bytes)
}

// seed is a baked clip to start the fuzzer from: its skeleton's paths
// (parents: the root; rest: the identity, as clipSkeleton makes them)
// and its encoding.
type seed struct {
	paths string
	data  []byte
}

// codecSeeds are the synthetic clips of every layout on the clipSkeleton
// of their channels, and the corpus clips whose encoding takes at most 64
// KiB (larger ones slow the fuzzer down), baked and encoded.
func codecSeeds(tb testing.TB) []seed {
	var out []seed
	add := func(s *anim.Skeleton, c *anim.Clip) {
		b, err := c.MarshalBinary()
		if err != nil {
			tb.Fatal(err)
		}
		out = append(out, seed{strings.Join(s.Paths, "\n"), b})
	}
	for _, m := range anim.CodecModels(tb) {
		s, err := anim.NewSkeleton(m.Skeleton.Paths, rootParents(m.Skeleton.Len()), nil)
		if err != nil {
			tb.Fatal(err)
		}
		if c, err := anim.Bake(m.Clip, s); err == nil {
			add(s, c)
		}
	}
	if dir, ok := corpustest.Lookup(); ok {
		var corpus []seed
		for _, cc := range loadCorpusClips(tb, dir) {
			mc, s, err := clipSkeleton(cc.clip)
			if err != nil {
				continue
			}
			if c, err := anim.Bake(mc, s); err == nil {
				b, err := c.MarshalBinary()
				if err != nil {
					tb.Fatal(err)
				}
				corpus = append(corpus, seed{strings.Join(s.Paths, "\n"), b})
			}
		}
		sort.Slice(corpus, func(i, j int) bool { return len(corpus[i].data) < len(corpus[j].data) })
		for _, c := range corpus {
			if len(c.data) <= 64<<10 {
				out = append(out, c)
			}
		}
	}
	return out
}

func rootParents(n int) []int {
	p := make([]int, n)
	for i := range p {
		p[i] = i - 1
		if i > 0 {
			p[i] = 0
		}
	}
	return p
}

// FuzzUnmarshalClip decodes any bytes as a baked clip on the skeleton of
// any paths (each below the root, resting at the identity): an
// anim.FormatError or UnsupportedError, or a clip that samples (pose,
// floats, integers, root), extracts root motion, collects events, encodes
// again and decodes to a clip that samples the same, without panicking.
func FuzzUnmarshalClip(f *testing.F) {
	for _, s := range codecSeeds(f) {
		f.Add(s.paths, s.data)
	}
	count := fuzzcount.Counter("FuzzUnmarshalClip")
	f.Fuzz(func(t *testing.T, paths string, data []byte) {
		count()
		p := strings.Split(paths, "\n")
		if len(p) > 256 {
			return
		}
		s, err := anim.NewSkeleton(p, rootParents(len(p)), nil)
		if err != nil {
			return
		}
		anim.Exercise(t, data, s)
	})
}
