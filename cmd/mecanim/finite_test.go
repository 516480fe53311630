package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mecanim/mecanim/decode/yamlasset"
	"github.com/mecanim/mecanim/internal/synth"
)

// finiteDamage is one way of putting a NaN or an infinity into the
// extended synthetic scene, with the words the error must hold.
type finiteDamage struct {
	name   string
	damage func(sc *synth.Scene)
	want   []string // in the message of a command that reads the damaged object
	// read: the value is data a shipped game may hold (a clip's curve
	// value): every command reads it, notes it and keeps it out of poses
	// and files, rather than failing.
	read bool
}

func finiteDamages() []finiteDamage {
	nan, inf := float32(math.NaN()), float32(math.Inf(1))
	clipData := func(sc *synth.Scene) synth.F {
		return sc.Obj(synth.ClipID)["m_MuscleClip"].(synth.F)["m_Clip"].(synth.F)["data"].(synth.F)
	}
	return []finiteDamage{
		{"clip constant", func(sc *synth.Scene) {
			clipData(sc)["m_ConstantClip"].(synth.F)["data"].([]float32)[0] = nan
		}, []string{"Idle", "constant value", "NaN"}, true},
		{"clip dense sample", func(sc *synth.Scene) {
			clipData(sc)["m_DenseClip"].(synth.F)["m_SampleArray"].([]float32)[1] = inf
		}, []string{"Idle", "dense frame 0", "+Inf"}, true},
		{"clip streamed key", func(sc *synth.Scene) {
			// Word 6 is the first frame's first curve's value.
			clipData(sc)["m_StreamedClip"].(synth.F)["data"].([]uint32)[6] = math.Float32bits(nan)
		}, []string{"Idle", "streamed key 0", "NaN"}, true},
		{"avatar default pose", func(sc *synth.Scene) {
			av := synth.DescribedHumanAvatar()
			av.DefaultPose[3].T.Y = -inf
			sc.Set(synth.AvatarID, synth.AvatarFields(av))
		}, []string{"SynthAvatar", "[3].t", "-Inf"}, false},
		{"Transform position", func(sc *synth.Scene) {
			sc.Obj(synth.TransformBase + 4)["m_LocalPosition"].(synth.F)["x"] = nan
		}, []string{"Transform 204", "m_LocalPosition", "NaN"}, false},
	}
}

// finiteResult is what one command did on a damaged scene.
type finiteResult struct {
	stdout, stderr string
	code           int
	files          map[string]string
	dir            string
}

