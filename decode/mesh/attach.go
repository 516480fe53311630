package mesh

import (
	"errors"
	"fmt"
	"path"
	"strings"

	"github.com/mecanim/mecanim/model"
	"github.com/mecanim/mecanim/unity/assets"
	"github.com/mecanim/mecanim/unity/serialized"
)

// Errors wrapped by Attach for renderers it leaves out.
var (
	// ErrNoMesh: the renderer's mesh reference is empty (it draws nothing,
	// in Unity too; game code often sets the mesh at run time).
	ErrNoMesh = errors.New("the renderer has no mesh")
	// ErrBuiltinMesh: the mesh is one of Unity's built-in resources (a
	// primitive such as the cube or the sphere), held by Unity's own
	// resource files, and none of the files opened holds it.
	ErrBuiltinMesh = errors.New("Unity's built-in mesh, in no file given")
	// ErrMeshMissing: the mesh is in a file that was not opened.
	ErrMeshMissing = errors.New("mesh in no file given")
)

// builtinResources are the base names of the files that hold Unity's
// built-in resources, as serialized files name them among their externals
// ("Library/unity default resources", "Resources/unity_builtin_extra").
var builtinResources = []string{"unity default resources", "unity_default_resources", "unity_builtin_extra"}

// Resolver finds the object a reference made in file from points at, in
// any file opened together with it (catalog.Catalog.Resolve fits through a
// small adapter). Nil resolves only references inside the same file.
type Resolver func(from *assets.File, ref model.Ref) (*assets.File, *serialized.Object, bool)

// Attach finds the renderers of file f that sit on rig's GameObjects — every
// SkinnedMeshRenderer, and every MeshFilter whose GameObject also has a
// MeshRenderer — and decodes their meshes. rig must have been built from f
// (its nodes' GameObject and Transform refs are path ids in f). Renderers
// whose mesh is empty (ErrNoMesh), cannot be found (ErrBuiltinMesh,
// ErrMeshMissing) or does not decode are reported in the errors, naming
// the renderer and its GameObject, and left out; the others are returned
// in file order.
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
	materialName := func(r model.Ref) string {
		mf, mo, ok := f, (*serialized.Object)(nil), false
		if r.IsNull() {
			return ""
		}
		if r.FileID == 0 {
			mo, ok = f.Object(r.PathID)
		} else if resolve != nil {
			mf, mo, ok = resolve(f, r)
		}
		if !ok {
			return ""
		}
		n, _ := mf.ObjectName(mo)
		return n
	}
	var out []model.MeshInstance
	var errs []error
	cache := map[*serialized.Object]*model.Mesh{}
	for i := range f.Objects {
		o := &f.Objects[i]
		if o.ClassID != ClassSkinnedMeshRenderer && o.ClassID != ClassMeshFilter {
			continue
		}
		v, err := f.Decode(o)
		if err != nil {
			errs = append(errs, fmt.Errorf("%s: object %d: %w", f.Name, o.PathID, err))
			continue
		}
		var r *Renderer
		if o.ClassID == ClassSkinnedMeshRenderer {
			r, err = DecodeSkinnedRenderer(v)
		} else {
			r, err = DecodeMeshFilter(v)
		}
		if err != nil {
			errs = append(errs, fmt.Errorf("%s: object %d: %w", f.Name, o.PathID, err))
			continue
		}
		node, ok := nodeOfGO[r.GameObject.PathID]
		if !ok || r.GameObject.FileID != 0 {
			continue
		}
		if !r.Skinned {
			mats, drawn := meshRenderer[r.GameObject.PathID]
			if !drawn {
				continue
			}
			r.Materials = mats
		}
		if r.Mesh.IsNull() {
			errs = append(errs, fmt.Errorf("%s: renderer %d on %q: %w", f.Name, o.PathID, rig.Nodes[node].Path, ErrNoMesh))
			continue
		}
		mf, mo := f, (*serialized.Object)(nil)
		if r.Mesh.FileID == 0 {
			mo, ok = f.Object(r.Mesh.PathID)
		} else if resolve != nil {
			mf, mo, ok = resolve(f, r.Mesh)
		} else {
			ok = false
		}
		if !ok {
			errs = append(errs, fmt.Errorf("%s: renderer %d on %q: %w", f.Name, o.PathID, rig.Nodes[node].Path, missingMesh(f, r.Mesh)))
			continue
		}
		m := cache[mo]
		if m == nil {
			if m, err = FromFile(mf, mo); err != nil {
				errs = append(errs, fmt.Errorf("renderer %d on %q: %w", o.PathID, rig.Nodes[node].Path, err))
				continue
			}
			cache[mo] = m
		}
		a := model.MeshInstance{Node: node, Mesh: m, BlendShapeWeights: r.BlendShapeWeights}
		for _, mr := range r.Materials {
			a.Materials = append(a.Materials, model.Material{Name: materialName(mr)})
		}
		if r.Skinned && len(m.BindPoses) > 0 {
			a.Joints = make([]int, len(r.Bones))
			for k, b := range r.Bones {
				a.Joints[k] = -1
				if n, ok := nodeOfXf[b.PathID]; ok && b.FileID == 0 && !b.IsNull() {
					a.Joints[k] = n
				}
			}
		}
		out = append(out, a)
	}
	return out, errs
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
	base := strings.ToLower(path.Base(strings.ReplaceAll(ext, "\\", "/")))
	for _, b := range builtinResources {
		if base == b {
			return fmt.Errorf("mesh %d of %q: %w", ref.PathID, ext, ErrBuiltinMesh)
		}
	}
	return fmt.Errorf("mesh %d of %q: %w", ref.PathID, ext, ErrMeshMissing)
}
