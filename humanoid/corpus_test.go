package humanoid

import (
	"sync"
	"testing"

	"github.com/mecanim/mecanim/decode/compiled"
	"github.com/mecanim/mecanim/internal/corpustest"
	"github.com/mecanim/mecanim/model"
	"github.com/mecanim/mecanim/unity/assets"
)

// corpusHumanFiles are the corpus files holding humanoid avatars or clips.
var corpusHumanFiles = []string{
	"lethal-emotes/customemotespackage",
	"lethal-emotes/customemotespackage2",
	"lethal-emotes/moisture_animationreplacements",
	"lethal-emotes/scavbody",
	"plateup-emotes/customemotespackage",
	"plateup-emotes/morbman",
	"beatsaber-avatars/TemplateFullBody.avatar",
	"ror2-skeletons/dlc3emoteskeletons",
}

type corpusSet struct {
	avatars []*model.Avatar
	clips   []*model.Clip
}

var (
	corpusOnce sync.Once
	corpusData corpusSet
	corpusErr  error
)

// loadCorpus decodes every humanoid avatar and humanoid clip of the corpus
// (compiled, through decode/compiled) and the YAML ChadRigAvatar.
func loadCorpus(t testing.TB) corpusSet {
	t.Helper()
	dir := corpustest.Dir(t)
	corpusOnce.Do(func() {
		for _, rel := range corpusHumanFiles {
			c, err := assets.Open(dir+"/"+rel, assets.Options{})
			if err != nil {
				corpusErr = err
				return
			}
			for _, f := range c.Files {
				for i := range f.Objects {
					o := &f.Objects[i]
					if o.ClassID != model.ClassAvatar && o.ClassID != model.ClassAnimationClip {
						continue
					}
					v, err := f.Decode(o)
					if err != nil {
						corpusErr = err
						return
					}
					if o.ClassID == model.ClassAvatar {
						a, err := compiled.Avatar(v, f.UnityVersion)
						if err != nil {
							corpusErr = err
							return
						}
						if a.IsHuman() {
							corpusData.avatars = append(corpusData.avatars, a)
						}
						continue
					}
					cl, err := compiled.Clip(v, f.UnityVersion)
					if err != nil {
						corpusErr = err
						return
					}
					if cl.Humanoid {
						corpusData.clips = append(corpusData.clips, cl)
					}
				}
			}
			c.Close()
		}
	})
	if corpusErr != nil {
		t.Fatal(corpusErr)
	}
	return corpusData
}

// corpusRigs returns a Rig for every humanoid avatar of the corpus.
func corpusRigs(t testing.TB) []*Rig {
	t.Helper()
	var rigs []*Rig
	for _, a := range loadCorpus(t).avatars {
		r, err := NewRig(a)
		if err != nil {
			t.Fatalf("%s: %v", a.Name, err)
		}
		rigs = append(rigs, r)
	}
	if len(rigs) != 17 {
		t.Errorf("corpus has %d humanoid avatars, want 17", len(rigs))
	}
	return rigs
}
