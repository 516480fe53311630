package assets

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/mecanim/mecanim/internal/corpustest"
	"github.com/mecanim/mecanim/internal/synth"
	"github.com/mecanim/mecanim/unity/serialized"
	"github.com/mecanim/mecanim/unity/unityfs"
	"github.com/mecanim/mecanim/unity/unitywrite"
	"github.com/mecanim/mecanim/unity/webdata"
)

// TestDamagedSerializedFileIsReportedNotSetAside: a serialized file whose
// header was damaged, or that was cut short, is an error naming the
// container and the entry, wherever it is: a bundle node marked as a
// serialized file, an unmarked node or a WebData entry whose content looks
// serialized, a plain file. It is never listed as a resource (which would
// make its objects vanish with exit status 0).
func TestDamagedSerializedFileIsReportedNotSetAside(t *testing.T) {
	sf, err := synth.SerializedFile(3, false, false)
	if err != nil {
		t.Fatal(err)
	}
	res := bytes.Repeat([]byte{0x5a, 0x17, 0xc3, 0x08}, 256)
	be := binary.BigEndian
	damage := map[string]func() []byte{
		"version":    func() []byte { b := bytes.Clone(sf); be.PutUint32(b[8:], 0x96); return b },
		"endianness": func() []byte { b := bytes.Clone(sf); b[16] = 9; return b },
		"file size":  func() []byte { b := bytes.Clone(sf); be.PutUint64(b[24:], uint64(len(b)+100)); return b },
		"metadata":   func() []byte { b := bytes.Clone(sf); be.PutUint32(b[20:], 0); return b },
		// Cut short, its size in the bundle's directory cut to match.
		"truncated": func() []byte { return bytes.Clone(sf[:len(sf)-1000]) },
	}
	bundle := func(cab []byte, flags uint32) []byte {
		b, err := unitywrite.Bundle("2022.3.9f1", []unitywrite.Entry{
			{Path: "CAB-x", Data: cab, Flags: flags},
			{Path: "CAB-x.resS", Data: res},
		}, 4096)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	places := map[string]func(cab []byte) (data []byte, entry string){
		"bundle node marked serialized": func(cab []byte) ([]byte, string) { return bundle(cab, 4), "CAB-x" },
		"unmarked bundle node":          func(cab []byte) ([]byte, string) { return bundle(cab, 0), "CAB-x" },
		"WebData entry": func(cab []byte) ([]byte, string) {
			return synth.WebData([]string{"level0", "boot.config"}, [][]byte{cab, []byte("gfx-enable-gfx-jobs=\n")}), "level0"
		},
		"plain file": func(cab []byte) ([]byte, string) { return cab, "" },
	}
	for pname, place := range places {
		whole, _ := place(sf)
		ct, err := OpenReader(bytes.NewReader(whole), int64(len(whole)), "game.data", Options{})
		if err != nil || len(ct.Files) != 1 {
			t.Fatalf("%s, undamaged: %v", pname, err)
		}
		for dname, d := range damage {
			if pname == "unmarked bundle node" && dname == "truncated" {
				continue // nothing left to say it was a serialized file
			}
			t.Run(pname+"/"+dname, func(t *testing.T) {
				data, entry := place(d())
				ct, err := OpenReader(bytes.NewReader(data), int64(len(data)), "game.data", Options{})
				if err == nil {
					t.Fatalf("opened with %d serialized files and resources %v", len(ct.Files), keys(ct.resources))
				}
				var ae *Error
				if !errors.As(err, &ae) || ae.Container != "game.data" || ae.Entry != entry {
					t.Fatalf("error %v does not name the container and entry %q", err, entry)
				}
				if !errors.Is(err, ErrDamagedHeader) {
					t.Errorf("error %v is not ErrDamagedHeader", err)
				}
				file := entry
				if file == "" {
					file = "game.data"
				}
				if !strings.Contains(err.Error(), fmt.Sprintf("serialized file %q", file)) {
					t.Errorf("error %v does not name the serialized file", err)
				}
			})
		}
	}
}

func keys(m map[string]*io.SectionReader) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}

// TestCorpusResourcesDoNotLookSerialized: no resource entry of a corpus
// container (textures, meshes, sounds, config files) carries a serialized
// file's marks, so none is refused as a damaged one.
func TestCorpusResourcesDoNotLookSerialized(t *testing.T) {
	corpustest.Dir(t)
	n := 0
	for _, p := range corpusUnityFiles(t) {
		ct, err := Open(p, Options{})
		if err != nil {
			t.Fatal(err)
		}
		for name, r := range ct.resources {
			prefix, err := sniff(r)
			if err != nil {
				t.Fatal(err)
			}
			if serialized.LooksSerialized(prefix) {
				t.Errorf("%s: resource %s looks serialized", p, name)
			}
			n++
		}
		ct.Close()
	}
	if n < 10 {
		t.Errorf("only %d resources", n)
	}
}

