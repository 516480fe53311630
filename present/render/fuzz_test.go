package render

import (
	"encoding/binary"
	"math"
	"testing"

	"github.com/mecanim/mecanim/geom"
)

// fuzzClip builds a clip from bytes: a joint count, parents, and per joint
// a position and a velocity (any float32 bits, NaN and huge included).
func fuzzClip(data []byte) *Clip {
	if len(data) == 0 {
		return nil
	}
	n := int(data[0])%24 + 1
	data = data[1:]
	next := func() byte {
		if len(data) == 0 {
			return 0
		}
		b := data[0]
		data = data[1:]
		return b
	}
	nextF := func() float32 {
		var b [4]byte
		for i := range b {
			b[i] = next()
		}
		return math.Float32frombits(binary.LittleEndian.Uint32(b[:]))
	}
	parents := make([]int, n)
	paths := make([]string, n)
	names := []string{"", "Hips", "LeftArm", "hand.r", "Bone_end", "leg.L.002", "Head"}
	for i := range parents {
		parents[i] = int(next())%(i+1) - 1
		paths[i] = names[int(next())%len(names)]
	}
	pos := make([]geom.Vec3, n)
	vel := make([]geom.Vec3, n)
	rot := make([]geom.Quat, n)
	for i := range pos {
		pos[i] = geom.V3(nextF(), nextF(), nextF())
		vel[i] = geom.V3(nextF(), nextF(), nextF())
		rot[i] = geom.Quat{X: nextF(), Y: nextF(), Z: nextF(), W: nextF()}
	}
	helper := make([]bool, n)
	for i := range helper {
		helper[i] = next()%4 == 0
	}
	return &Clip{
		Name: "fuzz", Paths: paths, Parents: parents, Duration: float32(next()) / 16,
		Loop: next()%2 == 0, Root: int(next())%(n+1) - 1, Helper: helper,
		Pose: func(t float32, dst []geom.Transform) {
			for i := range dst {
				dst[i] = geom.Transform{T: pos[i].Add(vel[i].Scale(t)), R: rot[i], S: geom.V3(1, 1, 1)}
			}
		},
	}
}

// FuzzSheet draws skeletons of any shape and any (finite or not) pose: no
// panic, and a picture for every well-formed skeleton.
func FuzzSheet(f *testing.F) {
	f.Add([]byte{3, 0, 1, 0, 2, 1, 3})
	f.Add([]byte{7, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 0, 0, 0x80, 0x3f, 0, 0, 0x80, 0x7f, 0, 0, 0xc0, 0x7f})
	f.Fuzz(func(t *testing.T, data []byte) {
		c := fuzzClip(data)
		if c == nil {
			return
		}
		img, err := Sheet(c, Options{Frames: 3, Views: []View{Front, Back, Left, Right, Top}, Cell: 64})
		if err != nil {
			t.Fatalf("a well-formed skeleton was refused: %v", err)
		}
		if img.Bounds().Empty() {
			t.Fatal("empty picture")
		}
	})
}
