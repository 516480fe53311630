// Package gltf writes a rig, its meshes and its animations as glTF 2.0
// (.glb, or .gltf with a .bin beside it) for Blender and other tools.
//
// # Frames
//
// Unity is left-handed (x right, y up, z forward); glTF is right-handed
// (+y up, +z forward, -x... i.e. x left when looking along +z). The
// exporter mirrors the x axis, the conversion C = diag(-1, 1, 1):
//
//   - positions, translations, normals, morph deltas: (x, y, z) → (-x, y, z)
//   - rotations (quaternions, x, y, z, w): → (x, -y, -z, w) (C·R·C)
//   - scales: unchanged
//   - matrices (bind poses): M → C·M·C (negate the entries of row 0 and of
//     column 0, except the corner, which is negated twice)
//   - tangents: xyz mirrored as a direction and w (the bitangent sign)
//     negated, since a mirror flips the handedness of the tangent frame
//   - triangle winding reversed ((a, b, c) → (a, c, b)) so front faces stay
//     front faces after the mirror
//   - texture coordinates: v → 1 - v (Unity's origin is bottom-left,
//     glTF's top-left)
//   - blend-shape weights: Unity's 0..100 → glTF's 0..1
//
// One Unity unit is one metre, glTF's unit, so nothing is scaled.
//
// # Layout
//
// Rig node i is glTF node i; node 0 (the Animator's GameObject) is the
// scene root. A rigid mesh (a MeshFilter) is drawn by a child of its node
// without a transform. A skinned mesh is drawn by a root node of its own
// (glTF ignores a skinned mesh node's transform; making it a root avoids
// the validator's warnings), with a skin whose joints are the renderer's
// bones and whose inverse bind matrices are the mesh's bind poses. Bones
// that are not in the rig (their Transform in another file, or below a
// nested Animator) become extra joints under the renderer's node, placed
// by the inverse of their bind pose, so that the mesh still rests as it
// was bound.
//
// The last skin is the rig's own, drawn by no mesh: every rig node (and
// extra joint) is one of its joints, node 0 its skeleton root. It is what
// makes Blender's importer build one armature of the whole rig, rigs
// without a skinned mesh included: that importer makes a skin's joints
// (and the nodes between them) bones, and every other node a loose empty
// with an action of its own per animation. Its inverse bind matrices are
// those of the rig's rest transforms without scale, which Blender's
// importer takes as the bones' rest (its edit bones have no scale), so
// that Blender's rest is the scene's.
//
// # Names
//
// A node is named for its GameObject, a mesh's node "NAME (mesh)" for the
// GameObject that draws it, an extra joint "MESH missing bone K". Names
// are unique in the file: a name an earlier node has (rig nodes first, in
// rig order, then mesh nodes and extra joints in mesh order) gets the first
// free " (k)" suffix, k = 1, 2, ... (Unity's rule for duplicated
// GameObjects, and decode/gltfchar's when it reads a file). Animations are
// named for their clips, made unique among the animations the same way
// ("Scene", "Scene (1)"). So Blender, which renames what clashes
// ("head.001"), keeps every name: bones, objects and actions (Blender names
// an action "ANIMATION_OBJECT") are named as the file names them. Every bone influence of a
// vertex is written, not only four: Unity 2019.1+ meshes may store more
// per vertex (m_VariableBoneCountWeights, read by decode/mesh; the vertex
// channels then hold the four largest), and glTF allows several
// JOINTS_n/WEIGHTS_n sets of four, so a mesh whose most influenced vertex
// has k influences gets ceil(k/4) sets, each vertex's influences largest
// first (set 0 alone is the usual four-bone skin) and its weights over all
// sets normalised to sum to 1, as the glTF validator demands. Viewers that
// read only set 0 skin with the four largest, unnormalised.
// Sub-meshes are primitives sharing the mesh's vertex accessors; blend
// shapes are morph targets named in mesh.extras.targetNames (Blender reads
// them), each the shape's last frame scaled to weight 1.
//
// In-between blend-shape frames are dropped. Unity stores them in every
// Mesh layout (5.0 to 6000.7) the same way: m_Shapes.channels[c] names
// frameCount frames from frameIndex in m_Shapes.shapes (each a range of
// the sparse vertex deltas m_Shapes.vertices), and fullWeights[f] is the
// channel weight at which frame f applies in full; Unity documents only
// that a shape's 0–100% range "may be split into multiple frames" added in
// increasing weight order, not how a weight between or outside the frames
// is evaluated. A glTF morph target moves vertices in proportion to its
// weight, so reproducing a channel of k frames takes k targets whose
// weights are piecewise-linear functions of the channel's weight (under
// the usual reading: from 0 to the first frame, then frame to frame),
// and animating it exactly takes a key wherever the weight crosses a frame
// weight (a root of each cubic segment for CUBICSPLINE tracks). That is
// not done: it would rest on an evaluation rule Unity does not document,
// and no mesh of the test corpus has in-betweens (none has blend shapes)
// to check it against.
//
// # Animations
//
// Generic clips keep their curves' shapes (Generic): each joint's
// translation, rotation and scale is one track keyed at the union of its
// components' key times, as STEP (steps only), LINEAR (dense samples) or
// CUBICSPLINE (streamed segments, Hermite keyframes, dense rotations), and
// glTF's interpolation of it gives the runtime's value (anim.Clip.Sample)
// at every time, not only at keys: on the corpus within 2.3e-7 (relative)
// and 8.1e-5° over 200 times per clip. CUBICSPLINE tangents are stored
// as per-second derivatives (glTF's formula multiplies them by the
// interval's length); rotations keep the data's quaternion signs, since
// glTF, like the runtime, interpolates the four components and then
// normalises. Jumps get a split key 0.1 ms before them.
//
// Blend-shape weights keep their curves' shapes the same way
// (BlendShapes), for generic and humanoid clips alike.
//
// Resampled at each clip's sample rate (SceneOptions.Rate overrides),
// LINEAR between exact keys (see Sample for the error bound): humanoid
// clips' bones (poses come from muscles through the avatar), Euler
// rotations, weighted keyframes and keyframed curves that loop inside the
// clip.
//
// Blender 3.4's importer drops CUBICSPLINE tangents: it keeps the key
// values and draws Bézier curves of its own between them, so cubic tracks
// play right at their keys only (on the corpus, up to 1.7% of the rig's
// size off halfway between keys). SceneOptions.Interpolation Linear writes
// no cubic track: those are resampled as above, and BuildScene measures
// how far that puts the joints from the runtime's pose between keys
// (AnimStats.BetweenKeys). Blender interpolates a LINEAR rotation per
// component and normalises (glTF: slerp); the two agree at keys and
// halfway between them, where BetweenKeys is measured.
package gltf

