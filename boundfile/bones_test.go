package boundfile_test

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"math"
	"strings"
	"testing"

	"github.com/mecanim/mecanim/bound"
	"github.com/mecanim/mecanim/boundfile"
	"github.com/mecanim/mecanim/geom"
	"github.com/mecanim/mecanim/humanoid"
	"github.com/mecanim/mecanim/internal/corpustest"
	"github.com/mecanim/mecanim/internal/synth"
	"github.com/mecanim/mecanim/model"
)

// humanCharacter is a character of the synthetic humanoid avatar (its
// skeleton made from the avatar); scale changes its human scale (1 as
// made).
func humanCharacter(t testing.TB, name string, scale float32) *bound.Character {
	t.Helper()
	av := synth.HumanAvatar()
	av.Human.Scale = scale
	c, err := bound.NewCharacter(bound.CharacterInput{Name: name, Avatar: av, Source: model.Source{Container: "code"}})
	if err != nil {
		t.Fatal(err)
	}
	if c.Human() == nil {
		t.Fatalf("%s is not humanoid", name)
	}
	return c
}

// humanClip is a looping humanoid clip of seconds: every muscle on a sine
// of its own, the body walking forward and turning.
func humanClip(name string, seconds float32) *model.Clip {
	const rate = 30
	n := int(seconds*rate) + 1
	mc := &model.Clip{Name: name, Humanoid: true, SampleRate: rate, Stop: seconds, WrapMode: model.WrapLoop}
	dense := func(a int, f func(t float64) float64) model.Curve {
		s := make([]float32, n)
		for k := range s {
			s[k] = float32(f(float64(k) / rate))
		}
		return model.Curve{Target: model.Target{ClassID: model.ClassAnimator, Attribute: uint32(a)}, Kind: model.CurveDense, DenseRate: rate, Samples: s}
	}
	for m := 0; m < model.MuscleCount; m++ {
		amp, fr, ph := 0.2+0.01*float64(m%90), 0.5+0.03*float64(m%70), 0.37*float64(m)
		mc.Curves = append(mc.Curves, dense(model.FirstMuscleAttribute+m, func(t float64) float64 { return amp * math.Sin(ph+2*math.Pi*fr*t) }))
	}
	for k, f := range []func(t float64) float64{
		func(t float64) float64 { return 0.3 * t }, func(t float64) float64 { return 1 + 0.05*math.Sin(4*t) }, func(float64) float64 { return 0 },
		func(float64) float64 { return 0 }, func(t float64) float64 { return math.Sin(0.4 * t) }, func(float64) float64 { return 0 },
		func(t float64) float64 { return math.Cos(0.4 * t) },
	} {
		mc.Curves = append(mc.Curves, dense(model.FirstRootAttribute+k, f))
	}
	return mc
}

