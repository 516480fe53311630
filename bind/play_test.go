package bind

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mecanim/mecanim/bound"
	"github.com/mecanim/mecanim/geom"
	"github.com/mecanim/mecanim/internal/corpustest"
	"github.com/mecanim/mecanim/internal/synth"
)

// mixamoWalk writes synth.MixamoGLB's walk to a temporary .glb.
func mixamoWalk(t *testing.T) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "walk.glb")
	if err := os.WriteFile(p, synth.MixamoGLB(true), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// moves reports whether a motion puts some joint of its character in
// another place, in model space, at two times of the clip.
func moves(m *bound.Motion) bool {
	n := m.On().Skeleton().Len()
	la, lb := make([]geom.Transform, n), make([]geom.Transform, n)
	a, b := make([]geom.Transform, n), make([]geom.Transform, n)
	m.Pose(m.Duration()/4, la, a)
	m.Pose(3*m.Duration()/4, lb, b)
	for j := range a {
		if a[j].T.Sub(b[j].T).Len() > 1e-3 {
			return true
		}
	}
	return false
}

// Bind is the one decision of how a clip plays on a character: as it is
// on its own character, through muscles onto another humanoid (a Mixamo
// walk from a glTF onto a Unity rig and a Unity rig's clip onto the glTF
// character), and never as a rest pose: a clip that drives nothing on the
// character is an error naming the clip, the character and what the clip
// animates.
func TestBindRetargetsBetweenHumanoidsAndRefusesWhatDrivesNothing(t *testing.T) {
	walk := mixamoWalk(t)
	human := synth.NewScene(t, synth.Options{Full: true}).Write("human.assets")
	plain := synth.NewScene(t, synth.Options{})
	plain.Obj(synth.GameObjectBase)["m_Name"] = "Plain"
	plainPath := plain.Write("plain.assets")
	// Part: a humanoid rig of Synth's paths but the head.
	part := synth.NewScene(t, synth.Options{Full: true, Bones: 11})
	part.Obj(synth.GameObjectBase)["m_Name"] = "Part"
	partPath := part.Write("part.assets")
	set := openSet(t, walk, human, plainPath, partPath)
	cases := []struct {
		name     string
		clip     string
		onto     string
		retarget bool
		err      error
		says     []string
	}{
		{"a glTF clip on its own character plays as it is", synth.MixamoWalk, walk, false, nil, nil},
		{"a Mixamo glTF walk onto a humanoid Unity rig plays through muscles", synth.MixamoWalk, human, true, nil, nil},
		{"a Unity rig's generic clip onto a humanoid glTF plays through muscles", "human.assets#601", walk, true, nil, nil},
		{"a Unity rig's generic clip on its own rig plays as it is", "human.assets#601", human, false, nil, nil},
		{"a humanoid's clip on another humanoid with half its paths or more plays by path", "human.assets#601", partPath, false, nil, nil},
		{"a walk onto a rig without a humanoid avatar is refused", synth.MixamoWalk, plainPath, false, ErrDrivesNothing,
			[]string{`clip "Armature|mixamo.com|Layer0"`, `on rig "Plain"`, `"mixamorig:Hips/mixamorig:LeftUpLeg"`, `rig "Plain" has no humanoid avatar to retarget it onto`}},
	}
	for _, c := range cases {
		ch, err := set.characterOn(On{Onto: c.onto})
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		i, err := set.FindClip(c.clip)
		if err != nil {
			t.Fatal(err)
		}
		m, err := set.Motion(t.Context(), i, ch)
		if c.err != nil {
			var nd *NothingDrivenError
			if !errors.Is(err, c.err) || !errors.As(err, &nd) {
				t.Errorf("%s: %v, want %v", c.name, err, c.err)
				continue
			}
			for _, s := range c.says {
				if !strings.Contains(err.Error(), s) {
					t.Errorf("%s: %q does not say %q", c.name, err, s)
				}
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		if got := m.RetargetedFrom() != nil; got != c.retarget || m.On() != ch {
			t.Errorf("%s: retargeted %v (want %v), on %s", c.name, got, c.retarget, m.On().Describe())
		}
		if !moves(m) {
			t.Errorf("%s: the character does not move", c.name)
		}
	}
}

// Motions, what export plays without --clip, takes every clip Bind
// plays (the walk onto the Unity rig, through muscles) and notes each one
// it leaves out, saying why.
func TestMotionsNoteEachClipLeftOut(t *testing.T) {
	walk := mixamoWalk(t)
	plain := synth.NewScene(t, synth.Options{})
	plain.Obj(synth.GameObjectBase)["m_Name"] = "Plain"
	set := openSet(t, walk, synth.NewScene(t, synth.Options{Full: true}).Write("human.assets"), plain.Write("plain.assets"))
	for _, c := range []struct {
		onto   string
		played []string
		notes  []string
	}{
		{"Synth", []string{synth.MixamoWalk, "Idle", "Walk"}, nil},
		{"Plain", []string{"Idle", "Walk"}, []string{`left out: clip "Armature|mixamo.com|Layer0"`}},
	} {
		ch, err := set.characterOn(On{Onto: c.onto})
		if err != nil {
			t.Fatal(err)
		}
		ms, notes, err := set.Motions(t.Context(), ch)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, m := range ms {
			got = append(got, m.Clip().Name)
		}
		if strings.Join(got, ",") != strings.Join(c.played, ",") {
			t.Errorf("on %s: played %q, want %q", c.onto, got, c.played)
		}
		if len(notes) != len(c.notes) {
			t.Errorf("on %s: notes %q, want %q", c.onto, notes, c.notes)
		}
		for k := range min(len(notes), len(c.notes)) {
			if !strings.Contains(notes[k], c.notes[k]) {
				t.Errorf("on %s: note %q does not say %q", c.onto, notes[k], c.notes[k])
			}
		}
	}
}

// --onto takes any character source: a glTF or VRM file, a Unity file
// holding one character, a character or an avatar by name.
func TestOntoTakesAnyCharacterSource(t *testing.T) {
	walk := mixamoWalk(t)
	human := synth.NewScene(t, synth.Options{Full: true}).Write("human.assets")
	set := openSet(t, walk, human)
	for _, c := range []struct{ onto, want string }{
		{walk, `rig "walk"`},
		{human, `rig "Synth"`},
		{"Synth", `rig "Synth"`},
		{"SynthAvatar", `rig "Synth"`},
	} {
		ch, err := set.characterOn(On{Onto: c.onto})
		if err != nil || ch.Describe() != c.want {
			t.Errorf("--onto %s: %v, want %s", c.onto, err, c.want)
		}
	}
	if _, err := set.characterOn(On{Onto: "nobody"}); !errors.Is(err, ErrNotFound) {
		t.Errorf("--onto nobody: %v, want ErrNotFound", err)
	}
}

// The VRM characters of the corpus take the Mixamo walk through muscles.
func TestMixamoWalkPlaysOnVRMCharacters(t *testing.T) {
	walk := mixamoWalk(t)
	for _, v := range []string{"characters/cryptovoxels.vrm", "characters/VRMC_materials_mtoon_UV_Animation_Test.vrm"} {
		vrm := corpustest.Path(t, v)
		set := openSet(t, walk, vrm)
		ch, err := set.characterOn(On{Onto: vrm})
		if err != nil {
			t.Fatal(err)
		}
		i, err := set.FindClip(synth.MixamoWalk)
		if err != nil {
			t.Fatal(err)
		}
		m, err := set.Motion(t.Context(), i, ch)
		if err != nil {
			t.Fatalf("%s: %v", v, err)
		}
		if m.RetargetedFrom() == nil || !moves(m) {
			t.Errorf("%s: retargeted from %v, moves %v", v, m.RetargetedFrom(), moves(m))
		}
	}
}

// BenchmarkBindRetargetsAWalk binds the Mixamo glTF walk (one second, 25
// keys) onto the humanoid Unity rig: played on its own character, recorded
// as muscles at its rate, baked on the rig's avatar.
func BenchmarkBindRetargetsAWalk(b *testing.B) {
	dir := b.TempDir()
	walk := filepath.Join(dir, "walk.glb")
	if err := os.WriteFile(walk, synth.MixamoGLB(true), 0o644); err != nil {
		b.Fatal(err)
	}
	human := synth.NewScene(b, synth.Options{Full: true}).Write("human.assets")
	set, err := Open(b.Context(), []string{walk, human}, Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer set.Close()
	ch, err := set.characterOn(On{Onto: human})
	if err != nil {
		b.Fatal(err)
	}
	i, err := set.FindClip(synth.MixamoWalk)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if m, err := set.Motion(b.Context(), i, ch); err != nil || m.RetargetedFrom() == nil {
			b.Fatal(err)
		}
	}
}
