package main

import (
	"encoding/json"
	"math"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mecanim/mecanim/bind"
	"github.com/mecanim/mecanim/bound"
	"github.com/mecanim/mecanim/geom"
	"github.com/mecanim/mecanim/humanoid"
	"github.com/mecanim/mecanim/internal/corpustest"
	"github.com/mecanim/mecanim/internal/synth"
	"github.com/mecanim/mecanim/model"
)

// Two clips of one name: every command that takes a clip refuses the name
// with both candidates listed, and takes each by its reference.
func TestCommandsRefuseAnAmbiguousClipAndTakeEachByReference(t *testing.T) {
	sc := synth.NewScene(t, synth.Options{Full: true})
	sc.Obj(synth.ClipID + 1)["m_Name"] = "Idle"
	p := sc.Write("two.assets")
	for _, cmd := range [][]string{
		{"sample", p, "--clip", "Idle", "--at", "0"},
		{"pose", p, "--clip", "Idle", "--at", "0"},
		{"render", p, "--clip", "Idle", "-o", t.TempDir() + "/x.png"},
		{"export", p, "--clip", "Idle", "-o", t.TempDir() + "/x.glb"},
	} {
		_, stderr, code := runCLI(cmd...)
		if code != exitUsage || !strings.Contains(stderr, "--clip two.assets#600") || !strings.Contains(stderr, "--clip two.assets#601") {
			t.Errorf("%s: exit %d, stderr %q: want 2 (the command line must say which) and both candidates", cmd[0], code, stderr)
		}
	}
	for _, ref := range []string{"two.assets#600", "#601"} {
		if _, stderr, code := runCLI("pose", p, "--clip", ref, "--at", "0"); code != exitOK {
			t.Errorf("pose --clip %s: exit %d: %s", ref, code, stderr)
		}
	}
}

