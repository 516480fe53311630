package assets

import (
	"bufio"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/mecanim/mecanim/internal/corpustest"
)

// manifestFile is what corpus/MANIFEST.md says of one serialized file.
type manifestFile struct {
	objs    int
	classes map[int32]int    // anim-related classes and their counts
	names   map[int64]string // listed objects: path id -> name
	typed   map[int64]int32  // listed objects: path id -> class
}

var (
	reContainer = regexp.MustCompile(`^### \./(\S+) \(\d+ bytes\)`)
	reSerial    = regexp.MustCompile(`^\s+(\S+): SerializedFile v\d+ .*objs=(\d+)`)
	rePlain     = regexp.MustCompile(`^SerializedFile v\d+ .*objs=(\d+)`)
	reClass     = regexp.MustCompile(`([A-Za-z()]+)\((\d+)\)x(\d+)`)
	reObject    = regexp.MustCompile(`^\s+\S+ pid=(-?\d+) size=\d+ name='(.*)'$`)
)

// readManifest parses the "What each file holds" listing.
func readManifest(t *testing.T, dir string) map[string]map[string]*manifestFile {
	t.Helper()
	fh, err := os.Open(filepath.Join(dir, "MANIFEST.md"))
	if err != nil {
		t.Fatal(err)
	}
	defer fh.Close()
	out := map[string]map[string]*manifestFile{}
	var cont string
	var cur *manifestFile
	sc := bufio.NewScanner(fh)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if m := reContainer.FindStringSubmatch(line); m != nil {
			cont = m[1]
			out[cont] = map[string]*manifestFile{}
			cur = nil
			continue
		}
		if cont == "" {
			continue
		}
		if m := rePlain.FindStringSubmatch(line); m != nil {
			n, _ := strconv.Atoi(m[1])
			cur = &manifestFile{objs: n, classes: map[int32]int{}, names: map[int64]string{}, typed: map[int64]int32{}}
			out[cont][filepath.Base(cont)] = cur
			continue
		}
		if m := reSerial.FindStringSubmatch(line); m != nil {
			n, _ := strconv.Atoi(m[2])
			cur = &manifestFile{objs: n, classes: map[int32]int{}, names: map[int64]string{}, typed: map[int64]int32{}}
			out[cont][m[1]] = cur
			continue
		}
		if cur == nil {
			continue
		}
		if strings.Contains(line, "anim-related:") {
			for _, m := range reClass.FindAllStringSubmatch(line, -1) {
				id, _ := strconv.Atoi(m[2])
				n, _ := strconv.Atoi(m[3])
				cur.classes[int32(id)] = n
			}
			continue
		}
		if m := reObject.FindStringSubmatch(line); m != nil {
			pid, _ := strconv.ParseInt(m[1], 10, 64)
			cur.names[pid] = m[2]
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

func TestEveryCorpusFileListsWhatTheManifestShows(t *testing.T) {
	dir := corpustest.Dir(t)
	man := readManifest(t, dir)
	if len(man) < 15 {
		t.Fatalf("manifest parse found only %d containers", len(man))
	}
	for rel, files := range man {
		rel, files := rel, files
		t.Run(rel, func(t *testing.T) {
			c, err := Open(filepath.Join(dir, rel), Options{})
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			got := map[string]*File{}
			for _, f := range c.Files {
				got[f.Name] = f
			}
			for name, want := range files {
				f, ok := got[name]
				if !ok {
					f, ok = c.File(name)
				}
				if !ok {
					t.Errorf("serialized file %s missing (have %d files)", name, len(c.Files))
					continue
				}
				if len(f.Objects) != want.objs {
					t.Errorf("%s: %d objects, manifest says %d", name, len(f.Objects), want.objs)
				}
				counts := map[int32]int{}
				for i := range f.Objects {
					counts[f.Objects[i].ClassID]++
				}
				for id, n := range want.classes {
					if counts[id] != n {
						t.Errorf("%s: class %d: %d objects, manifest says %d", name, id, counts[id], n)
					}
				}
				for pid, wantName := range want.names {
					o, ok := f.Object(pid)
					if !ok {
						t.Errorf("%s: object %d missing", name, pid)
						continue
					}
					n, err := f.ObjectName(o)
					if err != nil {
						t.Errorf("%s: object %d: %v", name, pid, err)
					} else if n != wantName {
						t.Errorf("%s: object %d named %q, manifest says %q", name, pid, n, wantName)
					}
				}
			}
		})
	}
}

func TestBadFilesGiveErrorsThatNameTheFile(t *testing.T) {
	dir := corpustest.Dir(t)
	cases := []struct {
		name string
		data []byte
	}{
		{"empty", nil},
		{"text", []byte("hello, this is not a unity file at all, not even close")},
		{"truncated bundle header", []byte("UnityFS\x00\x00\x00\x00\x08")},
	}
	src, err := os.ReadFile(filepath.Join(dir, "jotunn/kitbash"))
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range []int{20, 60, 100, 500, len(src) / 2, len(src) - 1} {
		cases = append(cases, struct {
			name string
			data []byte
		}{"kitbash cut at " + strconv.Itoa(n), src[:n]})
	}
	for _, c := range cases {
		r := strings.NewReader(string(c.data))
		_, err := OpenReader(r, int64(len(c.data)), c.name, Options{})
		if err == nil {
			// A truncated bundle may open (lazy) but must fail on reading.
			continue
		}
		var e *Error
		if !errors.As(err, &e) || e.Container != c.name {
			t.Errorf("%s: error %q does not name the file", c.name, err)
		}
	}
	if _, err := Open(filepath.Join(dir, "unitydatatools/invalidfile"), Options{}); err == nil {
		t.Error("invalidfile opened")
	} else if !strings.Contains(err.Error(), "invalidfile") {
		t.Errorf("error %q does not name the file", err)
	}
}

// TestDamagedCompressedDataIsAnErrorNotAnEmptyFile: bytes changed inside a
// bundle's LZMA data must fail the open, naming the entry, instead of
// listing nothing.
func TestDamagedCompressedDataIsAnErrorNotAnEmptyFile(t *testing.T) {
	src, err := os.ReadFile(corpustest.Path(t, "jotunn/kitbash"))
	if err != nil {
		t.Fatal(err)
	}
	c, err := OpenReader(strings.NewReader(string(src)), int64(len(src)), "kitbash", Options{})
	if err != nil {
		t.Fatal(err)
	}
	dataStart := c.Bundles[0].DataOffset
	bad := append([]byte(nil), src...)
	// Damage the middle of the compressed stream.
	mid := int(dataStart) + (len(src)-int(dataStart))/2
	bad[mid] ^= 0xFF
	bad[mid+1] ^= 0x5A
	_, err = OpenReader(strings.NewReader(string(bad)), int64(len(bad)), "kitbash", Options{})
	if err == nil {
		t.Fatal("a damaged LZMA stream opened without error")
	}
	if !strings.Contains(err.Error(), "kitbash") || !strings.Contains(err.Error(), "CAB-") {
		t.Errorf("error %q should name the file and the entry", err)
	}
}

// A bad Unity version in the options is an error that names the version
// and the file, not an option of some command line; a version asked for
// is noted as asked for.
func TestOptionsAreNamedAsTheLibrarysNotAsFlags(t *testing.T) {
	_, err := OpenReader(strings.NewReader("x"), 1, "some.bundle", Options{UnityVersion: "twenty"})
	if err == nil || !strings.Contains(err.Error(), `"twenty"`) || !strings.Contains(err.Error(), "some.bundle") || strings.Contains(err.Error(), "--") {
		t.Errorf("error %q: want the file and the version, no command-line flag", err)
	}
	c, err := Open("../../examples/hello.bundle", Options{UnityVersion: "2021.3.1f1"})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	for _, f := range c.Files {
		if n := f.VersionNote; !strings.Contains(n, "2021.3.1f1 asked for") || strings.Contains(n, "command line") {
			t.Errorf("version note %q", n)
		}
	}
}
