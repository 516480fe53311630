package yamlasset

import (
	"fmt"

	"github.com/mecanim/mecanim/geom"
	"github.com/mecanim/mecanim/model"
)

// Class ids of scene objects the rigs read.
const (
	classRectTransform  = 224
	classPrefabInstance = 1001
)

// Rigs returns the hierarchy below each Animator of a prefab or scene, in
// file order: paths are relative to the Animator's GameObject, and a rig
// stops at GameObjects below it with an Animator of their own that has a
// controller (the nested-Animator rule). A file without Animators gives one
// rig per root Transform instead (Animator nil).
//
// Objects of a nested prefab instance appear only as "stripped" stubs:
// their names and local transforms come from the instance's modifications
// (m_Name, m_LocalPosition.x, ...; unmodified values are the identity), and
// their children in the source prefab or model are unknown; objects the
// file adds below them are included.
func (f *File) Rigs() ([]*model.Rig, error) { return f.RigsFrom(nil) }

// Prefabs finds the editor asset (a prefab) a GUID names, so that the
// instances a scene or prefab makes of it can be expanded; nil when the
// asset is not among the inputs or is not an editor asset (a model).
type Prefabs func(guid string) *File

// maxPrefabDepth bounds how deep prefab instances inside prefabs are
// expanded (a prefab naming itself through its variants ends there).
const maxPrefabDepth = 16

// RigsFrom is Rigs with the source prefabs of the file's prefab instances
// found through p: an instance whose prefab p gives is read whole (its
// objects, with the instance's modifications), not only through its
// stripped stubs, so an Animator added to an object of the instance finds
// that object's Transform and children.
func (f *File) RigsFrom(p Prefabs) ([]*model.Rig, error) {
	h, err := f.hierarchy(p, 0)
	if err != nil {
		return nil, err
	}
	var rigs []*model.Rig
	for _, d := range f.Docs {
		if d.ClassID != model.ClassAnimator || d.Stripped {
			continue
		}
		dc := f.dec(d)
		goID := dc.pptr(d.Body, "m_GameObject").FileID
		info := &model.AnimatorInfo{
			Name:            h.goName(goID),
			Component:       model.Ref{PathID: d.FileID},
			GameObject:      model.Ref{PathID: goID},
			Controller:      dc.ref(dc.pptr(d.Body, "m_Controller")),
			Avatar:          dc.ref(dc.pptr(d.Body, "m_Avatar")),
			ApplyRootMotion: dc.bool(d.Body, "m_ApplyRootMotion"),
			Enabled:         dc.bool(d.Body, "m_Enabled"),
		}
		if dc.err != nil {
			return nil, dc.err
		}
		tr, ok := h.goTransform[goID]
		if !ok {
			why := fmt.Errorf("GameObject &%d has no Transform in the file", goID)
			if g := f.Object(goID); g != nil && g.Stripped {
				gd := f.dec(g)
				inst := gd.pptr(g.Body, "m_PrefabInstance").FileID
				src := ""
				if in := f.Object(inst); in != nil {
					src = f.dec(in).pptr(in.Body, "m_SourcePrefab").GUID
				}
				why = fmt.Errorf("GameObject &%d is an object of prefab instance &%d, whose Transforms are in its source asset (guid %s), not in the file: give that prefab with the file (a model's hierarchy is not read from .fbx)", goID, inst, src)
			}
			return nil, &FieldError{File: f.Name, Line: d.Line, Object: fmt.Sprintf("Animator &%d", d.FileID),
				Field: "m_GameObject", Err: why}
		}
		rigs = append(rigs, h.rig(tr, info, true))
	}
	if len(rigs) == 0 {
		for _, id := range h.roots {
			rigs = append(rigs, h.rig(id, nil, true))
		}
	}
	for _, r := range rigs {
		if err := r.CheckFinite(); err != nil {
			return nil, &FieldError{File: f.Name, Object: "rig " + r.Name, Field: "Transform", Err: err}
		}
	}
	return rigs, nil
}

