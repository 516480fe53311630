package extract_test

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"context"
	"fmt"
	"github.com/mecanim/mecanim/inputs"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/mecanim/mecanim/extract"
	"github.com/mecanim/mecanim/internal/corpustest"
)

// A glTF character is an input like a Unity file: the synthetic humanoid
// written by a first extraction, read back as a .glb, is a character with
// its own animations.
func TestGLTFCharactersAreExtracted(t *testing.T) {
	mods := validator(t)
	game := t.TempDir()
	write(t, filepath.Join(game, "hero.bundle"), bundle(t, "CAB-hero", encode(t, scene(t, "Hero", "Idle", "Walk", 4, true), nil)))
	first := t.TempDir()
	if m, err := extract.Extract(context.Background(), []string{game}, extract.Options{Out: first}); err != nil || len(m.Failed) > 0 {
		t.Fatalf("%v %+v", err, m.Failed)
	}
	glb := filepath.Join(t.TempDir(), "me.glb")
	b, err := os.ReadFile(filepath.Join(first, "Hero.glb"))
	if err != nil {
		t.Fatal(err)
	}
	write(t, glb, b)

	out := t.TempDir()
	m, err := extract.Extract(context.Background(), []string{glb}, extract.Options{Out: out})
	if err != nil || len(m.Failed) > 0 {
		t.Fatalf("%v %+v", err, m.Failed)
	}
	if len(m.Inputs) != 1 || m.Inputs[0].Kind != inputs.GLTF || m.Inputs[0].Objects == 0 {
		t.Errorf("inputs %+v, want the .glb as a %s", m.Inputs, inputs.GLTF)
	}
	if len(m.Characters) != 1 || m.Characters[0].Output == "" {
		t.Fatalf("characters %+v, want the .glb's", m.Characters)
	}
	checkComplete(t, mods, out, m)
	var own []string
	for _, u := range m.Characters[0].Clips {
		own = append(own, u.Name)
	}
	if !slices.Contains(own, "Idle") || !slices.Contains(own, "Walk") {
		t.Errorf("the glTF character's clips: %v, want its animations Idle and Walk", own)
	}
}

// Unity YAML assets are inputs like built files: a project folder (here
// the editor sources of lethal-emotes: humanoid clips, a controller and an
// avatar asset) is read as one input with its GUIDs, its humanoid clips go
// on the avatar chosen, a second run finds it up to date, and an asset
// changed redoes the output it feeds.
func TestYAMLProjectsAreExtracted(t *testing.T) {
	src := filepath.Join(corpustest.Dir(t), "lethal-emotes", "source")
	project := t.TempDir()
	if err := os.CopyFS(project, os.DirFS(src)); err != nil {
		t.Fatal(err)
	}
	mods := validator(t)
	out := t.TempDir()
	run := func() *extract.Manifest {
		t.Helper()
		m, err := extract.Extract(context.Background(), []string{project}, extract.Options{Out: out, Avatar: "ChadRigAvatar"})
		if err != nil || len(m.Failed) > 0 {
			t.Fatalf("%v %+v", err, m.Failed)
		}
		return m
	}
	m := run()
	if len(m.Inputs) != 1 || m.Inputs[0].Kind != inputs.Project || m.Inputs[0].Path != project {
		t.Errorf("inputs %+v, want the folder as one %s", m.Inputs, inputs.Project)
	}
	checkComplete(t, mods, out, m)
	want := []string{"Dab", "Floss", "nobones"}
	var got []string
	for _, c := range m.Characters {
		for _, u := range c.Clips {
			got = append(got, u.Name)
		}
	}
	slices.Sort(got)
	if !slices.Equal(got, want) {
		t.Errorf("clips exported %v, want %v", got, want)
	}
	before := modTimes(t, out)
	run()
	if !mapsEqual(before, modTimes(t, out)) {
		t.Error("a second run rewrote files")
	}
	later := time.Now().Add(time.Minute)
	if err := os.Chtimes(filepath.Join(project, "Dab.anim"), later, later); err != nil {
		t.Fatal(err)
	}
	run()
	if after := modTimes(t, out); mapsEqual(before, after) {
		t.Error("an asset changed, and nothing was written again")
	}
	// The same folder given twice is one input.
	m2, err := extract.Extract(context.Background(), []string{project, project + string(filepath.Separator)}, extract.Options{Out: t.TempDir(), Avatar: "ChadRigAvatar"})
	if err != nil || len(m2.Failed) > 0 || len(m2.Inputs) != 1 {
		t.Errorf("the folder twice: %v, failed %+v, inputs %+v", err, m2.Failed, m2.Inputs)
	}
}

