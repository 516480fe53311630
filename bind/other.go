package bind

import (
	"fmt"

	"github.com/mecanim/mecanim/model"
)

// decodeOther decodes an entry whose object is not in a Unity file.
func (s *Set) decodeOther(e *entry) (any, error) {
	switch o := e.origin.(type) {
	case yamlObject:
		return s.decodeYAML(e, o)
	case yamlRig:
		return s.yamlCharacter(e, o)
	case gltfCharacter:
		return s.gltfCharacterOf(e, o)
	case gltfAvatar:
		if o.av == nil {
			return nil, o.err
		}
		return o.av, nil
	case modelClip:
		return o.c, nil
	}
	return nil, fmt.Errorf("bind: %s %q (%s): no decoder for its input", e.kind, e.name, e.src)
}

// otherCharacterAvatar is characterAvatar for characters of other inputs.
func (s *Set) otherCharacterAvatar(ce *entry) *entry {
	if ae := s.gltfAvatars[ce]; ae != nil {
		return ae
	}
	if y, ok := ce.origin.(yamlRig); ok && y.rig.Animator != nil {
		if e, err := s.yamlResolve(y.in, y.rig.Animator.Avatar); err == nil && e != nil && e.kind == KindAvatar {
			return e
		}
	}
	return nil
}

// otherCharacterController is characterController for other inputs.
func (s *Set) otherCharacterController(ce *entry) *entry {
	if y, ok := ce.origin.(yamlRig); ok && y.rig.Animator != nil {
		if e, err := s.yamlResolve(y.in, y.rig.Animator.Controller); err == nil && e != nil && e.kind == KindController {
			return e
		}
	}
	return nil
}

// otherCharacterRig is characterRig for other inputs.
func (s *Set) otherCharacterRig(ce *entry) *model.Rig {
	switch o := ce.origin.(type) {
	case yamlRig:
		return o.rig
	case gltfCharacter:
		return o.ch.Rig
	}
	return nil
}
