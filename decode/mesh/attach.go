package mesh

import (
	"fmt"
	"path"
	"strconv"
	"strings"

	"github.com/mecanim/mecanim/decode/builtinmesh"
	"github.com/mecanim/mecanim/decode/material"
	"github.com/mecanim/mecanim/model"
	"github.com/mecanim/mecanim/unity/assets"
	"github.com/mecanim/mecanim/unity/serialized"
)

// builtinResources are the base names of the files that hold Unity's
// built-in resources, as serialized files name them among their externals
// ("Library/unity default resources", "Resources/unity_builtin_extra").
var builtinResources = []string{"unity default resources", "unity_default_resources", "unity_builtin_extra"}

// Resolver finds the object a reference made in file from points at, in
// any file opened together with it (catalog.Catalog.Resolve fits through a
// small adapter). Nil resolves only references inside the same file. It is
// the resolver decode/material follows textures with.
type Resolver = material.Resolver

// Attach finds the renderers of file f that sit on rig's GameObjects — every
// SkinnedMeshRenderer, and every MeshFilter whose GameObject also has a
// MeshRenderer — and decodes their meshes. rig must have been built from f
// (its nodes' GameObject and Transform refs are path ids in f). Renderers
// drawing one of Unity's built-in primitives (Cube, Sphere...: references
// into Unity's own resources, which games never ship) get the primitive
// made by decode/builtinmesh. Renderers whose mesh cannot be found
// (ErrBuiltinMesh, ErrMeshMissing) or decoded
// are reported in the errors, naming the renderer and its GameObject, and
// left out; renderers that name no mesh are said once (ErrNoMesh); the others are returned in file order, each sub-mesh with its
// material (decode/material: name, base colour and texture; textures
// shared by several materials are decoded once and shared). The errors
// also hold notes that do not leave a renderer out: a material that could
// not be read (it keeps its name) and a base colour texture left out
// (*material.TextureError, wrapping *texture.UnsupportedError when its
// format is not decoded; the material keeps its factor), each once.
func Attach(f *assets.File, rig *model.Rig, resolve Resolver) ([]model.MeshInstance, []error) {
	nodeOfGO := make(map[int64]int, len(rig.Nodes))
	nodeOfXf := make(map[int64]int, len(rig.Nodes))
	for i, n := range rig.Nodes {
		nodeOfGO[n.GameObject.PathID] = i
		nodeOfXf[n.Transform.PathID] = i
	}
	// The MeshRenderer of each GameObject: a MeshFilter is drawn by it,
	// with its materials.
	meshRenderer := map[int64][]model.Ref{}
	for i := range f.Objects {
		if o := &f.Objects[i]; o.ClassID == ClassMeshRenderer {
			if v, err := f.Decode(o); err == nil {
				if r := ref(v.Field("m_GameObject")); r.FileID == 0 {
					var mats []model.Ref
					for _, m := range v.Field("m_Materials").Elems() {
						mats = append(mats, ref(&m))
					}
					meshRenderer[r.PathID] = mats
				}
			}
		}
	}
	var errs []error
	mats := material.NewDecoder(resolve)
	materialOf := func(r model.Ref) model.Material {
		m, found, err := mats.Material(f, r)
		if err != nil {
			errs = append(errs, f.In(err))
		}
		if !found && r.FileID == 0 && !r.IsNull() {
			// A material of this file that the file does not hold is a
			// damaged reference: the sub-mesh is drawn without it, and
			// that is said.
			errs = append(errs, f.In(fmt.Errorf("%w: material %d is not in the file", ErrMalformed, r.PathID)))
		}
		return m
	}
	var out []model.MeshInstance
	var noMesh []string // paths of renderers without a mesh
	cache := map[*serialized.Object]*model.Mesh{}
	builtins := map[builtinmesh.Shape]*model.Mesh{}
	for i := range f.Objects {
		o := &f.Objects[i]
		if o.ClassID != ClassSkinnedMeshRenderer && o.ClassID != ClassMeshFilter {
			continue
		}
		v, err := f.Decode(o)
		if err != nil {
			errs = append(errs, f.In(fmt.Errorf("object %d: %w", o.PathID, err)))
			continue
		}
		var r *Renderer
		if o.ClassID == ClassSkinnedMeshRenderer {
			r, err = DecodeSkinnedRenderer(v)
		} else {
			r, err = DecodeMeshFilter(v)
		}
		if err != nil {
			errs = append(errs, f.In(fmt.Errorf("object %d: %w", o.PathID, err)))
			continue
		}
		node, ok := nodeOfGO[r.GameObject.PathID]
		if !ok || r.GameObject.FileID != 0 {
			continue
		}
		if r.Mesh.IsNull() {
			if r.Skinned || meshRenderer[r.GameObject.PathID] != nil {
				noMesh = append(noMesh, rig.Nodes[node].Path)
			}
			continue
		}
		if !r.Skinned {
			mats, drawn := meshRenderer[r.GameObject.PathID]
			if !drawn {
				continue
			}
			r.Materials = mats
		}
		mf, mo := f, (*serialized.Object)(nil)
		if r.Mesh.FileID == 0 {
			mo, ok = f.Object(r.Mesh.PathID)
		} else if resolve != nil {
			mf, mo, ok = resolve(f, r.Mesh)
		} else {
			ok = false
		}
		var m *model.Mesh
		if !ok {
			// One of Unity's primitives, from its own resources: made here.
			shape, prim := builtinShape(f, r.Mesh)
			if !prim {
				errs = append(errs, f.In(fmt.Errorf("renderer %d on %q: %w", o.PathID, rig.Nodes[node].Path, missingMesh(f, r.Mesh))))
				continue
			}
			if m = builtins[shape]; m == nil {
				m = shape.Mesh()
				builtins[shape] = m
			}
		} else if m = cache[mo]; m == nil {
			if m, err = FromFile(mf, mo); err != nil {
				errs = append(errs, f.In(fmt.Errorf("renderer %d on %q: %w", o.PathID, rig.Nodes[node].Path, err)))
				continue
			}
			cache[mo] = m
		}
		a := model.MeshInstance{Node: node, Mesh: m, BlendShapeWeights: r.BlendShapeWeights}
		for _, mr := range r.Materials {
			a.Materials = append(a.Materials, materialOf(mr))
		}
		if r.Skinned && len(m.BindPoses) > 0 {
			a.Joints = make([]int, len(r.Bones))
			damaged := false
			for k, b := range r.Bones {
				a.Joints[k] = -1
				if n, ok := nodeOfXf[b.PathID]; ok && b.FileID == 0 && !b.IsNull() {
					a.Joints[k] = n
				} else if _, held := f.Object(b.PathID); b.FileID == 0 && !b.IsNull() && !held {
					// A bone of this file that the file does not hold is a
					// damaged reference, not a bone outside the rig.
					errs = append(errs, f.In(fmt.Errorf("renderer %d on %q: %w: m_Bones[%d] names object %d, which the file does not hold",
						o.PathID, rig.Nodes[node].Path, ErrMalformed, k, b.PathID)))
					damaged = true
					break
				}
			}
			if damaged {
				continue
			}
		}
		out = append(out, a)
	}
	if len(noMesh) > 0 {
		n, more := len(noMesh), ""
		if n > 3 {
			more, noMesh = fmt.Sprintf(" and %d more", n-3), noMesh[:3]
		}
		errs = append(errs, f.In(fmt.Errorf("%d %w: on %s%s", n, ErrNoMesh, strings.Join(quoted(noMesh), ", "), more)))
	}
	return out, errs
}