// Hierarchy returns the whole Transform tree of a prefab or scene: one rig
// per root Transform, Animators or not (Animator nil), with stripped
// objects read as Rigs reads them.
func (f *File) Hierarchy() ([]*model.Rig, error) { return f.HierarchyFrom(nil) }

// HierarchyFrom is Hierarchy with prefab instances expanded as RigsFrom
// expands them.
func (f *File) HierarchyFrom(p Prefabs) ([]*model.Rig, error) {
	h, err := f.hierarchy(p, 0)
	if err != nil {
		return nil, err
	}
	var rigs []*model.Rig
	for _, id := range h.roots {
		rigs = append(rigs, h.rig(id, nil, false))
	}
	for _, r := range rigs {
		if err := r.CheckFinite(); err != nil {
			return nil, &FieldError{File: f.Name, Object: "rig " + r.Name, Field: "Transform", Err: err}
		}
	}
	return rigs, nil
}

// hierarchy is the Transform tree of a prefab or scene.
type hierarchy struct {
	f           *File
	tf          map[int64]*tfInfo // by Transform file id
	goTransform map[int64]int64   // GameObject -> Transform
	goNames     map[int64]string
	animated    map[int64]bool // GameObjects with an Animator that has a controller
	roots       []int64
}

type tfInfo struct {
	id, gameObject, father int64
	local                  geom.Transform
	children               []int64
}

func (h *hierarchy) goName(id int64) string { return h.goNames[id] }

func (f *File) hierarchy(p Prefabs, depth int) (*hierarchy, error) {
	h := &hierarchy{f: f, tf: map[int64]*tfInfo{}, goTransform: map[int64]int64{},
		goNames: map[int64]string{}, animated: map[int64]bool{}}
	// Modifications of prefab instances: instance -> source file id ->
	// property path -> value.
	mods := map[int64]map[int64]map[string]string{}
	strippedGO := map[int64][]int64{} // instance -> stripped GameObjects
	for _, d := range f.Docs {
		if d.ClassID != classPrefabInstance {
			continue
		}
		dc := f.dec(d)
		m := map[int64]map[string]string{}
		for _, md := range dc.seq(d.Body.Get("m_Modification"), "m_Modifications") {
			t := dc.pptr(md, "target").FileID
			if m[t] == nil {
				m[t] = map[string]string{}
			}
			m[t][dc.str(md, "propertyPath")] = dc.str(md, "value")
		}
		if dc.err != nil {
			return nil, dc.err
		}
		mods[d.FileID] = m
	}
	expanded := f.expandInstances(h, p, depth, mods)
	for _, d := range f.Docs {
		dc := f.dec(d)
		if d.Stripped {
			if _, ok := expanded[dc.pptr(d.Body, "m_PrefabInstance").FileID]; ok {
				continue // read from its source prefab
			}
		}
		switch {
		case d.ClassID == model.ClassGameObject:
			if d.Stripped {
				inst := dc.pptr(d.Body, "m_PrefabInstance").FileID
				strippedGO[inst] = append(strippedGO[inst], d.FileID)
				src := dc.pptr(d.Body, "m_CorrespondingSourceObject").FileID
				h.goNames[d.FileID] = mods[inst][src]["m_Name"]
			} else {
				h.goNames[d.FileID] = dc.str(d.Body, "m_Name")
			}
		case d.ClassID == model.ClassTransform || d.ClassID == classRectTransform:
			t := &tfInfo{id: d.FileID}
			if d.Stripped {
				inst := dc.pptr(d.Body, "m_PrefabInstance").FileID
				src := dc.pptr(d.Body, "m_CorrespondingSourceObject").FileID
				t.local = modTransform(mods[inst][src])
				t.father = -1 // resolved below from the instance's parent
				if in := f.Object(inst); in != nil {
					t.father = dc.pptr(in.Body.Get("m_Modification"), "m_TransformParent").FileID
				}
			} else {
				t.gameObject = dc.pptr(d.Body, "m_GameObject").FileID
				t.father = dc.pptr(d.Body, "m_Father").FileID
				t.local = geom.Transform{T: dc.vec3(d.Body, "m_LocalPosition"), R: dc.quat(d.Body, "m_LocalRotation"), S: dc.vec3(d.Body, "m_LocalScale")}
				for _, c := range dc.seq(d.Body, "m_Children") {
					if id, err := c.Get("fileID").Int(); err == nil {
						t.children = append(t.children, id)
					} else {
						dc.fail(c, "m_Children", err)
					}
				}
				h.goTransform[t.gameObject] = d.FileID
			}
			h.tf[d.FileID] = t
		case d.ClassID == model.ClassAnimator && !d.Stripped:
			if !dc.pptr(d.Body, "m_Controller").IsNull() {
				h.animated[dc.pptr(d.Body, "m_GameObject").FileID] = true
			}
		}
		if dc.err != nil {
			return nil, dc.err
		}
	}
	// A stripped Transform belongs to its instance's stripped GameObject
	// when the instance has exactly one.
	for _, d := range f.Docs {
		if (d.ClassID == model.ClassTransform || d.ClassID == classRectTransform) && d.Stripped {
			inst := f.dec(d).pptr(d.Body, "m_PrefabInstance").FileID
			if _, ok := expanded[inst]; ok {
				continue
			}
			if gos := strippedGO[inst]; len(gos) == 1 {
				h.tf[d.FileID].gameObject = gos[0]
				h.goTransform[gos[0]] = d.FileID
			}
		}
	}
	// Children that only name their father (added below stripped objects,
	// or missing from a father's list) are appended in file order.
	place := func(t *tfInfo) {
		if t.father == 0 {
			h.roots = append(h.roots, t.id)
			return
		}
		if p, ok := h.tf[t.father]; ok && !contains(p.children, t.id) {
			p.children = append(p.children, t.id)
		}
	}
	for _, d := range f.Docs {
		if d.ClassID == classPrefabInstance {
			// An expanded instance's root without a stub of its own.
			for _, root := range expanded[d.FileID] {
				if f.Object(root) == nil {
					place(h.tf[root])
				}
			}
			continue
		}
		t, ok := h.tf[d.FileID]
		if !ok || d.ClassID != model.ClassTransform && d.ClassID != classRectTransform {
			continue
		}
		place(t)
	}
	return h, nil
}

