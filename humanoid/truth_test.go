package humanoid_test

// Unity's own humanoid output against ours: the corpus folder
// unity-humanoid-truth holds a recording Unity 5.6 made of three humanoid
// clips playing on a humanoid character (every bone's skinning matrix per
// frame), with the FBX files and import settings it played. The test
// brings the character and clips in as a user does (Blender turns the FBX
// files into glTF), makes the clips humanoid through the source avatar
// (Record), plays them on the character (Bake, Sample) with Unity's
// avatar from the model's .meta and with the avatar built from the glTF,
// and compares every bone of every frame with Unity's.

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/mecanim/mecanim/anim"
	"github.com/mecanim/mecanim/decode/gltfchar"
	"github.com/mecanim/mecanim/decode/yamlasset"
	"github.com/mecanim/mecanim/geom"
	"github.com/mecanim/mecanim/humanoid"
	"github.com/mecanim/mecanim/humanoid/avatarbuild"
	"github.com/mecanim/mecanim/internal/corpustest"
	"github.com/mecanim/mecanim/model"
)

// truthClip is one clip of the recording.
type truthClip struct {
	name                 string
	first, tex, frames   int
	fps                  int
	rootMotion, wrapLoop bool
}

// truthRecording is Unity_Model_instancing.bytes decoded (the layout is
// the corpus README's).
type truthRecording struct {
	clips          []truthClip
	blockW, blockH int
	texW, texH     []int
	pixels         [][]byte // per texture: RGBA half floats, rows bottom up
}

// recReader reads the recording's little-endian values, failing on the
// first read past the end.
type recReader struct {
	b   []byte
	p   int
	err error
}

func (r *recReader) take(n int) []byte {
	if r.err != nil || n < 0 || n > len(r.b)-r.p {
		if r.err == nil {
			r.err = fmt.Errorf("%d bytes at offset %d: past the end (%d)", n, r.p, len(r.b))
		}
		return make([]byte, max(n, 0))
	}
	s := r.b[r.p : r.p+n]
	r.p += n
	return s
}

func (r *recReader) i32() int   { return int(int32(binary.LittleEndian.Uint32(r.take(4)))) }
func (r *recReader) bool() bool { return r.take(1)[0] != 0 }

// str reads a .NET string: a 7-bit encoded length, then UTF-8.
func (r *recReader) str() string {
	n, shift := 0, 0
	for r.err == nil {
		b := r.take(1)[0]
		n |= int(b&0x7f) << shift
		shift += 7
		if b < 0x80 || shift > 28 {
			break
		}
	}
	return string(r.take(n))
}

func decodeTruth(b []byte) (*truthRecording, error) {
	r := &recReader{b: b}
	rec := &truthRecording{}
	n := r.i32()
	if n < 0 || n > 1000 {
		return nil, fmt.Errorf("clip count %d", n)
	}
	for range n {
		c := truthClip{name: r.str(), first: r.i32(), tex: r.i32(), frames: r.i32(), fps: r.i32()}
		c.rootMotion = r.bool()
		c.wrapLoop = r.i32() == 2
		if c.frames < 0 || c.frames > 100000 {
			return nil, fmt.Errorf("clip %q: %d frames", c.name, c.frames)
		}
		if c.rootMotion {
			r.take(c.frames * 6 * 4) // velocity, angular velocity
		}
		if events := r.i32(); events != 0 {
			return nil, fmt.Errorf("clip %q: %d events (not read)", c.name, events)
		}
		rec.clips = append(rec.clips, c)
	}
	if r.bool() { // exposed attachments: names, then a matrix each
		k := r.i32()
		if k < 0 || k > 1000 {
			return nil, fmt.Errorf("%d attachments", k)
		}
		for range k {
			r.str()
		}
		r.take(k * 64)
	}
	tc := r.i32()
	rec.blockW, rec.blockH = r.i32(), r.i32()
	if tc < 0 || tc > 64 || rec.blockW != 4 || rec.blockH <= 0 {
		return nil, fmt.Errorf("%d textures of %d×%d blocks", tc, rec.blockW, rec.blockH)
	}
	for range tc {
		w, h, size := r.i32(), r.i32(), r.i32()
		if w <= 0 || h <= 0 || size != w*h*8 {
			return nil, fmt.Errorf("texture %d×%d of %d bytes (want RGBA half floats)", w, h, size)
		}
		rec.texW, rec.texH = append(rec.texW, w), append(rec.texH, h)
		rec.pixels = append(rec.pixels, r.take(size))
	}
	if r.err != nil {
		return nil, r.err
	}
	if r.p != len(b) {
		return nil, fmt.Errorf("%d bytes after the textures", len(b)-r.p)
	}
	return rec, nil
}

