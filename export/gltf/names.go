package gltf

import "fmt"

// uniquer hands out names not handed out before: a name taken already gets
// the first free " (k)" suffix, k = 1, 2, ... (Unity's own rule for
// duplicated GameObjects, and decode/gltfchar's for the nodes it reads), so
// that the same scene always gets the same names. Each name's next k is
// remembered, so that n copies of one name take O(n) time, not O(n²).
type uniquer struct {
	used map[string]bool
	next map[string]int
}

// unique returns name, or name with the first free suffix, and marks the
// result taken.
func (u *uniquer) unique(name string) string {
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
