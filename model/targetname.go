package model

import "strconv"

// UnnamedProperty is how a property known only by its attribute hash is
// written wherever a property is shown or kept: "#" and the attribute in
// decimal, as UnnamedPath writes a path.
func UnnamedProperty(attribute uint32) string {
	return "#" + strconv.FormatUint(uint64(attribute), 10)
}

// PathName is the target's path as every listing, picture and file writes
// it: the path when it is known (the root's "" included), else its
// UnnamedPath. Commands that take a path back (curve selections) accept
// exactly this form.
func (t *Target) PathName() string {
	if t.PathKnown || t.PathHash == 0 {
		return t.Path
	}
	return UnnamedPath(t.PathHash)
}

// PropertyName is the target's property as every listing and file writes
// it: the editor's name when a name table gives it, else its
// UnnamedProperty.
func (t *Target) PropertyName() string {
	if t.Property != "" {
		return t.Property
	}
	return UnnamedProperty(t.Attribute)
}
