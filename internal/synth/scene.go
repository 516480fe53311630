package synth

import (
	"os"
	"path/filepath"

	"github.com/mecanim/mecanim/geom"
	"github.com/mecanim/mecanim/model"
	"github.com/mecanim/mecanim/unity/unitywrite"
)

// TB is what a scene needs of a test: *testing.T and *testing.B are one.
type TB interface {
	Helper()
	Fatalf(format string, args ...any)
	TempDir() string
}

// Scene is the synthetic scene (SceneValues), changed by a test and
// written as a serialized file: duplicate names, extra rigs, parked props,
// controllers of its own.
type Scene struct {
	t    TB
	vals []Values
}

// NewScene starts from the scene o describes.
func NewScene(t TB, o Options) *Scene {
	return &Scene{t: t, vals: SceneValues(o)}
}

// Obj returns the fields of object pid, to change them.
func (s *Scene) Obj(pid int64) F {
	for _, v := range s.vals {
		if v.PathID == pid {
			return v.Fields
		}
	}
	s.t.Fatalf("no object %d in the scene", pid)
	return nil
}

// Add adds an object.
func (s *Scene) Add(pid int64, class int32, f F) {
	s.vals = append(s.vals, Values{PathID: pid, ClassID: class, Fields: f})
}

// Values returns the scene's objects (shared: change them through Obj).
func (s *Scene) Values() []Values { return s.vals }

// Remove removes the i-th object of Values.
func (s *Scene) Remove(i int) { s.vals = append(s.vals[:i], s.vals[i+1:]...) }

// Set replaces the fields of object pid.
func (s *Scene) Set(pid int64, f F) {
	for i, v := range s.vals {
		if v.PathID == pid {
			s.vals[i].Fields = f
			return
		}
	}
	s.t.Fatalf("no object %d in the scene", pid)
}

// Write encodes the scene (type trees embedded) into a file of the test's
// temporary folder named name, and returns its path.
func (s *Scene) Write(name string) string { return s.WriteWith(name, nil) }

// WriteWith is Write with the file naming externals.
func (s *Scene) WriteWith(name string, externals []unitywrite.External) string {
	s.t.Helper()
	var objs []unitywrite.Object
	for _, v := range s.vals {
		tr, err := Tree(v.ClassID)
		if err != nil {
			s.t.Fatalf("%v", err)
		}
		b, err := unitywrite.Encode(tr, v.Fields)
		if err != nil {
			s.t.Fatalf("object %d: %v", v.PathID, err)
		}
		objs = append(objs, unitywrite.Object{PathID: v.PathID, ClassID: v.ClassID, Tree: tr, Data: b})
	}
	data, err := unitywrite.SerializedFile(UnityVersion, 5, objs, externals, false)
	if err != nil {
		s.t.Fatalf("%v", err)
	}
	p := filepath.Join(s.t.TempDir(), name)
	if err := os.WriteFile(p, data, 0o644); err != nil {
		s.t.Fatalf("%v", err)
	}
	return p
}

// WriteBundle encodes the scene (type trees embedded) as the serialized
// file cab inside a UnityFS bundle of the test's temporary folder named
// name, and returns its path: bundles of one CAB name and different
// contents are two builds of one project.
func (s *Scene) WriteBundle(name, cab string) string {
	s.t.Helper()
	var objs []unitywrite.Object
	for _, v := range s.vals {
		tr, err := Tree(v.ClassID)
		if err != nil {
			s.t.Fatalf("%v", err)
		}
		b, err := unitywrite.Encode(tr, v.Fields)
		if err != nil {
			s.t.Fatalf("object %d: %v", v.PathID, err)
		}
		objs = append(objs, unitywrite.Object{PathID: v.PathID, ClassID: v.ClassID, Tree: tr, Data: b})
	}
	sf, err := unitywrite.SerializedFile(UnityVersion, 5, objs, nil, false)
	if err != nil {
		s.t.Fatalf("%v", err)
	}
	data, err := unitywrite.Bundle(UnityVersion, []unitywrite.Entry{{Path: cab, Data: sf, Flags: 4}}, 1<<16)
	if err != nil {
		s.t.Fatalf("%v", err)
	}
	p := filepath.Join(s.t.TempDir(), name)
	if err := os.WriteFile(p, data, 0o644); err != nil {
		s.t.Fatalf("%v", err)
	}
	return p
}

