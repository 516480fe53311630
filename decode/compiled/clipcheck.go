package compiled

import (
	"math"

	"github.com/mecanim/mecanim/model"
	"github.com/mecanim/mecanim/unity/assets"
	"github.com/mecanim/mecanim/unity/layouts"
	"github.com/mecanim/mecanim/unity/unityversion"
)

// checkClipMeaning checks what a converted clip's values mean: its start
// and stop times finite, stop not before start, every Transform binding to
// one of its properties, and every curve bound to a class Unity has. A binding to a class id that names no class is
// damage, not a curve to drop: the pose would change with nothing said.
// Classes are Unity's public class id reference (unity/assets), taken as
// complete up to the newest Unity version of unity/layouts; a file of a
// later version may bind classes added since, and those are let through. It returns the field at fault.
func checkClipMeaning(c *model.Clip, unityVersion string) (string, error) {
	times := "m_MuscleClip"
	if c.Legacy {
		times = "key times" // a legacy clip's span is its keys'
	}
	for _, t := range []struct {
		name string
		x    float32
	}{{"m_StartTime", c.Start}, {"m_StopTime", c.Stop}} {
		if math.IsNaN(float64(t.x)) || math.IsInf(float64(t.x), 0) {
			return times + "." + t.name, errf(ErrMalformed, "%v: a time must be finite", t.x)
		}
	}
	if c.Stop < c.Start {
		return times + ".m_StopTime", errf(ErrMalformed, "stops at %g, before its start %g", c.Stop, c.Start)
	}
	for i := range c.Curves {
		t := &c.Curves[i].Target
		if t.ClassID == model.ClassTransform && (t.Attribute < uint32(model.PropPosition) || t.Attribute > uint32(model.PropEuler)) {
			return "m_ClipBindingConstant.genericBindings", errf(ErrMalformed, "curve %d binds a Transform's attribute %d, which is no Transform property", i, t.Attribute)
		}
	}
	if !classesKnown(unityVersion) {
		return "", nil
	}
	for i := range c.Curves {
		if id := c.Curves[i].Target.ClassID; !assets.KnownClass(id) {
			return "m_ClipBindingConstant.genericBindings", errf(ErrMalformed, "curve %d is bound to class id %d, which is no Unity class", i, id)
		}
	}
	for i := range c.ObjectCurves {
		if id := c.ObjectCurves[i].Target.ClassID; !assets.KnownClass(id) {
			return "m_ClipBindingConstant.genericBindings", errf(ErrMalformed, "object curve %d is bound to class id %d, which is no Unity class", i, id)
		}
	}
	return "", nil
}

// classesKnown reports whether unity/layouts knows every class of the
// Unity version that wrote a file (a version it cannot read is taken as
// known: the table covers every release up to its newest).
func classesKnown(version string) bool {
	v, err := unityversion.Parse(version)
	if err != nil || version == "" {
		return true
	}
	newest := layouts.Newest()
	return newest.Major == 0 || unityversion.Compare(v, newest) <= 0
}
