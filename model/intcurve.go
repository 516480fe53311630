package model

// IntKey is one key of an integer curve: from Time on, the property holds
// Value.
type IntKey struct {
	Time  float32
	Value int32
}

// IntCurve drives an integer property by steps: an int, enum or hash field
// Unity animates as a discrete value (a generic binding's isIntCurve, the
// editor's discrete curves). Its values are whole int32s, never
// interpolated between keys nor blended between clips, and never "not a
// number": every bit pattern is a value.
type IntCurve struct {
	Target Target
	// Keys in time order. A compiled clip's first key is usually at
	// -MaxFloat32 (its initial value).
	Keys []IntKey
}

// Eval returns the value in force at time t (seconds, in the clip's
// time): the last key's at or before t, the first key's before it, 0 for a
// curve without keys.
func (c *IntCurve) Eval(t float32) int32 {
	k := c.Keys
	if len(k) == 0 {
		return 0
	}
	lo, hi := 0, len(k)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if k[m].Time <= t {
			lo = m + 1
		} else {
			hi = m
		}
	}
	if lo == 0 {
		return k[0].Value
	}
	return k[lo-1].Value
}
