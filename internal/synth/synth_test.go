package synth_test

import (
	"bytes"
	"slices"
	"testing"

	"github.com/mecanim/mecanim/bind"
	"github.com/mecanim/mecanim/bound"
	"github.com/mecanim/mecanim/decode/catalog"
	"github.com/mecanim/mecanim/humanoid"
	"github.com/mecanim/mecanim/internal/synth"
	"github.com/mecanim/mecanim/model"
	"github.com/mecanim/mecanim/unity/assets"
)

// TestSyntheticFilesDecodeEndToEnd proves the generated inputs are valid:
// every command path accepts them (so fuzz seeds made from them start
// deep inside the decoders, not at their first check).
func TestSyntheticFilesDecodeEndToEnd(t *testing.T) {
	if _, err := humanoid.NewRig(synth.HumanAvatar()); err != nil {
		t.Fatalf("model avatar: %v", err)
	}
	for _, tc := range []struct {
		name string
		make func() ([]byte, error)
	}{
		{"serialized with trees", func() ([]byte, error) { return synth.SerializedFile(0, true, false) }},
		{"serialized stripped", func() ([]byte, error) { return synth.SerializedFile(0, true, true) }},
		{"bundle", func() ([]byte, error) { return synth.Bundle(0, true, 2048) }},
		{"bundle in webdata", func() ([]byte, error) {
			s, err := synth.FileSeeds()
			return s["synth-webdata"], err
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			data, err := tc.make()
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("%d bytes", len(data))
			ct, err := assets.OpenReader(bytes.NewReader(data), int64(len(data)), tc.name, assets.Options{})
			if err != nil {
				t.Fatal(err)
			}
			cat := catalog.New(ct)
			set, _ := bind.NewWith(t.Context(), cat, nil, bind.Options{})
			rigs, errs := cat.Rigs(t.Context())
			if len(errs) > 0 || len(rigs) != 1 || len(rigs[0].Nodes) != len(synth.Bones) {
				t.Fatalf("rigs %v, errors %v", rigs, errs)
			}
			av := cat.ByClass(model.ClassAvatar)
			a, err := cat.Avatar(av[0])
			if err != nil {
				t.Fatal(err)
			}
			hr, err := humanoid.NewRig(a)
			if err != nil {
				t.Fatalf("humanoid rig: %v", err)
			}
			if hr.Skeleton().Len() != len(synth.Bones) {
				t.Fatalf("humanoid skeleton has %d joints", hr.Skeleton().Len())
			}
			for i := range set.Clips() {
				m, err := set.Motion(t.Context(), bound.ClipID(i), nil)
				if err != nil {
					t.Fatalf("clip %d: %v", i, err)
				}
				if g := m.Generic(); g == nil || g.UnresolvedChannels() != 0 {
					t.Errorf("clip %q: not generic, or channels unresolved", m.Clip().Name)
				}
			}
			bc, err := set.BindController(t.Context(), 0, nil)
			if err != nil {
				t.Fatal(err)
			}
			if len(bc.Notes()) > 0 {
				t.Fatal(bc.Notes())
			}
			ctl := bc.Model()
			an := bc.NewAnimator()
			an.Set("Speed", 0.5)
			for i := 0; i < 10; i++ {
				an.Tick(0.1)
			}
			if len(ctl.Parameters) != 2 || ctl.Parameters[0].Name != "Speed" || len(ctl.ClipNames) != 2 || ctl.ClipNames[1] != "Walk" {
				t.Fatalf("controller %+v", ctl)
			}
		})
	}
}

// TestEveryVersionsLayoutsEncodeTheScene proves the scene's values fit
// the layouts of versions far apart (renamed fields given under both
// names), and that Dropped names exactly what a layout leaves out.
func TestEveryVersionsLayoutsEncodeTheScene(t *testing.T) {
	for _, tc := range []struct {
		version string
		class   int32
		dropped string // one value the layout lacks
		kept    string // one it has
	}{
		{"5.0.0f4", model.ClassAnimationClip, "m_ClipBindingConstant.genericBindings[].typeID", "m_ClipBindingConstant.genericBindings[].classID"},
		{synth.UnityVersion, model.ClassAnimationClip, "m_ClipBindingConstant.genericBindings[].classID", "m_MuscleClip.m_Clip.data.m_StreamedClip.curveCount"},
		{"5.4.6f3", model.ClassGameObject, "m_Component[].component", "m_Component[].second"},
		{"2018.1.9f2", model.ClassAnimatorController, "m_Controller.m_StateMachineArray[].data.m_SynchronizedLayerCount", "m_Controller.m_StateMachineArray[].data.m_MotionSetCount"},
		{"6000.7.0a1", model.ClassAvatar, "", "m_HumanDescription"},
	} {
		t.Run(tc.version, func(t *testing.T) {
			opts := synth.Options{Version: tc.version, Full: true, Extended: true}
			if _, err := synth.SerializedFileWith(opts, false); err != nil {
				t.Fatal(err)
			}
			tree, err := synth.TreeFor(tc.version, tc.class)
			if err != nil {
				t.Fatal(err)
			}
			for _, v := range synth.SceneValues(opts) {
				if v.ClassID != tc.class || v.PathID == synth.LegacyClipID {
					continue // the legacy clip has no bindings
				}
				d := synth.Dropped(tree, v.Fields)
				if tc.dropped != "" && !slices.Contains(d, tc.dropped) {
					t.Errorf("object %d: Dropped %v lacks %s", v.PathID, d, tc.dropped)
				}
				if slices.Contains(d, tc.kept) {
					t.Errorf("object %d: Dropped %v has %s", v.PathID, d, tc.kept)
				}
			}
		})
	}
}
