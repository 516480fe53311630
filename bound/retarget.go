package bound

import (
	"fmt"

	"github.com/mecanim/mecanim/humanoid"
	"github.com/mecanim/mecanim/model"
)

// retargetRate is the rate a clip is recorded at when it gives none.
const retargetRate = 30

// Retarget plays a generic clip made for one humanoid character on
// another, as Unity plays a clip between two humanoid avatars: the clip
// plays on from (its own character), each frame of it is read back as
// from's muscles, body and goals (humanoid.Record, at the clip's own rate),
// and that humanoid clip is bound to on. Both characters need a humanoid
// avatar. The motion's Clip is the recorded humanoid clip (the original's
// name, events and loop settings), RetargetedFrom is from.
func Retarget(c *model.Clip, src model.Source, from, on *Character) (*Motion, error) {
	if c == nil || from == nil || on == nil {
		return nil, fmt.Errorf("bound: Retarget: nil clip or character")
	}
	if from.human == nil || on.human == nil {
		return nil, fmt.Errorf("clip %q (%s): retarget from %s onto %s: %w", c.Name, src, from.Describe(), on.Describe(), ErrNotHumanoid)
	}
	m0, err := Bind(c, src, from)
	if err != nil {
		return nil, err
	}
	rate := c.SampleRate
	if !(rate > 0) || rate > humanoid.MaxRecordRate {
		rate = retargetRate
	}
	hc, err := humanoid.Record(m0, from.human, rate, c.Name)
	if err != nil {
		return nil, fmt.Errorf("clip %q (%s) on %s: %w", c.Name, src, from.Describe(), err)
	}
	m, err := Bind(hc, src, on)
	if err != nil {
		return nil, err
	}
	m.from = from
	return m, nil
}

// RetargetedFrom returns the character a retargeted motion was recorded
// on (see Retarget); nil when the clip plays on its character as it is.
func (m *Motion) RetargetedFrom() *Character { return m.from }
