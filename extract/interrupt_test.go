package extract_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/mecanim/mecanim/extract"
	"github.com/mecanim/mecanim/internal/synth"
	"github.com/mecanim/mecanim/model"
)

func TestCancelledRunLeavesCompleteFilesAndTheNextFinishes(t *testing.T) {
	g := writeGame(t)
	out := filepath.Join(t.TempDir(), "out")
	ctx, cancel := context.WithCancel(context.Background())
	var written atomic.Int32
	_, err := extract.Extract(ctx, []string{g.dir}, extract.Options{Out: out, Workers: 1,
		OnOutput: func(o *extract.Output) {
			if written.Add(1) == 2 {
				cancel()
			}
		}})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled run: %v; want context.Canceled", err)
	}
	glbs, _ := filepath.Glob(filepath.Join(out, "*.glb"))
	if len(glbs) != 2 {
		t.Errorf("cancelled after 2 outputs, %d files: %v", len(glbs), glbs)
	}
	if _, err := os.Stat(filepath.Join(out, "manifest.json")); err == nil {
		t.Error("a cancelled run wrote a manifest")
	}
	mods := validator(t)
	for _, p := range glbs {
		checkOutput(t, mods, p, nil)
	}
	var upToDate, redone int
	m, err := extract.Extract(context.Background(), []string{g.dir}, extract.Options{Out: out, Workers: 2,
		OnOutput: func(o *extract.Output) {
			if o.UpToDate {
				upToDate++
			} else {
				redone++
			}
		}})
	if err != nil {
		t.Fatal(err)
	}
	if upToDate != 2 || redone != len(g.characters)-2 {
		t.Errorf("the next run: %d up to date, %d written; want 2 and %d", upToDate, redone, len(g.characters)-2)
	}
	checkComplete(t, mods, out, m)
}

func TestStaleTemporaryFilesAreRemoved(t *testing.T) {
	g := writeGame(t)
	out := filepath.Join(t.TempDir(), "out")
	os.MkdirAll(out, 0o755)
	stale := filepath.Join(out, ".Hero.glb.123.mecanim-tmp")
	write(t, stale, []byte("half a file"))
	if _, err := extract.Extract(context.Background(), []string{g.dir}, extract.Options{Out: out}); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(stale); err == nil {
		t.Error("a temporary file an abrupt stop left is still there")
	}
}

func TestOneBadFileNeverStopsTheRest(t *testing.T) {
	g := writeGame(t)
	bad := filepath.Join(g.dir, "game_Data", "sharedassets9.assets")
	good, err := os.ReadFile(filepath.Join(g.dir, "game_Data", "level0"))
	if err != nil {
		t.Fatal(err)
	}
	write(t, bad, good[:len(good)/2]) // a serialized file cut short
	out := filepath.Join(t.TempDir(), "out")
	m, err := extract.Extract(context.Background(), []string{g.dir, filepath.Join(g.dir, "missing.bundle")}, extract.Options{Out: out})
	if err != nil {
		t.Fatal(err)
	}
	var failed []string
	for _, f := range m.Failed {
		failed = append(failed, filepath.Base(f.Input))
	}
	if len(failed) != 2 || !strings.Contains(strings.Join(failed, " "), "sharedassets9.assets") || !strings.Contains(strings.Join(failed, " "), "missing.bundle") {
		t.Errorf("failed: %+v; want the cut file and the missing one", m.Failed)
	}
	written := 0
	for _, c := range m.Characters {
		if c.Output != "" {
			written++
		}
	}
	if written != len(g.characters) {
		t.Errorf("%d of %d characters written beside a bad file", written, len(g.characters))
	}
}

