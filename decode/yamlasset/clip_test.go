package yamlasset

import (
	"errors"
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/mecanim/mecanim/internal/corpustest"
	"github.com/mecanim/mecanim/model"
)

func parseCorpus(t testing.TB, rel string) *File {
	t.Helper()
	f, err := ParseFile(corpustest.Path(t, rel))
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// The expected counts were read off the files' text: curves per kind and
// keys ("- serializedVersion: 3" entries) per kind.
func TestClipCurveAndKeyCountsMatchTheText(t *testing.T) {
	for _, tc := range []struct {
		rel                  string
		name                 string
		rot, pos, scl, float int // curves of each kind
		keys                 int // keys over all component curves
		rate, stop           float32
		humanoid, loop       bool
	}{
		{"lc-example-enemy/source/die-Head.anim", "die-Head", 21, 21, 21, 0, 73*4 + 49*3 + 44*3, 24, 4.166667, false, false},
		{"lc-example-enemy/source/HeadBop.anim", "HeadBop", 21, 21, 21, 0, 490*4 + 42*3 + 42*3, 24, 0, false, true},
		{"lc-example-enemy/source/walkCycle.anim", "walkCycle", 21, 21, 21, 0, 113*4 + 42*3 + 42*3, 24, 0.5833334, false, true},
		{"lethal-emotes/source/Dab.anim", "Dab", 0, 0, 0, 170, 2741, 30, 3.0666656, true, false},
		{"lethal-emotes/source/Floss.anim", "Floss", 0, 0, 0, 130, 2848, 30, 1.6000001, true, true},
		{"lethal-emotes/source/nobones.anim", "nobones", 0, 0, 0, 130, 7654, 30, 0, true, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, err := parseCorpus(t, tc.rel).Clip()
			if err != nil {
				t.Fatal(err)
			}
			if c.Name != tc.name || c.SampleRate != tc.rate || c.Humanoid != tc.humanoid || c.Settings.LoopTime != tc.loop || c.Legacy {
				t.Errorf("name %q rate %v humanoid %v loop %v legacy %v", c.Name, c.SampleRate, c.Humanoid, c.Settings.LoopTime, c.Legacy)
			}
			if tc.stop != 0 && c.Stop != tc.stop {
				t.Errorf("stop %v, want %v", c.Stop, tc.stop)
			}
			want := tc.rot*4 + tc.pos*3 + tc.scl*3 + tc.float
			if len(c.Curves) != want {
				t.Errorf("%d curves, want %d", len(c.Curves), want)
			}
			keys := 0
			props := map[model.TransformProp]int{}
			for i := range c.Curves {
				cv := &c.Curves[i]
				keys += len(cv.Keys)
				props[cv.Target.Transform]++
				if cv.Kind != model.CurveKeyframed || !cv.Target.PathKnown || cv.Target.PathHash != model.PathHash(cv.Target.Path) {
					t.Fatalf("curve %d: kind %v target %+v", i, cv.Kind, cv.Target)
				}
				if cv.PreInfinity != model.InfinityClamp || cv.PostInfinity != model.InfinityClamp {
					t.Errorf("curve %d: infinities %d %d", i, cv.PreInfinity, cv.PostInfinity)
				}
			}
			if keys != tc.keys {
				t.Errorf("%d keys, want %d", keys, tc.keys)
			}
			if props[model.PropRotation] != tc.rot*4 || props[model.PropPosition] != tc.pos*3 || props[model.PropScale] != tc.scl*3 || props[model.PropNone] != tc.float {
				t.Errorf("curves by property %v", props)
			}
		})
	}
}

