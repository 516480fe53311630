package anim_test

// The corpus proof: every clip of the corpus, compiled (through
// decode/catalog and decode/compiled) or a YAML source (decode/yamlasset),
// baked and sampled at 1,000 times equals model.Curve.Eval. Only this test
// file imports the readers; package anim itself never does.

import (
	"fmt"
	"io/fs"
	"math"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/mecanim/mecanim/anim"
	"github.com/mecanim/mecanim/decode/catalog"
	"github.com/mecanim/mecanim/decode/yamlasset"
	"github.com/mecanim/mecanim/geom"
	"github.com/mecanim/mecanim/internal/corpustest"
	"github.com/mecanim/mecanim/model"
	"github.com/mecanim/mecanim/unity/assets"
)

type corpusClip struct {
	where string
	clip  *model.Clip
}

var (
	corpusOnce  sync.Once
	corpusClips []corpusClip
	corpusFails []string
)

// loadCorpusClips decodes every clip of the corpus once.
func loadCorpusClips(tb testing.TB, dir string) []corpusClip {
	corpusOnce.Do(func() {
		var unity, yaml []string
		filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return nil
			}
			switch {
			case strings.HasSuffix(p, ".anim"):
				yaml = append(yaml, p)
			case strings.Contains(filepath.ToSlash(p), "/source/") || strings.Contains(filepath.ToSlash(p), "/reference/") ||
				strings.HasSuffix(p, ".md") || strings.HasSuffix(p, ".meta") || strings.HasSuffix(p, ".controller") ||
				strings.HasSuffix(p, ".prefab") || strings.HasSuffix(p, ".resS") || strings.HasSuffix(p, ".resource") ||
				strings.HasSuffix(p, ".asset"):
			default:
				unity = append(unity, p)
			}
			return nil
		})
		sort.Strings(unity)
		// One catalog of everything, so clips are named from every name table.
		cat, err := catalog.Open(tb.Context(), unity, assets.Options{})
		if j, ok := err.(interface{ Unwrap() []error }); ok {
			for _, err := range j.Unwrap() {
				corpusFails = append(corpusFails, err.Error())
			}
		}
		defer cat.Close()
		for _, o := range cat.ByClass(model.ClassAnimationClip) {
			rel, _ := filepath.Rel(dir, o.Container())
			c, err := cat.Clip(o)
			if err != nil {
				corpusFails = append(corpusFails, fmt.Sprintf("%s: %v", rel, err))
				continue
			}
			corpusClips = append(corpusClips, corpusClip{fmt.Sprintf("%s #%d %q", rel, o.PathID(), c.Name), c})
		}
		for _, p := range yaml {
			rel, _ := filepath.Rel(dir, p)
			f, err := yamlasset.ParseFile(p)
			if err != nil {
				corpusFails = append(corpusFails, fmt.Sprintf("%s: %v", rel, err))
				continue
			}
			c, err := f.Clip()
			if err != nil {
				corpusFails = append(corpusFails, fmt.Sprintf("%s: %v", rel, err))
				continue
			}
			corpusClips = append(corpusClips, corpusClip{rel, c})
		}
	})
	return corpusClips
}

// clipSkeleton returns a copy of c whose Transform channels all name their
// joint by a known path (a path known only by its hash is named "#hash"),
// and a skeleton with one joint per path below the root "" (rest at the
// identity): what every channel of the clip drives, so nothing is
// unresolved and every channel is compared.
func clipSkeleton(c *model.Clip) (*model.Clip, *anim.Skeleton, error) {
	cc := *c
	cc.Curves = append([]model.Curve(nil), c.Curves...)
	paths := []string{""}
	seen := map[string]bool{"": true}
	for i := range cc.Curves {
		tg := &cc.Curves[i].Target
		if tg.ClassID != model.ClassTransform || tg.Transform == model.PropNone {
			continue
		}
		if !tg.PathKnown {
			tg.Path, tg.PathKnown = fmt.Sprintf("#%08x", tg.PathHash), true
		}
		if !seen[tg.Path] {
			seen[tg.Path] = true
			paths = append(paths, tg.Path)
		}
	}
	parents := make([]int, len(paths))
	for i := range parents {
		parents[i] = i - 1
		if i > 0 {
			parents[i] = 0
		}
	}
	s, err := anim.NewSkeleton(paths, parents, nil)
	return &cc, s, err
}

