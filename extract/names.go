package extract

import (
	"fmt"
	"strings"
)

// UniqueNames gives each name a file name of its own: the name made safe
// for a file name (SafeFileName), with -2, -3... added when names repeat,
// never one that an earlier name got, whatever the names are ("a", "a" and
// "a-2" become "a", "a-2" and "a-2-2"); names are compared without case, as
// some file systems do.
func UniqueNames(names []string) []string {
	out := make([]string, len(names))
	seen := map[string]bool{}
	for i, n := range names {
		base := SafeFileName(n)
		name := base
		for k := 2; seen[strings.ToLower(name)]; k++ {
			name = fmt.Sprintf("%s-%d", base, k)
		}
		seen[strings.ToLower(name)] = true
		out[i] = name
	}
	return out
}

// maxNameBytes bounds a file name made from an object's name (file
// systems take 255 bytes; room is left for suffixes and extensions).
const maxNameBytes = 160

// SafeFileName keeps letters, digits, '-', '_' and '.' of a name (others
// become '_'), without leading or trailing dots, at most 160 bytes; an
// empty name becomes "rig".
func SafeFileName(s string) string {
	b := []byte(s)
	for i, c := range b {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_' || c == '.') {
			b[i] = '_'
		}
	}
	if len(b) > maxNameBytes {
		b = b[:maxNameBytes]
	}
	s = strings.Trim(string(b), ".")
	if s == "" {
		return "rig"
	}
	return s
}