// expandInstances adds to h the objects of every prefab instance of f
// whose source prefab p gives, with the instance's modifications: an
// object keeps the id of its stripped stub in f when it has one, else
// Unity's id for an instance's object (the instance's id xor the source's,
// without the sign bit). It returns the root Transforms of each expanded
// instance.
func (f *File) expandInstances(h *hierarchy, p Prefabs, depth int, mods map[int64]map[int64]map[string]string) map[int64][]int64 {
	expanded := map[int64][]int64{}
	if p == nil || depth >= maxPrefabDepth {
		return expanded
	}
	stubs := map[int64]map[int64]int64{} // instance -> source id -> stub id
	for _, d := range f.Docs {
		if !d.Stripped {
			continue
		}
		dc := f.dec(d)
		inst := dc.pptr(d.Body, "m_PrefabInstance").FileID
		if stubs[inst] == nil {
			stubs[inst] = map[int64]int64{}
		}
		stubs[inst][dc.pptr(d.Body, "m_CorrespondingSourceObject").FileID] = d.FileID
	}
	for _, d := range f.Docs {
		if d.ClassID != classPrefabInstance || d.Stripped {
			continue
		}
		dc := f.dec(d)
		srcRef := dc.pptr(d.Body, "m_SourcePrefab")
		parent := dc.pptr(d.Body.Get("m_Modification"), "m_TransformParent").FileID
		if dc.err != nil || srcRef.GUID == "" {
			continue
		}
		src := p(srcRef.GUID)
		if src == nil || src == f {
			continue
		}
		sh, err := src.hierarchy(p, depth+1)
		if err != nil {
			continue // read through its stubs alone, as without the prefab
		}
		inst, m, stub := d.FileID, mods[d.FileID], stubs[d.FileID]
		id := func(srcID int64) int64 {
			if srcID == 0 {
				return 0
			}
			if s, ok := stub[srcID]; ok {
				return s
			}
			return (inst ^ srcID) & 0x7fffffffffffffff
		}
		for _, t := range sh.tf {
			nt := &tfInfo{id: id(t.id), gameObject: id(t.gameObject), father: id(t.father),
				local: applyTransformMods(t.local, m[t.id])}
			if t.father == 0 {
				nt.father = parent
			}
			for _, c := range t.children {
				nt.children = append(nt.children, id(c))
			}
			h.tf[nt.id] = nt
			if nt.gameObject != 0 {
				h.goTransform[nt.gameObject] = nt.id
			}
		}
		for _, root := range sh.roots {
			expanded[inst] = append(expanded[inst], id(root))
		}
		for goID, name := range sh.goNames {
			if v, ok := m[goID]["m_Name"]; ok {
				name = v
			}
			h.goNames[id(goID)] = name
		}
		for goID := range sh.animated {
			h.animated[id(goID)] = true
		}
	}
	return expanded
}

