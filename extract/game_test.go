package extract_test

import (
	"bytes"
	"compress/gzip"
	"os"
	"path/filepath"
	"testing"

	"github.com/andybalholm/brotli"

	"github.com/mecanim/mecanim/internal/synth"
	"github.com/mecanim/mecanim/unity/unitywrite"
)

// A synthetic game folder, written at test time: what each file holds and
// which characters and clips an extraction must find in it.
//
//	game_Data/level0                       character "Hero" whose Animator's avatar and
//	                                       controller are in sharedassets0.assets
//	game_Data/sharedassets0.assets.split0… that file, split in three parts: the avatar,
//	                                       the controller, clips Idle and Walk and
//	                                       character "Synth"
//	game_Data/StreamingAssets/aa/knight    bundle CAB-knight: character "Knight" whose
//	                                       controller and avatar are in CAB-moves
//	game_Data/StreamingAssets/aa/moves     bundle CAB-moves: avatar, controller, clips
//	                                       KnightIdle and KnightWalk, character "Dummy"
//	Build/web.data.gz                      gzip WebGL data: character "GzipGuy", clips
//	                                       GzIdle and GzWalk
//	Build/web.data.br                      brotli WebGL data: character "BrotliGal",
//	                                       clips BrIdle and BrWalk
//	game_Data/Managed/Assembly-CSharp.dll  not a Unity file
type game struct {
	dir        string
	characters []string
	clips      []string
}

// scene is the synthetic scene with its root named root and its clips
// named idle and walk (frames frames each; 0: small).
func scene(t testing.TB, root, idle, walk string, frames int, full bool) *synth.Scene {
	sc := synth.NewScene(t, synth.Options{Full: full})
	sc.Obj(synth.GameObjectBase)["m_Name"] = root
	if full {
		if frames <= 0 {
			frames = 4
		}
		sc.Set(synth.ClipID, synth.ClipFields(idle, frames, 0.01))
		sc.Set(synth.ClipID+1, synth.ClipFields(walk, frames, 0.05))
	}
	return sc
}

// encode writes a scene as serialized file bytes.
func encode(t testing.TB, sc *synth.Scene, externals []unitywrite.External) []byte {
	t.Helper()
	b, err := os.ReadFile(sc.WriteWith("scene.tmp", externals))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func bundle(t testing.TB, cab string, sf []byte) []byte { return bundleOf(t, cab, sf, 64<<10) }

// bundleOf writes a bundle of LZ4 blocks of block bytes.
func bundleOf(t testing.TB, cab string, sf []byte, block int) []byte {
	t.Helper()
	b, err := unitywrite.Bundle(synth.UnityVersion, []unitywrite.Entry{{Path: cab, Data: sf, Flags: 4}}, block)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func write(t testing.TB, path string, b []byte) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// elsewhere points an Animator's avatar and controller at file 1.
func elsewhere(sc *synth.Scene) {
	a := sc.Obj(synth.AnimatorID)
	a["m_Avatar"] = synth.F{"m_FileID": 1, "m_PathID": synth.AvatarID}
	a["m_Controller"] = synth.F{"m_FileID": 1, "m_PathID": synth.ControllerID}
}

// writeGame writes the synthetic game into a new folder.
func writeGame(t testing.TB) *game {
	dir := t.TempDir()
	g := &game{dir: dir}
	data := filepath.Join(dir, "game_Data")

	hero := scene(t, "Hero", "", "", 0, false)
	elsewhere(hero)
	write(t, filepath.Join(data, "level0"), encode(t, hero, []unitywrite.External{{Path: "sharedassets0.assets", Type: 0}}))
	shared := encode(t, scene(t, "Synth", "Idle", "Walk", 0, true), nil)
	cuts := []int{0, len(shared) / 3, 2 * len(shared) / 3, len(shared)}
	for i := range 3 {
		write(t, filepath.Join(data, "sharedassets0.assets.split"+string(rune('0'+i))), shared[cuts[i]:cuts[i+1]])
	}

	knight := scene(t, "Knight", "", "", 0, false)
	elsewhere(knight)
	aa := filepath.Join(data, "StreamingAssets", "aa")
	write(t, filepath.Join(aa, "knight"), bundle(t, "CAB-knight", encode(t, knight, []unitywrite.External{{Path: "archive:/CAB-moves/CAB-moves"}})))
	write(t, filepath.Join(aa, "moves"), bundle(t, "CAB-moves", encode(t, scene(t, "Dummy", "KnightIdle", "KnightWalk", 0, true), nil)))

	web := func(root, idle, walk string) []byte {
		return synth.WebData([]string{"data.unity3d"}, [][]byte{bundle(t, "CAB-"+root, encode(t, scene(t, root, idle, walk, 0, true), nil))})
	}
	var gz, br bytes.Buffer
	z := gzip.NewWriter(&gz)
	z.Write(web("GzipGuy", "GzIdle", "GzWalk"))
	z.Close()
	w := brotli.NewWriter(&br)
	w.Write(web("BrotliGal", "BrIdle", "BrWalk"))
	w.Close()
	write(t, filepath.Join(dir, "Build", "web.data.gz"), gz.Bytes())
	write(t, filepath.Join(dir, "Build", "web.data.br"), br.Bytes())
	write(t, filepath.Join(data, "Managed", "Assembly-CSharp.dll"), []byte("MZ\x90\x00 not a Unity file"))

	g.characters = []string{"Hero", "Synth", "Knight", "Dummy", "GzipGuy", "BrotliGal"}
	g.clips = []string{"Idle", "Walk", "KnightIdle", "KnightWalk", "GzIdle", "GzWalk", "BrIdle", "BrWalk"}
	return g
}

// writeLargeGame writes n bundles, each a character with two clips of
// frames frames in blocks of 1 MiB (a bundle's blocks held by its reader
// then take about its whole data), and returns the folder and the bytes
// of serialized data.
func writeLargeGame(t testing.TB, n, frames int) (string, int64) {
	dir := t.TempDir()
	var data int64
	for i := range n {
		name := "Char" + itoa(i)
		sf := encode(t, scene(t, name, name+"Idle", name+"Walk", frames, true), nil)
		data += int64(len(sf))
		write(t, filepath.Join(dir, "bundles", name+".bundle"), bundleOf(t, "CAB-"+name, sf, 1<<20))
	}
	return dir, data
}

func itoa(i int) string {
	return string([]byte{byte('0' + i/100%10), byte('0' + i/10%10), byte('0' + i%10)})
}