// The editor's sources of corpus assets give the results their compiled
// bundles give: the clips' timing and settings, a humanoid clip's pose on
// the avatar (each played on its avatar alone), the controller's machines.
func TestYAMLSourcesGiveTheCompiledResults(t *testing.T) {
	src := corpustest.Path(t, "lethal-emotes/source")
	bundle := corpustest.Path(t, "lethal-emotes/customemotespackage")
	scav := corpustest.Path(t, "lethal-emotes/scavbody")
	type clipRow struct {
		Name       string  `json:"name"`
		Length     float32 `json:"length"`
		SampleRate float32 `json:"sample_rate"`
		Humanoid   bool    `json:"humanoid"`
		Loop       bool    `json:"loop"`
		Events     int     `json:"events"`
	}
	rows := func(files ...string) map[string]clipRow {
		out, stderr, code := runCLI(append([]string{"clips", "--json"}, files...)...)
		if code != exitOK {
			t.Fatalf("clips: exit %d: %s", code, stderr)
		}
		m := map[string]clipRow{}
		for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
			var r clipRow
			if err := json.Unmarshal([]byte(l), &r); err != nil {
				t.Fatal(err)
			}
			m[r.Name] = r
		}
		return m
	}
	yaml, compiled := rows(src), rows(bundle)
	for _, name := range []string{"Dab", "Floss", "nobones"} {
		y, c := yaml[name], compiled[name]
		if y.Name == "" || math.Abs(float64(y.Length-c.Length)) > 1e-5 || y.SampleRate != c.SampleRate || y.Humanoid != c.Humanoid || y.Loop != c.Loop || y.Events != c.Events {
			t.Errorf("clip %s: YAML %+v, compiled %+v", name, y, c)
		}
	}

	// Dab on ChadRigAvatar: the YAML clip on the YAML avatar asset, the
	// compiled clip on the same avatar compiled into scavbody as
	// FinalBeta2Avatar, each on the avatar alone (its default pose).
	pose := func(files []string, clip, avatar string) [][]geom.Vec3 {
		set, err := bind.Open(t.Context(), files, bind.Options{})
		if err != nil {
			t.Fatal(err)
		}
		defer set.Close()
		ci, err := set.FindClip(clip)
		if err != nil {
			t.Fatal(err)
		}
		ai, err := set.FindAvatar(avatar)
		if err != nil {
			t.Fatal(err)
		}
		av, _ := set.Avatar(ai)
		c, _ := set.Clip(ci)
		ch, err := bound.NewCharacter(bound.CharacterInput{Name: av.Name, Avatar: av})
		if err != nil {
			t.Fatal(err)
		}
		m, err := bound.Bind(c, model.Source{}, ch)
		if err != nil {
			t.Fatal(err)
		}
		return posePositions(t, m, []float32{0, 1, 2})
	}
	py := pose([]string{src + "/Dab.anim", src + "/ChadRigAvatar.asset"}, "Dab", "ChadRigAvatar")
	pc := pose([]string{bundle, scav}, "CAB-1c015bf0b0345fd2fd5c91b718be8d67#105820862643432567", "FinalBeta2Avatar")
	worst := 0.0
	for k := range py {
		if len(py[k]) != len(pc[k]) {
			t.Fatalf("%d joints from YAML, %d compiled", len(py[k]), len(pc[k]))
		}
		for j := range py[k] {
			worst = math.Max(worst, float64(py[k][j].Sub(pc[k][j]).Len()))
		}
	}
	if worst > 1e-4 {
		t.Errorf("Dab's pose from the YAML sources differs from the compiled one by %g m", worst)
	}
	t.Logf("Dab posed from the YAML sources vs the compiled bundle: %.3g m at most", worst)

	// The enemy's controller: the same parameters, layers and state
	// machines (the YAML's clips are unnamed: the corpus keeps no .meta).
	ctl := func(file string) controllerJSON {
		out, stderr, code := runCLI("controller", file, "--json")
		if code != exitOK {
			t.Fatalf("controller: exit %d: %s", code, stderr)
		}
		var c controllerJSON
		if err := json.Unmarshal([]byte(out), &c); err != nil {
			t.Fatal(err)
		}
		// A state loops as its clips do, which the YAML alone cannot
		// tell: the clips' .meta files are not in the corpus.
		for _, sm := range c.StateMachines {
			for i := range sm.States {
				sm.States[i].Motions, sm.States[i].NameHash, sm.States[i].FullPathHash, sm.States[i].Loop = nil, 0, 0, false
			}
		}
		return c
	}
	cy := ctl(corpustest.Path(t, "lc-example-enemy/source/ExampleEnemyAnimator.controller"))
	cc := ctl(corpustest.Path(t, "lc-example-enemy/modassets"))
	for _, f := range []struct {
		name string
		y, c any
	}{{"parameters", cy.Parameters, cc.Parameters}, {"layers", cy.Layers, cc.Layers}, {"state machines", cy.StateMachines, cc.StateMachines}} {
		a, _ := json.Marshal(f.y)
		b, _ := json.Marshal(f.c)
		if string(a) != string(b) {
			t.Errorf("%s differ:\nYAML     %s\ncompiled %s", f.name, a, b)
		}
	}
}

// `export GAME --onto CHARACTER.vrm` gives the user's own model playing the
// game's clips, skinned: every humanoid clip of the emote bundles onto both
// corpus VRM characters, validator-clean.
func TestExportOntoVRMCharacters(t *testing.T) {
	mods := gltfValidator(t)
	emotes := []string{corpustest.Path(t, "lethal-emotes/customemotespackage"), corpustest.Path(t, "lethal-emotes/customemotespackage2")}
	for v, skinned := range map[string]bool{"characters/cryptovoxels.vrm": true, "characters/VRMC_materials_mtoon_UV_Animation_Test.vrm": false} {
		out := filepath.Join(t.TempDir(), "onto.glb")
		_, stderr, code := runCLI(append(append([]string{"export"}, emotes...), "--onto", corpustest.Path(t, v), "-o", out)...)
		if code != exitOK {
			t.Fatalf("%s: exit %d: %s", v, code, stderr)
		}
		doc := checkGLTF(t, mods, out, "Dab", "Floss", "Default Dance", "HeadSpin 1")
		// The VRM 1.0 sample's three meshes are rigid (on head and hands);
		// every export has the rig's own skin, drawn by no mesh.
		meshSkins := 0
		for _, n := range doc.Nodes {
			if n.Skin != nil && n.Mesh != nil {
				meshSkins++
			}
		}
		if (meshSkins > 0) != skinned || len(doc.Meshes) == 0 {
			t.Errorf("%s: %d skinned meshes, %d meshes", v, meshSkins, len(doc.Meshes))
		}
		t.Logf("%s: %s", v, strings.TrimSpace(stderr))
	}
}

