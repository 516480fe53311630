// Package gltfchar reads characters made outside Unity — glTF 2.0 (.glb,
// .gltf), VRM 0.x and VRM 1.0 (.vrm) — into the project's format-free
// model: the node hierarchy as a rig, its meshes, its animations as
// generic clips and, when a human bone map is found, a HumanDescription
// from which a humanoid avatar can be built, as Unity's importers would
// give them.
//
// # Frames
//
// glTF is right-handed with +y up; Unity is left-handed with +y up and
// characters facing +z. The reader converts with a reflection D applied to
// every node as a change of basis (Mirror): MirrorX negates x (D =
// diag(-1, 1, 1)), which is export/gltf's conversion run backwards, so that
// a scene that package wrote reads back as it was; MirrorZ negates z (D =
// diag(1, 1, -1)), which is MirrorX followed by a 180° turn about y, for
// characters that face -z in glTF. Either way:
//
//   - translations, positions, normals, morph deltas: v → D·v
//   - rotations (x, y, z, w): the vector part becomes -D·v, i.e. (x, -y, -z,
//     w) for MirrorX and (-x, -y, z, w) for MirrorZ; keys and tangents of
//     rotation curves convert the same way (the map is linear)
//   - scales: unchanged
//   - inverse bind matrices (column-major in glTF) → Unity bind poses
//     D·M·D as model.Mat4
//   - tangents: xyz as directions, w (the bitangent sign) negated
//   - triangle winding reversed, texture v → 1 - v, morph weights 0..1 →
//     0..100
//
// The mirror is chosen so that the character faces +z in Unity: VRM 0.x
// faces -z in glTF by its specification (MirrorZ, as UniVRM imports it),
// VRM 1.0 faces +z (MirrorX); a plain glTF with a human map faces where its
// toes point from its feet, or else along left × up of its legs and spine
// (Character.Facing says which); a plain glTF without one is taken to face
// +z. Nothing is scaled: both use metres. Only ±z are told apart: a
// character lying down or facing ±x stays so.
//
// # Rig
//
// The rig is the scene's node tree (the default scene, else the first,
// else every parentless node), depth first with children in the order the
// file lists them. Its root is the scene's one root node when that has no
// transform; otherwise a synthetic root (identity, named after the file)
// holds the scene's roots, so that the root, where an Animator sits, is the
// character's own frame (VRM files and glTF files with separate mesh
// nodes have several roots). Node names are made unique over the whole
// rig (HumanDescription bones are found by name): a repeated name gets
// " (1)", " (2)"... in rig order, "/" becomes "_", an unnamed node is
// "node_N" (N its glTF index); Character.Warnings lists each renaming.
// Paths are names joined by "/" below the root, as Unity's are. A node
// given as a matrix is decomposed into translation, rotation and scale
// (shear, which glTF forbids for animated nodes, is lost).
//
// # Meshes
//
// Each node with a mesh gives one model.MeshInstance on its rig node; the
// glTF mesh's primitives are the sub-meshes of one model.Mesh (shared by
// every node that draws it; a skinned mesh is copied per skin for its bind
// poses), each primitive's material its Material. Primitives that use the
// same vertex accessors share one vertex list; otherwise their vertices
// are laid end to end. Strips and fans become triangle lists, line loops
// line strips. All JOINTS_n/WEIGHTS_n sets are read: per vertex the
// influences are merged by joint, sorted largest first and normalised to
// sum to 1; the four largest (renormalised) fill BoneWeights/BoneIndices,
// and when a vertex has more than four, Skin/SkinOffsets hold them all.
// Bone k of a skinned mesh is joint k of its skin (MeshInstance.Joints
// maps it to a rig node) with inverse bind matrix k as bind pose (the
// identity when the skin has none). Morph targets become blend shapes of
// one frame at weight 100, named by extras.targetNames ("target_K"
// without), with the node's or mesh's default weights.
//
// # Animations
//
// Each animation is a generic clip (Start 0, Stop its last key time;
// SampleRate the rate of evenly spaced keys, else 30) of keyframed curves
// on the rig's paths: per channel, one curve per component, bound as
// decoded Unity clips bind them (Transform class, m_LocalPosition.x ...
// with their binding attributes; morph weights as SkinnedMeshRenderer
// "blendShape.NAME" channels, attribute the CRC-32 of the name, on the
// node drawing the mesh), so anim.Bake plays them. STEP keys have infinite
// slopes; LINEAR keys have the secant as both slopes (a Hermite cubic
// with those slopes is the line); CUBICSPLINE keys take glTF's in- and
// out-tangents as in- and out-slopes (both are per-second derivatives).
// All of these evaluate exactly as glTF interpolates, up to float32
// rounding, except LINEAR rotations: glTF slerps them, the model's curves
// are cubics per component normalised after evaluation; each interval is
// cut into pieces that keep within SlerpToleranceRad of the slerp.
// Channels of other paths (KHR_animation_pointer) are left out with a
// warning.
//
// # Humanoid
//
// The human bone map comes from Config.HumanMap when given (ParseHumanMap
// reads a user's JSON map), else from the VRM humanoid extension (VRM 0.x
// humanBones[].bone/node; VRM 1.0 humanBones.NAME.node, whose thumb
// metacarpal, proximal and distal are Unity's thumb proximal,
// intermediate and distal), else from the node names (HumanSource lists
// the naming schemes). A map is used only if Unity could build an avatar
// from it: the fifteen required bones, one bone per node, each below its
// nearest mapped human parent. The description's skeleton is every rig
// node's rest transform (the T-pose), with an A-pose's arms turned
// towards their sides as Unity's Enforce T-Pose turns them
// (APoseThresholdDeg; Character.ArmsRaised says by how much); its
// settings and limits are Unity's defaults, VRM 0.x's where the file
// states them.
package gltfchar
