package compiled

import (
	"github.com/mecanim/mecanim/model"
	"github.com/mecanim/mecanim/unity/typetree"
)

// ResolveNames names what it can of a clip's channels from name tables (an
// avatar's m_TOS, a rig's Names(), BlendShapeNames of a mesh, a
// controller's m_TOS): a path hash becomes its path, and the attribute hash
// of a property that is neither a Transform's nor a humanoid channel becomes
// its property name (a blend shape's "blendShape.<name>", a script field).
// Tables are tried in order; nothing is guessed, so what no table names stays
// PathKnown=false / Property "". The clip's unresolved counts are updated.
func ResolveNames(c *model.Clip, names ...model.Names) {
	resolve := func(t *model.Target) {
		if !t.PathKnown {
			for _, n := range names {
				if p, ok := n.Lookup(t.PathHash); ok {
					t.Path, t.PathKnown = p, true
					break
				}
			}
		}
		if t.Property == "" && t.ClassID != model.ClassTransform {
			for _, n := range names {
				if p, ok := n.Lookup(t.Attribute); ok {
					t.Property = p
					break
				}
			}
		}
	}
	for i := range c.Curves {
		resolve(&c.Curves[i].Target)
	}
	for i := range c.IntCurves {
		resolve(&c.IntCurves[i].Target)
	}
	for i := range c.ObjectCurves {
		resolve(&c.ObjectCurves[i].Target)
	}
	countUnresolved(c)
}

// TOS reads a name table (m_TOS: pairs of a CRC-32 and a string) as Names.
func TOS(v *typetree.Value) model.Names {
	el := v.Elems()
	n := make(model.Names, len(el))
	for i := range el {
		h, s := el[i].Field("first"), el[i].Field("second")
		if h == nil || s == nil {
			continue
		}
		n[uint32(h.Uint())] = s.Str()
	}
	return n
}

// BlendShapeNames returns the clip property names of a Mesh's (class 43)
// blend shape channels, "blendShape.<channel name>", keyed by the CRC-32 of
// the channel name alone (the attribute of a blend shape binding).
func BlendShapeNames(mesh *typetree.Value) model.Names {
	n := model.Names{}
	for _, ch := range mesh.Path("m_Shapes", "channels").Elems() {
		name := ch.Field("name").Str()
		n[model.PathHash(name)] = "blendShape." + name
	}
	return n
}