// half converts an IEEE half float.
func half(h uint16) float64 {
	sign := 1.0
	if h&0x8000 != 0 {
		sign = -1
	}
	e, m := int(h>>10&0x1f), float64(h&0x3ff)
	switch e {
	case 0:
		return sign * m * math.Ldexp(1, -24)
	case 31:
		if m == 0 {
			return sign * math.Inf(1)
		}
		return math.NaN()
	}
	return sign * (1 + m/1024) * math.Ldexp(1, e-15)
}

// mat34 is an affine matrix: rows 0-2 of a 4×4 (column vectors).
type mat34 [3][4]float64

func (a mat34) mul(b mat34) (o mat34) {
	for i := range 3 {
		for j := range 4 {
			s := 0.0
			for k := range 3 {
				s += a[i][k] * b[k][j]
			}
			if j == 3 {
				s += a[i][3]
			}
			o[i][j] = s
		}
	}
	return o
}

func matOf(t geom.Transform) mat34 {
	q := t.R.Normalize()
	x, y, z, w := float64(q.X), float64(q.Y), float64(q.Z), float64(q.W)
	r := [3][3]float64{
		{1 - 2*(y*y+z*z), 2 * (x*y - z*w), 2 * (x*z + y*w)},
		{2 * (x*y + z*w), 1 - 2*(x*x+z*z), 2 * (y*z - x*w)},
		{2 * (x*z - y*w), 2 * (y*z + x*w), 1 - 2*(x*x+y*y)},
	}
	s := [3]float64{float64(t.S.X), float64(t.S.Y), float64(t.S.Z)}
	var m mat34
	for i := range 3 {
		for j := range 3 {
			m[i][j] = r[i][j] * s[j]
		}
	}
	m[0][3], m[1][3], m[2][3] = float64(t.T.X), float64(t.T.Y), float64(t.T.Z)
	return m
}

// rot returns the rotation of m's columns made unit length.
func (a mat34) rot() geom.Quat {
	var c [3][3]float64
	for j := range 3 {
		l := math.Sqrt(a[0][j]*a[0][j] + a[1][j]*a[1][j] + a[2][j]*a[2][j])
		for i := range 3 {
			c[j][i] = a[i][j] / l
		}
	}
	q := geom.QuatFromAxes64(c[0], c[1], c[2])
	return geom.Quat{X: float32(q[0]), Y: float32(q[1]), Z: float32(q[2]), W: float32(q[3])}
}

// inv returns the inverse of an affine matrix.
func (a mat34) inv() (o mat34) {
	m := a
	det := m[0][0]*(m[1][1]*m[2][2]-m[1][2]*m[2][1]) - m[0][1]*(m[1][0]*m[2][2]-m[1][2]*m[2][0]) + m[0][2]*(m[1][0]*m[2][1]-m[1][1]*m[2][0])
	for i := range 3 {
		for j := range 3 {
			// cofactor of (j, i)
			r0, r1 := (j+1)%3, (j+2)%3
			c0, c1 := (i+1)%3, (i+2)%3
			o[i][j] = (m[r0][c0]*m[r1][c1] - m[r0][c1]*m[r1][c0]) / det
		}
	}
	for i := range 3 {
		o[i][3] = -(o[i][0]*m[0][3] + o[i][1]*m[1][3] + o[i][2]*m[2][3])
	}
	return o
}

func (a mat34) pos() [3]float64 { return [3]float64{a[0][3], a[1][3], a[2][3]} }

