package bind

import (
	"github.com/mecanim/mecanim/model"
)

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
