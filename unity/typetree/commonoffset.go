package typetree

// CommonStringOffset returns the offset of s in Unity's common type-tree
// string buffer, and false when s is not one of its strings: a writer
// refers to a common string by that offset (with the high bit set) instead
// of storing it in the tree's own string buffer, as Unity's writer does.
func CommonStringOffset(s string) (uint32, bool) {
	for _, c := range commonStrings {
		if c.Str == s {
			return c.Offset, true
		}
	}
	return 0, false
}
