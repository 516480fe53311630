package mesh

import "testing"

// BenchmarkDecodeLargestMesh measures converting the corpus mesh with the
// most vertices (its object already decoded to a Value).
func BenchmarkDecodeLargestMesh(b *testing.B) {
	var best corpusMesh
	most := -1
	for _, cm := range corpusMeshes(b, ClassMesh) {
		v, err := cm.f.Decode(cm.o)
		if err != nil {
			continue
		}
		if n := int(v.Path("m_VertexData", "m_VertexCount").Int()); n > most {
			best, most = cm, n
		}
	}
	v, err := best.f.Decode(best.o)
	if err != nil {
		b.Fatal(err)
	}
	opts := Options{ReadStream: best.f.Container.ReadStream, Version: best.f.Version}
	b.Logf("%s: %q, %d vertices", best.name, v.Field("m_Name").Str(), most)
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		if _, err := Decode(v, opts); err != nil {
			b.Fatal(err)
		}
	}
}
