package compiled

import (
	"github.com/mecanim/mecanim/model"
	"github.com/mecanim/mecanim/unity/typetree"
)

// OverrideController converts a decoded AnimatorOverrideController (class
// 221): the controller it overrides (m_Controller) and its clip
// replacements (m_Clips: m_OriginalClip, m_OverrideClip).
func OverrideController(v *typetree.Value) (*model.OverrideController, error) {
	o := &model.OverrideController{Name: v.Field("m_Name").Str()}
	if v.Kind() != typetree.KindStruct {
		return nil, &Error{Class: "AnimatorOverrideController", Object: o.Name, Err: errf(ErrMalformed, "not a struct")}
	}
	c := v.Field("m_Controller")
	if c == nil {
		return nil, &Error{Class: "AnimatorOverrideController", Object: o.Name, Field: "m_Controller", Err: ErrMissingField}
	}
	o.Controller = ref(c)
	for _, e := range v.Field("m_Clips").Elems() {
		o.Overrides = append(o.Overrides, model.ClipOverride{Original: ref(e.Field("m_OriginalClip")), Override: ref(e.Field("m_OverrideClip"))})
	}
	return o, nil
}