func TestClipKeyValuesMatchTheText(t *testing.T) {
	c, err := parseCorpus(t, "lc-example-enemy/source/die-Head.anim").Clip()
	if err != nil {
		t.Fatal(err)
	}
	// The second rotation curve (head-armature/b.body), its x and w
	// components, key 1: time 0.083333336, value x 0.6966555 w 0.7167249,
	// slopes x -0.20263839 w 0.16960216.
	x, w := c.Curves[4], c.Curves[7]
	for _, cv := range []model.Curve{x, w} {
		if cv.Target.Path != "head-armature/b.body" || cv.Target.Transform != model.PropRotation || len(cv.Keys) != 7 {
			t.Fatalf("target %+v, %d keys", cv.Target, len(cv.Keys))
		}
	}
	if x.Target.Property != "m_LocalRotation.x" || w.Target.Property != "m_LocalRotation.w" || w.Target.Component != 3 {
		t.Errorf("properties %q %q", x.Target.Property, w.Target.Property)
	}
	k := x.Keys[1]
	if k.Time != 0.083333336 || k.Value != 0.6966555 || k.InSlope != -0.20263839 || k.OutSlope != -0.20263839 || k.InWeight != 0.33333334 {
		t.Errorf("x key 1 = %+v", k)
	}
	if k := w.Keys[1]; k.Value != 0.7167249 || k.InSlope != 0.16960216 {
		t.Errorf("w key 1 = %+v", k)
	}
	// Evaluating at a key gives its value.
	if v := x.Eval(0.083333336); v != 0.6966555 {
		t.Errorf("Eval at key 1 = %v", v)
	}

	dab, err := parseCorpus(t, "lethal-emotes/source/Dab.anim").Clip()
	if err != nil {
		t.Fatal(err)
	}
	first := dab.Curves[0].Target
	if first.Property != "blendShape.つま先右" || first.Path != "LATnormal_mesh" || first.ClassID != 137 {
		t.Errorf("first float curve target %+v", first)
	}
	last := dab.Curves[len(dab.Curves)-1]
	if last.Target.Property != "RightHand.Little.3 Stretched" || last.Target.Path != "" || last.Target.PathHash != 0 {
		t.Errorf("last float curve target %+v", last.Target)
	}
	if a, _ := model.HumanAttributeByName("RightHand.Little.3 Stretched"); last.Target.Attribute != a {
		t.Errorf("muscle attribute %d, want %d", last.Target.Attribute, a)
	}
	if n := len(last.Keys); n != 10 || last.Keys[9].Time != 3.0666656 || last.Keys[9].Value != -0.36519054 || last.Keys[9].InSlope != 11.240345 {
		t.Errorf("last curve keys %+v", last.Keys)
	}
	if dab.Settings.Level != -0.03 || !dab.Settings.LoopBlendOrientation || !dab.Settings.KeepOriginalPositionY || dab.Settings.LoopBlend {
		t.Errorf("settings %+v", dab.Settings)
	}
}

// The .anim files carry the editor's own compiled bindings
// (m_ClipBindingConstant.genericBindings): every one must name a curve
// target by path hash, attribute and class, which proves the attribute
// hashing (muscle indexes, blend-shape name hashes).
func TestClipTargetsCoverTheEditorsBindings(t *testing.T) {
	for _, rel := range []string{"lethal-emotes/source/Dab.anim", "lethal-emotes/source/Floss.anim", "lethal-emotes/source/nobones.anim"} {
		f := parseCorpus(t, rel)
		c, err := f.Clip()
		if err != nil {
			t.Fatal(err)
		}
		type key struct {
			path, attr uint32
			class      int32
		}
		have := map[key]bool{}
		for _, cv := range c.Curves {
			have[key{cv.Target.PathHash, cv.Target.Attribute, cv.Target.ClassID}] = true
		}
		binds := f.Docs[0].Body.Path("m_ClipBindingConstant", "genericBindings")
		if binds.Len() == 0 {
			t.Fatalf("%s: no bindings", rel)
		}
		for _, b := range binds.Items {
			p, _ := strconv.ParseUint(b.Get("path").Value, 10, 32)
			a, _ := strconv.ParseUint(b.Get("attribute").Value, 10, 32)
			cl, _ := strconv.ParseInt(b.Get("typeID").Value, 10, 32)
			if !have[key{uint32(p), uint32(a), int32(cl)}] {
				t.Errorf("%s: binding at line %d (path %d attribute %d class %d) has no curve", rel, b.Line, p, a, cl)
			}
		}
	}
}

