package bind

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mecanim/mecanim/bound"
	"github.com/mecanim/mecanim/internal/corpustest"
)

// packageEntry is one asset of a package written by writePackage.
type packageEntry struct {
	guid, pathname string
	asset, meta    []byte
}

// writePackage writes a .unitypackage as the editor does: a gzip'd tar
// with one folder per asset, named by its GUID, holding pathname, asset
// and asset.meta.
func writePackage(t *testing.T, entries []packageEntry) string {
	t.Helper()
	var b bytes.Buffer
	zw := gzip.NewWriter(&b)
	tw := tar.NewWriter(zw)
	put := func(name string, data []byte) {
		if err := tw.WriteHeader(&tar.Header{Name: name, Mode: 0o644, Size: int64(len(data)), Typeflag: tar.TypeReg}); err != nil {
			t.Fatal(err)
		}
		if _, err := tw.Write(data); err != nil {
			t.Fatal(err)
		}
	}
	for _, e := range entries {
		put(e.guid+"/pathname", []byte(e.pathname+"\n00"))
		if e.asset != nil {
			put(e.guid+"/asset", e.asset)
		}
		if e.meta != nil {
			put(e.guid+"/asset.meta", e.meta)
		}
	}
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(t.TempDir(), "emotes.unitypackage")
	if err := os.WriteFile(p, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// projectPackage packs a project folder's assets that have a .meta file.
func projectPackage(t *testing.T, dir string, extra ...packageEntry) string {
	t.Helper()
	var entries []packageEntry
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || strings.HasSuffix(p, ".meta") {
			return err
		}
		meta, err := os.ReadFile(p + ".meta")
		if err != nil {
			return nil
		}
		_, g, _ := strings.Cut(string(meta), "guid: ")
		g, _, _ = strings.Cut(g, "\n")
		asset, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		entries = append(entries, packageEntry{guid: g, pathname: filepath.ToSlash(rel), asset: asset, meta: meta})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return writePackage(t, append(entries, extra...))
}

// A .unitypackage reads as the project it was exported from: references
// between its assets followed through the GUIDs of its folders, objects
// named by their project paths; a model's importer settings in it give
// the model's avatar; assets that are not text are passed over.
func TestPackagesReadAsTheirProject(t *testing.T) {
	dir := project(t)
	// The override controller has no .meta in project(): give it one.
	if err := os.WriteFile(filepath.Join(dir, "Assets", "Emotes", "FlossForDab.overrideController.meta"),
		[]byte("fileFormatVersion: 2\nguid: 00112233445566778899aabbccddeeff\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	model, err := os.ReadFile(corpustest.Path(t, "animation-jobs-samples/DefaultMale/Models/DefaultMale_Humanoid.fbx.meta"))
	if err != nil {
		t.Fatal(err)
	}
	pkg := projectPackage(t, dir, packageEntry{guid: "fedcba9876543210fedcba9876543210", pathname: "Assets/Models/DefaultMale_Humanoid.fbx",
		asset: []byte("Kaydara FBX Binary  \x00\x1a\x00"), meta: model})
	set := openSet(t, pkg)
	if n := len(set.Clips()); n != 3 {
		t.Fatalf("%d clips, want the package's 3 .anim assets", n)
	}
	k, err := set.FindController("dancecontroller")
	if err != nil {
		t.Fatal(err)
	}
	cc, err := set.Controller(t.Context(), k)
	if err != nil {
		t.Fatal(err)
	}
	resolved := 0
	for _, ci := range cc.Clips {
		if ci >= 0 {
			resolved++
		}
	}
	if resolved != 3 || len(cc.Notes) != 1 || !strings.Contains(cc.Notes[0], "876d45c34baef164d8ef87ba0f565a98") {
		t.Errorf("%d clips resolved, notes %q: want 3, the fourth GUID named missing", resolved, cc.Notes)
	}
	o, err := set.FindController("FlossForDab")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := set.Controller(t.Context(), o); err != nil {
		t.Errorf("the override controller: %v", err)
	}
	it, err := set.FindClip("Assets/Emotes/Floss.anim#7400000")
	if err != nil {
		t.Fatal(err)
	}
	if e := set.Clips()[it]; e.Source.Container != pkg || e.Source.File != "Assets/Emotes/Floss.anim" {
		t.Errorf("source %+v, want the package and the asset's project path", e.Source)
	}
	a, err := set.FindAvatar("DefaultMale_HumanoidAvatar")
	if err != nil {
		t.Fatalf("the model's avatar: %v", err)
	}
	if av, err := set.Avatar(a); err != nil || !av.IsHuman() {
		t.Errorf("the model's avatar: %v", err)
	}
}

// A file that is not a package, a package cut short and an asset that
// does not parse are errors naming the package (and the asset).
func TestDamagedPackagesSayWhere(t *testing.T) {
	good := writePackage(t, []packageEntry{{guid: "0123456789abcdef0123456789abcdef", pathname: "Assets/Broken.anim", asset: []byte("%YAML 1.1\n--- !u!74 &7400000\nAnimationClip:\n  m_Name: [unclosed\n")}})
	b, err := os.ReadFile(good)
	if err != nil {
		t.Fatal(err)
	}
	cut := filepath.Join(t.TempDir(), "cut.unitypackage")
	os.WriteFile(cut, b[:len(b)/2], 0o644)
	notGzip := filepath.Join(t.TempDir(), "plain.unitypackage")
	os.WriteFile(notGzip, []byte("not a package at all"), 0o644)
	for _, tc := range []struct {
		path string
		want []string
	}{
		{good, []string{"emotes.unitypackage", "Assets/Broken.anim"}},
		{cut, []string{"cut.unitypackage"}},
		{notGzip, []string{"plain.unitypackage", "not a Unity package"}},
	} {
		_, err := Open(t.Context(), []string{tc.path}, Options{})
		errs := Errors(err)
		if len(errs) == 0 {
			t.Errorf("%s: no error", filepath.Base(tc.path))
			continue
		}
		msg := errs[0].Error()
		for _, w := range tc.want {
			if !strings.Contains(msg, w) {
				t.Errorf("%s: %q does not say %q", filepath.Base(tc.path), msg, w)
			}
		}
	}
}

// FuzzUnityPackage opens arbitrary bytes as a .unitypackage: nothing may
// panic, and what does not read is an error.
func FuzzUnityPackage(f *testing.F) {
	var b bytes.Buffer
	zw := gzip.NewWriter(&b)
	tw := tar.NewWriter(zw)
	for _, e := range []struct{ name, data string }{
		{"0123/pathname", "Assets/A.anim\n00"},
		{"0123/asset", "%YAML 1.1\n%TAG !u! tag:unity3d.com,2011:\n--- !u!74 &7400000\nAnimationClip:\n  m_Name: A\n  m_SampleRate: 30\n"},
		{"0123/asset.meta", "fileFormatVersion: 2\nguid: 0123\n"},
		{"4567/pathname", "Assets/M.fbx"},
		{"4567/asset.meta", "fileFormatVersion: 2\nguid: 4567\nModelImporter:\n  humanDescription:\n    human: []\n"},
	} {
		tw.WriteHeader(&tar.Header{Name: e.name, Mode: 0o644, Size: int64(len(e.data)), Typeflag: tar.TypeReg})
		tw.Write([]byte(e.data))
	}
	tw.Close()
	zw.Close()
	f.Add(b.Bytes())
	f.Add([]byte{0x1f, 0x8b})
	f.Fuzz(func(t *testing.T, data []byte) {
		p := filepath.Join(t.TempDir(), "fuzz.unitypackage")
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		set, err := Open(t.Context(), []string{p}, Options{})
		for _, err := range Errors(err) {
			if err == nil || !strings.Contains(err.Error(), "fuzz.unitypackage") {
				t.Fatalf("an error that does not name the package: %v", err)
			}
		}
		set.Characters()
		set.Avatars()
		set.Controllers()
		for i := range len(set.Clips()) {
			set.Clip(bound.ClipID(i))
		}
		set.Close()
	})
}
