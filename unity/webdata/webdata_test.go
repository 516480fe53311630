package webdata_test

import (
	"bytes"
	"encoding/binary"
	"errors"
	"io"
	"os"
	"strings"
	"testing"

	"github.com/mecanim/mecanim/internal/corpustest"
	"github.com/mecanim/mecanim/unity/webdata"
)

type testEntry struct {
	name string
	data []byte
}

// buildWebData writes a container holding the entries back to back after the directory.
func buildWebData(entries []testEntry) []byte {
	le := binary.LittleEndian
	hsize := len(webdata.Signature) + 4
	for _, e := range entries {
		hsize += 12 + len(e.name)
	}
	out := append([]byte(nil), webdata.Signature...)
	out = le.AppendUint32(out, uint32(hsize))
	off := hsize
	for _, e := range entries {
		out = le.AppendUint32(out, uint32(off))
		out = le.AppendUint32(out, uint32(len(e.data)))
		out = le.AppendUint32(out, uint32(len(e.name)))
		out = append(out, e.name...)
		off += len(e.data)
	}
	for _, e := range entries {
		out = append(out, e.data...)
	}
	return out
}

func openBytes(b []byte) (*webdata.Archive, error) {
	return webdata.Open(bytes.NewReader(b), int64(len(b)))
}

var sampleEntries = []testEntry{
	{"data.unity3d", []byte("UnityFS\x00 pretend bundle")},
	{"boot.config", []byte("gfx-enable-gfx-jobs=1\n")},
	{"empty", nil},
	{"Resources/unity_default_resources", bytes.Repeat([]byte{7}, 100)},
}

func TestSyntheticContainerRoundTrip(t *testing.T) {
	for _, entries := range [][]testEntry{nil, sampleEntries[:1], sampleEntries} {
		file := buildWebData(entries)
		a, err := openBytes(file)
		if err != nil {
			t.Fatalf("%d entries: %v", len(entries), err)
		}
		if len(a.Entries) != len(entries) {
			t.Fatalf("%d entries, want %d", len(a.Entries), len(entries))
		}
		for i, e := range entries {
			if a.Entries[i].Name != e.name {
				t.Errorf("entry %d name %q, want %q", i, a.Entries[i].Name, e.name)
			}
			got, err := io.ReadAll(a.EntryReader(i))
			if err != nil || !bytes.Equal(got, e.data) {
				t.Errorf("entry %d (%s): %q, %v; want %q", i, e.name, got, err, e.data)
			}
			if j, ok := a.Entry(e.name); !ok || j != i {
				t.Errorf("Entry(%q) = %d, %v", e.name, j, ok)
			}
		}
	}
}

func TestBadIndexAndMissingName(t *testing.T) {
	a, err := openBytes(buildWebData(sampleEntries))
	if err != nil {
		t.Fatal(err)
	}
	if a.EntryReader(-1) != nil || a.EntryReader(len(a.Entries)) != nil {
		t.Error("EntryReader out of range != nil")
	}
	if i, ok := a.Entry("nope"); ok || i != -1 {
		t.Errorf("Entry(nope) = %d, %v", i, ok)
	}
}

func TestMalformedContainersGiveFormatErrors(t *testing.T) {
	good := buildWebData(sampleEntries)
	le := binary.LittleEndian
	patch := func(off int, v uint32) []byte {
		b := append([]byte(nil), good...)
		le.PutUint32(b[off:], v)
		return b
	}
	const dir = 20 // first directory entry
	cases := []struct {
		name string
		file []byte
		want string
	}{
		{"empty", nil, "too short"},
		{"text", []byte("this is so wrong! and longer than twenty bytes"), "signature"},
		{"signature only", []byte(webdata.Signature), "too short"},
		{"header size below minimum", patch(16, 5), "header size"},
		{"header size beyond file", patch(16, uint32(len(good)+1)), "header size"},
		{"header size beyond limit", append(patch(16, webdata.MaxHeaderSize+1), make([]byte, webdata.MaxHeaderSize)...), "header size"},
		{"entry past the end", patch(dir+4, uint32(len(good))), "runs past the end"},
		{"entry offset past the end", patch(dir, 1<<31), "runs past the end"},
		{"name length past the directory", patch(dir+8, 1000), "name length"},
		{"directory cut inside an entry", patch(16, dir+6), "entry"},
		{"second entry overlaps the first", patch(dir+12+len(sampleEntries[0].name), le.Uint32(good[dir:])+1), "overlaps"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := openBytes(c.file)
			var fe *webdata.FormatError
			if !errors.As(err, &fe) {
				t.Fatalf("error %v is not a *FormatError", err)
			}
			if !strings.Contains(err.Error(), c.want) {
				t.Errorf("error %q does not mention %q", err, c.want)
			}
		})
	}
}