// matrix returns the recorded matrix of bone b in frame f of clip c.
func (rec *truthRecording) matrix(c *truthClip, f, b int) mat34 {
	per := rec.texW[c.tex] / rec.blockW
	blk := c.first + f
	x0, y0 := (blk%per)*rec.blockW, (blk/per)*rec.blockH+b
	px := rec.pixels[c.tex]
	var m mat34
	for row := range 3 {
		o := ((y0 * rec.texW[c.tex]) + x0 + row) * 8
		for col := range 4 {
			m[row][col] = half(binary.LittleEndian.Uint16(px[o+2*col:]))
		}
	}
	return m
}

// truthBones returns the names of the bones the recording holds, in its
// order: the prefab's SkinnedMeshRenderer's m_Bones.
func truthBones(f *yamlasset.File) (bones []string, mesh string, err error) {
	smr := f.ByClass(137)
	if len(smr) != 1 {
		return nil, "", fmt.Errorf("%d SkinnedMeshRenderers, want 1", len(smr))
	}
	gid, err := smr[0].Body.Path("m_GameObject", "fileID").Int()
	if err != nil {
		return nil, "", err
	}
	if g := f.Object(gid); g != nil {
		mesh = g.Name()
	}
	for _, it := range smr[0].Body.Get("m_Bones").Items {
		id, err := it.Get("fileID").Int()
		if err != nil {
			return nil, "", err
		}
		tf := f.Object(id)
		if tf == nil {
			return nil, "", fmt.Errorf("no Transform %d", id)
		}
		gid, err := tf.Body.Path("m_GameObject", "fileID").Int()
		if err != nil {
			return nil, "", err
		}
		g := f.Object(gid)
		if g == nil {
			return nil, "", fmt.Errorf("no GameObject %d", gid)
		}
		bones = append(bones, g.Name())
	}
	return bones, mesh, nil
}

// globalsByName composes a rig's locals to transforms relative to its
// root, keyed by node name.
func globalsByName(nodes []model.RigNode) map[string]mat34 {
	g := make([]mat34, len(nodes))
	out := map[string]mat34{}
	for i, n := range nodes {
		g[i] = matOf(n.Local)
		if n.Parent >= 0 {
			g[i] = g[n.Parent].mul(g[i])
		} else {
			g[i] = matOf(geom.Identity)
		}
		out[n.Name] = g[i]
	}
	return out
}

// blenderGLB converts an FBX file to glTF with Blender and
// testdata/fbx_to_gltf.py, cached in the OS temp dir by the hash of the
// script and the input.
func blenderGLB(t *testing.T, fbx string) string {
	t.Helper()
	blender := os.Getenv("BLENDER")
	if blender == "" {
		blender = "blender"
	}
	bin, err := exec.LookPath(blender)
	if err != nil {
		if os.Getenv("MECANIM_REQUIRE_BLENDER") != "" {
			t.Fatalf("MECANIM_REQUIRE_BLENDER is set but Blender is not available: %v", err)
		}
		t.Skip("Blender not available (apt-get install blender, or set $BLENDER); set MECANIM_REQUIRE_BLENDER to make this a failure")
	}
	script, err := filepath.Abs(filepath.Join("testdata", "fbx_to_gltf.py"))
	if err != nil {
		t.Fatal(err)
	}
	h := sha256.New()
	for _, p := range []string{script, fbx} {
		f, err := os.Open(p)
		if err != nil {
			t.Fatal(err)
		}
		_, err = io.Copy(h, f)
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
	}
	dir := filepath.Join(os.TempDir(), "mecanim-blender-cache")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, hex.EncodeToString(h.Sum(nil))[:24]+".glb")
	if _, err := os.Stat(out); err == nil {
		return out
	}
	tmp, err := os.MkdirTemp(dir, "conv")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(tmp)
	glb := filepath.Join(tmp, "out.glb")
	cmd := exec.Command(bin, "-b", "--factory-startup", "--python-exit-code", "1", "--python", script, "--", fbx, glb)
	if log, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("blender %s: %v\n%s", fbx, err, log)
	}
	if err := os.Rename(glb, out); err != nil {
		t.Fatal(err)
	}
	return out
}

