package extract

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
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

// SafeFileName keeps the letters and digits of a name (any script: a
// Japanese rig keeps its name), '-', '_' and '.'; other characters become
// '_'. It drops leading and trailing dots, cuts the name to at most 160
// bytes at a character boundary, and prefixes '_' to the names Windows
// reserves (CON, NUL, COM1...); an empty name becomes "rig".
func SafeFileName(s string) string {
	var b strings.Builder
	for _, r := range s {
		if !(unicode.IsLetter(r) || unicode.IsDigit(r) || r == '-' || r == '_' || r == '.') || r == utf8.RuneError {
			r = '_'
		}
		if b.Len()+utf8.RuneLen(r) > maxNameBytes {
			break
		}
		b.WriteRune(r)
	}
	s = strings.Trim(b.String(), ".")
	if s == "" {
		return "rig"
	}
	stem, _, _ := strings.Cut(strings.ToUpper(s), ".")
	switch stem {
	case "CON", "PRN", "AUX", "NUL", "COM1", "COM2", "COM3", "COM4", "COM5", "COM6", "COM7", "COM8", "COM9",
		"LPT1", "LPT2", "LPT3", "LPT4", "LPT5", "LPT6", "LPT7", "LPT8", "LPT9":
		s = "_" + s
	}
	return s
}
