package unitywrite

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand"
	"testing"

	"github.com/mecanim/mecanim/unity/assets"
	"github.com/mecanim/mecanim/unity/layouts"
	"github.com/mecanim/mecanim/unity/unityversion"
)

// textAsset is an AssetBundle object (class 142, a class every version's
// built-in layouts hold) carrying the text as its bundle name.
func textAsset(t *testing.T, version, name, text string) (Type, []byte) {
	t.Helper()
	tree, _, err := layouts.Lookup(unityversion.MustParse(version), 142)
	if err != nil {
		t.Fatal(err)
	}
	b, err := Encode(tree, Fields{"m_Name": name, "m_AssetBundleName": text})
	if err != nil {
		t.Fatal(err)
	}
	return Type{ClassID: 142, ScriptTypeIndex: -1, Tree: tree, OldTypeHash: [16]byte{1, 2, 3}}, b
}

func TestBundlesReadBackInEveryFormatAndCompression(t *testing.T) {
	rnd := rand.New(rand.NewSource(1))
	var text bytes.Buffer
	for text.Len() < 300<<10 { // several LZ4 blocks
		fmt.Fprintf(&text, "line %d %d\n", text.Len(), rnd.Intn(10))
	}
	cases := []struct {
		version      string
		format, arch uint32
	}{{"2019.4.26f1", 21, 6}, {"2019.4.26f1", 21, 7}, {"2022.3.9f1", 22, 8}, {"2018.4.36f1", 17, 6}}
	for _, tc := range cases {
		for _, comp := range []Compression{StoreNone, StoreLZ4HC, StoreLZMA} {
			for _, embed := range []bool{true, false} {
				name := fmt.Sprintf("%s/v%d/fs%d/%s/trees=%v", tc.version, tc.format, tc.arch, comp, embed)
				t.Run(name, func(t *testing.T) {
					typ, data := textAsset(t, tc.version, "notes", text.String())
					sf, err := WriteSerializedFile(FileSpec{Format: tc.format, UnityVersion: tc.version, Platform: 5, EmbedTrees: embed, Types: []Type{typ}},
						[]FileObject{{PathID: 42, Type: 0, Data: data}})
					if err != nil {
						t.Fatal(err)
					}
					b, err := WriteBundle(BundleSpec{Format: tc.arch, EngineVersion: tc.version, Compression: comp}, []Entry{{Path: "CAB-test", Data: sf, Flags: 4}})
					if err != nil {
						t.Fatal(err)
					}
					c, err := assets.OpenReader(bytes.NewReader(b), int64(len(b)), "test.bundle", assets.Options{})
					if err != nil {
						t.Fatal(err)
					}
					defer c.Close()
					f, ok := c.File("CAB-test")
					if !ok || len(f.Objects) != 1 {
						t.Fatalf("serialized file not found or wrong objects")
					}
					if f.File.Version != tc.format || f.UnityVersion != tc.version || f.Platform != 5 {
						t.Errorf("header: format %d version %q platform %d", f.Version, f.UnityVersion, f.Platform)
					}
					if got := f.Types[0].OldTypeHash; got != typ.OldTypeHash {
						t.Errorf("type hash %x", got)
					}
					v, err := f.Decode(&f.Objects[0])
					if err != nil {
						t.Fatal(err)
					}
					if v.Field("m_AssetBundleName").Str() != text.String() || v.Field("m_Name").Str() != "notes" {
						t.Errorf("object does not read back")
					}
					if c.Bundles[0].FormatVersion != tc.arch {
						t.Errorf("archive format %d", c.Bundles[0].FormatVersion)
					}
				})
			}
		}
	}
}

func TestWriteRefusesFormatsItDoesNotWrite(t *testing.T) {
	if _, err := WriteSerializedFile(FileSpec{Format: 15}, nil); !errors.Is(err, ErrUnsupportedFormat) {
		t.Errorf("format 15: %v", err)
	}
	if _, err := WriteBundle(BundleSpec{Format: 9}, nil); !errors.Is(err, ErrUnsupportedFormat) {
		t.Errorf("archive 9: %v", err)
	}
}

func TestLZMAStreamShrinksSkewedData(t *testing.T) {
	data := bytes.Repeat([]byte("aaaaaaab"), 4096)
	c, err := compressLZMA(data)
	if err != nil {
		t.Fatal(err)
	}
	if len(c) >= len(data)/2 {
		t.Errorf("%d bytes of skewed data coded in %d", len(data), len(c))
	}
}
