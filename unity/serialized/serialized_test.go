package serialized

import (
	"bytes"
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/mecanim/mecanim/internal/corpustest"
)

func openCorpus(t testing.TB, rel string) (*File, []byte) {
	t.Helper()
	b, err := os.ReadFile(corpustest.Path(t, rel))
	if err != nil {
		t.Fatal(err)
	}
	f, err := Open(bytes.NewReader(b), int64(len(b)), rel)
	if err != nil {
		t.Fatalf("Open(%s): %v", rel, err)
	}
	return f, b
}

func TestOpenPlayerLevelReadsMetadata(t *testing.T) {
	f, b := openCorpus(t, "unitydatatools/player-2022.1.20f1/level0")
	if !IsSerializedFile(b[:48], int64(len(b))) {
		t.Error("IsSerializedFile = false for level0")
	}
	if f.Version != 22 || f.UnityVersion != "2022.1.20f1" || f.Platform != 2 || f.BigEndian || !f.EnableTypeTree {
		t.Errorf("header: version %d unity %q platform %d big %v typetree %v", f.Version, f.UnityVersion, f.Platform, f.BigEndian, f.EnableTypeTree)
	}
	if len(f.Objects) != 94 {
		t.Errorf("%d objects, want 94", len(f.Objects))
	}
	wantExt := []string{"sharedassets0.assets", "Library/unity default resources"}
	if len(f.Externals) != len(wantExt) {
		t.Fatalf("externals %v", f.Externals)
	}
	for i, e := range f.Externals {
		if e.Path != wantExt[i] {
			t.Errorf("external %d = %q, want %q", i, e.Path, wantExt[i])
		}
	}
	if f.Externals[1].GUID[8] != 0x0e {
		t.Errorf("external 1 GUID %x", f.Externals[1].GUID)
	}
	if g, tr, s := len(f.ObjectsOfClass(1)), len(f.ObjectsOfClass(4)), len(f.ObjectsOfClass(137)); g != 42 || tr != 42 || s != 3 {
		t.Errorf("%d GameObjects, %d Transforms, %d SkinnedMeshRenderers; want 42, 42, 3", g, tr, s)
	}
	if e, ok := f.External(2); !ok || e.Path != "Library/unity default resources" {
		t.Errorf("External(2) = %v, %v", e, ok)
	}
	if e, ok := f.External(0); !ok || e != nil {
		t.Errorf("External(0) = %v, %v; want this file", e, ok)
	}
	if _, ok := f.External(3); ok {
		t.Error("External(3) found")
	}
	o, ok := f.Object(2)
	if !ok || o.ClassID != 1 {
		t.Fatalf("Object(2) = %+v, %v", o, ok)
	}
	v, err := f.Decode(o)
	if err != nil {
		t.Fatal(err)
	}
	if got := v.Field("m_Name").Str(); got != "Directional Light" {
		t.Errorf("object 2 m_Name = %q", got)
	}
}

func TestEveryObjectDecodesToItsExactSize(t *testing.T) {
	f, _ := openCorpus(t, "unitydatatools/player-2022.1.20f1/level0")
	for i := range f.Objects {
		o := &f.Objects[i]
		if _, err := f.Decode(o); err != nil {
			t.Errorf("object %d: %v", o.PathID, err)
		}
	}
}

func TestOpenRejectsNonSerializedInput(t *testing.T) {
	junk := []byte("this is so wrong!")
	long := make([]byte, 64)
	copy(long, junk)
	tests := []struct {
		name string
		data []byte
	}{
		{"empty", nil},
		{"text", junk},
		{"text padded", long},
		{"zeros", make([]byte, 100)},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := Open(bytes.NewReader(tc.data), int64(len(tc.data)), tc.name); err == nil {
				t.Fatal("Open succeeded")
			} else if !errors.Is(err, ErrFormat) {
				t.Errorf("error %v does not wrap ErrFormat", err)
			}
			if IsSerializedFile(tc.data, int64(len(tc.data))) {
				t.Error("IsSerializedFile = true")
			}
		})
	}
}

func TestTruncatedFileIsRejectedNamingTheFile(t *testing.T) {
	_, b := openCorpus(t, "unitydatatools/player-2022.1.20f1/level0")
	for _, n := range []int{0, 20, 47, 48, 100, 1000, 0x6000, len(b) / 2, len(b) - 1} {
		_, err := Open(bytes.NewReader(b[:n]), int64(n), "cut.assets")
		if err == nil {
			t.Errorf("Open accepted the first %d of %d bytes", n, len(b))
			continue
		}
		if !strings.Contains(err.Error(), "cut.assets") {
			t.Errorf("cut at %d: error %q does not name the file", n, err)
		}
	}
}

func TestDecodeWithoutTypeTreeSaysLayoutsAreNeeded(t *testing.T) {
	f := &File{Name: "x", Types: []Type{{ClassID: 1}}, Objects: []Object{{PathID: 1, TypeIndex: 0, ClassID: 1}}}
	_, err := f.Decode(&f.Objects[0])
	if !errors.Is(err, ErrNoTypeTree) {
		t.Fatalf("err = %v, want ErrNoTypeTree", err)
	}
	var oe *ObjectError
	if !errors.As(err, &oe) || oe.PathID != 1 {
		t.Errorf("err %v is not an *ObjectError for path id 1", err)
	}
}

func TestConcurrentDecodesShareLayouts(t *testing.T) {
	f, _ := openCorpus(t, "unitydatatools/player-2022.1.20f1/level0")
	done := make(chan error)
	for g := 0; g < 4; g++ {
		go func() {
			for i := range f.Objects {
				if _, err := f.Decode(&f.Objects[i]); err != nil {
					done <- err
					return
				}
			}
			done <- nil
		}()
	}
	for g := 0; g < 4; g++ {
		if err := <-done; err != nil {
			t.Error(err)
		}
	}
}
