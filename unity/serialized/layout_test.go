package serialized

import (
	"bytes"
	"encoding/binary"
	"errors"
	"strings"
	"testing"

	"github.com/mecanim/mecanim/internal/corpustest"
	"github.com/mecanim/mecanim/unity/typetree"
)

// TestUnityPaddingIsAccepted: the padding Unity (and older writers) leave
// between the metadata and the data, between objects and after the last
// object is accounted for, in every format version.
func TestUnityPaddingIsAccepted(t *testing.T) {
	for v := uint32(5); v <= 23; v++ {
		for _, big := range []bool{false, true} {
			// The second object's 20 bytes end 4 bytes short of an
			// 8-byte boundary.
			for _, pad := range []padding{{}, {meta: maxMetadataPadding - dataAlignment}, {tail: objectAlignment - 4 - 1}} {
				b := buildFileWith(v, big, pad)
				if _, err := Open(bytes.NewReader(b), int64(len(b)), "padded"); err != nil {
					t.Errorf("v%d big=%v %+v: %v", v, big, pad, err)
				}
			}
		}
	}
}

// objectTable returns the offsets of the object count and of the first
// object's entry (path id 1, offset 0, 16 bytes, type 0; 24 bytes, the
// second's follows) in buildFile(22, false)'s output.
func objectTable(t *testing.T, b []byte) (count, entry int) {
	t.Helper()
	var e []byte
	e = binary.LittleEndian.AppendUint64(e, 1)
	e = binary.LittleEndian.AppendUint64(e, 0)
	e = binary.LittleEndian.AppendUint32(e, 16)
	p := bytes.Index(b, e)
	if p < 0 {
		t.Fatal("object entry not found")
	}
	for q := p - 4; q >= p-8; q-- {
		if binary.LittleEndian.Uint32(b[q:]) == 2 {
			return q, p
		}
	}
	t.Fatal("object count not found")
	return 0, 0
}

// TestUnexplainedBytesAreReported: damage that leaves part of a file's
// metadata or data unread, or claims bytes that are not there, is an error
// naming the file and the offset, not a file read in part.
func TestUnexplainedBytesAreReported(t *testing.T) {
	base := buildFile(22, false)
	be, le := binary.BigEndian, binary.LittleEndian
	count, entry := objectTable(t, base)
	tests := []struct {
		name string
		data func() []byte
		want string
	}{
		{"object count zeroed", func() []byte {
			b := bytes.Clone(base)
			le.PutUint32(b[count:], 0)
			return b
		}, "metadata"},
		{"object count one less", func() []byte {
			b := bytes.Clone(base)
			le.PutUint32(b[count:], 1)
			return b
		}, "metadata"},
		{"metadata size one less", func() []byte {
			b := bytes.Clone(base)
			be.PutUint32(b[20:], be.Uint32(b[20:])-1)
			return b
		}, "metadata"},
		{"metadata size one more", func() []byte {
			b := bytes.Clone(base)
			be.PutUint32(b[20:], be.Uint32(b[20:])+1)
			return b
		}, "metadata"},
		{"data offset 16 more", func() []byte {
			b := bytes.Clone(base)
			be.PutUint64(b[32:], be.Uint64(b[32:])+16)
			return b
		}, "object"},
		{"data offset inside the metadata", func() []byte {
			b := bytes.Clone(base)
			be.PutUint64(b[32:], be.Uint64(b[32:])-16)
			return b
		}, "inside the metadata"},
		{"file size one more (truncated)", func() []byte {
			b := bytes.Clone(base)
			be.PutUint64(b[24:], be.Uint64(b[24:])+1)
			return b
		}, "truncated"},
		{"16 bytes appended", func() []byte {
			return append(bytes.Clone(base), make([]byte, 16)...)
		}, "after the last object"},
		{"first object 16 bytes shorter", func() []byte {
			b := bytes.Clone(base)
			le.PutUint32(b[entry+16:], 0) // the first object's size (16 bytes)
			return b
		}, "unexplained"},
		{"second object moved 16 bytes on", func() []byte {
			b := bytes.Clone(base)
			second := entry + 24
			le.PutUint64(b[second+8:], le.Uint64(b[second+8:])+16)
			return b
		}, "object"},
		{"metadata padding of 4096 bytes", func() []byte { return buildFileWith(22, false, padding{meta: maxMetadataPadding}) }, "padding"},
		{"8 bytes between objects", func() []byte { return buildFileWith(22, false, padding{between: objectAlignment}) }, "between object"},
		{"an object not aligned to 8 bytes", func() []byte { return buildFileWith(22, false, padding{between: 4}) }, "multiple of 8"},
		{"8 bytes after the last object", func() []byte { return buildFileWith(22, false, padding{tail: objectAlignment - 4}) }, "after the last object"},
		{"8 bytes after the last object, format 8", func() []byte { return buildFileWith(8, false, padding{tail: objectAlignment - 4}) }, "after the last object"},
		{"data offset not aligned to 16 bytes", func() []byte {
			b := bytes.Clone(base)
			be.PutUint64(b[32:], be.Uint64(b[32:])-1)
			return b
		}, "multiple of 16"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			b := tc.data()
			_, err := Open(bytes.NewReader(b), int64(len(b)), "damaged.assets")
			if err == nil {
				t.Fatal("Open accepted the damaged file")
			}
			var fe *FormatError
			if !errors.As(err, &fe) || !errors.Is(err, ErrFormat) {
				t.Fatalf("error %v is not a *FormatError", err)
			}
			if fe.File != "damaged.assets" || !strings.Contains(err.Error(), "damaged.assets") {
				t.Errorf("error %q does not name the file", err)
			}
			if fe.Offset < 0 {
				t.Errorf("error %q gives no offset", err)
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %q does not say %q", err, tc.want)
			}
		})
	}
}

