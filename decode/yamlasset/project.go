package yamlasset

import (
	"bufio"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/mecanim/mecanim/model"
)

// Clips converts every AnimationClip of the file (a .anim holds one; other
// assets can hold several), in file order.
func (f *File) Clips() ([]*model.Clip, error) {
	var out []*model.Clip
	for _, d := range f.Docs {
		if d.ClassID == model.ClassAnimationClip || d.Type == "AnimationClip" {
			c, err := f.ClipOf(d)
			if err != nil {
				return nil, err
			}
			out = append(out, c)
		}
	}
	return out, nil
}

// GUIDIndex maps the GUIDs of the assets below dir to their paths, read
// from each asset's .meta file ("guid: ..." near its top), so references by
// guid (a controller's motions, an Animator's controller) can be followed
// in a Unity project folder.
func GUIDIndex(dir string) (map[string]string, error) {
	idx := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, e fs.DirEntry, err error) error {
		if err != nil || e.IsDir() || !strings.HasSuffix(p, ".meta") {
			return err
		}
		if g := metaGUID(p); g != "" {
			idx[g] = strings.TrimSuffix(p, ".meta")
		}
		return nil
	})
	return idx, err
}

// metaGUID reads the guid line of a .meta file ("" if none in its first
// lines).
func metaGUID(path string) string {
	fh, err := os.Open(path)
	if err != nil {
		return ""
	}
	defer fh.Close()
	sc := bufio.NewScanner(fh)
	for i := 0; i < 8 && sc.Scan(); i++ {
		if g, ok := strings.CutPrefix(sc.Text(), "guid:"); ok {
			return strings.TrimSpace(g)
		}
	}
	return ""
}

// ClipsFromProject returns a lookup for ResolveClips that reads the .anim
// assets a GUIDIndex names (each file read once; nil for a key it cannot
// resolve or read).
func ClipsFromProject(index map[string]string) func(key string) *model.Clip {
	cache := map[string]*model.Clip{}
	return func(key string) *model.Clip {
		guid, _, ok := strings.Cut(key, ":")
		if !ok {
			return nil
		}
		path, ok := index[guid]
		if !ok || !strings.HasSuffix(path, ".anim") {
			return nil
		}
		if c, seen := cache[path]; seen {
			return c
		}
		var c *model.Clip
		if f, err := ParseFile(path); err == nil {
			c, _ = f.Clip()
		}
		cache[path] = c
		return c
	}
}

// AvatarMask is an AvatarMask asset (.mask): which humanoid body parts and
// which transforms a layer animates.
type AvatarMask struct {
	Name string
	// BodyParts holds one value per humanoid body part (Unity's
	// AvatarMaskBodyPart order; 1 = animated).
	BodyParts []uint32
	// Elements are the transform paths with their weights, in file order.
	Elements []MaskPath
}

// MaskPath is one transform of an AvatarMask.
type MaskPath struct {
	Path   string
	Weight float32
}

// SkeletonMask returns the mask's transforms as path hashes with weights,
// as a compiled layer stores them: the entry of the root itself (path "")
// is left out, so a mask listing only the root covers every joint. That
// rule was read from public descriptions of Unity's compiler; no corpus
// controller has a skeleton mask to check it against.
func (m *AvatarMask) SkeletonMask() []model.MaskElement {
	var out []model.MaskElement
	for _, e := range m.Elements {
		if e.Path != "" {
			out = append(out, model.MaskElement{PathHash: model.PathHash(e.Path), Weight: e.Weight})
		}
	}
	return out
}

// HumanMask returns the body mask the mask's parts compile to.
func (m *AvatarMask) HumanMask() model.HumanMask { return model.HumanMaskFromParts(m.BodyParts) }

// Compile sets layer l's body mask and skeleton mask from the mask, as
// Unity compiles a layer that names it.
func (m *AvatarMask) Compile(l *model.Layer) {
	hm := m.HumanMask()
	l.BodyMask = hm[:]
	l.SkeletonMask = m.SkeletonMask()
}

func isAvatarMask(doc *Document) bool { return doc.ClassID == 319 || doc.Type == "AvatarMask" }

// AvatarMask converts the file's AvatarMask (class 319).
func (f *File) AvatarMask() (*AvatarMask, error) {
	for _, doc := range f.Docs {
		if isAvatarMask(doc) {
			return f.AvatarMaskOf(doc)
		}
	}
	return nil, fmt.Errorf("%s: AvatarMask: %w", f.Name, ErrNoObject)
}

// AvatarMaskOf converts one AvatarMask document (see AvatarMask).
func (f *File) AvatarMaskOf(doc *Document) (*AvatarMask, error) {
	d := f.dec(doc)
	m := &AvatarMask{Name: d.str(doc.Body, "m_Name"), BodyParts: d.hex32(doc.Body, "m_Mask")}
	for _, e := range d.seq(doc.Body, "m_Elements") {
		m.Elements = append(m.Elements, MaskPath{Path: d.str(e, "m_Path"), Weight: d.f32(e, "m_Weight")})
	}
	if d.err != nil {
		return nil, d.err
	}
	return m, nil
}

// MasksFromProject returns a lookup for ResolveMasks that reads the .mask
// assets a GUIDIndex names (each file read once; nil for a key it cannot
// resolve or read).
func MasksFromProject(index map[string]string) func(key string) *AvatarMask {
	cache := map[string]*AvatarMask{}
	return func(key string) *AvatarMask {
		guid, _, ok := strings.Cut(key, ":")
		if !ok {
			return nil
		}
		path, ok := index[guid]
		if !ok {
			return nil
		}
		if m, seen := cache[path]; seen {
			return m
		}
		var m *AvatarMask
		if f, err := ParseFile(path); err == nil {
			m, _ = f.AvatarMask()
		}
		cache[path] = m
		return m
	}
}
