package gltf

import (
	"bytes"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"sort"
	"testing"

	"github.com/mecanim/mecanim/geom"
	qg "github.com/qmuntal/gltf"
	"github.com/qmuntal/gltf/modeler"
)

// channel is an animation channel read back from a written file.
type channel struct {
	node   int
	path   string // "translation", "rotation", "scale", "weights"
	interp string
	times  []float64
	values [][]float64 // per output element (3 per key for CUBICSPLINE)
}

// readChannels reads every animation's channels of a document.
func readChannels(t *testing.T, doc *qg.Document) [][]channel {
	t.Helper()
	var out [][]channel
	for _, a := range doc.Animations {
		var chs []channel
		for _, c := range a.Channels {
			s := a.Samplers[c.Sampler]
			in, err := modeler.ReadAccessor(doc, doc.Accessors[s.Input], nil)
			if err != nil {
				t.Fatal(err)
			}
			o, err := modeler.ReadAccessor(doc, doc.Accessors[s.Output], nil)
			if err != nil {
				t.Fatal(err)
			}
			ch := channel{node: int(*c.Target.Node), path: c.Target.Path.String(), interp: s.Interpolation.String()}
			for _, x := range in.([]float32) {
				ch.times = append(ch.times, float64(x))
			}
			switch v := o.(type) {
			case []float32:
				for _, x := range v {
					ch.values = append(ch.values, []float64{float64(x)})
				}
			case [][3]float32:
				for _, x := range v {
					ch.values = append(ch.values, []float64{float64(x[0]), float64(x[1]), float64(x[2])})
				}
			case [][4]float32:
				for _, x := range v {
					ch.values = append(ch.values, []float64{float64(x[0]), float64(x[1]), float64(x[2]), float64(x[3])})
				}
			default:
				t.Fatalf("animation %q: output accessor of type %T", a.Name, o)
			}
			chs = append(chs, ch)
		}
		out = append(out, chs)
	}
	return out
}

// at evaluates a channel at time tc as glTF 2.0 (Appendix C) says: clamped
// outside the keys; STEP holds a key's value until the next; LINEAR lerps
// (slerp for rotations); CUBICSPLINE is the Hermite spline of key values
// and in/out tangents scaled by the interval's length, normalised for
// rotations.
func (c *channel) at(tc float64) []float64 {
	n := len(c.times)
	cubic := c.interp == "CUBICSPLINE"
	val := func(k int) []float64 {
		if cubic {
			return c.values[3*k+1]
		}
		return c.values[k]
	}
	if n == 1 || tc <= c.times[0] {
		return val(0)
	}
	if tc >= c.times[n-1] {
		return val(n - 1)
	}
	k := sort.SearchFloat64s(c.times, tc)
	if c.times[k] > tc {
		k--
	}
	td := c.times[k+1] - c.times[k]
	u := (tc - c.times[k]) / td
	v0, v1 := val(k), val(k+1)
	out := make([]float64, len(v0))
	switch c.interp {
	case "STEP":
		copy(out, v0)
		return out
	case "LINEAR":
		if c.path == "rotation" {
			return slerp(v0, v1, u)
		}
		for i := range out {
			out[i] = v0[i] + (v1[i]-v0[i])*u
		}
		return out
	}
	b0, a1 := c.values[3*k+2], c.values[3*(k+1)]
	u2, u3 := u*u, u*u*u
	for i := range out {
		out[i] = (2*u3-3*u2+1)*v0[i] + td*(u3-2*u2+u)*b0[i] + (-2*u3+3*u2)*v1[i] + td*(u3-u2)*a1[i]
	}
	if c.path == "rotation" {
		l := math.Sqrt(out[0]*out[0] + out[1]*out[1] + out[2]*out[2] + out[3]*out[3])
		for i := range out {
			out[i] /= l
		}
	}
	return out
}

// slerp interpolates unit quaternions along the shorter arc.
func slerp(a, b []float64, u float64) []float64 {
	d := a[0]*b[0] + a[1]*b[1] + a[2]*b[2] + a[3]*b[3]
	s := 1.0
	if d < 0 {
		d, s = -d, -1
	}
	w0, w1 := 1-u, u
	if d < 0.9999999 {
		th := math.Acos(d)
		w0, w1 = math.Sin((1-u)*th)/math.Sin(th), math.Sin(u*th)/math.Sin(th)
	}
	out := make([]float64, 4)
	for i := range out {
		out[i] = w0*a[i] + s*w1*b[i]
	}
	l := math.Sqrt(out[0]*out[0] + out[1]*out[1] + out[2]*out[2] + out[3]*out[3])
	for i := range out {
		out[i] /= l
	}
	return out
}

