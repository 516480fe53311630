package avatarbuild

import (
	"encoding/binary"
	"errors"
	"math"
	"testing"

	"github.com/mecanim/mecanim/geom"
	"github.com/mecanim/mecanim/humanoid"
	"github.com/mecanim/mecanim/internal/corpustest"
	"github.com/mecanim/mecanim/internal/fuzzcount"
	"github.com/mecanim/mecanim/model"
)

// The fuzz input is a human description in a small binary form (little
// endian): a u16 bone count, each bone's name and parent name (a u8 length
// and bytes) and 10 f32 (position, rotation, scale); a u16 mapping count,
// each mapping's human bone (u8, an index of humanoid.BoneNames, larger for
// an unknown name), bone name, a u8 "use default limits" and 6 f32 (min,
// max); then 7 f32 (the twists, stretches and feet spacing), a u8
// translation-DoF flag and the root motion bone's name. A short input ends
// the description where it stops.

func encodeDescription(d *model.HumanDescription) []byte {
	var b []byte
	u16 := func(x int) { b = binary.LittleEndian.AppendUint16(b, uint16(x)) }
	str := func(s string) {
		if len(s) > 255 {
			s = s[:255]
		}
		b = append(b, byte(len(s)))
		b = append(b, s...)
	}
	f32 := func(xs ...float32) {
		for _, x := range xs {
			b = binary.LittleEndian.AppendUint32(b, math.Float32bits(x))
		}
	}
	u16(len(d.Skeleton))
	for _, s := range d.Skeleton {
		str(s.Name)
		str(s.ParentName)
		l := s.Local
		f32(l.T.X, l.T.Y, l.T.Z, l.R.X, l.R.Y, l.R.Z, l.R.W, l.S.X, l.S.Y, l.S.Z)
	}
	u16(len(d.Human))
	for _, m := range d.Human {
		id, ok := boneIDs[m.HumanName]
		if !ok {
			id = 255
		}
		b = append(b, byte(id))
		str(m.BoneName)
		def := byte(0)
		if m.Limit.UseDefault {
			def = 1
		}
		b = append(b, def)
		f32(m.Limit.Min.X, m.Limit.Min.Y, m.Limit.Min.Z, m.Limit.Max.X, m.Limit.Max.Y, m.Limit.Max.Z)
	}
	f32(d.ArmTwist, d.ForeArmTwist, d.UpperLegTwist, d.LegTwist, d.ArmStretch, d.LegStretch, d.FeetSpacing)
	if d.HasTranslationDoF {
		b = append(b, 1)
	} else {
		b = append(b, 0)
	}
	str(d.RootMotionBoneName)
	return b
}

func decodeDescription(b []byte) *model.HumanDescription {
	d := &model.HumanDescription{GlobalScale: 1}
	ok := true
	take := func(n int) []byte {
		if !ok || len(b) < n {
			ok = false
			return nil
		}
		x := b[:n]
		b = b[n:]
		return x
	}
	u8 := func() int {
		if x := take(1); x != nil {
			return int(x[0])
		}
		return 0
	}
	u16 := func() int {
		if x := take(2); x != nil {
			return int(binary.LittleEndian.Uint16(x))
		}
		return 0
	}
	str := func() string { return string(take(u8())) }
	f32 := func() float32 {
		if x := take(4); x != nil {
			return math.Float32frombits(binary.LittleEndian.Uint32(x))
		}
		return 0
	}
	v3 := func() geom.Vec3 { return geom.Vec3{X: f32(), Y: f32(), Z: f32()} }
	for n := u16(); n > 0 && ok; n-- {
		s := model.SkeletonBone{Name: str(), ParentName: str()}
		s.Local.T = v3()
		s.Local.R = geom.Quat{X: f32(), Y: f32(), Z: f32(), W: f32()}
		s.Local.S = v3()
		if ok {
			d.Skeleton = append(d.Skeleton, s)
		}
	}
	for n := u16(); n > 0 && ok; n-- {
		m := model.HumanBoneMapping{HumanName: "Unknown"}
		if id := u8(); id < humanoid.BoneCount {
			m.HumanName = humanoid.BoneNames[id]
		}
		m.BoneName = str()
		m.Limit.UseDefault = u8() != 0
		m.Limit.Min, m.Limit.Max = v3(), v3()
		if ok {
			d.Human = append(d.Human, m)
		}
	}
	d.ArmTwist, d.ForeArmTwist, d.UpperLegTwist, d.LegTwist = f32(), f32(), f32(), f32()
	d.ArmStretch, d.LegStretch, d.FeetSpacing = f32(), f32(), f32()
	d.HasTranslationDoF = u8() != 0
	d.RootMotionBoneName = str()
	return d
}

