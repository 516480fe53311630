package compiled

import (
	"errors"
	"fmt"
	"maps"
	"slices"

	"github.com/mecanim/mecanim/geom"
	"github.com/mecanim/mecanim/model"
	"github.com/mecanim/mecanim/unity/serialized"
	"github.com/mecanim/mecanim/unity/typetree"
)

// ClassRectTransform is the class id of a RectTransform (a Transform of the
// UI, with the same hierarchy fields).
const ClassRectTransform = 224

// Animator converts a decoded Animator (class 95). Name is left empty: it is
// the GameObject's name, which Rigs fills in.
func Animator(v *typetree.Value) (*model.AnimatorInfo, error) {
	if v.Kind() != typetree.KindStruct {
		return nil, &Error{Class: "Animator", Err: errf(ErrMalformed, "not a struct")}
	}
	if !v.Has("m_GameObject") {
		return nil, &Error{Class: "Animator", Field: "m_GameObject", Err: ErrMissingField}
	}
	return &model.AnimatorInfo{
		GameObject:      ref(v.Field("m_GameObject")),
		Controller:      ref(v.Field("m_Controller")),
		Avatar:          ref(v.Field("m_Avatar")),
		ApplyRootMotion: v.Field("m_ApplyRootMotion").Bool(),
		Enabled:         v.Field("m_Enabled").Bool(),
	}, nil
}

// hierarchy is the GameObject/Transform graph of one serialized file.
type hierarchy struct {
	goName    map[int64]string
	goXform   map[int64]int64 // GameObject -> its Transform
	xforms    map[int64]*xformInfo
	animByGO  map[int64]*model.AnimatorInfo
	animOrder []int64 // Animator GameObjects in file order
	legacy    map[int64]*model.LegacyAnimation
	legOrder  []int64         // Animation GameObjects in file order
	skinned   []int64         // SkinnedMeshRenderer GameObjects in file order
	parentOf  map[int64]int64 // Transform -> its parent (built by top)
}

type xformInfo struct {
	gameObject int64
	local      geom.Transform
	children   []int64
}

// Rigs builds the rig of every Animator in the file: the Animator's
// GameObject and the Transform subtree below it, with paths of GameObject
// names joined by "/" (the root is ""), parents before children. A rig
// stops at a nested Animator that has a controller (the nested-Animator
// rule of the spec: that subtree belongs to the nested Animator's own rig).
// Then the rig of every legacy Animation component, alike; then, for
// skinned meshes that no rig holds (a mod's backpack without an Animator),
// the hierarchy from the top of their GameObject's, once per top. Only
// references inside the file are followed; a Transform whose GameObject
// is elsewhere is skipped with its subtree.
func Rigs(f *serialized.File) ([]*model.Rig, error) {
	return RigsWith(f, f.Decode)
}

// RigsWith is Rigs with the objects decoded by decode (for example through
// unity/assets, which reads stripped files with built-in layouts).
func RigsWith(f *serialized.File, decode func(*serialized.Object) (*typetree.Value, error)) ([]*model.Rig, error) {
	h := &hierarchy{
		goName:   map[int64]string{},
		goXform:  map[int64]int64{},
		xforms:   map[int64]*xformInfo{},
		animByGO: map[int64]*model.AnimatorInfo{},
		legacy:   map[int64]*model.LegacyAnimation{},
	}
	for i := range f.Objects {
		o := &f.Objects[i]
		switch o.ClassID {
		case model.ClassGameObject, model.ClassTransform, ClassRectTransform, model.ClassAnimator, model.ClassAnimation, model.ClassSkinnedMeshRenderer:
		default:
			continue
		}
		v, err := decode(o)
		if err != nil {
			return nil, fmt.Errorf("rigs of %s: %w", f.Name, err)
		}
		if err := h.add(o, v); err != nil {
			return nil, fmt.Errorf("rigs of %s: object %d: %w", f.Name, o.PathID, err)
		}
	}
	// A Transform names its GameObject in the same file (one elsewhere is
	// not kept): one the file does not hold is a damaged reference, which
	// would leave the Animator above it without its hierarchy.
	for _, xf := range slices.Sorted(maps.Keys(h.xforms)) {
		if g := h.xforms[xf].gameObject; g != 0 {
			if _, ok := h.goName[g]; !ok {
				return nil, fmt.Errorf("rigs of %s: %w", f.Name, &Error{Class: "Transform", Object: fmt.Sprintf("path id %d", xf),
					Field: "m_GameObject", Err: errf(ErrMalformed, "GameObject %d is not in the file", g)})
			}
		}
	}
	var rigs []*model.Rig
	var errs []error
	held := map[int64]bool{} // GameObjects some rig holds
	add := func(r *model.Rig, err error) {
		if err != nil {
			errs = append(errs, fmt.Errorf("rigs of %s: %w", f.Name, err))
			return
		}
		if r != nil {
			if err := r.CheckFinite(); err != nil {
				errs = append(errs, fmt.Errorf("rigs of %s: rig %q: %w", f.Name, r.Name, err))
				return
			}
			rigs = append(rigs, r)
			for _, n := range r.Nodes {
				held[n.GameObject.PathID] = true
			}
		}
	}
	for _, g := range h.animOrder {
		add(h.rig(g))
	}
	for _, g := range h.legOrder {
		a := *h.legacy[g]
		add(h.rigAt(g, &model.Rig{Name: h.goName[g], Legacy: &a}))
	}
	tops := map[int64]bool{}
	for _, g := range h.skinned {
		if held[g] {
			continue
		}
		top, ok := h.top(g)
		if !ok || tops[top] {
			continue
		}
		tops[top] = true
		add(h.rigAt(top, &model.Rig{Name: h.goName[top]}))
	}
	return rigs, errors.Join(errs...)
}

