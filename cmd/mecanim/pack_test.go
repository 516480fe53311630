package main

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/mecanim/mecanim/bind"
	"github.com/mecanim/mecanim/bound"
	"github.com/mecanim/mecanim/internal/corpustest"
)

// dumpObject is `mecanim dump --path-id ID FILE` without the container
// (the file's own path), which differs between the two files compared.
func dumpObject(t *testing.T, file string, id string) string {
	t.Helper()
	out, stderr, code := runCLI("dump", "--path-id="+id, file)
	if code != exitOK {
		t.Fatalf("dump %s %s: exit %d: %s", file, id, code, stderr)
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal([]byte(out), &m); err != nil {
		t.Fatal(err)
	}
	delete(m, "container")
	b, _ := json.Marshal(m)
	return string(b)
}

// objectIDs lists the path ids `mecanim ls` prints for a file.
func objectIDs(t *testing.T, file string) []string {
	t.Helper()
	out, stderr, code := runCLI("ls", file)
	if code != exitOK {
		t.Fatalf("ls %s: exit %d: %s", file, code, stderr)
	}
	var ids []string
	for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
		ids = append(ids, strings.Split(l, "\t")[2])
	}
	sort.Strings(ids)
	return ids
}

// Unpacking a Unity-built bundle's clips and packing them again --like that
// bundle gives a bundle whose every object dumps as the original's: the
// same path ids and serialized file (taken from the bundle packed again
// under its own name), the same clips field for field.
func TestPackAgainLikeItsBundleDumpsEveryObjectEqual(t *testing.T) {
	orig := corpustest.Path(t, "lethal-emotes/customemotespackage2")
	packed := filepath.Join(t.TempDir(), "customemotespackage2")
	if _, stderr, code := runCLI("pack", orig, "--like", orig, "--folder", "assets/animationreplacements", "-o", packed); code != exitOK {
		t.Fatalf("pack: exit %d: %s", code, stderr)
	}
	want, got := objectIDs(t, orig), objectIDs(t, packed)
	if strings.Join(want, ",") != strings.Join(got, ",") {
		t.Fatalf("objects %v, want %v", got, want)
	}
	for _, id := range want {
		if g, w := dumpObject(t, packed, id), dumpObject(t, orig, id); g != w {
			n := 0
			for n < len(g) && n < len(w) && g[n] == w[n] {
				n++
			}
			t.Errorf("object %s dumps differently from byte %d: %.120q vs %.120q", id, n, g[n:], w[n:])
		}
	}
}

// A clip made on a glTF character (a corpus clip exported onto a VRM, as
// Blender would hand it over), retargeted to a humanoid clip and packed
// --like the game's bundle, reads back equal to the retargeted clip and is
// listed by `mecanim clips` as the game's own humanoid clips are.
func TestRetargetedClipPackedLikeAGameIsListedAsTheGamesClips(t *testing.T) {
	vrm := corpustest.Path(t, "characters/cryptovoxels.vrm")
	game := corpustest.Path(t, "lethal-emotes/customemotespackage")
	dir := t.TempDir()
	glb, anim, bundle := filepath.Join(dir, "dab.glb"), filepath.Join(dir, "Dance.anim"), filepath.Join(dir, "dance")
	for _, args := range [][]string{
		{"export", game, "--clip", "Dab", "--onto", vrm, "-o", glb},
		{"retarget", glb, "--clip", "Dab", "--onto", vrm, "-o", anim},
		{"pack", anim, "--like", game, "--folder", "assets/emotes", "-o", bundle},
	} {
		if _, stderr, code := runCLI(args...); code != exitOK {
			t.Fatalf("%s: exit %d: %s", args[0], code, stderr)
		}
	}
	out, stderr, code := runCLI("clips", "--json", bundle, game)
	if code != exitOK {
		t.Fatalf("clips: exit %d: %s", code, stderr)
	}
	var ours map[string]any
	var games []map[string]any
	for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
		var m map[string]any
		if err := json.Unmarshal([]byte(l), &m); err != nil {
			t.Fatal(err)
		}
		if strings.HasSuffix(m["container"].(string), "dance") {
			ours = m
		} else if m["humanoid"] == true {
			games = append(games, m)
		}
	}
	if ours == nil || len(games) == 0 {
		t.Fatalf("clips listed: ours %v, the game's humanoid %d", ours, len(games))
	}
	for k, v := range games[0] {
		if _, ok := ours[k]; !ok {
			t.Errorf("our clip lacks %q", k)
		}
		switch k {
		case "legacy", "humanoid", "keyframed_curves", "unresolved_paths", "unresolved_properties", "keys_past_curve_count":
			if ours[k] != v {
				t.Errorf("%s: %v, the game's clips %v", k, ours[k], v)
			}
		}
	}
	// RootT, RootQ, the four goals and the 95 muscles, as the game's clips
	// without blend shapes have them.
	if ours["bindings"] != float64(130) {
		t.Errorf("bindings %v, want 130", ours["bindings"])
	}

	// The packed clip samples as the retargeted one.
	set, err := bind.Open(t.Context(), []string{anim, bundle}, bind.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer set.Close()
	a, err := set.FindClip("Dance.anim#7400000")
	if err != nil {
		t.Fatal(err)
	}
	items := set.Clips()
	b := -1
	for i, it := range items {
		if it.Source.Container == bundle {
			b = i
		}
	}
	ca, _ := set.Clip(a)
	cb, err := set.Clip(bound.ClipID(b))
	if err != nil {
		t.Fatal(err)
	}
	worst := 0.0
	for i := range ca.Curves {
		for j := range cb.Curves {
			if cb.Curves[j].Target.Attribute != ca.Curves[i].Target.Attribute {
				continue
			}
			for k := 0; k <= 400; k++ {
				tm := ca.Start + (ca.Stop-ca.Start)*float32(k)/400
				worst = math.Max(worst, math.Abs(float64(ca.Curves[i].Eval(tm)-cb.Curves[j].Eval(tm))))
			}
		}
	}
	if worst > 1e-4 {
		t.Errorf("the packed clip differs from the retargeted one by up to %g", worst)
	}
}

