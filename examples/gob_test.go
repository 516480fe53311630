package examples

import (
	"bytes"
	"encoding/gob"
	"math"
	"reflect"
	"testing"

	"github.com/mecanim/mecanim/anim"
	"github.com/mecanim/mecanim/bind"
	"github.com/mecanim/mecanim/bound"
	"github.com/mecanim/mecanim/geom"
	"github.com/mecanim/mecanim/internal/synth"
	"github.com/mecanim/mecanim/model"
)

// gobRoundTrip encodes v with encoding/gob and decodes it into a new value
// of its type.
func gobRoundTrip(t *testing.T, v any) any {
	t.Helper()
	var buf bytes.Buffer
	if err := gob.NewEncoder(&buf).Encode(v); err != nil {
		t.Fatalf("%T: %v", v, err)
	}
	out := reflect.New(reflect.TypeOf(v).Elem())
	if err := gob.NewDecoder(&buf).Decode(out.Interface()); err != nil {
		t.Fatalf("%T: %v", v, err)
	}
	return out.Interface()
}

// sameBits reports whether a and b hold the same values, floats compared
// by their bits (NaN is a value avatars store), empty and nil slices and
// maps alike (gob does not tell them apart), and where they first differ.
func sameBits(a, b reflect.Value, path string) (bool, string) {
	switch a.Kind() {
	case reflect.Float32, reflect.Float64:
		x, y := a.Float(), b.Float()
		if a.Kind() == reflect.Float32 {
			return math.Float32bits(float32(x)) == math.Float32bits(float32(y)), path
		}
		return math.Float64bits(x) == math.Float64bits(y), path
	case reflect.Pointer, reflect.Interface:
		if a.IsNil() || b.IsNil() {
			return a.IsNil() == b.IsNil(), path
		}
		return sameBits(a.Elem(), b.Elem(), path)
	case reflect.Struct:
		for i := 0; i < a.NumField(); i++ {
			if !a.Type().Field(i).IsExported() {
				return false, path + "." + a.Type().Field(i).Name + " (unexported: gob drops it)"
			}
			if ok, where := sameBits(a.Field(i), b.Field(i), path+"."+a.Type().Field(i).Name); !ok {
				return false, where
			}
		}
		return true, path
	case reflect.Slice, reflect.Array:
		if a.Len() != b.Len() {
			return false, path + " (length)"
		}
		for i := 0; i < a.Len(); i++ {
			if ok, where := sameBits(a.Index(i), b.Index(i), path+"[]"); !ok {
				return false, where
			}
		}
		return true, path
	case reflect.Map:
		if a.Len() != b.Len() {
			return false, path + " (length)"
		}
		for _, k := range a.MapKeys() {
			if ok, where := sameBits(a.MapIndex(k), b.MapIndex(k), path+"[k]"); !ok || !b.MapIndex(k).IsValid() {
				return false, where
			}
		}
		return true, path
	default:
		return reflect.DeepEqual(a.Interface(), b.Interface()), path
	}
}

// encoding/gob carries a rig, clips, a controller and a humanoid avatar
// decoded from files with every value it keeps (NaN included), and a clip
// baked from the copy samples the same poses; but see
// TestGobTurnsNegativeZeroPositive: docs/server.md recommends package
// boundfile, which keeps every bit.
func TestModelValuesRoundTripThroughGob(t *testing.T) {
	scene := synth.NewScene(t, synth.Options{Full: true, Extended: true}).Write("scene.assets")
	set, err := bind.Open(t.Context(), []string{"hello.bundle", scene}, bind.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer set.Close()
	var values []any
	for i := range set.Clips() {
		c, err := set.Clip(bound.ClipID(i))
		if err != nil {
			t.Fatal(err)
		}
		values = append(values, c)
	}
	for i := range set.Characters() {
		ch, err := set.Character(t.Context(), bound.CharacterID(i))
		if err != nil {
			t.Fatal(err)
		}
		values = append(values, ch.Rig())
	}
	for i := range set.Avatars() {
		a, err := set.Avatar(bound.AvatarID(i))
		if err != nil {
			t.Fatal(err)
		}
		values = append(values, a)
	}
	for i := range set.Controllers() {
		cc, err := set.Controller(t.Context(), bound.ControllerID(i))
		if err != nil {
			t.Fatal(err)
		}
		values = append(values, cc.Controller)
	}
	kinds := map[string]bool{}
	for _, v := range values {
		back := gobRoundTrip(t, v)
		if ok, where := sameBits(reflect.ValueOf(v), reflect.ValueOf(back), reflect.TypeOf(v).Elem().Name()); !ok {
			t.Errorf("%T differs after gob at %s", v, where)
		}
		kinds[reflect.TypeOf(v).String()] = true
	}
	for _, k := range []string{"*model.Clip", "*model.Rig", "*model.Avatar", "*model.Controller"} {
		if !kinds[k] {
			t.Errorf("no %s tried", k)
		}
	}

	// The clip baked from the copy poses the rig as the original does.
	ci, err := set.FindClip("CAB-hello0000000000000000000000000#400")
	if err != nil {
		t.Fatal(err)
	}
	m, err := set.Motion(t.Context(), ci, nil)
	if err != nil {
		t.Fatal(err)
	}
	rig := gobRoundTrip(t, m.On().Rig()).(*model.Rig)
	sk, err := anim.SkeletonFromRig(rig)
	if err != nil {
		t.Fatal(err)
	}
	copied, err := anim.Bake(gobRoundTrip(t, m.Clip()).(*model.Clip), sk)
	if err != nil {
		t.Fatal(err)
	}
	want, got := make([]geom.Transform, sk.Len()), make([]geom.Transform, sk.Len())
	for _, tm := range []float32{0, 0.37, 1.5} {
		m.Sample(tm, want)
		copied.Sample(tm, got)
		if !reflect.DeepEqual(want, got) {
			t.Errorf("t=%g: the copy poses %v, the original %v", tm, got, want)
		}
	}
}

// gob writes a float by its value, not its bits: -0 comes back as +0 (a
// rig's rest positions hold -0s; the example enemy's 37). boundfile keeps
// it (TestSavedAssetsLoadToTheBit).
func TestGobTurnsNegativeZeroPositive(t *testing.T) {
	negZero := float32(math.Copysign(0, -1))
	rig := &model.Rig{Name: "r", Nodes: []model.RigNode{{Name: "r", Parent: -1, Local: geom.Transform{T: geom.V3(negZero, 0, 0)}}}}
	back := gobRoundTrip(t, rig).(*model.Rig)
	if math.Signbit(float64(back.Nodes[0].Local.T.X)) {
		t.Error("gob kept -0: docs/server.md says it does not")
	}
}
