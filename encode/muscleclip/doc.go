// Package muscleclip is Unity's clip compiler: it turns any model.Clip the
// tool reads (an editor .anim, a glTF/VRM animation, a humanoid clip made by
// retargeting, a clip taken from another bundle) into the AnimationClip
// (class 74) a player build holds — m_MuscleClip with its streamed, dense
// and constant curves chosen as Unity's builder chooses them,
// m_ClipBindingConstant with the path and attribute hashes, the humanoid
// index array, start, stop and delta poses, events and loop settings.
//
// The result is a unitywrite.Fields value: the packer encodes it with the
// target game's own type tree for AnimationClip, so one compiled clip fits
// every Unity version whose layout has these fields (fields a version lacks
// are left out, fields it adds are zero).
//
// The rules, and where they come from (the corpus's editor sources beside
// the clips Unity compiled from them), are in docs/unity-clip-compiler.md.
package muscleclip