// top returns the GameObject at the top of g's hierarchy (following
// parents within the file; a cycle or a chain deeper than MaxRigDepth
// gives false).
func (h *hierarchy) top(g int64) (int64, bool) {
	if h.parentOf == nil {
		h.parentOf = map[int64]int64{}
		for xf, x := range h.xforms {
			for _, c := range x.children {
				h.parentOf[c] = xf
			}
		}
	}
	xf, ok := h.goXform[g]
	if !ok {
		return 0, false
	}
	for range MaxRigDepth {
		p, ok := h.parentOf[xf]
		if !ok {
			return h.xforms[xf].gameObject, true
		}
		xf = p
	}
	return 0, false
}

// Limits of one rig, so that a file of a few megabytes of Transforms
// chained one below the other cannot make the rig's paths (each node's
// path repeats its parent's) grow quadratically.
const (
	// MaxRigDepth bounds how deep below the Animator a rig goes.
	MaxRigDepth = 1024
	// MaxRigPathBytes bounds the total length of a rig's node paths.
	MaxRigPathBytes = 64 << 20
)

// add records one decoded object.
func (h *hierarchy) add(o *serialized.Object, v *typetree.Value) error {
	switch o.ClassID {
	case model.ClassGameObject:
		h.goName[o.PathID] = v.Field("m_Name").Str()
	case model.ClassTransform, ClassRectTransform:
		x := &xformInfo{
			gameObject: ref(v.Field("m_GameObject")).PathID,
			local: geom.Transform{
				T: vec3(v.Field("m_LocalPosition")),
				R: quat(v.Field("m_LocalRotation")),
				S: vec3(v.Field("m_LocalScale")),
			},
		}
		if ref(v.Field("m_GameObject")).FileID != 0 {
			return nil
		}
		for _, c := range v.Field("m_Children").Elems() {
			if r := ref(&c); r.FileID == 0 && r.PathID != 0 {
				x.children = append(x.children, r.PathID)
			}
		}
		h.xforms[o.PathID] = x
		h.goXform[x.gameObject] = o.PathID
	case model.ClassAnimator:
		a, err := Animator(v)
		if err != nil {
			return err
		}
		a.Component = model.Ref{PathID: o.PathID}
		if a.GameObject.FileID != 0 || a.GameObject.PathID == 0 {
			return nil
		}
		if _, dup := h.animByGO[a.GameObject.PathID]; !dup {
			h.animOrder = append(h.animOrder, a.GameObject.PathID)
		}
		h.animByGO[a.GameObject.PathID] = a
	case model.ClassAnimation:
		g := ref(v.Field("m_GameObject"))
		if g.FileID != 0 || g.PathID == 0 {
			return nil
		}
		a := &model.LegacyAnimation{Component: model.Ref{PathID: o.PathID}, GameObject: g, Clip: ref(v.Field("m_Animation")),
			PlayAutomatically: v.Field("m_PlayAutomatically").Bool()}
		for _, c := range v.Field("m_Animations").Elems() {
			a.Clips = append(a.Clips, ref(&c))
		}
		if _, dup := h.legacy[g.PathID]; !dup {
			h.legOrder = append(h.legOrder, g.PathID)
		}
		h.legacy[g.PathID] = a
	case model.ClassSkinnedMeshRenderer:
		if g := ref(v.Field("m_GameObject")); g.FileID == 0 && g.PathID != 0 {
			h.skinned = append(h.skinned, g.PathID)
		}
	}
	return nil
}

