package assetbundle

import (
	"testing"

	"github.com/mecanim/mecanim/encode/muscleclip"
	"github.com/mecanim/mecanim/model"
	"github.com/mecanim/mecanim/unity/unitywrite"
)

func benchAsset(b *testing.B, name string) Asset {
	f, err := muscleclip.Compile(waveClip(name), muscleclip.Options{})
	if err != nil {
		b.Fatal(err)
	}
	return Asset{Path: ContainerPath("assets", name, ".anim"), ClassID: model.ClassAnimationClip, Fields: f}
}

// BenchmarkPack packs four compiled clips into a bundle for Unity 2022.3,
// with each compression.
func BenchmarkPack(b *testing.B) {
	target, err := TargetForVersion("2022.3.9f1", 5)
	if err != nil {
		b.Fatal(err)
	}
	for _, comp := range []unitywrite.Compression{unitywrite.StoreNone, unitywrite.StoreLZ4HC, unitywrite.StoreLZMA} {
		b.Run(comp.String(), func(b *testing.B) {
			var list []Asset
			for _, n := range []string{"a", "b", "c", "d"} {
				list = append(list, benchAsset(b, n))
			}
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				out, err := Pack(target, list, Options{Name: "bench", Compression: comp})
				if err != nil {
					b.Fatal(err)
				}
				b.SetBytes(int64(len(out)))
			}
		})
	}
}