// PPtr is a reference to object id of the same file.
func PPtr(id int64) F { return F{"m_FileID": 0, "m_PathID": id} }

// AddRig adds a copy of the scene's GameObjects and Transforms (path ids
// moved by off) with an Animator of its own (path id animator; 0 for no
// Animator), the bone
// bone placed at pos, the Animator using the scene's avatar and
// controller when full.
func (s *Scene) AddRig(off, animator int64, bone int, pos geom.Vec3, full bool) {
	for i, b := range Bones {
		comps := []any{F{"component": PPtr(int64(TransformBase+i) + off)}}
		if i == 0 && animator != 0 {
			comps = append(comps, F{"component": PPtr(animator)})
		}
		s.Add(int64(GameObjectBase+i)+off, model.ClassGameObject, F{"m_Component": comps, "m_Name": b.Name, "m_IsActive": true})
		var kids []any
		for j, c := range Bones {
			if c.Parent == i {
				kids = append(kids, PPtr(int64(TransformBase+j)+off))
			}
		}
		father := int64(0)
		if b.Parent >= 0 {
			father = int64(TransformBase+b.Parent) + off
		}
		p := b.Pos
		if i == bone {
			p = pos
		}
		s.Add(int64(TransformBase+i)+off, model.ClassTransform, F{
			"m_GameObject": PPtr(int64(GameObjectBase+i) + off), "m_LocalRotation": F{"x": float32(0), "y": float32(0), "z": float32(0), "w": float32(1)},
			"m_LocalPosition": F{"x": p.X, "y": p.Y, "z": p.Z}, "m_LocalScale": F{"x": float32(1), "y": float32(1), "z": float32(1)},
			"m_Children": kids, "m_Father": PPtr(father)})
	}
	a := F{"m_GameObject": PPtr(int64(GameObjectBase) + off), "m_Enabled": 1, "m_HasTransformHierarchy": true}
	if full {
		a["m_Avatar"], a["m_Controller"] = PPtr(AvatarID), PPtr(ControllerID)
	}
	if animator != 0 {
		s.Add(animator, model.ClassAnimator, a)
	}
}

// ParkedScene writes the extended scene (humanoid clips) with a prop
// "Gun" on the right hand (bone 19) that the avatar's default pose keeps at
// the hand and the scene parks 8 km away, as mods hide parts; it returns
// the file and the gun's local position.
func ParkedScene(t TB) (path string, gun geom.Vec3) {
	sc := NewScene(t, Options{Full: true, Extended: true})
	const hand = 19 // RightHand
	gunGO, gunXf := int64(GameObjectBase+len(Bones)), int64(TransformBase+len(Bones))
	gun = geom.V3(8000, 0, 0)
	sc.Add(gunGO, model.ClassGameObject, F{"m_Component": []any{F{"component": PPtr(gunXf)}}, "m_Name": "Gun", "m_IsActive": true})
	sc.Add(gunXf, model.ClassTransform, F{"m_GameObject": PPtr(gunGO),
		"m_LocalRotation": F{"x": float32(0), "y": float32(0), "z": float32(0), "w": float32(1)},
		"m_LocalPosition": F{"x": gun.X, "y": gun.Y, "z": gun.Z}, "m_LocalScale": F{"x": float32(1), "y": float32(1), "z": float32(1)},
		"m_Father": PPtr(TransformBase + hand)})
	handXf := sc.Obj(TransformBase + hand)
	handXf["m_Children"] = append(handXf["m_Children"].([]any), PPtr(gunXf))
	av := DescribedHumanAvatar()
	gunPath := BonePath(hand) + "/Gun"
	av.Skeleton.Nodes = append(av.Skeleton.Nodes, model.SkeletonNode{Parent: hand, Axes: -1, PathHash: av.Names.Add(gunPath)})
	near := geom.Transform{T: geom.V3(0.1, 0, 0), R: geom.IdentityQuat, S: geom.V3(1, 1, 1)}
	av.DefaultPose = append(av.DefaultPose, near)
	av.SkeletonPose = append(av.SkeletonPose, near)
	sc.Set(AvatarID, AvatarFields(av))
	return sc.Write("parked.assets"), gun
}
