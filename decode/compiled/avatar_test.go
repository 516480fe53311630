package compiled

import (
	"testing"

	"github.com/mecanim/mecanim/model"
)

// TestCorpusAvatarsDecode proves every Avatar of the corpus converts, with
// consistent sizes, and that the avatar's name table names every skeleton
// node's path hash.
func TestCorpusAvatarsDecode(t *testing.T) {
	objs := corpusObjects(t, model.ClassAvatar)
	if len(objs) == 0 {
		t.Fatal("no avatars in the corpus")
	}
	for _, o := range objs {
		a, err := Avatar(o.V, o.File.F.UnityVersion)
		if err != nil {
			t.Errorf("%s: %v", o, err)
			continue
		}
		unnamed := 0
		for _, n := range a.Skeleton.Nodes {
			if _, ok := a.Names.Lookup(n.PathHash); !ok && n.PathHash != 0 {
				unnamed++
			}
		}
		if unnamed > 0 {
			t.Errorf("%s: %d skeleton nodes not in m_TOS", o, unnamed)
		}
		hn, bones := 0, 0
		if a.Human != nil {
			hn = len(a.Human.Skeleton.Nodes)
			for _, b := range a.Human.BoneIndex {
				if b >= 0 {
					bones++
				}
			}
		}
		t.Logf("%s: %d nodes, %d axes, human=%v (%d nodes, %d of %d bones, scale %g), rootMotion=%d, %d names, description=%v",
			o, len(a.Skeleton.Nodes), len(a.Skeleton.Axes), a.IsHuman(), hn, bones, humanBones(a), humanScale(a),
			a.RootMotionBone, len(a.Names), a.Description != nil)
	}
}

func humanBones(a *model.Avatar) int {
	if a.Human == nil {
		return 0
	}
	return len(a.Human.BoneIndex)
}

func humanScale(a *model.Avatar) float32 {
	if a.Human == nil {
		return 0
	}
	return a.Human.Scale
}
