package compiled

import (
	"testing"

	"github.com/mecanim/mecanim/model"
)

// TestCorpusControllersDecode proves every AnimatorController of the corpus
// converts and that its name table names every layer and state.
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
