package compiled

import (
	"strings"
	"testing"

	"github.com/mecanim/mecanim/model"
)

// TestResolveNamesFromRigs names the corpus clips' paths with the rigs of
// their own bundle. The example enemy's clips must resolve completely but
// for the one node the prefab renamed after the clips were made
// (toilet-armature/Bone/10778_Toilet_V2 is "toilet" in the prefab): that
// path stays unresolved rather than guessed. What stays unresolved elsewhere
// is logged (blend shapes need their mesh, which these bundles lack).
func TestResolveNamesFromRigs(t *testing.T) {
	for _, cf := range corpusFiles(t) {
		var clips []*model.Clip
		for i := range cf.F.Objects {
			o := &cf.F.Objects[i]
			if o.ClassID != model.ClassAnimationClip {
				continue
			}
			v, err := cf.F.Decode(o)
			if err != nil {
				t.Fatal(err)
			}
			c, err := Clip(v, cf.F.UnityVersion)
			if err != nil {
				t.Fatal(err)
			}
			clips = append(clips, c)
		}
		if len(clips) == 0 {
			continue
		}
		rigs, err := Rigs(cf.F)
		if err != nil {
			t.Fatal(err)
		}
		var names []model.Names
		for _, r := range rigs {
			names = append(names, r.Names())
		}
		for _, c := range clips {
			before := c.Stats.UnresolvedPaths
			ResolveNames(c, names...)
			t.Logf("%s: %s: unresolved paths %d -> %d, unresolved properties %d", cf.Rel, c.Name, before, c.Stats.UnresolvedPaths, c.Stats.UnresolvedProperties)
			if strings.HasPrefix(cf.Rel, "lc-example-enemy/") {
				renamed := model.PathHash("toilet-armature/Bone/10778_Toilet_V2")
				for _, cv := range c.Curves {
					if !cv.Target.PathKnown && cv.Target.PathHash != renamed {
						t.Errorf("%s: %s: path #%d unresolved", cf.Rel, c.Name, cv.Target.PathHash)
					}
				}
				if c.Stats.UnresolvedProperties != 0 {
					t.Errorf("%s: %s: %d properties unresolved", cf.Rel, c.Name, c.Stats.UnresolvedProperties)
				}
			}
			for _, cv := range c.Curves {
				if cv.Target.PathKnown && model.PathHash(cv.Target.Path) != cv.Target.PathHash {
					t.Errorf("%s: %s: path %q does not hash to %d", cf.Rel, c.Name, cv.Target.Path, cv.Target.PathHash)
				}
			}
		}
	}
}

// TestResolveNamesTables checks the lookup order and what is never named.
func TestResolveNamesTables(t *testing.T) {
	blend := model.PathHash("Smile")
	c := &model.Clip{Curves: []model.Curve{
		{Target: model.Target{PathHash: model.PathHash("Body/Mesh"), ClassID: model.ClassSkinnedMeshRenderer, Attribute: blend}},
		{Target: model.Target{PathHash: 42, ClassID: model.ClassTransform, Attribute: 1, Transform: model.PropPosition, Property: "m_LocalPosition.x"}},
		{Target: model.Target{PathHash: 0, PathKnown: true, ClassID: model.ClassAnimator, Attribute: 50, Property: "Neck Nod Down-Up"}},
	}}
	rig := model.Names{}
	rig.Add("Body/Mesh")
	shapes := model.Names{blend: "blendShape.Smile"}
	ResolveNames(c, rig, shapes)
	if c.Curves[0].Target.Path != "Body/Mesh" || c.Curves[0].Target.Property != "blendShape.Smile" {
		t.Errorf("blend shape target %+v", c.Curves[0].Target)
	}
	if c.Curves[1].Target.PathKnown || c.Curves[1].Target.Property != "m_LocalPosition.x" {
		t.Errorf("unknown path must stay unknown: %+v", c.Curves[1].Target)
	}
	if c.Stats.UnresolvedPaths != 1 || c.Stats.UnresolvedProperties != 0 {
		t.Errorf("stats %+v", c.Stats)
	}
}