// The round trip of authoring: a corpus humanoid clip played on a glTF
// character and exported, then recorded back from that glTF as a humanoid
// clip (`retarget X.glb --clip Dab --onto X.vrm -o Dab.anim`), gives the
// clip's muscles within 0.01 and its RootT within 1e-4 of the height; the
// .anim, read back by the project's own YAML reader and replayed, gives
// the source pose within 0.5° per bone.
func TestAuthoringRoundTripsThroughGLTF(t *testing.T) {
	vrm := corpustest.Path(t, "characters/cryptovoxels.vrm")
	emotes := corpustest.Path(t, "lethal-emotes/customemotespackage")
	dir := t.TempDir()
	glb, anim := filepath.Join(dir, "dab.glb"), filepath.Join(dir, "Dab.anim")
	if _, stderr, code := runCLI("export", emotes, "--clip", "Dab", "--onto", vrm, "-o", glb); code != exitOK {
		t.Fatalf("export: exit %d: %s", code, stderr)
	}
	if _, stderr, code := runCLI("retarget", glb, "--clip", "Dab", "--onto", vrm, "-o", anim); code != exitOK {
		t.Fatalf("retarget: exit %d: %s", code, stderr)
	}
	// The source: Dab on the VRM character.
	set, err := bind.Open(t.Context(), []string{emotes, vrm, anim}, bind.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer set.Close()
	src, err := set.FindClip("CAB-1c015bf0b0345fd2fd5c91b718be8d67#105820862643432567")
	if err != nil {
		t.Fatal(err)
	}
	authored, err := set.FindClip("Dab.anim#7400000")
	if err != nil {
		t.Fatal(err)
	}
	on, err := set.CharacterFor(t.Context(), bind.On{Character: "cryptovoxels.vrm#0"})
	if err != nil {
		t.Fatal(err)
	}
	ms, err := set.Motion(t.Context(), src, on)
	if err != nil {
		t.Fatal(err)
	}
	ma, err := set.Motion(t.Context(), authored, on)
	if err != nil {
		t.Fatal(err)
	}
	if !ma.Humanoid() {
		t.Fatal("the authored clip is not humanoid")
	}
	hr := ms.On().Human()
	var has [model.MuscleCount]bool
	for b := 0; b < humanoid.BoneCount; b++ {
		if _, _, _, ok := hr.Limits(b); ok {
			for m, d := range humanoid.Muscles {
				if d.Bone == b {
					has[m] = true
				}
			}
		}
	}
	sk := ms.On().Skeleton()
	ls, la := make([]geom.Transform, sk.Len()), make([]geom.Transform, sk.Len())
	worstMuscle, worstRoot, worstDeg := 0.0, 0.0, 0.0
	var ps, pa humanoid.Pose
	for f := 0; f <= 90; f++ {
		tm := float32(f) / 30
		if tm > ms.Duration() {
			break
		}
		ms.HumanClip().SamplePose(tm, &ps)
		ma.HumanClip().SamplePose(tm, &pa)
		for m := range ps.Muscles {
			if has[m] {
				worstMuscle = math.Max(worstMuscle, math.Abs(float64(ps.Muscles[m]-pa.Muscles[m])))
			}
		}
		worstRoot = math.Max(worstRoot, float64(ps.RootT.Sub(pa.RootT).Len()))
		ms.Sample(tm, ls)
		ma.Sample(tm, la)
		for j := range ls {
			if hr.IsHumanNode(j) {
				worstDeg = math.Max(worstDeg, geom.AngleBetween(ls[j].R, la[j].R)*180/math.Pi)
			}
		}
	}
	t.Logf("authored Dab vs source: muscles %.3g, RootT %.3g (normalised: of the height), bones %.3g°", worstMuscle, worstRoot, worstDeg)
	if worstMuscle > 0.01 || worstRoot > 1e-4 || worstDeg > 0.5 {
		t.Errorf("muscles off by %g (want 0.01), RootT by %g (1e-4), bones by %g° (0.5°)", worstMuscle, worstRoot, worstDeg)
	}
}