func TestClipReportsWhatItCannotRead(t *testing.T) {
	for _, tc := range []struct{ name, src, want string }{
		{"no clip", "%YAML 1.1\n--- !u!91 &1\nAnimatorController:\n  m_Name: x\n", "no such object"},
		{"bad number", "--- !u!74 &1\nAnimationClip:\n  m_Name: x\n  m_SampleRate: fast\n", "m_SampleRate"},
		{"compressed", "--- !u!74 &1\nAnimationClip:\n  m_CompressedRotationCurves:\n  - path: a\n", "not supported"},
		{"bad key", "--- !u!74 &1\nAnimationClip:\n  m_FloatCurves:\n  - curve:\n      m_Curve:\n      - time: x\n    attribute: a\n", ":6:"},
		{"NaN time", "--- !u!74 &1\nAnimationClip:\n  m_Name: x\n  m_FloatCurves:\n  - curve:\n      m_Curve:\n      - time: NaN\n        value: 1\n    attribute: a\n", "t.anim:1: AnimationClip x: curves: curve 0 (root a) key 0 time is NaN"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f, err := Parse(strings.NewReader(tc.src), "t.anim")
			if err != nil {
				t.Fatal(err)
			}
			_, err = f.Clip()
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want one containing %q", err, tc.want)
			}
			if tc.name == "no clip" && !errors.Is(err, ErrNoObject) {
				t.Errorf("error %v is not ErrNoObject", err)
			}
		})
	}
}

// A legacy clip with the kinds the corpus lacks: Euler curves with their
// rotation order, object curves, a script property with weighted keys, and
// events.
const syntheticLegacyClip = `%YAML 1.1
%TAG !u! tag:unity3d.com,2011:
--- !u!74 &7400000
AnimationClip:
  m_Name: Synth
  serializedVersion: 7
  m_Legacy: 1
  m_RotationCurves: []
  m_CompressedRotationCurves: []
  m_EulerCurves:
  - curve:
      serializedVersion: 2
      m_Curve:
      - serializedVersion: 3
        time: 0.5
        value: {x: 10, y: 20, z: 30}
        inSlope: {x: 0, y: 0, z: 0}
        outSlope: {x: Infinity, y: 1, z: 2}
        tangentMode: 0
        weightedMode: 0
        inWeight: {x: 0.33333334, y: 0.33333334, z: 0.33333334}
        outWeight: {x: 0.33333334, y: 0.33333334, z: 0.33333334}
      - serializedVersion: 3
        time: 2
        value: {x: 11, y: 21, z: 31}
        inSlope: {x: 0, y: 0, z: 0}
        outSlope: {x: 0, y: 0, z: 0}
      m_PreInfinity: 1
      m_PostInfinity: 0
      m_RotationOrder: 2
    path: Root/Arm
  m_PositionCurves: []
  m_ScaleCurves: []
  m_FloatCurves:
  - curve:
      serializedVersion: 2
      m_Curve:
      - serializedVersion: 3
        time: 0
        value: 1
        inSlope: 0
        outSlope: 0
        tangentMode: 0
        weightedMode: 3
        inWeight: 0.1
        outWeight: 0.9
      m_PreInfinity: 2
      m_PostInfinity: 2
      m_RotationOrder: 4
    attribute: speed
    path: Root
    classID: 114
    script: {fileID: 11500000, guid: 0123456789abcdef0123456789abcdef, type: 3}
  m_PPtrCurves:
  - curve:
    - time: 0
      value: {fileID: 2100000, guid: fedcba9876543210fedcba9876543210, type: 2}
    - time: 1.5
      value: {fileID: 0}
    attribute: m_Materials.Array.data[0]
    path: Root/Mesh
    classID: 137
    script: {fileID: 0}
  m_SampleRate: 60
  m_WrapMode: 4
  m_AnimationClipSettings:
    m_StartTime: 0
    m_StopTime: 1
  m_EditorCurves: []
  m_Events:
  - time: 1.25
    functionName: Step
    data: left
    objectReferenceParameter: {fileID: 0}
    floatParameter: 0.5
    intParameter: 3
    messageOptions: 1
`