// TestCheckHeaderSaysWhatIsWrong: a header that does not check out is
// described with the field's offset; files that merely look serialized are
// told apart from other content.
func TestCheckHeaderSaysWhatIsWrong(t *testing.T) {
	base := buildFile(22, false)
	base21 := buildFile(21, false)
	be := binary.BigEndian
	set := func(b []byte, at int, v uint32) []byte {
		b = bytes.Clone(b)
		be.PutUint32(b[at:], v)
		return b
	}
	tests := []struct {
		name   string
		data   []byte
		size   int64 // -1: len(data)
		want   string
		looks  bool
		offset int64
	}{
		{"valid 22", base, -1, "", true, 0},
		{"valid 21", base21, -1, "", true, 0},
		{"version damaged", set(base, 8, 0x96), -1, "version", true, 0},
		{"version damaged, 21", set(base21, 8, 0x95), -1, "version", true, 0},
		{"endianness byte", func() []byte { b := bytes.Clone(base); b[16] = 7; return b }(), -1, "endianness", true, 0},
		{"truncated", base, int64(len(base)) - 1, "truncated", true, 24},
		{"truncated, 21", base21, int64(len(base21)) - 1, "truncated", true, 4},
		{"metadata size 0", set(base, 20, 0), -1, "metadata size 0", true, 0},
		{"data offset past the end", set(base, 36, uint32(len(base)+1)), -1, "data offset", true, 32},
		{"zeros", make([]byte, 64), -1, "version", false, 0},
		{"text", []byte(strings.Repeat("a resource, not a serialized file. ", 3)), -1, "version", false, 0},
		{"FSB5 sound bank", append([]byte("FSB5\x01\x00\x00\x00\x01\x00\x00\x00D\x00\x00\x00"), make([]byte, 48)...), -1, "version", false, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			size := tc.size
			if size < 0 {
				size = int64(len(tc.data))
			}
			prefix := tc.data[:min(64, len(tc.data))]
			err := CheckHeader(prefix, size)
			if got := LooksSerialized(prefix); got != tc.looks {
				t.Errorf("LooksSerialized = %v, want %v", got, tc.looks)
			}
			if tc.want == "" {
				if err != nil {
					t.Fatalf("CheckHeader: %v", err)
				}
				return
			}
			var fe *FormatError
			if !errors.As(err, &fe) {
				t.Fatalf("CheckHeader = %v, want a *FormatError", err)
			}
			if !strings.Contains(err.Error(), tc.want) || fe.Offset != tc.offset {
				t.Errorf("CheckHeader = %q at %d, want %q at %d", err, fe.Offset, tc.want, tc.offset)
			}
			if IsSerializedFile(prefix, size) {
				t.Error("IsSerializedFile = true")
			}
		})
	}
}

// TestCorpusHeadersLookSerialized: every serialized file of the corpus
// carries the marks LooksSerialized looks for (that every one opens, every
// byte accounted for, TestCorpusFilesMatchTheManifest proves).
func TestCorpusHeadersLookSerialized(t *testing.T) {
	files, err := corpusSerializedFiles(corpustest.Dir(t))
	if err != nil {
		t.Fatal(err)
	}
	for _, cf := range files {
		if !LooksSerialized(cf.data[:64]) {
			t.Errorf("%s: LooksSerialized = false", cf.name)
		}
	}
}

// TestBytesLeftUnreadByTheTreeAreAnError: an object whose type tree reads
// fewer bytes than the object holds (a count made smaller, a size made
// bigger) is an error naming the object, not a value read in part; only a
// MonoBehaviour's trailing bytes (its script's fields) are left to the
// caller.
func TestBytesLeftUnreadByTheTreeAreAnError(t *testing.T) {
	b := buildFile(22, false)
	_, entry := objectTable(t, b)
	second := entry + 24                             // the second object's entry
	binary.LittleEndian.PutUint32(b[second+16:], 24) // 20 bytes of data and its 4 of padding
	f, err := Open(bytes.NewReader(b), int64(len(b)), "grown.assets")
	if err != nil {
		t.Fatal(err)
	}
	o := &f.Objects[1]
	if o.Size != 24 {
		t.Fatalf("patched the wrong field: sizes %d, %d", f.Objects[0].Size, o.Size)
	}
	v, err := f.Decode(o)
	var oe *ObjectError
	if !errors.Is(err, ErrUnreadBytes) || !errors.As(err, &oe) || oe.PathID != o.PathID || v != nil {
		t.Fatalf("Decode = %v, %v; want no value and an *ObjectError wrapping ErrUnreadBytes", v, err)
	}
	if !strings.Contains(err.Error(), "grown.assets") || !strings.Contains(err.Error(), "20 of the object's 24 bytes") {
		t.Errorf("error %q does not say which file and which bytes", err)
	}

	// The same result from a MonoBehaviour is its script's fields.
	te := &typetree.TrailingError{Consumed: 20, Size: 24}
	val := &typetree.Value{}
	for _, tc := range []struct {
		class int32
		want  error
	}{{ClassMonoBehaviour, te}, {74, ErrUnreadBytes}, {1001, ErrUnreadBytes}} {
		gv, gerr := CheckTrailing(&Object{ClassID: tc.class}, val, te)
		if !errors.Is(gerr, tc.want) || (tc.class == ClassMonoBehaviour) != (gv == val) {
			t.Errorf("class %d: CheckTrailing = %v, %v", tc.class, gv, gerr)
		}
	}
	if gv, gerr := CheckTrailing(&Object{ClassID: 74}, val, nil); gv != val || gerr != nil {
		t.Errorf("CheckTrailing changed a clean result: %v, %v", gv, gerr)
	}
}
