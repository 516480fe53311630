package catalog_test

import (
	"context"
	"fmt"
	"log"

	"github.com/mecanim/mecanim/anim"
	"github.com/mecanim/mecanim/decode/catalog"
	"github.com/mecanim/mecanim/decode/compiled"
	"github.com/mecanim/mecanim/geom"
	"github.com/mecanim/mecanim/model"
	"github.com/mecanim/mecanim/unity/assets"
)

const hello = "../../examples/hello.bundle"

// Decode the clip "Wave" and list its curves. A compiled clip binds its
// curves to path hashes; the catalog names them from every rig and name
// table of the files it was given, so the paths read as the rig's.
func Example() {
	cat, err := catalog.Open(context.Background(), []string{hello}, assets.Options{})
	if err != nil {
		log.Print(err) // the files that could not be opened; the others are kept
	}
	defer cat.Close()

	o, err := cat.One(model.ClassAnimationClip, "AnimationClip", "Wave")
	if err != nil {
		log.Fatal(err)
	}
	clip, err := cat.Clip(o)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%s: %.2f s at %g fps, loop %v, %d curves, %d event(s)\n",
		clip.Name, clip.Length(), clip.SampleRate, clip.Settings.LoopTime, len(clip.Curves), len(clip.Events))
	for _, c := range clip.Curves {
		fmt.Printf("  %-9s %-28s %s\n", c.Kind, c.Target.Path, c.Target.Property)
	}
	for _, e := range clip.Events {
		fmt.Printf("  event %s(%q) at %.2f s\n", e.Function, e.Data, e.Time)
	}
	// Output:
	// Wave: 2.00 s at 30 fps, loop true, 10 curves, 1 event(s)
	//   streamed  Armature/Hips/Spine/RightArm m_LocalRotation.x
	//   streamed  Armature/Hips/Spine/RightArm m_LocalRotation.y
	//   streamed  Armature/Hips/Spine/RightArm m_LocalRotation.z
	//   streamed  Armature/Hips/Spine/RightArm m_LocalRotation.w
	//   dense     Armature/Hips                m_LocalPosition.x
	//   dense     Armature/Hips                m_LocalPosition.y
	//   dense     Armature/Hips                m_LocalPosition.z
	//   constant  Armature/Hips/Spine/Head     m_LocalScale.x
	//   constant  Armature/Hips/Spine/Head     m_LocalScale.y
	//   constant  Armature/Hips/Spine/Head     m_LocalScale.z
	//   event OnWave("hello") at 1.00 s
}

// The rig of an Animator: the GameObject hierarchy below it, parents first,
// with each Transform's rest placement. Clips are posed on it.
func ExampleCatalog_Rig() {
	cat, err := catalog.Open(context.Background(), []string{hello}, assets.Options{})
	if err != nil {
		log.Fatal(err)
	}
	defer cat.Close()
	rig, err := cat.Rig("Hello")
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(rig.Name, len(rig.Nodes), "nodes")
	for i, n := range rig.Nodes {
		p := n.Local.T
		fmt.Printf("%d parent %2d  %-30q at (%5.2f, %.2f, %.2f)\n", i, n.Parent, n.Path, p.X, p.Y, p.Z)
	}
	// Output:
	// Hello 7 nodes
	// 0 parent -1  ""                             at ( 0.00, 0.00, 0.00)
	// 1 parent  0  "Armature"                     at ( 0.00, 0.00, 0.00)
	// 2 parent  1  "Armature/Hips"                at ( 0.00, 1.00, 0.00)
	// 3 parent  2  "Armature/Hips/Spine"          at ( 0.00, 0.30, 0.00)
	// 4 parent  3  "Armature/Hips/Spine/Head"     at ( 0.00, 0.45, 0.00)
	// 5 parent  3  "Armature/Hips/Spine/LeftArm"  at (-0.25, 0.35, 0.00)
	// 6 parent  3  "Armature/Hips/Spine/RightArm" at ( 0.25, 0.35, 0.00)
}

// The same clip decoded one level lower, without a catalog: the file's
// value converted by decode/compiled, whose bindings know only path hashes
// until a name table (here the rig's) names them.
func Example_compiled() {
	c, err := assets.Open(hello, assets.Options{})
	if err != nil {
		log.Fatal(err)
	}
	defer c.Close()
	f := c.Files[0]
	rigs, err := compiled.Rigs(f.File)
	if err != nil {
		log.Fatal(err)
	}
	o := f.Find("Wave", model.ClassAnimationClip)[0]
	v, err := f.Decode(o)
	if err != nil {
		log.Fatal(err)
	}
	clip, err := compiled.Clip(v, f.UnityVersion)
	if err != nil {
		log.Fatal(err)
	}
	t := clip.Curves[0].Target
	fmt.Printf("before: known %v, hash %d, unresolved paths %d\n", t.PathKnown, t.PathHash, clip.Stats.UnresolvedPaths)
	compiled.ResolveNames(clip, rigs[0].Names())
	t = clip.Curves[0].Target
	fmt.Printf("after:  known %v, path %q, unresolved paths %d\n", t.PathKnown, t.Path, clip.Stats.UnresolvedPaths)
	// Output:
	// before: known false, hash 894903451, unresolved paths 10
	// after:  known true, path "Armature/Hips/Spine/RightArm", unresolved paths 0
}

// From file to pose: the rig becomes an anim.Skeleton, the clip is baked
// onto it once, and each sample is a local pose that LocalToModel composes
// into positions in the Animator's space (what `mecanim pose` prints).
func Example_pose() {
	cat, err := catalog.Open(context.Background(), []string{hello}, assets.Options{})
	if err != nil {
		log.Fatal(err)
	}
	defer cat.Close()
	rig, err := cat.Rig("Hello")
	if err != nil {
		log.Fatal(err)
	}
	o, err := cat.One(model.ClassAnimationClip, "AnimationClip", "Wave")
	if err != nil {
		log.Fatal(err)
	}
	mc, err := cat.Clip(o)
	if err != nil {
		log.Fatal(err)
	}
	sk, err := anim.SkeletonFromRig(rig.Rig)
	if err != nil {
		log.Fatal(err)
	}
	clip, err := anim.Bake(mc, sk)
	if err != nil {
		log.Fatal(err)
	}
	local := make([]geom.Transform, sk.Len())
	world := make([]geom.Transform, sk.Len())
	hips, _ := sk.Index("Armature/Hips")
	arm, _ := sk.Index("Armature/Hips/Spine/RightArm")
	for _, t := range []float32{0, 0.5, 1} {
		clip.Sample(t, local)
		anim.LocalToModel(sk, local, world)
		tip := world[arm].Point(geom.V3(0.5, 0, 0)) // half a metre out along the arm
		fmt.Printf("t=%.1f hips y %.3f  arm tip (%.3f, %.3f, %.3f)\n", t, world[hips].T.Y, tip.X, tip.Y, tip.Z)
	}
	// Output:
	// t=0.0 hips y 1.000  arm tip (0.750, 1.650, 0.000)
	// t=0.5 hips y 1.050  arm tip (0.472, 2.148, 0.000)
	// t=1.0 hips y 1.000  arm tip (0.250, 2.150, 0.000)
}
