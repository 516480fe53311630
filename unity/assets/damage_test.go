package assets

import (
	"bytes"
	"encoding/binary"
	"errors"
	"io"
	"testing"

	"github.com/mecanim/mecanim/internal/corpustest"
	"github.com/mecanim/mecanim/internal/synth"
	"github.com/mecanim/mecanim/unity/serialized"
	"github.com/mecanim/mecanim/unity/unitywrite"
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
				if !errors.Is(err, ErrDamagedHeader) && !errors.Is(err, serialized.ErrFormat) {
					t.Errorf("error %v says neither serialized.ErrFormat nor serialized.ErrFormat", err)
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