func contains(s []int64, x int64) bool {
	for _, v := range s {
		if v == x {
			return true
		}
	}
	return false
}

// modTransform builds a local transform from prefab modifications
// (identity for what they do not set).
func modTransform(m map[string]string) geom.Transform {
	return applyTransformMods(geom.Transform{R: geom.Quat{W: 1}, S: geom.Vec3{X: 1, Y: 1, Z: 1}}, m)
}

// applyTransformMods sets on t what prefab modifications set of a local
// transform.
func applyTransformMods(t geom.Transform, m map[string]string) geom.Transform {
	set := func(dst *float32, key string) {
		if v, ok := m[key]; ok {
			if x, err := parseFloat(v, 32); err == nil {
				*dst = float32(x)
			}
		}
	}
	set(&t.T.X, "m_LocalPosition.x")
	set(&t.T.Y, "m_LocalPosition.y")
	set(&t.T.Z, "m_LocalPosition.z")
	set(&t.R.X, "m_LocalRotation.x")
	set(&t.R.Y, "m_LocalRotation.y")
	set(&t.R.Z, "m_LocalRotation.z")
	set(&t.R.W, "m_LocalRotation.w")
	set(&t.S.X, "m_LocalScale.x")
	set(&t.S.Y, "m_LocalScale.y")
	set(&t.S.Z, "m_LocalScale.z")
	return t
}

// rig walks the hierarchy from a Transform, parents before children, in
// each father's child order; nested stops at GameObjects with an animating
// Animator.
func (h *hierarchy) rig(root int64, info *model.AnimatorInfo, nested bool) *model.Rig {
	r := &model.Rig{Animator: info}
	type item struct {
		id     int64
		parent int
		path   string
	}
	seen := map[int64]bool{}
	queue := []item{{root, -1, ""}}
	for len(queue) > 0 {
		// Depth first, children in order: pop the last pushed.
		it := queue[len(queue)-1]
		queue = queue[:len(queue)-1]
		t, ok := h.tf[it.id]
		if !ok || seen[it.id] {
			continue
		}
		seen[it.id] = true
		name := h.goNames[t.gameObject]
		path := it.path
		if it.parent >= 0 {
			if path != "" {
				path += "/"
			}
			path += name
		}
		idx := len(r.Nodes)
		r.Nodes = append(r.Nodes, model.RigNode{
			Name: name, Path: path, Parent: it.parent, Local: t.local,
			GameObject: model.Ref{PathID: t.gameObject}, Transform: model.Ref{PathID: t.id},
		})
		for i := len(t.children) - 1; i >= 0; i-- {
			c := t.children[i]
			if ct, ok := h.tf[c]; ok && nested && h.animated[ct.gameObject] {
				continue
			}
			queue = append(queue, item{c, idx, path})
		}
	}
	if len(r.Nodes) > 0 {
		r.Name = r.Nodes[0].Name
	}
	return r
}
