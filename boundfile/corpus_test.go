package boundfile_test

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/mecanim/mecanim/anim"
	"github.com/mecanim/mecanim/bind"
	"github.com/mecanim/mecanim/bound"
	"github.com/mecanim/mecanim/boundfile"
	"github.com/mecanim/mecanim/internal/corpustest"
)

// servers are the corpus characters a server loads: the example enemy
// (generic, three layers, six clips) and a humanoid dancer (four
// humanoid clips on its avatar).
var servers = []struct {
	name, file, character string
}{
	{"enemy", "lc-example-enemy/modassets", "ExampleEnemyModel"},
	{"dancer", "lethal-emotes/customemotespackage", "bandit"},
}

// loadFromBundle is a server's startup from the Unity files: open them,
// bind the character's controller, close them.
func loadFromBundle(tb testing.TB, path, character string) boundfile.Assets {
	set, err := bind.Open(tb.Context(), []string{path}, bind.Options{})
	if err != nil {
		tb.Fatal(err)
	}
	defer set.Close()
	ci, err := set.FindCharacter(character)
	if err != nil {
		tb.Fatal(err)
	}
	ch, err := set.Character(tb.Context(), ci)
	if err != nil {
		tb.Fatal(err)
	}
	ctl, ok := set.CharacterController(ci)
	if !ok {
		tb.Fatalf("%s plays no controller of the inputs", character)
	}
	c, err := set.BindController(tb.Context(), ctl, ch)
	if err != nil {
		tb.Fatal(err)
	}
	return boundfile.Assets{Controllers: []*bound.Controller{c}}
}

// corpusSeeds are the corpus servers saved (the dancer with one clip's
// bones), for seeding the fuzzer (none without the corpus).
func corpusSeeds(tb testing.TB) [][]byte {
	dir, ok := corpustest.Lookup()
	if !ok {
		return nil
	}
	var out [][]byte
	for _, s := range servers {
		a := loadFromBundle(tb, filepath.Join(dir, s.file), s.character)
		for _, m := range a.Controllers[0].Clips() {
			if m != nil && m.Humanoid() {
				a.Bones = []boundfile.Bones{{On: a.Controllers[0].On(), Bones: bake(tb, m.Clip(), a.Controllers[0].On())}}
				break
			}
		}
		b, err := boundfile.Marshal(a)
		if err != nil {
			tb.Fatal(err)
		}
		out = append(out, b)
	}
	return out
}

// TestCorpusServersLoadAsTheirBundles: the enemy and the dancer, saved and
// loaded, pose as bound from their bundles, bit for bit; the file keeps
// every generic clip the controller plays baked (the enemy's six, none of
// the dancer's humanoid clips).
func TestCorpusServersLoadAsTheirBundles(t *testing.T) {
	for _, s := range servers {
		a := loadFromBundle(t, corpustest.Path(t, s.file), s.character)
		b, err := boundfile.Marshal(a)
		if err != nil {
			t.Fatal(err)
		}
		generic := map[*anim.Clip]bool{}
		for _, m := range a.Controllers[0].Clips() {
			if m != nil && m.Generic() != nil {
				generic[m.Generic()] = true
			}
		}
		if n, err := boundfile.BakedClips(b); err != nil || n != len(generic) {
			t.Errorf("%s: %d baked clips saved (%v), want %d", s.name, n, err, len(generic))
		}
		got, err := boundfile.Unmarshal(context.Background(), b)
		if err != nil {
			t.Fatalf("%s: %v", s.name, err)
		}
		samePoses(t, a, got)
	}
}

// BenchmarkLoad compares a server's startup from its bundle with loading
// the same character and controller saved: ns per load, and the heap the
// loaded values keep (after a collection, the bundle closed).
func BenchmarkLoad(b *testing.B) {
	for _, s := range servers {
		path := corpustest.Path(b, s.file)
		saved := filepath.Join(b.TempDir(), s.name+".bound")
		data, err := boundfile.Marshal(loadFromBundle(b, path, s.character))
		if err != nil {
			b.Fatal(err)
		}
		if err := os.WriteFile(saved, data, 0o644); err != nil {
			b.Fatal(err)
		}
		b.Run(s.name+"/bundle", func(b *testing.B) {
			var keep boundfile.Assets
			cpu := processCPU()
			for b.Loop() {
				keep = loadFromBundle(b, path, s.character)
			}
			reportCPU(b, cpu)
			b.ReportMetric(heapMiB(), "MiB-kept")
			runtime.KeepAlive(keep)
		})
		b.Run(s.name+"/saved", func(b *testing.B) {
			var keep boundfile.Assets
			cpu := processCPU()
			for b.Loop() {
				if keep, err = boundfile.ReadFile(context.Background(), saved); err != nil {
					b.Fatal(err)
				}
			}
			reportCPU(b, cpu)
			b.ReportMetric(heapMiB(), "MiB-kept")
			b.ReportMetric(float64(len(data))/1024, "KiB-file")
			runtime.KeepAlive(keep)
		})
	}
}

// reportCPU reports the process CPU time per load since start (the
// collector's included): on a shared machine wall time counts the waits
// for a core too.
func reportCPU(b *testing.B, start int64) {
	if start > 0 {
		b.ReportMetric(float64(processCPU()-start)/float64(b.N)/1e6, "cpu-ms/op")
	}
}

// heapMiB is the live heap after a collection.
func heapMiB() float64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return float64(m.HeapAlloc) / (1 << 20)
}