// A game's controller packed with its clips: the packed controller shows
// the same layers, states, transitions and clips as the game's, its clip
// references pointing at the packed clips.
func TestPackedControllerPlaysThePackedClips(t *testing.T) {
	game := corpustest.Path(t, "lethal-emotes/customemotespackage")
	packed := filepath.Join(t.TempDir(), "dance")
	if _, stderr, code := runCLI("pack", game, "--controller", "dancecontroller", "--like", game, "--folder", "assets/dance", "-o", packed); code != exitOK {
		t.Fatalf("pack: exit %d: %s", code, stderr)
	}
	want, _, _ := runCLI("controller", game)
	got, stderr, code := runCLI("controller", packed)
	if code != exitOK {
		t.Fatalf("controller: exit %d: %s", code, stderr)
	}
	_, want, _ = strings.Cut(want, "\n") // the first line names the file
	_, got, _ = strings.Cut(got, "\n")
	if got != want || !strings.Contains(got, "clips [Floss]") {
		t.Errorf("packed controller:\n%s\nwant:\n%s", got, want)
	}
	ls, _, _ := runCLI("ls", packed)
	if n := strings.Count(ls, "\tAnimationClip\t"); n != 4 {
		t.Errorf("%d clips packed with the controller, want its 4:\n%s", n, ls)
	}
}

// The editor sources of a game's generic clips, packed --like the game's
// bundle, are listed by `mecanim clips` (with the game's bundle, whose
// hierarchy names their paths) exactly as the game's own compiled clips:
// the same length, rate, blocks, keys, bindings and unresolved names.
func TestPackedSourcesAreListedAsTheGamesOwnClips(t *testing.T) {
	game := corpustest.Path(t, "lc-example-enemy/modassets")
	packed := filepath.Join(t.TempDir(), "enemy")
	var args = []string{"pack"}
	for _, n := range []string{"walkCycle", "HeadBop", "die-Head", "die-Legs", "die-Toilet", "swingAttack"} {
		args = append(args, corpustest.Path(t, "lc-example-enemy/source/"+n+".anim"))
	}
	if _, stderr, code := runCLI(append(args, "--like", game, "-o", packed)...); code != exitOK {
		t.Fatalf("pack: exit %d: %s", code, stderr)
	}
	out, stderr, code := runCLI("clips", "--json", packed, game)
	if code != exitOK {
		t.Fatalf("clips: exit %d: %s", code, stderr)
	}
	rows := map[string][]map[string]any{}
	for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
		var m map[string]any
		if err := json.Unmarshal([]byte(l), &m); err != nil {
			t.Fatal(err)
		}
		for _, k := range []string{"container", "file", "path_id", "ref"} {
			delete(m, k)
		}
		rows[m["name"].(string)] = append(rows[m["name"].(string)], m)
	}
	for name, rs := range rows {
		if len(rs) != 2 {
			t.Errorf("%s: listed %d times", name, len(rs))
			continue
		}
		a, _ := json.Marshal(rs[0])
		b, _ := json.Marshal(rs[1])
		if string(a) != string(b) {
			t.Errorf("%s: packed %s, the game's %s", name, a, b)
		}
	}
}

// An avatar built from a VRM character, packed with a clip: `mecanim avatar`
// shows the packed one as the character's own (skeleton, axes and limits,
// human bones, the humanoid checks).
func TestPackedAvatarOfAVRMShowsAsTheCharacters(t *testing.T) {
	vrm := corpustest.Path(t, "characters/cryptovoxels.vrm")
	game := corpustest.Path(t, "lethal-emotes/customemotespackage")
	packed := filepath.Join(t.TempDir(), "withavatar")
	if _, stderr, code := runCLI("pack", vrm, game, "--avatar", "cryptovoxelsAvatar", "--clip", "Floss", "--like", game, "-o", packed); code != exitOK {
		t.Fatalf("pack: exit %d: %s", code, stderr)
	}
	want, _, _ := runCLI("avatar", vrm)
	got, stderr, code := runCLI("avatar", packed)
	if code != exitOK {
		t.Fatalf("avatar: exit %d: %s", code, stderr)
	}
	_, want, _ = strings.Cut(want, "\n")
	_, got, _ = strings.Cut(got, "\n")
	if got != want || !strings.Contains(got, "check pass") {
		t.Errorf("packed avatar:\n%.2000s\nwant:\n%.2000s", got, want)
	}
}

// A clip asked for that cannot be compiled (a legacy clip) fails the
// command, and nothing is written: not a bundle without it.
func TestPackWritesNothingWhenAClipAskedForFails(t *testing.T) {
	game := corpustest.Path(t, "lethal-emotes/customemotespackage")
	out := filepath.Join(t.TempDir(), "partial")
	_, stderr, code := runCLI("pack", game, "--clip", "Join", "--clip", "Floss", "--like", game, "-o", out)
	if code != exitFailed || !strings.Contains(stderr, "legacy") || !strings.Contains(stderr, "nothing written") {
		t.Errorf("exit %d, stderr %q", code, stderr)
	}
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Errorf("%s was written: %v", out, err)
	}
}
