package gltf

import (
	"io"
	"testing"
)

// largestScene returns the corpus rig with the most mesh vertices.
func largestScene(b *testing.B) corpusScene {
	var best corpusScene
	most := -1
	for _, c := range corpusScenes(b) {
		n := 0
		for _, m := range c.scene.Meshes {
			n += m.Mesh.VertexCount
		}
		if n > most {
			best, most = c, n
		}
	}
	b.Logf("%s: %d nodes, %d meshes, %d vertices", best.id, len(best.scene.Rig.Nodes), len(best.scene.Meshes), most)
	return best
}

// BenchmarkExportLargestRig measures writing the corpus rig with the most
// vertices (its meshes decoded beforehand) as .glb.
func BenchmarkExportLargestRig(b *testing.B) {
	c := largestScene(b)
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		if err := WriteGLB(io.Discard, c.scene); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkExportAnimatedRig measures writing the corpus rig with the most
// animation keys (clips sampled beforehand) as .glb.
func BenchmarkExportAnimatedRig(b *testing.B) {
	var best corpusScene
	most := -1
	for _, c := range corpusScenes(b) {
		n := 0
		for _, a := range c.scene.Animations {
			for _, t := range a.Tracks {
				n += len(t.Values)
			}
		}
		if n > most {
			best, most = c, n
		}
	}
	b.Logf("%s: %d animations, %d key values", best.id, len(best.scene.Animations), most)
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		if err := WriteGLB(io.Discard, best.scene); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkBuildAndExportLargestRig measures the whole export of the
// corpus rig with the most nodes with all its clips (every humanoid clip
// of the corpus on it, resampled at each clip's rate; its file's generic
// clips kept exact): meshes decoded and attached, clips baked and turned
// into tracks, the .glb written. Reports the keys written and the
// process's CPU time (GC included) per op.
func BenchmarkBuildAndExportLargestRig(b *testing.B) {
	cs := corpusScenes(b)
	best := -1
	for i, c := range cs {
		if len(c.scene.Animations) > 0 && (best < 0 || len(c.scene.Rig.Nodes) > len(cs[best].scene.Rig.Nodes)) {
			best = i
		}
	}
	ch, clips := corpusChars[best], corpusMotions[best]
	keys := 0
	for _, a := range cs[best].scene.Animations {
		keys += a.Stats.Keys
	}
	b.Logf("%s: %d nodes, %d meshes, %d clips, %d keys", cs[best].id, len(ch.Rig().Nodes), len(cs[best].scene.Meshes), len(clips), keys)
	b.ReportAllocs()
	b.ResetTimer()
	c0, n := processCPU(), 0
	for b.Loop() {
		s, _ := BuildScene(ch, clips, SceneOptions{})
		if err := WriteGLB(io.Discard, s); err != nil {
			b.Fatal(err)
		}
		n++
	}
	if cpu := processCPU() - c0; cpu > 0 && n > 0 {
		b.ReportMetric(float64(cpu)/float64(n)/1e6, "cpu-ms/op")
	}
	b.ReportMetric(float64(keys), "keys/op")
}

// BenchmarkExportManyInfluences measures writing a mesh of 300 vertices
// with 1 to 12 bone influences each (three JOINTS/WEIGHTS sets before
// merging, two after), the variable-skin path.
func BenchmarkExportManyInfluences(b *testing.B) {
	s := manyInfluencesScene()
	b.ReportAllocs()
	for b.Loop() {
		if err := WriteGLB(io.Discard, s); err != nil {
			b.Fatal(err)
		}
	}
}