// The game's humanoid clips that no character of it plays go on the
// user's own VRM character when its avatar is chosen.
func TestGameClipsGoOnAVRMCharacter(t *testing.T) {
	dir := corpustest.Dir(t)
	mods := validator(t)
	out := t.TempDir()
	vrm := filepath.Join(dir, "characters", "cryptovoxels.vrm")
	m, err := extract.Extract(context.Background(), []string{filepath.Join(dir, "lethal-emotes", "customemotespackage"), filepath.Join(dir, "lethal-emotes", "customemotespackage2"), vrm},
		extract.Options{Out: out, Avatar: "cryptovoxelsAvatar", NoMeshes: true})
	if err != nil || len(m.Failed) > 0 {
		t.Fatalf("%v %+v", err, m.Failed)
	}
	checkComplete(t, mods, out, m)
	var onVRM []string
	for _, c := range m.Characters {
		if c.Source.Container != vrm {
			continue
		}
		for _, u := range c.Clips {
			if u.Why == "avatar" {
				onVRM = append(onVRM, u.Name)
			}
		}
	}
	if !slices.Contains(onVRM, "Dab 1") || len(onVRM) < 4 {
		t.Errorf("clips on the VRM character: %v, want the game's humanoid clips no character plays (Dab 1 among them)", onVRM)
	}
}

// A .unitypackage of humanoid emotes (lethal-emotes' editor sources packed
// as the editor exports them) is an input: its clips go on the user's VRM
// character when its avatar is chosen.
func TestUnityPackageClipsGoOnAVRMCharacter(t *testing.T) {
	dir := corpustest.Dir(t)
	var b bytes.Buffer
	zw := gzip.NewWriter(&b)
	tw := tar.NewWriter(zw)
	for i, name := range []string{"Dab.anim", "Floss.anim", "nobones.anim", "dancecontroller.controller"} {
		data, err := os.ReadFile(filepath.Join(dir, "lethal-emotes", "source", name))
		if err != nil {
			t.Fatal(err)
		}
		guid := fmt.Sprintf("%032x", i+1)
		for _, e := range []struct {
			name string
			data []byte
		}{{guid + "/pathname", []byte("Assets/Emotes/" + name)}, {guid + "/asset", data}, {guid + "/asset.meta", []byte("fileFormatVersion: 2\nguid: " + guid + "\n")}} {
			if err := tw.WriteHeader(&tar.Header{Name: e.name, Mode: 0o644, Size: int64(len(e.data)), Typeflag: tar.TypeReg}); err != nil {
				t.Fatal(err)
			}
			tw.Write(e.data)
		}
	}
	tw.Close()
	zw.Close()
	pkg := filepath.Join(t.TempDir(), "emotes.unitypackage")
	write(t, pkg, b.Bytes())
	vrm := filepath.Join(dir, "characters", "cryptovoxels.vrm")
	out := t.TempDir()
	m, err := extract.Extract(context.Background(), []string{pkg, vrm}, extract.Options{Out: out, Avatar: "cryptovoxelsAvatar", NoMeshes: true})
	if err != nil || len(m.Failed) > 0 {
		t.Fatalf("%v %+v", err, m.Failed)
	}
	checkComplete(t, validator(t), out, m)
	if m.Inputs[0].Kind != inputs.Package {
		t.Errorf("inputs %+v, want the package first, as a %s", m.Inputs, inputs.Package)
	}
	var onVRM []string
	for _, c := range m.Characters {
		for _, u := range c.Clips {
			if c.Source.Container == vrm && u.Why == "avatar" {
				onVRM = append(onVRM, u.Name)
			}
		}
	}
	slices.Sort(onVRM)
	if want := []string{"Dab", "Floss", "nobones"}; !slices.Equal(onVRM, want) {
		t.Errorf("clips on the VRM character: %v, want %v", onVRM, want)
	}
}