// quatAngleDeg is the angle in degrees between two rotations (well
// conditioned near 0, unlike acos of the dot product).
func quatAngleDeg(a []float64, b geom.Quat) float64 {
	bl := math.Sqrt(float64(b.Dot(b)))
	q := []float64{float64(b.X) / bl, float64(b.Y) / bl, float64(b.Z) / bl, float64(b.W) / bl}
	if a[0]*q[0]+a[1]*q[1]+a[2]*q[2]+a[3]*q[3] < 0 {
		for i := range q {
			q[i] = -q[i]
		}
	}
	var dm, dp float64
	for i := range q {
		dm += (a[i] - q[i]) * (a[i] - q[i])
		dp += (a[i] + q[i]) * (a[i] + q[i])
	}
	return 4 * math.Atan2(math.Sqrt(dm), math.Sqrt(dp)) * 180 / math.Pi
}

// readbackErr is the worst difference found between a file's animations
// and the runtime, per kind of track.
type readbackErr struct {
	exactRel, exactDeg         float64 // exact translation/scale (relative), rotation (degrees)
	resampledAbs, resampledDeg float64
	where                      [4]string
	samples                    int
}

// compareAnimations samples every animation of a written scene at 200
// times and its clip through the runtime at the same times, and returns
// the largest differences (after the frame conversion).
func compareAnimations(t *testing.T, doc *qg.Document, cs corpusScene) readbackErr {
	t.Helper()
	var given []int // scene animations written (those with tracks)
	for i, a := range cs.scene.Animations {
		if len(a.Tracks) > 0 {
			given = append(given, i)
		}
	}
	chans := readChannels(t, doc)
	if len(chans) != len(given) {
		t.Fatalf("%s: %d animations read, %d written", cs.id, len(chans), len(given))
	}
	var e readbackErr
	for ai, si := range given {
		a := &cs.scene.Animations[si]
		clip, joints := cs.clips[si], cs.joints[si]
		exact := map[[2]int]bool{} // node, path index → exact
		pathIdx := map[Path]int{PathTranslation: 0, PathRotation: 1, PathScale: 2}
		for _, tr := range a.Tracks {
			if tr.Path != PathWeights {
				exact[[2]int{tr.Node, pathIdx[tr.Path]}] = tr.Exact
			}
		}
		byNode := map[[2]int]*channel{}
		for k := range chans[ai] {
			ch := &chans[ai][k]
			switch ch.path {
			case "translation":
				byNode[[2]int{ch.node, 0}] = ch
			case "rotation":
				byNode[[2]int{ch.node, 1}] = ch
			case "scale":
				byNode[[2]int{ch.node, 2}] = ch
			}
		}
		mapped := map[int]int{} // node → joints mapped to it (compare only 1)
		for _, n := range joints {
			mapped[n]++
		}
		pose := make([]geom.Transform, len(joints))
		dur := float64(clip.Duration())
		for i := range 200 {
			tc := dur * float64(i) / 199
			clip.Sample(float32(tc), pose)
			e.samples++
			for j, node := range joints {
				if node < 0 || mapped[node] > 1 {
					continue
				}
				for p := range 3 {
					ch := byNode[[2]int{node, p}]
					if ch == nil {
						continue
					}
					if nearJump(ch, tc) {
						continue
					}
					got := ch.at(tc)
					ex := exact[[2]int{node, p}]
					where := fmt.Sprintf("%q node %d (%s) t=%.4f", a.Name, node, ch.path, tc)
					bound := 0.0
					if !ex {
						bound = ch.resampleBound(tc)
					}
					if p == 1 {
						d := quatAngleDeg(got, ConvertQuat(pose[j].R))
						if d > 0.01 && debugReadback {
							k := sort.SearchFloat64s(ch.times, tc)
							lo := max(k-2, 0)
							t.Logf("DEBUG %s exact=%v got %v want %v times %v", where, ex, got, ConvertQuat(pose[j].R), ch.times[lo:min(k+2, len(ch.times))])
						}
						if ex && d > e.exactDeg {
							e.exactDeg, e.where[1] = d, where
						} else if !ex && d > e.resampledDeg {
							e.resampledDeg, e.where[3] = d, where
						}
						if !ex && d > bound*180/math.Pi+0.01 {
							t.Errorf("%s: resampled %s off by %.3g°, over its bound %.3g°", cs.id, where, d, bound*180/math.Pi)
						}
						continue
					}
					w := pose[j].S
					if p == 0 {
						w = ConvertVec(pose[j].T)
					}
					want := []float64{float64(w.X), float64(w.Y), float64(w.Z)}
					for k := range 3 {
						d := math.Abs(got[k] - want[k])
						if ex {
							if r := d / max(1, math.Abs(want[k])); r > e.exactRel {
								e.exactRel, e.where[0] = r, where
							}
						} else {
							if d > e.resampledAbs {
								e.resampledAbs, e.where[2] = d, where
							}
							if d > bound+1e-4*max(1, math.Abs(want[k])) {
								t.Errorf("%s: resampled %s off by %.3g, over its bound %.3g", cs.id, where, d, bound)
							}
						}
					}
				}
			}
		}
	}
	return e
}