// TestContainerBytesAreAccountedFor: a bundle or a WebData container part
// of which nothing explains (a node dropped from the directory, bytes past
// the size the header gives, blocks ending early, an entry moved into the
// directory or leaving a gap) is an error saying which bytes, not a
// container read in part.
func TestContainerBytesAreAccountedFor(t *testing.T) {
	node := func(path string, off, size int64) unityfs.Node {
		return unityfs.Node{Path: path, Offset: off, Size: size}
	}
	block := func(u, c uint32) unityfs.Block { return unityfs.Block{UncompressedSize: u, CompressedSize: c} }
	bundle := func(size int64, blocks []unityfs.Block, nodes ...unityfs.Node) *unityfs.Archive {
		return &unityfs.Archive{Size: size, DataOffset: 100, Blocks: blocks, Nodes: nodes}
	}
	two := []unityfs.Block{block(600, 300), block(400, 200)}
	bundles := []struct {
		name string
		a    *unityfs.Archive
		size int64
		want string // "" when the bundle is accounted for
	}{
		{"as Unity writes it", bundle(600, two, node("CAB-a", 0, 700), node("CAB-a.resS", 700, 300)), 600, ""},
		{"nodes padded to 16 bytes", bundle(600, two, node("CAB-a", 0, 690), node("CAB-a.resS", 704, 290)), 600, ""},
		{"no node", bundle(600, two), 600, "hold no node"},
		{"a node dropped", bundle(600, two, node("CAB-a", 0, 700)), 600, "to its end at 1000"},
		{"a gap between nodes", bundle(600, two, node("CAB-a", 0, 600), node("CAB-a.resS", 700, 300)), 600, "to node \"CAB-a.resS\" at offset 700"},
		{"data before the first node", bundle(600, two, node("CAB-a", 100, 900)), 600, "to the first node"},
		{"truncated", bundle(600, two, node("CAB-a", 0, 1000)), 599, "truncated"},
		{"bytes after the declared end", bundle(600, two, node("CAB-a", 0, 1000)), 616, "the bundle's end as its header's total size"},
		{"blocks ending early", bundle(700, two, node("CAB-a", 0, 1000)), 700, "end of the last of the 2 blocks"},
	}
	for _, tc := range bundles {
		t.Run("bundle/"+tc.name, func(t *testing.T) {
			err := accountBundle(tc.a, tc.size)
			checkAccounted(t, err, tc.want)
		})
	}
	entry := func(name string, off, size int64) webdata.Entry {
		return webdata.Entry{Name: name, Offset: off, Size: size}
	}
	webs := []struct {
		name    string
		entries []webdata.Entry
		want    string
	}{
		{"as Unity writes it", []webdata.Entry{entry("data.unity3d", 100, 500), entry("boot.config", 600, 400)}, ""},
		{"an entry inside the directory", []webdata.Entry{entry("data.unity3d", 0, 600), entry("boot.config", 600, 400)}, "lies before"},
		{"an entry dropped", []webdata.Entry{entry("data.unity3d", 100, 500)}, "to its end at 1000"},
		{"an empty entry anywhere", []webdata.Entry{entry("data.unity3d", 100, 900), entry("empty", 0, 0)}, ""},
	}
	for _, tc := range webs {
		t.Run("webdata/"+tc.name, func(t *testing.T) {
			err := accountWebData(&webdata.Archive{HeaderSize: 100, Entries: tc.entries}, 1000)
			checkAccounted(t, err, tc.want)
		})
	}

	// Through OpenReader: bytes appended to a bundle, an entry of a
	// WebData container moved into its directory.
	b, err := synth.Bundle(3, false, 4096)
	if err != nil {
		t.Fatal(err)
	}
	b = append(b, make([]byte, 64)...)
	if _, err := OpenReader(bytes.NewReader(b), int64(len(b)), "long.bundle", Options{}); !errors.Is(err, ErrUnaccounted) || !strings.Contains(err.Error(), "long.bundle") {
		t.Errorf("bundle with 64 bytes appended: %v", err)
	}
	sf, err := synth.SerializedFile(3, false, false)
	if err != nil {
		t.Fatal(err)
	}
	w := synth.WebData([]string{"level0"}, [][]byte{sf})
	binary.LittleEndian.PutUint32(w[20:], 0)
	if _, err := OpenReader(bytes.NewReader(w), int64(len(w)), "game.data", Options{}); !errors.Is(err, ErrUnaccounted) || !strings.Contains(err.Error(), "game.data") {
		t.Errorf("WebData entry moved into the directory: %v", err)
	}
}

func checkAccounted(t *testing.T, err error, want string) {
	t.Helper()
	if want == "" {
		if err != nil {
			t.Fatal(err)
		}
		return
	}
	if !errors.Is(err, ErrUnaccounted) || !strings.Contains(err.Error(), want) {
		t.Fatalf("error %v, want ErrUnaccounted saying %q", err, want)
	}
}