// TestEveryCorpusClipSamplesAsTheDecodedCurves is the proof the runtime
// design needs: sampling the baked clip equals evaluating the decoded
// curves on every corpus clip at 1,000 times each — rotation within
// 0.001°, translation, scale and float tracks within 1e-5 relative
// (to max(1, |value|)).
func TestEveryCorpusClipSamplesAsTheDecodedCurves(t *testing.T) {
	dir := corpustest.Dir(t)
	clips := loadCorpusClips(t, dir)
	for _, f := range corpusFails {
		t.Logf("not decoded (not compared): %s", f)
	}
	if len(clips) == 0 {
		t.Fatal("no corpus clips decoded")
	}
	var worstRot, worstRel, worstFloat float64
	var worstRotAt, worstRelAt string
	forms := map[model.CurveKind]int{}
	var total anim.Stats
	for _, cc := range clips {
		c, s, err := clipSkeleton(cc.clip)
		if err != nil {
			t.Errorf("%s: %v", cc.where, err)
			continue
		}
		for i := range c.Curves {
			forms[c.Curves[i].Kind]++
		}
		if b, err := anim.Bake(c, s); err == nil {
			st := b.Stats()
			total.CubicChannels += st.CubicChannels
			total.Timelines += st.Timelines
			total.GridChannels += st.GridChannels
			total.DenseChannels += st.DenseChannels
			total.DenseGroups += st.DenseGroups
			total.IndexedLines += st.IndexedLines
			total.EulerJoints += st.EulerJoints
			total.FloatTracks += st.FloatTracks
			total.Bytes += st.Bytes
		}
		rot, rel, frel := anim.CompareClip(t, c, s, 1000)
		if rot > 1e-3 || rel > 1e-5 || frel > 1e-5 || math.IsNaN(rel+frel+rot) {
			t.Errorf("%s: rotation error %.3g°, translation/scale %.3g, floats %.3g", cc.where, rot, rel, frel)
		}
		if rot > worstRot {
			worstRot, worstRotAt = rot, cc.where
		}
		if rel > worstRel {
			worstRel, worstRelAt = rel, cc.where
		}
		worstFloat = math.Max(worstFloat, frel)
	}
	t.Logf("%d clips (%d streamed, %d dense, %d constant, %d keyframed curves) at 1,000 times each", len(clips),
		forms[model.CurveStreamed], forms[model.CurveDense], forms[model.CurveConstant], forms[model.CurveKeyframed])
	t.Logf("baked: %+v", total)
	t.Logf("worst rotation error %.3g° (%s); translation/scale %.3g (%s); floats %.3g", worstRot, worstRotAt, worstRel, worstRelAt, worstFloat)
}

// corpusBench bakes the corpus clip that scores highest and plays it
// forward at 60 Hz, reporting per driven channel (animated cubic and dense
// channels) and per joint.
func corpusBench(b *testing.B, score func(*model.Clip) int64) {
	dir, ok := corpustest.Lookup()
	if !ok {
		b.Skip("no corpus")
	}
	var best *model.Clip
	for _, cc := range loadCorpusClips(b, dir) {
		if best == nil || score(cc.clip) > score(best) {
			best = cc.clip
		}
	}
	if best == nil {
		b.Skip("no corpus clips")
	}
	mc, s, err := clipSkeleton(best)
	if err != nil {
		b.Fatal(err)
	}
	c, err := anim.Bake(mc, s)
	if err != nil {
		b.Fatal(err)
	}
	st := c.Stats()
	chans := st.CubicChannels + st.DenseChannels
	dst := make([]geom.Transform, s.Len())
	fl := make([]float32, len(c.FloatTargets()))
	tm := float32(0)
	anim.Measure(b, chans, "channel", func(int) {
		c.Sample(tm, dst)
		c.SampleFloats(tm, fl)
		tm, _ = c.Advance(tm, 1.0/60, model.WrapLoop)
	})
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(s.Len()), "ns/joint")
	b.Logf("clip %q: %.2f s, %d joints, %+v", best.Name, c.Duration(), s.Len(), st)
}

func keyCount(c *model.Clip) (n int) {
	for i := range c.Curves {
		n += len(c.Curves[i].Segments) + len(c.Curves[i].Samples) + len(c.Curves[i].Keys)
	}
	return n
}

// BenchmarkSampleLongestCorpusClip plays the corpus clip with the most key
// data (segments, samples and keys).
func BenchmarkSampleLongestCorpusClip(b *testing.B) {
	corpusBench(b, func(c *model.Clip) int64 { return int64(keyCount(c)) })
}

// BenchmarkSampleWidestCorpusClip plays the corpus clip driving the most
// joints (Transform channels), ties broken by key data.
func BenchmarkSampleWidestCorpusClip(b *testing.B) {
	corpusBench(b, func(c *model.Clip) int64 {
		n := 0
		for i := range c.Curves {
			if c.Curves[i].Target.ClassID == model.ClassTransform {
				n++
			}
		}
		return int64(n)<<32 | int64(keyCount(c))
	})
}