import (
	"github.com/mecanim/mecanim/bound"
	"github.com/mecanim/mecanim/model"
)

// Scene is what one export holds: a rig with the meshes drawn on it and the
// animations that move it.
type Scene struct {
	Name       string
	Rig        *model.Rig
	Meshes     []model.MeshInstance
	Animations []Animation
	// Cameras are the Unity Cameras on the rig's nodes (a clip played on
	// its own paths gives them: CamerasOf).
	Cameras []Camera
	// Generator names the program in the asset's metadata ("" = mecanim).
	Generator string
}

// Path is the property an animation track drives.
type Path string

// Animated properties (glTF's channel target paths).
const (
	PathTranslation Path = "translation" // Values: x, y, z per key
	PathRotation    Path = "rotation"    // Values: x, y, z, w per key
	PathScale       Path = "scale"       // Values: x, y, z per key
	PathWeights     Path = "weights"     // Values: one weight (0..100) per blend shape per key
)

// Interpolation is how values between keys are found.
type Interpolation string

// glTF's interpolations.
const (
	Linear      Interpolation = "LINEAR"
	Step        Interpolation = "STEP"
	CubicSpline Interpolation = "CUBICSPLINE" // Values: in-tangent, value, out-tangent per key
)

// Animation is a named set of tracks, in Unity's frame and units; the
// exporter converts them.
type Animation struct {
	Name   string
	Tracks []Track
	// Stats says how the tracks were made (for reports; not written).
	Stats AnimStats
	// Motion is what BuildScene made the animation of (nil otherwise):
	// names are made unique in a file, this says which clip it is.
	Motion *bound.Motion
}

// Track animates one property of one rig node. For PathWeights, Node is
// the rig node a mesh with blend shapes is drawn on.
type Track struct {
	Node          int
	Path          Path
	Times         []float32 // seconds, strictly increasing
	Values        []float32
	Interpolation Interpolation // "" = Linear
	// Exact marks a track that gives the runtime's value at every time
	// (see Generic), not only at its keys (for reports and tests; not
	// written).
	Exact bool
}
