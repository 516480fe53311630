package catalog_test

import (
	"bytes"
	"testing"

	"github.com/mecanim/mecanim/decode/catalog"
	"github.com/mecanim/mecanim/internal/synth"
	"github.com/mecanim/mecanim/unity/assets"
	"github.com/mecanim/mecanim/unity/unitywrite"
)

// TestRigAvatarFollowsTheAnimatorsReference: RigAvatar finds the avatar an
// Animator names, and is false — with HasAvatar telling the two apart —
// when the Animator names none or names one the files do not hold.
func TestRigAvatarFollowsTheAnimatorsReference(t *testing.T) {
	for _, tc := range []struct {
		name       string
		full       bool
		dropAvatar bool
		hasAvatar  bool
		found      bool
	}{
		{"avatar in the file", true, false, true, true},
		{"avatar not in the files", true, true, true, false},
		{"no avatar named", false, false, false, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			objs, err := synth.Objects(0, tc.full)
			if err != nil {
				t.Fatal(err)
			}
			if tc.dropAvatar {
				kept := objs[:0]
				for _, o := range objs {
					if o.PathID != synth.AvatarID {
						kept = append(kept, o)
					}
				}
				objs = kept
			}
			sf, err := unitywrite.SerializedFile(synth.UnityVersion, 5, objs, nil, true)
			if err != nil {
				t.Fatal(err)
			}
			ct, err := assets.OpenReader(bytes.NewReader(sf), int64(len(sf)), "synth", assets.Options{})
			if err != nil {
				t.Fatal(err)
			}
			cat := catalog.New(ct)
			rigs, errs := cat.Rigs(t.Context())
			if len(rigs) != 1 {
				t.Fatalf("%d rigs, errors %v", len(rigs), errs)
			}
			r := rigs[0]
			if got := r.HasAvatar(); got != tc.hasAvatar {
				t.Errorf("HasAvatar = %v, want %v", got, tc.hasAvatar)
			}
			o, ok := cat.RigAvatar(r)
			if ok != tc.found {
				t.Fatalf("RigAvatar found = %v, want %v", ok, tc.found)
			}
			if ok && (o.PathID() != synth.AvatarID || o.File != ct.Files[0]) {
				t.Errorf("RigAvatar = %v, want object %d", o, synth.AvatarID)
			}
		})
	}
	if _, ok := (&catalog.Catalog{}).RigAvatar(catalog.Rig{}); ok {
		t.Error("RigAvatar of an empty rig found an avatar")
	}
}
