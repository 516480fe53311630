package assetbundle

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/mecanim/mecanim/decode/compiled"
	"github.com/mecanim/mecanim/encode/muscleclip"
	"github.com/mecanim/mecanim/internal/corpustest"
	"github.com/mecanim/mecanim/model"
	"github.com/mecanim/mecanim/unity/assets"
	"github.com/mecanim/mecanim/unity/typetree"
	"github.com/mecanim/mecanim/unity/unityfs"
	"github.com/mecanim/mecanim/unity/unitywrite"
)

// dumpAll decodes every object of a bundle's serialized files as `mecanim
// dump` prints it (typetree JSON), by path id.
func dumpAll(t *testing.T, path string) (map[int64]string, *assets.Container) {
	t.Helper()
	c, err := assets.Open(path, assets.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	out := map[int64]string{}
	for _, f := range c.Files {
		for i := range f.Objects {
			v, err := f.Decode(&f.Objects[i])
			if err != nil {
				t.Fatalf("%s: object %d: %v", path, f.Objects[i].PathID, err)
			}
			var b bytes.Buffer
			if err := typetree.WriteJSON(&b, v); err != nil {
				t.Fatal(err)
			}
			out[f.Objects[i].PathID] = b.String()
		}
	}
	return out, c
}

// firstDiff names the first JSON leaf where two dumps differ.
func firstDiff(a, b string) string {
	n := 0
	for n < len(a) && n < len(b) && a[n] == b[n] {
		n++
	}
	lo := max(0, n-80)
	return fmt.Sprintf("…%s… vs …%s…", a[lo:min(len(a), n+40)], b[lo:min(len(b), n+40)])
}

// repack unpacks every clip of a corpus bundle, compiles it again and packs
// it --like the bundle, with the bundle's names and path ids.
func repack(t *testing.T, rel string, comp unitywrite.Compression) (orig, packed string) {
	t.Helper()
	orig = corpustest.Path(t, rel)
	target, err := TargetOf(orig)
	if err != nil {
		t.Fatal(err)
	}
	c, err := assets.Open(orig, assets.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	f := c.Files[0]
	var ab *typetree.Value
	for i := range f.Objects {
		if f.Objects[i].ClassID == classAssetBundle {
			if ab, err = f.Decode(&f.Objects[i]); err != nil {
				t.Fatal(err)
			}
		}
	}
	if ab == nil {
		t.Fatal("no AssetBundle object")
	}
	pathOf := map[int64]string{}
	for _, e := range ab.Field("m_Container").Elems() {
		_, id, _ := e.Path("second", "asset").PPtr()
		pathOf[id] = e.Field("first").Str()
	}
	var list []Asset
	for _, p := range ab.Field("m_PreloadTable").Elems() {
		_, id, _ := p.PPtr()
		o, ok := f.Object(id)
		if !ok || o.ClassID != model.ClassAnimationClip {
			t.Fatalf("preload entry %d is not a clip of the bundle", id)
		}
		v, err := f.Decode(o)
		if err != nil {
			t.Fatal(err)
		}
		clip, err := compiled.Clip(v, f.UnityVersion)
		if err != nil {
			t.Fatal(err)
		}
		fields, err := muscleclip.Compile(clip, muscleclip.Options{Version: target.LayoutVersion()})
		if err != nil {
			t.Fatal(err)
		}
		if !muscleclip.KeepDerived(fields, v) {
			t.Errorf("clip %q: recompiled curves differ from Unity's", clip.Name)
		}
		list = append(list, Asset{Path: pathOf[id], ClassID: model.ClassAnimationClip, PathID: id, Fields: fields})
	}
	b, err := Pack(target, list, Options{Name: ab.Field("m_AssetBundleName").Str(), CAB: f.Name, Compression: comp})
	if err != nil {
		t.Fatal(err)
	}
	packed = filepath.Join(t.TempDir(), filepath.Base(rel))
	if err := os.WriteFile(packed, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return orig, packed
}

// TestRepackedCorpusBundleDumpsAsTheOriginal unpacks the clips of Unity-built
// bundles, compiles them again and packs them --like the bundle: every
// object must dump as the original's, and the files follow Unity's layout
// rules (format versions, type table and hashes, alignment, block flags).
func TestRepackedCorpusBundleDumpsAsTheOriginal(t *testing.T) {
	for _, rel := range []string{"lethal-emotes/customemotespackage2", "lethal-emotes/moisture_animationreplacements"} {
		for _, comp := range []unitywrite.Compression{unitywrite.StoreLZMA, unitywrite.StoreLZ4HC, unitywrite.StoreNone} {
			t.Run(rel+"/"+comp.String(), func(t *testing.T) {
				orig, packed := repack(t, rel, comp)
				want, oc := dumpAll(t, orig)
				got, pc := dumpAll(t, packed)
				if len(got) != len(want) {
					t.Errorf("%d objects, want %d", len(got), len(want))
				}
				for id, w := range want {
					if g := got[id]; g != w {
						t.Errorf("object %d dumps differently: %s", id, firstDiff(g, w))
					}
				}
				of, pf := oc.Files[0], pc.Files[0]
				if of.Name != pf.Name || of.File.Version != pf.File.Version || of.UnityVersion != pf.UnityVersion || of.Platform != pf.Platform {
					t.Errorf("serialized file %s v%d %s %d, want %s v%d %s %d", pf.Name, pf.File.Version, pf.UnityVersion, pf.Platform,
						of.Name, of.File.Version, of.UnityVersion, of.Platform)
				}
				for i := range of.Objects {
					if of.Objects[i].PathID != pf.Objects[i].PathID || of.Objects[i].Offset-of.DataOffset != pf.Objects[i].Offset-pf.DataOffset {
						t.Errorf("object %d: path id %d at %d, want %d at %d", i, pf.Objects[i].PathID, pf.Objects[i].Offset-pf.DataOffset,
							of.Objects[i].PathID, of.Objects[i].Offset-of.DataOffset)
					}
				}
				for i := range of.Types {
					ot, pt := of.Types[i], pf.Types[i]
					if ot.ClassID != pt.ClassID || ot.OldTypeHash != pt.OldTypeHash || !sameTree(ot.Tree, pt.Tree) {
						t.Errorf("type %d: class %d hash %x, want class %d hash %x (trees equal: %v)", i, pt.ClassID, pt.OldTypeHash, ot.ClassID, ot.OldTypeHash, sameTree(ot.Tree, pt.Tree))
					}
				}
				oa, pa := oc.Bundles[0], pc.Bundles[0]
				// The serialized file is Unity's byte for byte: header,
				// metadata, object offsets, padding, data.
				if ob, pb := nodeBytes(t, oa, of.Name), nodeBytes(t, pa, pf.Name); !bytes.Equal(ob, pb) {
					n := 0
					for n < len(ob) && n < len(pb) && ob[n] == pb[n] {
						n++
					}
					t.Errorf("serialized file of %d bytes differs from Unity's (%d bytes) from byte %d", len(pb), len(ob), n)
				}
				if oa.FormatVersion != pa.FormatVersion || oa.PlayerVersion != pa.PlayerVersion || oa.EngineVersion != pa.EngineVersion {
					t.Errorf("archive %d %q %q, want %d %q %q", pa.FormatVersion, pa.PlayerVersion, pa.EngineVersion, oa.FormatVersion, oa.PlayerVersion, oa.EngineVersion)
				}
				wantFlags := oa.Flags
				if pa.Flags != wantFlags {
					t.Errorf("archive flags %#x, want %#x", pa.Flags, wantFlags)
				}
				if comp == unitywrite.StoreLZMA && (len(pa.Blocks) != len(oa.Blocks) || pa.Blocks[0].Flags != oa.Blocks[0].Flags) {
					t.Errorf("blocks %+v, want %+v", pa.Blocks, oa.Blocks)
				}
				if comp == unitywrite.StoreLZ4HC {
					for i, b := range pa.Blocks {
						if b.Flags != uint16(unitywrite.StoreLZ4HC) || (i < len(pa.Blocks)-1 && b.UncompressedSize != 128<<10) {
							t.Errorf("LZ4HC block %d: %d bytes, flags %#x (Unity: 128 KiB chunks, flags 0x3)", i, b.UncompressedSize, b.Flags)
						}
					}
				}
				if pa.DataOffset%16 != 0 && pa.FormatVersion >= 8 {
					t.Errorf("block data at %d, not 16-aligned", pa.DataOffset)
				}
			})
		}
	}
}

func sameTree(a, b *typetree.Tree) bool {
	if (a == nil) != (b == nil) {
		return false
	}
	if a == nil {
		return true
	}
	if len(a.Nodes) != len(b.Nodes) {
		return false
	}
	for i := range a.Nodes {
		x, y := a.Nodes[i], b.Nodes[i]
		if x.Type != y.Type || x.Name != y.Name || x.Level != y.Level || x.ByteSize != y.ByteSize || x.Flags != y.Flags || x.Version != y.Version || x.TypeFlags != y.TypeFlags {
			return false
		}
	}
	return true
}

// A bundle packed --like every kind of game file of the corpus (bundles of
// archive formats 6, 7 and 8, a player's level file, a WebGL data file, a
// bundle whose Unity version is blanked) reads back with the file's Unity
// version and the clip equal.
func TestPackLikeEveryKindOfGameFile(t *testing.T) {
	for _, rel := range []string{
		"beatsaber-avatars/Template.avatar",        // 2019.3, archive 6
		"plateup-emotes/customemotespackage",       // 2020.3, archive 7
		"lc-example-enemy/modassets",               // 2022.3, archive 8
		"unitydatatools/player-2022.1.20f1/level0", // a player's level file
		"unitydatatools/webgl/HelloWorld.data",     // WebGL data
		"sekai/ladies_s_31_0001",                   // version blanked
		"unitydatatools/2023.1.0a16/assetbundle",   // 2023.1
	} {
		t.Run(rel, func(t *testing.T) {
			like := corpustest.Path(t, rel)
			target, err := TargetOf(like)
			if err != nil {
				t.Fatal(err)
			}
			clips, _, c := readClips(t, packClips(t, target, unitywrite.StoreLZMA, "Wave"))
			if clips["Wave"] == nil {
				t.Fatal("clip not read back")
			}
			if got := c.Files[0].UnityVersion; got != target.Version() {
				t.Errorf("Unity version %q, want the target's %q", got, target.Version())
			}
		})
	}
}

// nodeBytes reads a bundle's entry whole.
func nodeBytes(t *testing.T, a *unityfs.Archive, name string) []byte {
	t.Helper()
	i, ok := a.Node(name)
	if !ok {
		t.Fatalf("no entry %s", name)
	}
	r := a.NodeReader(i)
	b := make([]byte, r.Size())
	if _, err := r.ReadAt(b, 0); err != nil {
		t.Fatal(err)
	}
	return b
}
