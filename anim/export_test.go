package anim

// Test-only exports for the external corpus test (corpus_test.go), which
// lives in package anim_test so that only tests reach the file readers.
var (
	CompareClip = compareClip
	AngleDeg    = angleDeg
	Measure     = measure
)