// nearJump reports whether tc falls between a split key and the key it
// was split from (the runtime jumps where the export ramps): a key at most
// splitDelta before the next.
func nearJump(ch *channel, tc float64) bool {
	k := sort.SearchFloat64s(ch.times, tc)
	if k <= 0 || k >= len(ch.times) {
		return false
	}
	return ch.times[k]-ch.times[k-1] <= splitDelta*1.01 && tc > ch.times[k-1] && tc < ch.times[k]
}

// TestReadBackMatchesRuntime writes every corpus rig with all its clips
// (every generic clip of its file; on humanoid rigs every humanoid clip of
// the corpus), validates the file with the Khronos validator (when
// installed), reads it back, evaluates each animation with glTF's own
// interpolation at 200 times per clip and compares with the runtime at the
// same times: exact tracks within 1e-4 (relative) and 0.01°, resampled
// ones within the bound Sample states (measured and logged).
func TestReadBackMatchesRuntime(t *testing.T) {
	cs := corpusScenes(t)
	mods := validatorPathOrEmpty(t)
	dir := t.TempDir()
	var worst readbackErr
	exactTracks, resampledTracks, keys, split, files := 0, 0, 0, 0, 0
	for i, c := range cs {
		var buf bytes.Buffer
		if err := WriteGLB(&buf, c.scene); err != nil {
			t.Errorf("%s: %v", c.id, err)
			continue
		}
		for _, a := range c.scene.Animations {
			exactTracks += a.Stats.Exact
			resampledTracks += a.Stats.Resampled
			keys += a.Stats.Keys
			split += a.Stats.SplitKeys
		}
		if mods != "" && len(c.scene.Animations) > 0 {
			p := filepath.Join(dir, fmt.Sprintf("rig%d.glb", i))
			if err := os.WriteFile(p, buf.Bytes(), 0o644); err != nil {
				t.Fatal(err)
			}
			checkValid(t, c.id, validate(t, mods, p))
			files++
		}
		e := compareAnimations(t, readGLB(t, buf.Bytes()), c)
		if e.exactRel > 1e-4 {
			t.Errorf("%s: exact translation/scale off by %.3g (relative) at %s", c.id, e.exactRel, e.where[0])
		}
		if e.exactDeg > 0.01 {
			t.Errorf("%s: exact rotation off by %.3g° at %s", c.id, e.exactDeg, e.where[1])
		}
		if len(c.scene.Animations) > 0 {
			t.Logf("%s: %d animations, %d samples: exact %.2g rel, %.2g°; resampled %.2g m (%s), %.2g° (%s)", c.id, len(c.scene.Animations), e.samples,
				e.exactRel, e.exactDeg, e.resampledAbs, e.where[2], e.resampledDeg, e.where[3])
		}
		for k := range 4 {
			if v := [4]float64{e.exactRel, e.exactDeg, e.resampledAbs, e.resampledDeg}[k]; v > [4]float64{worst.exactRel, worst.exactDeg, worst.resampledAbs, worst.resampledDeg}[k] {
				switch k {
				case 0:
					worst.exactRel = v
				case 1:
					worst.exactDeg = v
				case 2:
					worst.resampledAbs = v
				case 3:
					worst.resampledDeg = v
				}
				worst.where[k] = c.id + " " + e.where[k]
			}
		}
	}
	t.Logf("%d rigs (%d files validated): %d exact tracks, %d resampled, %d keys (%d split); worst: exact %.3g rel (%s), %.3g° (%s); resampled %.3g m (%s), %.3g° (%s)",
		len(cs), files, exactTracks, resampledTracks, keys, split, worst.exactRel, worst.where[0], worst.exactDeg, worst.where[1],
		worst.resampledAbs, worst.where[2], worst.resampledDeg, worst.where[3])
}

const debugReadback = false

// resampleBound is the error bound of a resampled (LINEAR) channel at
// time tc, as Sample states it: 4 times the largest second difference of
// the keys around tc's interval (for rotations 2·|Δ²q|, in radians, at
// most π).
func (c *channel) resampleBound(tc float64) float64 {
	n := len(c.times)
	if n < 3 {
		return 0
	}
	k := sort.SearchFloat64s(c.times, tc)
	worst := 0.0
	for i := max(k-2, 1); i <= min(k+1, n-2); i++ {
		a, b, d := c.values[i-1], c.values[i], c.values[i+1]
		sign := 1.0
		if c.path == "rotation" && a[0]*d[0]+a[1]*d[1]+a[2]*d[2]+a[3]*d[3] < 0 {
			sign = -1
		}
		s := 0.0
		for m := range b {
			x := a[m] - 2*b[m] + sign*d[m]
			if c.path == "rotation" {
				s += x * x
			} else {
				s = max(s, math.Abs(x))
			}
		}
		if c.path == "rotation" {
			s = 2 * math.Sqrt(s)
		}
		worst = max(worst, s)
	}
	if c.path == "rotation" {
		return min(4*worst, math.Pi)
	}
	return 4 * worst
}