// bake bakes mc's bones for c's humanoid rig.
func bake(t testing.TB, mc *model.Clip, c *bound.Character) *humanoid.Bones {
	t.Helper()
	b, err := humanoid.BakeBones(mc, c.Human())
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// sameBones checks that loaded bones sample as the saved ones, bit for
// bit, at many times (before, across and after the clip) and move the
// body as they do.
func sameBones(t *testing.T, want, got *humanoid.Bones) {
	t.Helper()
	if got.Name() != want.Name() || got.Duration() != want.Duration() || got.Stats() != want.Stats() {
		t.Fatalf("loaded bones %q (%v s, %+v), saved %q (%v s, %+v)", got.Name(), got.Duration(), got.Stats(),
			want.Name(), want.Duration(), want.Stats())
	}
	n := want.Rig().Len()
	x, y := make([]geom.Transform, n), make([]geom.Transform, n)
	d := want.Duration()
	for k := -20; k <= 620; k++ {
		tm := d * float32(k) / 300
		want.Sample(tm, x)
		got.Sample(tm, y)
		if !sameTransforms(x, y) {
			t.Fatalf("%q: at %v s the loaded bones pose differently", want.Name(), tm)
		}
		if w, g := want.ExtractRootMotion(tm/2, tm, k%3), got.ExtractRootMotion(tm/2, tm, k%3); w != g {
			t.Fatalf("%q: root motion to %v s %+v loaded, %+v saved", want.Name(), tm, g, w)
		}
	}
}

// TestSavedBonesSampleAsBaked: bones saved with their characters load for
// the loaded characters' humanoid rigs and sample as baked, bit for bit: a
// synthetic humanoid's bones (two clips, one character saved once with the
// motion it also plays), and the corpus dancer's humanoid clips.
func TestSavedBonesSampleAsBaked(t *testing.T) {
	cases := []struct {
		name   string
		assets func(t *testing.T) boundfile.Assets
	}{
		{"synthetic", func(t *testing.T) boundfile.Assets {
			c := humanCharacter(t, "Human", 1)
			walk, wave := humanClip("Walk", 2), humanClip("Wave", 0.5)
			m, err := bound.Bind(walk, model.Source{Container: "code"}, c)
			if err != nil {
				t.Fatal(err)
			}
			return boundfile.Assets{Motions: []*bound.Motion{m},
				Bones: []boundfile.Bones{{On: c, Bones: bake(t, walk, c)}, {On: c, Bones: bake(t, wave, c)}}}
		}},
		{"corpus dancer", func(t *testing.T) boundfile.Assets {
			s := servers[1]
			a := loadFromBundle(t, corpustest.Path(t, s.file), s.character)
			c := a.Controllers[0].On()
			done := map[*model.Clip]bool{}
			for _, m := range a.Controllers[0].Clips() {
				if m == nil || !m.Humanoid() || done[m.Clip()] || len(done) == 2 {
					continue
				}
				done[m.Clip()] = true
				a.Bones = append(a.Bones, boundfile.Bones{On: c, Bones: bake(t, m.Clip(), c)})
			}
			if len(a.Bones) == 0 {
				t.Fatal("the dancer plays no humanoid clip")
			}
			return a
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			a := tc.assets(t)
			b, err := boundfile.Marshal(a)
			if err != nil {
				t.Fatal(err)
			}
			got, err := boundfile.Unmarshal(context.Background(), b)
			if err != nil {
				t.Fatal(err)
			}
			if len(got.Bones) != len(a.Bones) || len(got.Characters) != 1 {
				t.Fatalf("%d bones on %d characters loaded, %d saved on one", len(got.Bones), len(got.Characters), len(a.Bones))
			}
			for i, gb := range got.Bones {
				if gb.On != got.Characters[0] || gb.Bones.Rig() != gb.On.Human() {
					t.Fatalf("bones %d loaded on another character or rig than the one loaded", i)
				}
				sameBones(t, a.Bones[i].Bones, gb.Bones)
			}
			if again, err := boundfile.Marshal(got); err != nil || !bytes.Equal(again, b) {
				t.Fatalf("what was loaded saves to other bytes (%v)", err)
			}
		})
	}
}

// TestBonesTheFileCouldNotLoadAreRefusedWhenSaving: bones on no character,
// on a character that is not humanoid, or baked for another humanoid rig
// than their character's are refused by Marshal, naming the bones; bones
// baked for an identical rig of another character are saved for it.
func TestBonesTheFileCouldNotLoadAreRefusedWhenSaving(t *testing.T) {
	human := humanCharacter(t, "Human", 1)
	twin := humanCharacter(t, "Twin", 1)
	tall := humanCharacter(t, "Tall", 1.5)
	dog, err := bound.NewCharacter(bound.CharacterInput{Name: "Dog", Rig: &model.Rig{Name: "Dog", Nodes: []model.RigNode{
		{Name: "Dog", Parent: -1, Local: geom.Identity}, {Name: "Tail", Path: "Tail", Parent: 0, Local: geom.Identity}}}})
	if err != nil {
		t.Fatal(err)
	}
	walk := bake(t, humanClip("Walk", 1), human)
	cases := []struct {
		name  string
		bones boundfile.Bones
		want  string // in the error; "" when saved
	}{
		{"no bones", boundfile.Bones{On: human}, "no bones"},
		{"no character", boundfile.Bones{Bones: walk}, `"Walk" on no character`},
		{"a character that is not humanoid", boundfile.Bones{On: dog, Bones: walk}, "not humanoid"},
		{"another rig", boundfile.Bones{On: tall, Bones: walk}, humanoid.ErrOtherRig.Error()},
		{"an identical rig", boundfile.Bones{On: twin, Bones: walk}, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			b, err := boundfile.Marshal(boundfile.Assets{Bones: []boundfile.Bones{tc.bones}})
			if tc.want == "" {
				if err != nil {
					t.Fatal(err)
				}
				got, err := boundfile.Unmarshal(context.Background(), b)
				if err != nil {
					t.Fatal(err)
				}
				if got.Bones[0].On.Name() != tc.bones.On.Name() {
					t.Fatalf("loaded on %q", got.Bones[0].On.Name())
				}
				sameBones(t, tc.bones.Bones, got.Bones[0].Bones)
				return
			}
			if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), "bones 0") {
				t.Fatalf("got %v, want an error naming bones 0 and %q", err, tc.want)
			}
		})
	}
}

