// Package versions holds the Unity version sweep: the synthetic scene of
// internal/synth written with the class layouts of every distinct
// combination of AnimationClip, Avatar, AnimatorController, Animator,
// Transform and GameObject layouts in unity/layouts (Unity 5.0 … 6000.x,
// far beyond the corpus's 2019.4–2023.1), opened and decoded as the
// commands do, and checked against the same scene written for the
// reference version. It has no code of its own outside its tests.
package versions
