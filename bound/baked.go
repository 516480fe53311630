package bound

import (
	"fmt"

	"github.com/mecanim/mecanim/anim"
	"github.com/mecanim/mecanim/model"
)

// BindBaked makes the motion Bind makes of a generic clip, from the clip
// already baked (a motion's Generic clip, saved and loaded: package
// boundfile), without baking it again. g must be c baked on the
// character's skeleton, playing from the character's root motion joint as
// Bind leaves it; trace is the joint TraceJoint reports (the clip's own
// root, anim.RootRule). It fails when g cannot be that clip.
func BindBaked(c *model.Clip, src model.Source, on *Character, g *anim.Clip, trace int) (*Motion, error) {
	if c == nil || on == nil || g == nil {
		return nil, fmt.Errorf("bound: BindBaked: nil clip, character or baked clip")
	}
	switch {
	case c.Humanoid:
		return nil, fmt.Errorf("clip %q (%s): humanoid clips are not baked on a skeleton", c.Name, src)
	case g.Skeleton() != on.skel:
		return nil, fmt.Errorf("clip %q (%s): baked on another skeleton than %s's", c.Name, src, on.Describe())
	case g.Name() != c.Name:
		return nil, fmt.Errorf("clip %q (%s): the baked clip is %q", c.Name, src, g.Name())
	case g.RootJoint() != on.rootJoint:
		return nil, fmt.Errorf("clip %q (%s): baked to play from joint %d, not %s's root motion joint %d", c.Name, src, g.RootJoint(), on.Describe(), on.rootJoint)
	case trace < -1 || trace >= on.skel.Len():
		return nil, fmt.Errorf("clip %q (%s): trace joint %d out of range [-1, %d)", c.Name, src, trace, on.skel.Len())
	}
	return &Motion{clip: c, src: src, on: on, generic: g, trace: trace}, nil
}