// A NaN or an infinity in an avatar or a Transform: every command either
// gives exactly what it gives on the undamaged scene (it did not read the
// damaged object) or fails with exit status 1 and a message that names the
// object and the field, leaving no output file but complete ones. In a
// clip's curve it is data: every command reads it, notes it, and writes
// only numbers to its files.
func TestNonFiniteValuesAreReportedByEveryCommand(t *testing.T) {
	script := filepath.Join(t.TempDir(), "script.json")
	if err := os.WriteFile(script, []byte(`{"duration": 1}`), 0o644); err != nil {
		t.Fatal(err)
	}
	runAll := func(p string) map[string]finiteResult {
		out := t.TempDir()
		res := map[string]finiteResult{}
		for _, cmd := range [][]string{
			{"clips", p},
			{"sample", p, "--clip", "Idle", "--at", "0", "--at", "0.1"},
			{"avatar", p},
			{"controller", p},
			{"pose", p, "--clip", "Idle", "--at", "0", "--at", "0.1"},
			{"pose", p, "--clip", "Walk", "--at", "0"},
			{"play", p, "--animator", "Synth", "--script", script},
			{"retarget", p, "--clip", "Idle", "-o", filepath.Join(out, "r.anim")},
			{"render", p, "--clip", "Idle", "-o", filepath.Join(out, "x.png")},
			{"export", p, "-o", filepath.Join(out, "x.glb")},
			{"export", p, "--all", "-o", filepath.Join(out, "all")},
		} {
			before := listFiles(t, out)
			stdout, stderr, code := runCLI(cmd...)
			after := listFiles(t, out)
			r := finiteResult{stdout: strings.ReplaceAll(stdout, p, "SCENE"), stderr: stderr, code: code, files: map[string]string{}, dir: out}
			for f, sum := range after {
				if before[f] != sum {
					r.files[f] = sum
				}
			}
			res[strings.NewReplacer(out, "OUT", p, "SCENE").Replace(strings.Join(cmd, " "))] = r
		}
		return res
	}
	clean := runAll(synth.NewScene(t, synth.Options{Full: true, Extended: true}).Write("scene.assets"))
	for key, r := range clean {
		if r.code != exitOK {
			t.Fatalf("undamaged scene: %s: exit %d: %s", key, r.code, r.stderr)
		}
	}
	for _, d := range finiteDamages() {
		t.Run(d.name, func(t *testing.T) {
			sc := synth.NewScene(t, synth.Options{Full: true, Extended: true})
			d.damage(sc)
			failed := 0
			all := runAll(sc.Write("scene.assets"))
			if d.read {
				checkReadAndHeld(t, d, all)
				return
			}
			for key, r := range all {
				c := clean[key]
				switch r.code {
				case exitOK:
					if r.stdout != c.stdout || len(r.files) != len(c.files) {
						t.Errorf("%s: exit 0 with output other than the undamaged scene's", key)
					}
					for f, sum := range r.files {
						if c.files[f] != sum {
							t.Errorf("%s: exit 0 and %s differs from the undamaged scene's", key, f)
						}
					}
				case exitFailed:
					failed++
					for _, w := range append([]string{"scene.assets"}, d.want...) {
						if !strings.Contains(r.stderr, w) {
							t.Errorf("%s: message %q does not say %q", key, r.stderr, w)
						}
					}
					for f := range r.files {
						if err := checkWhole(filepath.Join(r.dir, f)); err != nil {
							t.Errorf("%s: failed and left a broken %s: %v", key, f, err)
						}
					}
				default:
					t.Errorf("%s: exit %d: %s", key, r.code, r.stderr)
				}
			}
			if failed == 0 {
				t.Errorf("no command reported the damage")
			}
		})
	}
}

// checkReadAndHeld checks a clip's value that is not a number is read:
// every command exits 0, the clip's report names the clip, the curve and
// the value, and every file written is whole with only numbers in it.
func checkReadAndHeld(t *testing.T, d finiteDamage, all map[string]finiteResult) {
	t.Helper()
	noted := 0
	for key, r := range all {
		if r.code != exitOK {
			t.Errorf("%s: exit %d, want 0 (the value is read): %s", key, r.code, r.stderr)
		}
		if strings.Contains(r.stderr, "note:") && strings.Contains(r.stderr, d.want[0]) {
			ok := true
			for _, w := range d.want {
				ok = ok && strings.Contains(r.stderr, w)
			}
			if ok {
				noted++
			}
		}
		for f := range r.files {
			p := filepath.Join(r.dir, f)
			if err := checkWhole(p); err != nil {
				t.Errorf("%s: %s: %v", key, f, err)
			}
			if strings.HasSuffix(f, ".glb") {
				if err := glbNumbersOnly(p); err != nil {
					t.Errorf("%s: %s: %v", key, f, err)
				}
			}
		}
	}
	for _, cmd := range []string{"clips SCENE", "export SCENE -o OUT/x.glb", "sample SCENE --clip Idle --at 0 --at 0.1",
		"pose SCENE --clip Idle --at 0 --at 0.1", "render SCENE --clip Idle -o OUT/x.png"} {
		if r, ok := all[cmd]; !ok || !strings.Contains(r.stderr, d.want[1]) {
			t.Errorf("%s does not note %q: %q", cmd, d.want[1], r.stderr)
		}
	}
	if noted == 0 {
		t.Errorf("no command noted the value")
	}
}