func TestSyntheticLegacyClip(t *testing.T) {
	f, err := Parse(strings.NewReader(syntheticLegacyClip), "synth.anim")
	if err != nil {
		t.Fatal(err)
	}
	c, err := f.Clip()
	if err != nil {
		t.Fatal(err)
	}
	if !c.Legacy || c.Humanoid || c.SampleRate != 60 || c.WrapMode != model.WrapPingPong || len(c.Curves) != 4 {
		t.Fatalf("clip %+v", c)
	}
	// A legacy clip lasts over its keys, not its muscle settings.
	if c.Start != 0 || c.Stop != 2 {
		t.Errorf("start %v stop %v", c.Start, c.Stop)
	}
	x := c.Curves[0]
	if x.Target.Transform != model.PropEuler || x.Target.Property != "localEulerAnglesRaw.x" || x.Target.RotationOrder != 2 ||
		x.Target.Path != "Root/Arm" || x.PreInfinity != model.InfinityLoop || x.PostInfinity != model.InfinityPingPong {
		t.Errorf("euler x %+v", x)
	}
	if !math.IsInf(float64(x.Keys[0].OutSlope), 1) || c.Curves[2].Keys[1].Value != 31 {
		t.Errorf("keys %+v / %+v", x.Keys, c.Curves[2].Keys)
	}
	// Keys without weights get the unweighted third.
	if x.Keys[1].InWeight != 1.0/3 {
		t.Errorf("default weight %v", x.Keys[1].InWeight)
	}
	s := c.Curves[3]
	if s.Target.ClassID != 114 || s.Target.Attribute != model.PathHash("speed") || s.Target.Script.PathID != 11500000 || s.Target.Script.FileID != 1 {
		t.Errorf("script curve target %+v", s.Target)
	}
	if k := s.Keys[0]; k.WeightedMode != model.WeightedIn|model.WeightedOut || k.InWeight != 0.1 || k.OutWeight != 0.9 {
		t.Errorf("weighted key %+v", k)
	}
	if len(c.ObjectCurves) != 1 {
		t.Fatalf("%d object curves", len(c.ObjectCurves))
	}
	oc := c.ObjectCurves[0]
	if oc.Target.Property != "m_Materials.Array.data[0]" || len(oc.Keys) != 2 || oc.Keys[0].Object.PathID != 2100000 ||
		oc.Keys[0].Object.FileID != 2 || !oc.Keys[1].Object.IsNull() || oc.Keys[1].Time != 1.5 {
		t.Errorf("object curve %+v", oc)
	}
	if len(c.Events) != 1 || c.Events[0] != (model.Event{Time: 1.25, Function: "Step", Data: "left", Float: 0.5, Int: 3, MessageOptions: 1}) {
		t.Errorf("events %+v", c.Events)
	}
	if g := f.GUIDs(); len(g) != 2 || g[0] != "0123456789abcdef0123456789abcdef" {
		t.Errorf("GUIDs %v", g)
	}
}

// The editor's discrete curves (a float curve whose compiled binding is
// marked isIntCurve) decode as integer steps, and a float curve's value
// that is NaN is read and listed, not refused.
func TestDiscreteCurvesAreIntegersAndNaNValuesAreData(t *testing.T) {
	src := `--- !u!74 &1
AnimationClip:
  m_Name: cut
  m_FloatCurves:
  - curve:
      m_Curve:
      - time: 0
        value: 3
      - time: 0.5
        value: NaN
      - time: 1
        value: 16777217
    attribute: shot
    path: Cam
    classID: 114
  - curve:
      m_Curve:
      - time: 0
        value: 60
      - time: 1
        value: NaN
    attribute: field of view
    path: Cam
    classID: 20
  m_ClipBindingConstant:
    genericBindings:
    - path: ` + strconv.FormatUint(uint64(model.PathHash("Cam")), 10) + `
      attribute: ` + strconv.FormatUint(uint64(model.PathHash("shot")), 10) + `
      typeID: 114
      isIntCurve: 1
    - path: ` + strconv.FormatUint(uint64(model.PathHash("Cam")), 10) + `
      attribute: ` + strconv.FormatUint(uint64(model.PathHash("field of view")), 10) + `
      typeID: 20
      isIntCurve: 0
`
	f, err := Parse(strings.NewReader(src), "cut.anim")
	if err != nil {
		t.Fatal(err)
	}
	c, err := f.Clip()
	if err != nil {
		t.Fatalf("clip refused: %v", err)
	}
	if len(c.IntCurves) != 1 || len(c.Curves) != 1 {
		t.Fatalf("%d integer and %d float curves, want 1 and 1", len(c.IntCurves), len(c.Curves))
	}
	for _, w := range []struct {
		at   float32
		want int32
	}{{0.2, 3}, {0.5, 0x7fc00000}, {1, 16777216}} {
		// 16777217 has no float32: the editor's key holds 16777216.
		if got := c.IntCurves[0].Eval(w.at); got != w.want {
			t.Errorf("shot at %g s = %d, want %d", w.at, got, w.want)
		}
	}
	if l := c.NotFinite(); len(l) != 1 || !strings.Contains(l[0].Error(), "curve 0 (Cam field of view) key 1 (at 1 s) value is NaN") {
		t.Errorf("not finite %v, want the field of view's key 1", l)
	}
}
