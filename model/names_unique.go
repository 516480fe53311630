package model

import "fmt"

// NameSet hands out names not handed out before: a name taken already gets
// the first free " (k)" suffix, k = 1, 2, ... — Unity's rule for
// duplicated GameObjects. The glTF reader and writer both name nodes by
// it, so a scene read back gets the names it was written with. Each name's
// next k is remembered, so n copies of one name take O(n) time. The zero
// NameSet is ready to use.
type NameSet struct {
	used map[string]bool
	next map[string]int
}

// Has reports whether name was handed out.
func (u *NameSet) Has(name string) bool { return u.used[name] }

// Unique returns name, or name with the first free suffix, and marks the
// result taken.
func (u *NameSet) Unique(name string) string {
	if u.used == nil {
		u.used, u.next = map[string]bool{}, map[string]int{}
	}
	if u.used[name] {
		base := name
		k := u.next[base]
		for {
			k++
			name = fmt.Sprintf("%s (%d)", base, k)
			if !u.used[name] {
				break
			}
		}
		u.next[base] = k
	}
	u.used[name] = true
	return name
}