func TestFuzzEncodingRoundTrips(t *testing.T) {
	d := synthDescription()
	d.RootMotionBoneName = "Hips"
	back := decodeDescription(encodeDescription(d))
	a, b := build(t, d), build(t, back)
	if r := Compare(b, a); r.MaxRelative != 0 || r.MaxRotationDeg > 1e-9 || len(back.Human) != len(d.Human) {
		t.Errorf("decoded description builds differently: %+v", r)
	}
}

// FuzzBuild builds avatars from mutated descriptions: Build must refuse
// what it cannot build with ErrMalformed (never panic), and what it builds
// must be finite (the body frame's NaN aside, which must mean the runtime
// also finds no body frame), well formed, and accepted by the runtime.
func FuzzBuild(f *testing.F) {
	f.Add(encodeDescription(synthDescription()))
	f.Add(encodeDescription(synthDescription("Neck", "Chest", "UpperChest", "LeftShoulder")))
	if _, ok := corpustest.Lookup(); ok {
		for _, a := range loadCorpus(f) {
			if a.Description != nil && len(a.Description.Skeleton) > 0 && len(a.Description.Skeleton) < 130 {
				f.Add(encodeDescription(a.Description))
			}
		}
	}
	count := fuzzcount.Counter("FuzzBuild")
	f.Fuzz(func(t *testing.T, data []byte) {
		count()
		a, err := Build("fuzz", decodeDescription(data))
		if err != nil {
			if !errors.Is(err, ErrMalformed) {
				t.Fatalf("error %v is not ErrMalformed", err)
			}
			return
		}
		n := len(a.Skeleton.Nodes)
		if len(a.SkeletonPose) != n || len(a.DefaultPose) != n || a.RootMotionBone < -1 || a.RootMotionBone >= n {
			t.Fatalf("%d nodes, %d and %d poses, root motion bone %d", n, len(a.SkeletonPose), len(a.DefaultPose), a.RootMotionBone)
		}
		for i, nd := range a.Skeleton.Nodes {
			if nd.Parent >= i || nd.Parent < -1 || !finiteTransform(a.SkeletonPose[i]) {
				t.Fatalf("node %d: parent %d, pose %v", i, nd.Parent, a.SkeletonPose[i])
			}
		}
		if !a.IsHuman() {
			return
		}
		h := a.Human
		if field := nonFinite(h); field != "" || !h.RootX.T.Finite() || !geom.Finite(h.Scale) || h.Scale == 0 {
			t.Fatalf("non-finite %s, centre of mass %v, scale %v", field, h.RootX.T, h.Scale)
		}
		r, err := humanoid.NewRig(a)
		if err != nil {
			t.Fatalf("the runtime refuses a built avatar: %v", err)
		}
		_, defined := r.RestBody()
		if q := h.RootX.R; q.Finite() != defined {
			t.Fatalf("body frame %v, but the runtime finds it defined: %v", q, defined)
		}
		if rep := Compare(a, a); rep.MaxRelative != 0 {
			t.Fatalf("an avatar differs from itself: %+v", rep)
		}
	})
}