// TestDamagedBonesAreAFormatError: a file whose bones' bytes are damaged
// (their own checksum failing, or made right so the damage reaches their
// values), with the file's checksum made right, loads to a *FormatError
// naming the bones and an offset inside them, or (a quantized value
// changed) to bones that sample; never a panic.
func TestDamagedBonesAreAFormatError(t *testing.T) {
	c := humanCharacter(t, "Human", 1)
	bones := bake(t, humanClip("Walk", 1), c)
	enc, err := bones.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	file, err := boundfile.Marshal(boundfile.Assets{Bones: []boundfile.Bones{{On: c, Bones: bones}}})
	if err != nil {
		t.Fatal(err)
	}
	at := bytes.Index(file, enc)
	if at < 0 {
		t.Fatal("the file does not hold the bones' encoding")
	}
	// damage returns the file with the bones' byte k xor x (their own
	// checksum made right when fix), the file's checksum right.
	damage := func(k int, x byte, fix bool) []byte {
		d := bytes.Clone(file)
		d[at+k] ^= x
		if fix {
			end := at + len(enc) - 4
			binary.LittleEndian.PutUint32(d[end:], crc32.ChecksumIEEE(d[at:end]))
		}
		fixCRC(d)
		return d
	}
	type damaged struct {
		name   string
		data   []byte
		always bool // a FormatError whatever the build reads
	}
	cases := []damaged{
		{"magic", damage(0, 0xff, false), true},
		{"own checksum", damage(len(enc)/2, 1, false), true},
		{"rig fingerprint", damage(14, 1, true), true},
		{"flags", damage(6, 1, true), true},
	}
	for k := 8; k < len(enc)-4; k += max(1, len(enc)/97) {
		for _, x := range []byte{0x01, 0x80, 0xff} {
			cases = append(cases, damaged{"byte", damage(k, x, true), false})
		}
	}
	refused := 0
	for _, tc := range cases {
		got, err := boundfile.Unmarshal(context.Background(), tc.data)
		var fe *boundfile.FormatError
		switch {
		case errors.As(err, &fe):
			refused++
			if !strings.Contains(fe.Detail, `bones 0 ("Walk")`) || fe.Offset < int64(at) || fe.Offset >= int64(at+len(enc)) {
				t.Errorf("%s: %v: want the bones named and an offset in [%d, %d)", tc.name, err, at, at+len(enc))
			}
		case err != nil:
			t.Errorf("%s: %v, want a *boundfile.FormatError", tc.name, err)
		case tc.always:
			t.Errorf("%s: loaded", tc.name)
		default:
			b := got.Bones[0].Bones
			pose := make([]geom.Transform, b.Rig().Len())
			for k := 0; k <= 8; k++ {
				b.Sample(b.Duration()*float32(k)/8, pose)
			}
		}
	}
	if refused <= 4 { // the four always refused, and none of the values' damage
		t.Errorf("%d of %d damaged files refused: the damage does not reach the bones' values", refused, len(cases))
	}
}

// TestSavedFilesOfEarlierFormatsAreUnsupported: a file of format 1 or 2
// (which kept no bones) is refused as unsupported, saying to save it again.
func TestSavedFilesOfEarlierFormatsAreUnsupported(t *testing.T) {
	file, err := boundfile.Marshal(boundfile.Assets{Characters: []*bound.Character{humanCharacter(t, "Human", 1)}})
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range []uint32{1, 2} {
		d := bytes.Clone(file)
		binary.LittleEndian.PutUint32(d[len(boundfile.Magic):], v)
		fixCRC(d)
		_, err := boundfile.Unmarshal(context.Background(), d)
		var ue *boundfile.UnsupportedError
		if !errors.As(err, &ue) || !strings.Contains(err.Error(), "save it again") {
			t.Errorf("format %d: %v, want an *UnsupportedError saying to save it again", v, err)
		}
	}
}
