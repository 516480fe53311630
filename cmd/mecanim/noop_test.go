package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	qg "github.com/qmuntal/gltf"
	"github.com/qmuntal/gltf/modeler"

	"github.com/mecanim/mecanim/bind"
	"github.com/mecanim/mecanim/internal/synth"
	"github.com/mecanim/mecanim/present/view"
)

// noopInputs writes, without the corpus, a Mixamo walk as Blender writes
// it (glTF), a humanoid Unity rig with its controller (Synth) and a rig of
// the same paths with no avatar (Plain).
func noopInputs(t *testing.T) (walk, human, plain string) {
	t.Helper()
	walk = filepath.Join(t.TempDir(), "walk.glb")
	if err := os.WriteFile(walk, synth.MixamoGLB(true), 0o644); err != nil {
		t.Fatal(err)
	}
	human = synth.NewScene(t, synth.Options{Full: true}).Write("human.assets")
	p := synth.NewScene(t, synth.Options{})
	p.Obj(synth.GameObjectBase)["m_Name"] = "Plain"
	return walk, human, p.Write("plain.assets")
}

// Exit 0 means the asked-for thing was done: a clip that drives nothing on
// the character chosen exits 1 in every command that plays it, naming the
// clip, the character and what the clip animates; a clip made for another
// humanoid plays through muscles with a note, in every command alike.
func TestEveryCommandRefusesAClipThatDrivesNothingAndRetargetsBetweenHumanoids(t *testing.T) {
	walk, human, plain := noopInputs(t)
	out := t.TempDir()
	script := filepath.Join(out, "script.json")
	if err := os.WriteFile(script, []byte(`{"duration": 0.5}`), 0o644); err != nil {
		t.Fatal(err)
	}
	refused := []string{`clip "Armature|mixamo.com|Layer0"`, `drives nothing on rig "Plain"`, `"mixamorig:Hips/mixamorig:LeftUpLeg"`}
	retargeted := []string{`clip "Armature|mixamo.com|Layer0" is made for rig "walk": retargeted onto rig "Synth" through muscles`}
	cases := []struct {
		name   string
		args   []string
		code   int
		stderr []string
	}{
		{"pose onto a rig the walk does not fit", []string{"pose", walk, "--onto", plain, "--clip", synth.MixamoWalk, "--at", "0.5"}, exitFailed, refused},
		{"render onto a rig the walk does not fit", []string{"render", walk, "--onto", plain, "--clip", synth.MixamoWalk, "-o", filepath.Join(out, "r.png")}, exitFailed, refused},
		{"export --clip onto a rig the walk does not fit", []string{"export", walk, "--onto", plain, "--clip", synth.MixamoWalk, "-o", filepath.Join(out, "e.glb")}, exitFailed, refused},
		{"retarget onto a rig the walk does not fit", []string{"retarget", walk, "--onto", plain, "--clip", synth.MixamoWalk}, exitFailed, refused},
		{"export without --clip notes the walk it leaves out", []string{"export", walk, plain, "--onto", plain, "-o", filepath.Join(out, "n.glb")}, exitOK,
			[]string{`note: left out: clip "Armature|mixamo.com|Layer0"`}},
		{"pose onto a humanoid Unity rig", []string{"pose", walk, "--onto", human, "--clip", synth.MixamoWalk, "--at", "0.5"}, exitOK, retargeted},
		{"render onto a humanoid Unity rig", []string{"render", walk, "--onto", human, "--clip", synth.MixamoWalk, "-o", filepath.Join(out, "h.png")}, exitOK, retargeted},
		{"export onto a humanoid Unity rig, every clip", []string{"export", walk, "--onto", human, "-o", filepath.Join(out, "walk_on_synth.glb")}, exitOK, retargeted},
		{"play the Unity rig's controller onto the glTF character", []string{"play", human, "--controller", "SynthController", "--onto", walk, "--script", script}, exitOK,
			[]string{`clip "Walk" is made for rig "Synth": retargeted onto rig "walk"`}},
		{"a time after a clip that does not loop is clamped, with a note", []string{"pose", walk, "--clip", synth.MixamoWalk, "--at", "3"}, exitOK,
			[]string{`time 3 is after clip "Armature|mixamo.com|Layer0" ends (1 s); it does not loop: posed at its end`}},
	}
	for _, c := range cases {
		_, stderr, code := runCLI(c.args...)
		if code != c.code {
			t.Errorf("%s: exit %d, want %d; stderr %q", c.name, code, c.code, stderr)
		}
		for _, s := range c.stderr {
			if !strings.Contains(stderr, s) {
				t.Errorf("%s: stderr %q does not say %q", c.name, stderr, s)
			}
		}
	}
	// The exported walk moves the Unity rig's legs.
	doc, err := qg.Open(filepath.Join(out, "walk_on_synth.glb"))
	if err != nil {
		t.Fatal(err)
	}
	var a *qg.Animation
	for _, x := range doc.Animations {
		if x.Name == synth.MixamoWalk {
			a = x
		}
	}
	if a == nil {
		t.Fatalf("walk_on_synth.glb: no animation %q", synth.MixamoWalk)
	}
	legs := 0
	for _, ch := range a.Channels {
		n := ch.Target.Node
		if n == nil || !strings.Contains(doc.Nodes[*n].Name, "UpperLeg") || ch.Target.Path != qg.TRSRotation {
			continue
		}
		v, err := modeler.ReadAccessor(doc, doc.Accessors[a.Samplers[ch.Sampler].Output], nil)
		if err != nil {
			t.Fatal(err)
		}
		if q, ok := v.([][4]float32); ok && len(q) > 2 {
			least := float32(1) // the cosine of the widest half-angle from the first key
			for _, x := range q {
				d := x[0]*q[0][0] + x[1]*q[0][1] + x[2]*q[0][2] + x[3]*q[0][3]
				least = min(least, max(d, -d))
			}
			if least < 0.99 { // the thigh swings by more than 16°
				legs++
			}
		}
	}
	if legs != 2 {
		t.Errorf("walk_on_synth.glb: %d upper legs swing, want 2", legs)
	}
}

// The viewer's scene API decides as the commands do: the walk plays on the
// humanoid Unity rig through muscles (and says what it was made for), and
// is refused on the rig without a humanoid avatar.
func TestViewerPlaysAndRefusesAsTheCommandsDo(t *testing.T) {
	walk, human, plain := noopInputs(t)
	set, err := bind.Open(t.Context(), []string{walk, human, plain}, bind.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer set.Close()
	srv, err := view.New(set, view.Options{})
	if err != nil {
		t.Fatal(err)
	}
	clip, err := set.FindClip(synth.MixamoWalk)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		rig, from, err string
	}{
		{"Synth", `rig "walk"`, ""},
		{"walk", "", ""},
		{"Plain", "", `drives nothing on rig "Plain"`},
	} {
		rig, err := set.FindCharacter(c.rig)
		if err != nil {
			t.Fatal(err)
		}
		f, err := srv.ClipFrames(int(clip), int(rig), 30, false)
		switch {
		case c.err != "":
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("on %s: %v, want an error saying %q", c.rig, err, c.err)
			}
		case err != nil:
			t.Errorf("on %s: %v", c.rig, err)
		case f.From != c.from:
			t.Errorf("on %s: made for %q, want %q", c.rig, f.From, c.from)
		}
	}
}
