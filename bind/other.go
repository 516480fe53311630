package bind

import (
	"fmt"

	"github.com/mecanim/mecanim/model"
)

// decodeOther decodes an entry whose object is not in a Unity file.
func (s *Set) decodeOther(e *entry) (any, error) {
	return nil, fmt.Errorf("bind: %s %q (%s): no decoder for its input", e.kind, e.name, e.src)
}

// otherCharacterAvatar is characterAvatar for characters of other inputs.
func (s *Set) otherCharacterAvatar(ce *entry) *entry { return nil }

// otherCharacterController is characterController for other inputs.
func (s *Set) otherCharacterController(ce *entry) *entry { return nil }

// otherCharacterRig is characterRig for other inputs.
func (s *Set) otherCharacterRig(ce *entry) *model.Rig { return nil }
