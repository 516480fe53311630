// Package unityversion parses and orders Unity engine version strings such as
// "2022.3.9f1", "5.6.7f1", "2023.1.0a16", "6000.0.23f1", the China builds'
// "2019.4.26f1c1", the blanked "0.0.0" of stripped games and the "5.x.x"
// placeholder that bundle headers carry as their player version.
//
// A Version is a small comparable value: it can be a map key and compared with
// ==. Compare gives the release order Unity ships in, which is what choosing a
// class layout by "the highest known version ≤ v" needs.
//
// Release order. Within one major.minor.patch the release types sort
//
//	(none) < x (experimental) < a (alpha) < b (beta) < f (final) < c (China) < p (patch)
//
// and then by number. Why: alphas precede betas precede the final release, and
// "p" patch releases of a patch number are published after its "f" builds.
// Unity China builds are final releases rebuilt from a base version: "f1c1"
// sorts right after "f1" (before "f2"), and a bare "cN" type sorts after every
// "f" of the same patch, so the highest known version ≤ a China build is
// always its base final release, never a later patch release. A missing type
// ("2022.3.9", "0.0.0") sorts first, so a bare version is the lower bound of
// its patch.
package unityversion

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// Wildcard is the value of Minor or Patch when the string held "x" (as in the
// "5.x.x" player version of UnityFS headers).
const Wildcard = -1

// ReleaseType is the letter between the patch and the build number: 'a', 'b',
// 'f', 'c', 'p', 'x', or 0 when the string has none.
type ReleaseType byte

// Release types.
const (
	TypeNone         ReleaseType = 0
	TypeExperimental ReleaseType = 'x'
	TypeAlpha        ReleaseType = 'a'
	TypeBeta         ReleaseType = 'b'
	TypeFinal        ReleaseType = 'f'
	TypeChina        ReleaseType = 'c'
	TypePatch        ReleaseType = 'p'
)

// rank orders release types; see the package comment for why.
func (t ReleaseType) rank() int {
	switch t {
	case TypeNone:
		return 0
	case TypeExperimental:
		return 1
	case TypeAlpha:
		return 2
	case TypeBeta:
		return 3
	case TypeFinal:
		return 4
	case TypeChina:
		return 5
	case TypePatch:
		return 6
	}
	return 7
}

// String returns the release type's letter, or "" for TypeNone.
func (t ReleaseType) String() string {
	if t == TypeNone {
		return ""
	}
	return string(rune(t))
}

// Version is a parsed Unity version. The zero Version is "0.0.0", the blanked
// version of stripped game builds.
type Version struct {
	Major, Minor, Patch int // Minor and Patch may be Wildcard
	Type                ReleaseType
	Number              int // the number after Type; 0 when Type is TypeNone
	China               int // N of a trailing "cN" after the build ("2019.4.26f1c1"); 0 when absent
}

// ErrSyntax is wrapped by every Parse error.
var ErrSyntax = errors.New("invalid Unity version")