func TestCorpusHelloWorldData(t *testing.T) {
	data, err := os.ReadFile(corpustest.Path(t, "unitydatatools/webgl/HelloWorld.data"))
	if err != nil {
		t.Fatal(err)
	}
	if !webdata.IsWebData(data) {
		t.Fatal("IsWebData = false")
	}
	a, err := openBytes(data)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"data.unity3d", "RuntimeInitializeOnLoads.json", "ScriptingAssemblies.json", "boot.config",
		"Il2CppData/Metadata/global-metadata.dat", "Resources/unity_default_resources"}
	if len(a.Entries) != len(want) {
		t.Fatalf("%d entries, want %d", len(a.Entries), len(want))
	}
	var end int64
	for i, name := range want {
		if a.Entries[i].Name != name {
			t.Errorf("entry %d = %q, want %q", i, a.Entries[i].Name, name)
		}
		end = max(end, a.Entries[i].Offset+a.Entries[i].Size)
	}
	if end != int64(len(data)) {
		t.Errorf("entries end at %d, file has %d bytes", end, len(data))
	}
	head := make([]byte, 16)
	i, _ := a.Entry("data.unity3d")
	if _, err := a.EntryReader(i).ReadAt(head, 0); err != nil || !bytes.HasPrefix(head, []byte("UnityFS\x00")) {
		t.Errorf("data.unity3d starts %q, %v; want a UnityFS bundle", head, err)
	}
	i, _ = a.Entry("Resources/unity_default_resources")
	if a.Entries[i].Size != 607376 {
		t.Errorf("unity_default_resources size %d, want 607376 (MANIFEST)", a.Entries[i].Size)
	}
	if _, err := a.EntryReader(i).ReadAt(head, 0); err != nil || binary.BigEndian.Uint32(head[8:]) != 22 {
		t.Errorf("unity_default_resources header %x, %v; want serialized-file version 22 at offset 8", head, err)
	}
}

func TestOpenFile(t *testing.T) {
	path := corpustest.Path(t, "unitydatatools/webgl/HelloWorld.data")
	a, err := webdata.OpenFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(a.Entries) != 6 {
		t.Errorf("%d entries, want 6", len(a.Entries))
	}
	if err := a.Close(); err != nil {
		t.Error(err)
	}
	_, err = webdata.OpenFile(corpustest.Path(t, "unitydatatools/invalidfile"))
	var fe *webdata.FormatError
	if !errors.As(err, &fe) || !strings.Contains(err.Error(), "invalidfile") {
		t.Errorf("OpenFile(invalidfile) = %v, want a *FormatError naming the file", err)
	}
	if _, err := webdata.OpenFile(path + ".missing"); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("OpenFile(missing) = %v", err)
	}
}

func TestCorpusInvalidFileAndTruncationsFailCleanly(t *testing.T) {
	inv, err := os.ReadFile(corpustest.Path(t, "unitydatatools/invalidfile"))
	if err != nil {
		t.Fatal(err)
	}
	var fe *webdata.FormatError
	if _, err := openBytes(inv); !errors.As(err, &fe) {
		t.Errorf("invalidfile: error %v, want a *FormatError", err)
	}
	data, err := os.ReadFile(corpustest.Path(t, "unitydatatools/webgl/HelloWorld.data"))
	if err != nil {
		t.Fatal(err)
	}
	var lengths []int
	for l := 0; l < 400; l++ {
		lengths = append(lengths, l)
	}
	for k := 1; k < 200; k++ {
		lengths = append(lengths, len(data)*k/200)
	}
	lengths = append(lengths, len(data)-1)
	for _, l := range lengths {
		// The entries cover the whole file, so any truncation cuts one.
		if _, err := openBytes(data[:l]); !errors.As(err, &fe) {
			t.Fatalf("truncated to %d bytes: error %v, want a *FormatError", l, err)
		}
	}
}