// clipFrameFix turns a pose of a clip glTF's rig (Blender brings the
// animation-only FBX files in as empties whose frames are the armature's
// turned by a constant rotation c about each node's own axes) into the
// character's frames: every node below the root's children is
// conjugated, the root's children turned back on their own side.
type clipOnCharacter struct {
	clip  *anim.Clip
	skel  *anim.Skeleton // the clip glTF's rig
	of    []int          // character joint -> clip joint, -1 none
	depth []int          // clip joint depth (0 root)
	c     geom.Quat
	buf   []geom.Transform
}

func (s *clipOnCharacter) Duration() float32       { return s.clip.Duration() }
func (s *clipOnCharacter) Base() *anim.Clip        { return s.clip }
func (s *clipOnCharacter) Animates(int) anim.Props { return anim.PropT | anim.PropR | anim.PropS }
func (s *clipOnCharacter) Sample(t float32, dst []geom.Transform) {
	copy(s.buf, s.skel.Rest)
	s.clip.Sample(t, s.buf)
	ci := s.c.Conj()
	for j, k := range s.of {
		if k < 0 {
			continue
		}
		l := s.buf[k]
		switch s.depth[k] {
		case 0, 1:
		case 2:
			l.R = l.R.Mul(ci)
		default:
			l.R = s.c.Mul(l.R).Mul(ci)
			l.T = s.c.Rotate(l.T)
		}
		dst[j] = l
	}
}

// Tolerances of TestPosesEqualUnitysRecording on each clip's body bones.
const (
	truthMedDeg = 0.5
	truthP95Deg = 3
	truthP95mm  = 10
)

// clipTurn is the angle about x by which Blender's empties are turned
// from the armature's frames.
var clipTurn float32 = math.Pi / 2

// truthStats is the error of one bone over the frames.
type truthStats struct {
	bone    string
	human   int // human bone, -1 none
	deg, mm []float64
}

func quantile(v []float64, q float64) float64 {
	if len(v) == 0 {
		return 0
	}
	s := slices.Clone(v)
	sort.Float64s(s)
	i := int(math.Ceil(q*float64(len(s)))) - 1
	return s[max(0, min(i, len(s)-1))]
}