// Parse parses a Unity version string. It accepts "M.m.p", "M.m.pTN" with T one
// of a b f c p x, an optional China suffix "cN" after "fN"/"pN", and "x" for
// the minor and patch ("5.x.x"). Surrounding spaces and NULs are trimmed;
// anything else is an error wrapping ErrSyntax.
func Parse(s string) (Version, error) {
	orig := s
	s = strings.Trim(s, " \t\r\n\x00")
	fail := func(why string) (Version, error) {
		return Version{}, fmt.Errorf("%w %q: %s", ErrSyntax, orig, why)
	}
	var v Version
	parts := strings.SplitN(s, ".", 3)
	if len(parts) != 3 {
		return fail("want major.minor.patch")
	}
	var ok bool
	if v.Major, ok = number(parts[0]); !ok {
		return fail("bad major")
	}
	if parts[1] == "x" {
		if parts[2] != "x" {
			return fail("minor x needs patch x")
		}
		v.Minor, v.Patch = Wildcard, Wildcard
		return v, nil
	}
	if v.Minor, ok = number(parts[1]); !ok {
		return fail("bad minor")
	}
	rest := parts[2]
	if rest == "x" {
		v.Patch = Wildcard
		return v, nil
	}
	i := digits(rest)
	if v.Patch, ok = number(rest[:i]); !ok {
		return fail("bad patch")
	}
	rest = rest[i:]
	if rest == "" {
		return v, nil
	}
	v.Type = ReleaseType(rest[0])
	if v.Type.rank() > 6 || v.Type == TypeNone {
		return fail(fmt.Sprintf("unknown release type %q", rest[0]))
	}
	rest = rest[1:]
	i = digits(rest)
	if v.Number, ok = number(rest[:i]); !ok {
		return fail("bad build number")
	}
	rest = rest[i:]
	if rest == "" {
		return v, nil
	}
	if rest[0] != 'c' || (v.Type != TypeFinal && v.Type != TypePatch) {
		return fail(fmt.Sprintf("unexpected %q after the build number", rest))
	}
	if v.China, ok = number(rest[1:]); !ok || v.China == 0 {
		return fail("bad China build number")
	}
	return v, nil
}

// MustParse is Parse for constants in tests and tables; it panics on error.
func MustParse(s string) Version {
	v, err := Parse(s)
	if err != nil {
		panic(err)
	}
	return v
}

// digits returns the length of the leading run of ASCII digits of s.
func digits(s string) int {
	i := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	return i
}

// number parses a non-empty all-digit string of at most 9 digits (so it fits
// an int on every platform).
func number(s string) (int, bool) {
	if s == "" || len(s) > 9 || digits(s) != len(s) {
		return 0, false
	}
	n, err := strconv.Atoi(s)
	return n, err == nil
}

// String formats v as Unity does: "2022.3.9f1", "5.x.x", "0.0.0".
func (v Version) String() string {
	var b strings.Builder
	b.WriteString(strconv.Itoa(v.Major))
	for _, n := range [2]int{v.Minor, v.Patch} {
		b.WriteByte('.')
		if n == Wildcard {
			b.WriteByte('x')
		} else {
			b.WriteString(strconv.Itoa(n))
		}
	}
	if v.Type != TypeNone {
		b.WriteString(v.Type.String())
		b.WriteString(strconv.Itoa(v.Number))
	}
	if v.China != 0 {
		b.WriteByte('c')
		b.WriteString(strconv.Itoa(v.China))
	}
	return b.String()
}

// IsBlank reports whether v is "0.0.0" (with no release type), the version
// stripped game builds write in place of the real one.
func (v Version) IsBlank() bool { return v == Version{} }

// HasWildcard reports whether the minor or patch is "x" (as in "5.x.x").
func (v Version) HasWildcard() bool { return v.Minor == Wildcard || v.Patch == Wildcard }

// SameMinor reports whether v and w share major.minor (the branch a class
// layout is chosen within).
func (v Version) SameMinor(w Version) bool { return v.Major == w.Major && v.Minor == w.Minor }

// Compare returns -1, 0 or +1 as v sorts before, equal to or after w in the
// release order described in the package comment. A Wildcard sorts before 0.
func Compare(v, w Version) int {
	if c := cmpInt(v.Major, w.Major); c != 0 {
		return c
	}
	if c := cmpInt(v.Minor, w.Minor); c != 0 {
		return c
	}
	if c := cmpInt(v.Patch, w.Patch); c != 0 {
		return c
	}
	if c := cmpInt(v.Type.rank(), w.Type.rank()); c != 0 {
		return c
	}
	if c := cmpInt(v.Number, w.Number); c != 0 {
		return c
	}
	return cmpInt(v.China, w.China)
}

// Compare is the method form of the package's Compare.
func (v Version) Compare(w Version) int { return Compare(v, w) }

// Less reports whether v sorts before w.
func (v Version) Less(w Version) bool { return Compare(v, w) < 0 }

func cmpInt(a, b int) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}
