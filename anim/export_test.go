package anim

import "reflect"

// Test-only exports for the external corpus test (corpus_test.go), which
// lives in package anim_test so that only tests reach the file readers.
var (
	CompareClip = compareClip
	AngleDeg    = angleDeg
	Measure     = measure
)

// Test-only exports for the baked clip encoding's corpus test and fuzz
// target (clipcodec_corpus_test.go).
var (
	CodecModels = codecModels
	Exercise    = exercise
	SameLayout  = func(a, b *Clip) string { return sameBits(reflect.ValueOf(a).Elem(), reflect.ValueOf(b).Elem(), "Clip") }
	SameSamples = sameSamples
)