// quoted quotes each string.
func quoted(s []string) []string {
	q := make([]string, len(s))
	for i, x := range s {
		q[i] = strconv.Quote(x)
	}
	return q
}

// missingMesh says where a mesh that was not found is: one of Unity's
// built-in resources, a file not opened, or (a damaged reference) nowhere.
func missingMesh(f *assets.File, ref model.Ref) error {
	if ref.FileID == 0 {
		return fmt.Errorf("mesh %d is not in the file", ref.PathID)
	}
	if ref.FileID < 0 || int(ref.FileID) > len(f.Externals) {
		return fmt.Errorf("mesh %d:%d names no external file of %s", ref.FileID, ref.PathID, f.Name)
	}
	ext := f.Externals[ref.FileID-1].Path
	if isBuiltinResources(ext) {
		return fmt.Errorf("mesh %d of %q: %w", ref.PathID, ext, ErrBuiltinMesh)
	}
	return fmt.Errorf("mesh %d of %q: %w", ref.PathID, ext, ErrMeshMissing)
}

// isBuiltinResources reports whether an external file path names one of
// Unity's built-in resource files.
func isBuiltinResources(ext string) bool {
	base := strings.ToLower(path.Base(strings.ReplaceAll(ext, "\\", "/")))
	for _, b := range builtinResources {
		if base == b {
			return true
		}
	}
	return false
}

// builtinShape returns the primitive a mesh reference names when it
// points into Unity's built-in resources at one of the primitives'
// path ids.
func builtinShape(f *assets.File, ref model.Ref) (builtinmesh.Shape, bool) {
	if ref.FileID <= 0 || int(ref.FileID) > len(f.Externals) || !isBuiltinResources(f.Externals[ref.FileID-1].Path) {
		return 0, false
	}
	return builtinmesh.Lookup(ref.PathID)
}
