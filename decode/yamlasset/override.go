package yamlasset

import (
	"fmt"

	"github.com/mecanim/mecanim/model"
)

// OverrideControllerOf converts an AnimatorOverrideController document
// (an .overrideController): the controller it overrides and its clip
// replacements, each reference as a model.Ref of this file and as a key
// ("guid:fileID", as Controller.ClipKeys).
func (f *File) OverrideControllerOf(doc *Document) (*model.OverrideController, error) {
	d := f.dec(doc)
	b := doc.Body
	o := &model.OverrideController{Name: d.str(b, "m_Name")}
	if b.Get("m_Controller") == nil {
		return nil, &FieldError{File: f.Name, Line: doc.Line, Object: fmt.Sprintf("AnimatorOverrideController &%d", doc.FileID),
			Field: "m_Controller", Err: fmt.Errorf("missing")}
	}
	c := d.pptr(b, "m_Controller")
	o.Controller, o.ControllerKey = d.ref(c), c.Key()
	for _, item := range d.seq(b, "m_Clips") {
		orig, over := d.pptr(item, "m_OriginalClip"), d.pptr(item, "m_OverrideClip")
		o.Overrides = append(o.Overrides, model.ClipOverride{Original: d.ref(orig), Override: d.ref(over),
			OriginalKey: orig.Key(), OverrideKey: over.Key()})
	}
	if d.err != nil {
		return nil, d.err
	}
	return o, nil
}