// rig builds the rig of the Animator on GameObject g (nil when g has no
// Transform in the file; see rigAt). A Transform reached twice — listed as the child
// of two parents, or its own ancestor through m_Children — is an error, as
// is a hierarchy deeper than MaxRigDepth or with paths longer in total than
// MaxRigPathBytes.
func (h *hierarchy) rig(g int64) (*model.Rig, error) {
	info := *h.animByGO[g]
	info.Name = h.goName[g]
	return h.rigAt(g, &model.Rig{Name: info.Name, Animator: &info})
}

// rigAt fills r with the hierarchy below GameObject g (nil when g has no
// Transform in the file), stopping at Animators with a controller below
// it (and, for a legacy rig, at Animation components below it).
func (h *hierarchy) rigAt(g int64, r *model.Rig) (*model.Rig, error) {
	rootX, ok := h.goXform[g]
	if !ok {
		return nil, nil
	}
	fail := func(xf int64, format string, args ...any) (*model.Rig, error) {
		return nil, &Error{Class: "Transform", Object: fmt.Sprintf("path id %d in the rig of %q (GameObject %d)", xf, r.Name, g),
			Field: "m_Children", Err: errf(ErrMalformed, format, args...)}
	}
	type item struct {
		xf     int64
		parent int
		depth  int
		path   string
	}
	visited := map[int64]int{rootX: -1} // Transform -> the node that listed it
	stack := []item{{rootX, -1, 0, ""}}
	pathBytes := 0
	for len(stack) > 0 {
		it := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		x := h.xforms[it.xf]
		name, ok := h.goName[x.gameObject]
		if !ok {
			return nil, &Error{Class: "Transform", Object: fmt.Sprintf("path id %d in the rig of %q (GameObject %d)", it.xf, r.Name, g),
				Field: "m_GameObject", Err: errf(ErrMalformed, "GameObject %d is not in the file", x.gameObject)}
		}
		idx := len(r.Nodes)
		r.Nodes = append(r.Nodes, model.RigNode{
			Name:       name,
			Path:       it.path,
			Parent:     it.parent,
			Local:      x.local,
			GameObject: model.Ref{PathID: x.gameObject},
			Transform:  model.Ref{PathID: it.xf},
		})
		// Push children in reverse so they come out in file order.
		for k := len(x.children) - 1; k >= 0; k-- {
			c := x.children[k]
			cx, ok := h.xforms[c]
			if !ok {
				// m_Children lists only Transforms of this file (a
				// reference into another file is not kept): one the
				// file does not hold is a damaged reference, which
				// would silently drop a bone and its subtree.
				return fail(it.xf, "lists Transform %d as its child, and the file holds no Transform %d", c, c)
			}
			if by, seen := visited[c]; seen {
				if c == rootX {
					return fail(it.xf, "lists the rig's root Transform %d as its child (a cycle)", c)
				}
				return fail(it.xf, "lists Transform %d as its child, already reached through Transform %d (a cycle or a shared child)", c, by)
			}
			if na, nested := h.animByGO[cx.gameObject]; nested && !na.Controller.IsNull() {
				continue // belongs to the nested Animator's rig
			}
			if _, nested := h.legacy[cx.gameObject]; nested && r.Legacy != nil {
				continue // belongs to the nested Animation's rig
			}
			if it.depth+1 > MaxRigDepth {
				return fail(c, "more than %d levels below the Animator", MaxRigDepth)
			}
			visited[c] = int(it.xf)
			cname := h.goName[cx.gameObject]
			p := cname
			if it.path != "" {
				p = it.path + "/" + cname
			}
			if pathBytes += len(p); pathBytes > MaxRigPathBytes {
				return fail(c, "node paths exceed %d bytes in total", MaxRigPathBytes)
			}
			stack = append(stack, item{c, idx, it.depth + 1, p})
		}
	}
	return r, nil
}
