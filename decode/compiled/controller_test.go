package compiled

import (
	"testing"

	"github.com/mecanim/mecanim/model"
)

// TestCorpusControllersDecode proves every AnimatorController of the corpus
// converts, that its name table names every layer and state, and that every
// layer's body mask reads as the full mask (no corpus layer names an
// AvatarMask: the full mask's 83 bits are the layout model.HumanMask
// assumes).
func TestCorpusControllersDecode(t *testing.T) {
	objs := corpusObjects(t, model.ClassAnimatorController)
	if len(objs) == 0 {
		t.Fatal("no controllers in the corpus")
	}
	for _, o := range objs {
		c, err := Controller(o.V, o.File.F.UnityVersion)
		if err != nil {
			t.Errorf("%s: %v", o, err)
			continue
		}
		states, trans := 0, 0
		for _, sm := range c.StateMachines {
			states += len(sm.States)
			for _, st := range sm.States {
				trans += len(st.Transitions)
				if st.Name == "" {
					t.Errorf("%s: state #%d has no name in m_TOS", o, st.NameHash)
				}
			}
			trans += len(sm.AnyState)
		}
		for _, l := range c.Layers {
			if l.Name == "" {
				t.Errorf("%s: layer #%d has no name in m_TOS", o, l.Hash)
			}
			if len(l.BodyMask) != 3 || !l.HumanMask().Full() {
				t.Errorf("%s: layer %q body mask %#x (%v), want the full mask's three words", o, l.Name, l.BodyMask, l.HumanMask())
			}
		}
		for _, p := range c.Parameters {
			if p.Name == "" {
				t.Errorf("%s: parameter #%d has no name in m_TOS", o, p.Hash)
			}
		}
		t.Logf("%s: %d layers, %d machines, %d states, %d transitions, %d parameters, %d clips",
			o, len(c.Layers), len(c.StateMachines), states, trans, len(c.Parameters), len(c.Clips))
	}
}