// glbNumbersOnly reports a GLB whose binary chunk holds a 32-bit word that
// is a NaN or an infinity as a float (the scenes' indices are far too small
// to look like one).
func glbNumbersOnly(path string) error {
	b, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	off := 12
	for off+8 <= len(b) {
		n, kind := int(binary.LittleEndian.Uint32(b[off:])), binary.LittleEndian.Uint32(b[off+4:])
		body := b[off+8 : min(len(b), off+8+n)]
		if kind == 0x004E4942 { // BIN
			for i := 0; i+4 <= len(body); i += 4 {
				x := math.Float32frombits(binary.LittleEndian.Uint32(body[i:]))
				if math.IsNaN(float64(x)) || math.IsInf(float64(x), 0) {
					return fmt.Errorf("binary chunk word %d is %v", i/4, x)
				}
			}
		}
		off += 8 + n
	}
	return nil
}

// listFiles returns every file below dir with a digest of its content.
func listFiles(t *testing.T, dir string) map[string]string {
	t.Helper()
	m := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		m[rel] = fmt.Sprintf("%x", sha256.Sum256(b))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// checkWhole reports an output file that is not whole: a GLB whose
// header's length is not the file's, a PNG that does not decode, a clip
// asset that does not parse.
func checkWhole(path string) error {
	b, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	switch filepath.Ext(path) {
	case ".glb":
		if len(b) < 12 || string(b[:4]) != "glTF" || int(binary.LittleEndian.Uint32(b[8:])) != len(b) {
			return fmt.Errorf("%d bytes, not a whole GLB", len(b))
		}
	case ".png":
		_, err = png.Decode(bytes.NewReader(b))
	case ".anim":
		var f *yamlasset.File
		if f, err = yamlasset.Parse(bytes.NewReader(b), path); err == nil {
			_, err = f.Clip()
		}
	default:
		err = errors.New("an output of unknown kind")
	}
	return err
}

// Extracting a scene with a NaN or an infinity in an avatar or a
// Transform fails (exit status 1) naming the object and the field, and
// writes only complete files: an object that does not decode is a failure
// of the run, not quietly left out. A clip's value that is not a number is
// read: the run exports it held, and its manifest names it.
func TestExtractFailsOnEveryNonFiniteValue(t *testing.T) {
	run := func(sc *synth.Scene) (string, int, string) {
		out := t.TempDir()
		_, stderr, code := runCLI("extract", sc.Write("scene.assets"), "-o", out)
		return stderr, code, out
	}
	if stderr, code, _ := run(synth.NewScene(t, synth.Options{Full: true, Extended: true})); code != exitOK {
		t.Fatalf("undamaged scene: exit %d: %s", code, stderr)
	}
	for _, d := range finiteDamages() {
		t.Run(d.name, func(t *testing.T) {
			sc := synth.NewScene(t, synth.Options{Full: true, Extended: true})
			d.damage(sc)
			stderr, code, out := run(sc)
			if d.read {
				// Read, exported, noted in the manifest.
				manifest, _ := os.ReadFile(filepath.Join(out, "manifest.json"))
				if code != exitOK || !strings.Contains(string(manifest), d.want[1]) {
					t.Errorf("exit %d, want 0 with a manifest note saying %q: %s", code, d.want[1], stderr)
				}
				for f := range listFiles(t, out) {
					if strings.HasSuffix(f, ".glb") {
						if err := glbNumbersOnly(filepath.Join(out, f)); err != nil {
							t.Errorf("%s: %v", f, err)
						}
					}
				}
				return
			}
			if code != exitFailed {
				t.Fatalf("exit %d, want %d: %s", code, exitFailed, stderr)
			}
			for _, w := range append([]string{"scene.assets"}, d.want...) {
				if !strings.Contains(stderr, w) {
					t.Errorf("message %q does not say %q", stderr, w)
				}
			}
			for f := range listFiles(t, out) {
				if strings.HasSuffix(f, ".glb") {
					if err := checkWhole(filepath.Join(out, f)); err != nil {
						t.Errorf("left a broken %s: %v", f, err)
					}
				}
			}
		})
	}
}