func TestOutputNamesAreUniqueWhateverTheNames(t *testing.T) {
	for _, tc := range []struct{ in, want []string }{
		{[]string{"mult", "mult", "mult-2"}, []string{"mult", "mult-2", "mult-2-2"}},
		{[]string{"A", "a", ""}, []string{"A", "a-2", "rig"}},
		{[]string{"../x", "a/b", ".."}, []string{"_x", "a_b", "rig"}},
		{[]string{strings.Repeat("é", 200)}, []string{strings.Repeat("é", 80)}},
		{[]string{"体", "体", "a b"}, []string{"体", "体-2", "a_b"}},
		{[]string{"con", "NUL.x"}, []string{"_con", "_NUL.x"}},
	} {
		got := extract.UniqueNames(tc.in)
		if strings.Join(got, "|") != strings.Join(tc.want, "|") {
			t.Errorf("UniqueNames(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestPicturesAreDrawnBesideEachCharacter(t *testing.T) {
	g := writeGame(t)
	out := filepath.Join(t.TempDir(), "out")
	m, err := extract.Extract(context.Background(), []string{g.dir}, extract.Options{Out: out, Pictures: true})
	if err != nil {
		t.Fatal(err)
	}
	pictures := 0
	for _, o := range m.Outputs {
		if o.Kind != "picture" {
			continue
		}
		pictures++
		b, err := os.ReadFile(filepath.Join(out, o.Path))
		if err != nil || !strings.HasPrefix(string(b), "\x89PNG") {
			t.Errorf("%s: %v, not a PNG", o.Path, err)
		}
	}
	// Every character plays two clips.
	if pictures != 2*len(g.characters) {
		t.Errorf("%d pictures, want %d", pictures, 2*len(g.characters))
	}
	for _, c := range m.Characters {
		if len(c.Pictures) != 2 || !strings.HasPrefix(c.Pictures[0], strings.TrimSuffix(c.Output, ".glb")+".pictures/") {
			t.Errorf("%s: pictures %v", c.Name, c.Pictures)
		}
	}
}

// Humanoid clips no character plays go where bind's one rule puts them
// (the one humanoid avatar's own skeleton), and on the avatar given when
// one is.
func TestHumanoidClipsNoCharacterPlaysGoOnTheAvatarGiven(t *testing.T) {
	sc := synth.NewScene(t, synth.Options{Full: true, Extended: true})
	a := sc.Obj(synth.AnimatorID)
	a["m_Avatar"], a["m_Controller"] = synth.PPtr(0), synth.PPtr(0)
	dir := t.TempDir()
	write(t, filepath.Join(dir, "lonely.assets"), encode(t, sc, nil))
	var out string
	run := func(avatar string) *extract.Manifest {
		out = filepath.Join(t.TempDir(), "out")
		m, err := extract.Extract(context.Background(), []string{dir}, extract.Options{Out: out, Avatar: avatar})
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
	m := run("")
	var humanoid []string
	for _, c := range m.Clips {
		if c.Humanoid {
			humanoid = append(humanoid, c.Name)
			// Without --avatar they go where every command plays them:
			// on the inputs' one humanoid avatar, its own skeleton here.
			if len(c.Outputs) != 1 || c.Outputs[0] != "SynthAvatar.glb" || c.Skipped != "" {
				t.Errorf("without --avatar, humanoid clip %q: outputs %v, skipped %q; want the avatar's skeleton", c.Name, c.Outputs, c.Skipped)
			}
		}
	}
	if len(humanoid) == 0 || len(m.Avatars) != 1 {
		t.Fatalf("the scene has humanoid clips %v and avatars %+v", humanoid, m.Avatars)
	}
	m = run(m.Avatars[0].Source.Ref)
	var on *extract.Character
	for i, c := range m.Characters {
		if c.Avatar == m.Avatars[0].Source.Ref && c.Source.Ref == c.Avatar {
			on = &m.Characters[i]
		}
	}
	if on == nil || len(on.Clips) != len(humanoid) || on.Clips[0].Why != "avatar" {
		t.Fatalf("with --avatar: no output on the avatar's skeleton holding the %d humanoid clips: %+v", len(humanoid), m.Characters)
	}
	checkOutput(t, validator(t), filepath.Join(out, on.Output), humanoid)
	for _, c := range m.Clips {
		if c.Humanoid && (len(c.Outputs) != 1 || c.Outputs[0] != on.Output) {
			t.Errorf("humanoid clip %q: outputs %v, want [%s]", c.Name, c.Outputs, on.Output)
		}
	}
	if len(m.Failed) > 0 {
		t.Errorf("failed: %+v", m.Failed)
	}
}

func TestClipsAnAnimationComponentListsAreItsCharacters(t *testing.T) {
	sc := synth.NewScene(t, synth.Options{Full: true, Extended: true})
	const animation = 700
	sc.Add(animation, model.ClassAnimation, synth.F{"m_GameObject": synth.PPtr(synth.GameObjectBase), "m_Enabled": 1,
		"m_Animation": synth.PPtr(synth.LegacyClipID), "m_Animations": []any{synth.PPtr(synth.LegacyClipID), synth.PPtr(synth.ClipID)}})
	root := sc.Obj(synth.GameObjectBase)
	root["m_Component"] = append(root["m_Component"].([]any), synth.F{"component": synth.PPtr(animation)})
	dir := t.TempDir()
	write(t, filepath.Join(dir, "legacy.assets"), encode(t, sc, nil))
	m, err := extract.Extract(context.Background(), []string{dir}, extract.Options{Out: filepath.Join(t.TempDir(), "out")})
	if err != nil {
		t.Fatal(err)
	}
	// The Animation component on the Animator's GameObject is a character of
	// its own: the Animator plays its controller's clips, the component
	// the clips it holds; Idle, humanoid, cannot play on it (no avatar) and
	// its output says so.
	want := map[string]string{"Synth.glb": "Idle:controller Walk:controller", "Synth-2.glb": "Wave:animation"}
	if len(m.Characters) != 2 {
		t.Fatalf("characters: %+v", m.Characters)
	}
	for _, c := range m.Characters {
		var got []string
		for _, u := range c.Clips {
			got = append(got, u.Name+":"+u.Why)
		}
		if strings.Join(got, " ") != want[c.Output] {
			t.Errorf("%s (%s): clips %v, want %s (notes %v, failed %+v)", c.Output, c.Source.Ref, got, want[c.Output], c.Notes, m.Failed)
		}
		if c.Output == "Synth-2.glb" && (len(c.Notes) != 1 || !strings.Contains(c.Notes[0], `clip "Idle"`) || !strings.Contains(c.Notes[0], "humanoid")) {
			t.Errorf("%s: notes %q; want one saying why Idle is left out", c.Output, c.Notes)
		}
	}
}

func TestFilesOfTheSameContentCountOnce(t *testing.T) {
	g := writeGame(t)
	knight := filepath.Join(g.dir, "game_Data", "StreamingAssets", "aa", "knight")
	b, err := os.ReadFile(knight)
	if err != nil {
		t.Fatal(err)
	}
	copyPath := filepath.Join(g.dir, "mods", "knight-again.bundle")
	write(t, copyPath, b)
	m, err := extract.Extract(context.Background(), []string{g.dir}, extract.Options{Out: filepath.Join(t.TempDir(), "out")})
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Characters) != len(g.characters) || len(m.Failed) > 0 {
		t.Errorf("%d characters (want %d), failed %+v", len(m.Characters), len(g.characters), m.Failed)
	}
	found := false
	for _, ig := range m.Ignored {
		found = found || ig.Path == copyPath && strings.Contains(ig.Why, "same content as "+knight)
	}
	if !found {
		t.Errorf("the copy is not listed as counted once: %+v", m.Ignored)
	}
}