func TestPosesEqualUnitysRecording(t *testing.T) {
	dir := corpustest.Path(t, "unity-humanoid-truth")
	raw, err := os.ReadFile(filepath.Join(dir, "Unity_Model_instancing.bytes"))
	if err != nil {
		t.Fatal(err)
	}
	rec, err := decodeTruth(raw)
	if err != nil {
		t.Fatalf("Unity_Model_instancing.bytes: %v", err)
	}
	prefab, err := yamlasset.ParseFile(filepath.Join(dir, "Unity_Model_instancing.prefab"))
	if err != nil {
		t.Fatal(err)
	}
	bones, meshName, err := truthBones(prefab)
	if err != nil {
		t.Fatalf("prefab: %v", err)
	}
	// The recording's blocks have a row per bone and room for the
	// exposed attachments beyond them.
	if len(bones) > rec.blockH {
		t.Fatalf("prefab has %d bones, the recording's blocks %d rows", len(bones), rec.blockH)
	}
	hier, err := prefab.Hierarchy()
	if err != nil || len(hier) != 1 {
		t.Fatalf("prefab hierarchy: %v (%d rigs)", err, len(hier))
	}
	// Skinning matrices carry the bind pose, which holds the mesh's rest
	// transform: a bone's global in the root's frame is M × mesh⁻¹ × rest.
	bind := globalsByName(hier[0].Nodes)
	meshInv := bind[meshName].inv()
	for n, g := range bind {
		bind[n] = meshInv.mul(g)
	}

	meta, err := yamlasset.ParseFile(filepath.Join(dir, "Unity_Model.FBX.meta"))
	if err != nil {
		t.Fatal(err)
	}
	desc, err := meta.HumanDescription()
	if err != nil {
		t.Fatal(err)
	}
	unityAvatar, err := avatarbuild.Build("Unity_ModelAvatar", desc)
	if err != nil {
		t.Fatal(err)
	}
	hmap := gltfchar.HumanMap{}
	humanOf := map[string]int{}
	for _, h := range desc.Human {
		hmap[h.HumanName] = h.BoneName
		for b, n := range humanoid.BoneNames {
			if n == h.HumanName {
				humanOf[h.BoneName] = b
			}
		}
	}
	ch, err := gltfchar.Config{HumanMap: hmap}.Open(blenderGLB(t, filepath.Join(dir, "Unity_Model.FBX")))
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("character: %s (%s), arms raised %v", ch.Mirror, ch.Facing, ch.ArmsRaised)
	// The import settings the user gives the glTF's description: the
	// .meta's (twist shares, stretch, translation DoF).
	ch.Human.ArmTwist, ch.Human.ForeArmTwist, ch.Human.UpperLegTwist, ch.Human.LegTwist = desc.ArmTwist, desc.ForeArmTwist, desc.UpperLegTwist, desc.LegTwist
	ch.Human.ArmStretch, ch.Human.LegStretch, ch.Human.FeetSpacing = desc.ArmStretch, desc.LegStretch, desc.FeetSpacing
	ch.Human.HasTranslationDoF = desc.HasTranslationDoF
	gltfAvatar, err := avatarbuild.Build("Unity_ModelGLTF", ch.Human)
	if err != nil {
		t.Fatal(err)
	}
	skel, err := anim.SkeletonFromRig(ch.Rig)
	if err != nil {
		t.Fatal(err)
	}
	jointOf := map[string]int{}
	for i, n := range ch.Rig.Nodes {
		jointOf[n.Name] = i
	}
	for _, b := range bones {
		if _, ok := jointOf[b]; !ok {
			t.Fatalf("the glTF character has no bone %q", b)
		}
	}

	// The clips as the character plays them without the humanoid system
	// (Blender's frames turned back), and as Unity's avatar and the glTF's
	// make them humanoid and pose them.
	raws := make([]*clipOnCharacter, len(rec.clips))
	for ci := range rec.clips {
		c := &rec.clips[ci]
		cch, err := gltfchar.Open(blenderGLB(t, filepath.Join(dir, c.name+".FBX")))
		if err != nil {
			t.Fatal(err)
		}
		if len(cch.Clips) != 1 {
			t.Fatalf("%s: %d animations, want 1", c.name, len(cch.Clips))
		}
		cs, err := anim.SkeletonFromRig(cch.Rig)
		if err != nil {
			t.Fatal(err)
		}
		ac, err := anim.Bake(cch.Clips[0], cs)
		if err != nil {
			t.Fatal(err)
		}
		src := &clipOnCharacter{clip: ac, skel: cs, of: make([]int, skel.Len()), depth: make([]int, cs.Len()),
			c: geom.AxisAngle(geom.V3(1, 0, 0), clipTurn), buf: make([]geom.Transform, cs.Len())}
		for i := range cs.Len() {
			src.depth[i] = cs.Depth(i)
		}
		for j := range skel.Len() {
			src.of[j] = -1
			if k, ok := cs.Index(skel.Paths[j]); ok {
				src.of[j] = k
			}
		}
		raws[ci] = src
	}

	// Tolerances on the body bones of each clip: rotation median and p95
	// (degrees), position p95 (mm). The raw clip is shown for reference.
	for _, av := range []struct {
		name             string
		a                *model.Avatar
		med, p95, posP95 float64
	}{
		{"raw clip (no humanoid)", nil, math.Inf(1), math.Inf(1), math.Inf(1)},
		{"Unity's avatar (.meta)", unityAvatar, truthMedDeg, truthP95Deg, truthP95mm},
		{"avatar built from the glTF", gltfAvatar, truthMedDeg, truthP95Deg, truthP95mm},
	} {
		var rig *humanoid.Rig
		if av.a != nil {
			rig, err = humanoid.NewRigOn(av.a, skel)
			if err != nil {
				t.Fatal(err)
			}
		}
		all := map[string]*truthStats{}
		for ci := range rec.clips {
			c := &rec.clips[ci]
			src := raws[ci]
			var clipBody truthStats
			var pose anim.Sampler = src
			if rig != nil {
				hc, err := humanoid.Record(src, rig, 0, c.name)
				if err != nil {
					t.Fatal(err)
				}
				baked, err := humanoid.Bake(hc, rig)
				if err != nil {
					t.Fatal(err)
				}
				pose = baked
			}
			ac := src.clip
			local := make([]geom.Transform, skel.Len())
			glob := make([]mat34, skel.Len())
			for f := 0; f < c.frames; f++ {
				tu := float64(ac.Duration()-1.0/30) * float64(f) / float64(c.frames-1)
				copy(local, skel.Rest)
				pose.Sample(float32(tu+1.0/30), local)
				for j := range local {
					glob[j] = matOf(local[j])
					if p := skel.Parents[j]; p >= 0 {
						glob[j] = glob[p].mul(glob[j])
					}
				}
				hipsU := rec.matrix(c, f, slices.Index(bones, desc.Human[0].BoneName)).mul(bind[desc.Human[0].BoneName])
				hipsO := glob[jointOf[desc.Human[0].BoneName]]
				for b, name := range bones {
					u := rec.matrix(c, f, b).mul(bind[name])
					o := glob[jointOf[name]]
					st := all[name]
					if st == nil {
						st = &truthStats{bone: name, human: -1}
						if h, ok := humanOf[name]; ok {
							st.human = h
						}
						all[name] = st
					}
					st.deg = append(st.deg, geom.AngleBetween(u.rot(), o.rot())*180/math.Pi)
					up, op := u.pos(), o.pos()
					hu, ho := hipsU.pos(), hipsO.pos()
					var d float64
					for k := range 3 {
						e := (up[k] - hu[k]) - (op[k] - ho[k])
						d += e * e
					}
					st.mm = append(st.mm, 1000*math.Sqrt(d))
					if st.human >= 0 && st.human < humanoid.LeftHandFirst {
						clipBody.deg = append(clipBody.deg, st.deg[len(st.deg)-1])
						clipBody.mm = append(clipBody.mm, st.mm[len(st.mm)-1])
					}
				}
			}
			med, p95, pos := quantile(clipBody.deg, .5), quantile(clipBody.deg, .95), quantile(clipBody.mm, .95)
			t.Logf("%s, %s: body bones %.2f° median, %.2f° p95, %.1f mm p95", av.name, c.name, med, p95, pos)
			if med > av.med || p95 > av.p95 || pos > av.posP95 {
				t.Errorf("%s, %s: body bones %.2f° median, %.2f° p95, %.1f mm p95 from Unity's; want at most %.2f°, %.2f°, %.1f mm",
					av.name, c.name, med, p95, pos, av.med, av.p95, av.posP95)
			}
		}
		var body, fingers truthStats
		var sb strings.Builder
		fmt.Fprintf(&sb, "%s: %-28s %7s %7s %7s %8s %8s %8s\n", av.name, "bone", "med°", "p95°", "max°", "med mm", "p95 mm", "max mm")
		for _, name := range bones {
			st := all[name]
			hb := "-"
			if st.human >= 0 {
				hb = humanoid.BoneNames[st.human]
			}
			fmt.Fprintf(&sb, "  %-22s %-16s %7.2f %7.2f %7.2f %8.1f %8.1f %8.1f\n", name, hb,
				quantile(st.deg, .5), quantile(st.deg, .95), quantile(st.deg, 1),
				quantile(st.mm, .5), quantile(st.mm, .95), quantile(st.mm, 1))
			switch {
			case st.human >= humanoid.LeftHandFirst:
				fingers.deg = append(fingers.deg, st.deg...)
				fingers.mm = append(fingers.mm, st.mm...)
			case st.human >= 0:
				body.deg = append(body.deg, st.deg...)
				body.mm = append(body.mm, st.mm...)
			}
		}
		for _, s := range []struct {
			n string
			s *truthStats
		}{{"body", &body}, {"fingers", &fingers}} {
			fmt.Fprintf(&sb, "  %-39s %7.2f %7.2f %7.2f %8.1f %8.1f %8.1f\n", s.n,
				quantile(s.s.deg, .5), quantile(s.s.deg, .95), quantile(s.s.deg, 1),
				quantile(s.s.mm, .5), quantile(s.s.mm, .95), quantile(s.s.mm, 1))
		}
		t.Log("\n" + sb.String())
	}
}
