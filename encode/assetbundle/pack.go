package assetbundle

import (
	"crypto/md5"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/mecanim/mecanim/unity/unitywrite"
)

// ErrAssets is wrapped when the assets given cannot go in one bundle (two
// at one container path or path id, an empty path).
var ErrAssets = errors.New("assetbundle: assets do not fit one bundle")

// classAssetBundle is the AssetBundle class; its object has path id 1 in
// every bundle Unity builds.
const (
	classAssetBundle  = 142
	assetBundlePathID = 1
)

// Asset is an object to pack.
type Asset struct {
	// Path is the container path the game's loader finds it by
	// ("assets/emotes/dance.anim"); Unity lower-cases the paths it writes.
	Path    string
	ClassID int32
	// PathID is the object's path id; 0 chooses one: the path id of the
	// asset at the same container path in the target bundle, else one from
	// the path (the first 8 bytes of its MD5, never 0 or 1).
	PathID int64
	Fields unitywrite.Fields
	// Preload lists path ids of other packed objects the game must load
	// with this one (a controller's clips), in order.
	Preload []int64
}

// Options are the bundle's own names and its compression.
type Options struct {
	// Name is the bundle's name (the AssetBundle object's m_Name and
	// m_AssetBundleName).
	Name string
	// CAB is the serialized file's name; "": the target bundle's when Name
	// is its name, else "CAB-" and the MD5 of Name.
	CAB         string
	Compression unitywrite.Compression
}

// PathIDFor is the path id an asset at a container path gets when none is
// given.
func PathIDFor(path string) int64 {
	h := md5.Sum([]byte(path))
	id := int64(binary.LittleEndian.Uint64(h[:8]))
	if id == 0 || id == assetBundlePathID {
		id = 2
	}
	return id
}

// CABFor is the serialized file name a bundle of that name gets when none
// is given.
func CABFor(name string) string {
	h := md5.Sum([]byte(name))
	return "CAB-" + hex.EncodeToString(h[:])
}

// Pack writes the assets as a UnityFS bundle for the target: one serialized
// file (the target's format, version, platform, type trees and hashes)
// holding the assets and an AssetBundle object listing them by path, as
// Unity's build orders them (objects by path id, container entries by
// path, the preload table in the order the assets are given).
func Pack(t *Target, list []Asset, opts Options) ([]byte, error) {
	if opts.Name == "" {
		return nil, fmt.Errorf("%w: the bundle has no name", ErrAssets)
	}
	if len(list) == 0 {
		return nil, fmt.Errorf("%w: nothing to pack", ErrAssets)
	}
	cab := opts.CAB
	if cab == "" && opts.Name == t.bundleName && t.cab != "" {
		cab = t.cab
	}
	if cab == "" {
		cab = CABFor(opts.Name)
	}
	// Assets the target bundle holds keep its preload order, before the
	// others.
	list = append([]Asset(nil), list...)
	sort.SliceStable(list, func(i, j int) bool {
		a, aok := t.existing[list[i].Path]
		b, bok := t.existing[list[j].Path]
		if aok != bok {
			return aok
		}
		return aok && a.preload < b.preload
	})
	type obj struct {
		pathID int64
		class  int32
		fields unitywrite.Fields
	}
	var objs []obj
	seenPath := map[string]bool{}
	seenID := map[int64]string{assetBundlePathID: "the AssetBundle object"}
	var preload []any
	type entry struct {
		path        string
		index, size int
		pathID      int64
	}
	var entries []entry
	for i := range list {
		a := &list[i]
		if a.Path == "" {
			return nil, fmt.Errorf("%w: asset %d has no container path", ErrAssets, i)
		}
		if seenPath[a.Path] {
			return nil, fmt.Errorf("%w: two assets at %q", ErrAssets, a.Path)
		}
		seenPath[a.Path] = true
		id := a.PathID
		if id == 0 {
			if e, ok := t.existing[a.Path]; ok {
				id = e.pathID
			} else {
				id = PathIDFor(a.Path)
			}
		}
		if other, dup := seenID[id]; dup {
			return nil, fmt.Errorf("%w: %q and %s share path id %d", ErrAssets, a.Path, other, id)
		}
		seenID[id] = fmt.Sprintf("%q", a.Path)
		objs = append(objs, obj{id, a.ClassID, a.Fields})
		e := entry{path: a.Path, index: len(preload), pathID: id}
		preload = append(preload, pptr(id))
		for _, d := range a.Preload {
			preload = append(preload, pptr(d))
		}
		e.size = len(preload) - e.index
		entries = append(entries, e)
	}
	for i := range list {
		for _, d := range list[i].Preload {
			if _, ok := seenID[d]; !ok || d == assetBundlePathID {
				return nil, fmt.Errorf("%w: %q preloads path id %d, which is not packed", ErrAssets, list[i].Path, d)
			}
		}
	}
	sort.SliceStable(entries, func(i, j int) bool { return entries[i].path < entries[j].path })
	container := make([]any, len(entries))
	for i, e := range entries {
		container[i] = unitywrite.Fields{"first": e.path, "second": unitywrite.Fields{
			"preloadIndex": e.index, "preloadSize": e.size, "asset": pptr(e.pathID)}}
	}
	bundle := unitywrite.Fields{
		"m_Name":                       opts.Name,
		"m_PreloadTable":               preload,
		"m_Container":                  container,
		"m_MainAsset":                  unitywrite.Fields{"preloadIndex": 0, "preloadSize": 0, "asset": pptr(0)},
		"m_RuntimeCompatibility":       1,
		"m_AssetBundleName":            opts.Name,
		"m_Dependencies":               []any{},
		"m_IsStreamedSceneAssetBundle": false,
		"m_ExplicitDataLayout":         0,
		"m_PathFlags":                  7,
		"m_SceneHashes":                []any{},
	}
	objs = append(objs, obj{assetBundlePathID, classAssetBundle, bundle})
	sort.Slice(objs, func(i, j int) bool { return objs[i].pathID < objs[j].pathID })

	spec := unitywrite.FileSpec{Format: t.format, UnityVersion: t.version, Platform: t.platform, EmbedTrees: t.embed}
	typeIndex := map[int32]int{}
	var fileObjs []unitywrite.FileObject
	for _, o := range objs {
		ti, ok := typeIndex[o.class]
		ty, tree, err := t.typeFor(o.class)
		if err != nil {
			return nil, err
		}
		if !ok {
			ti = len(spec.Types)
			typeIndex[o.class] = ti
			spec.Types = append(spec.Types, ty)
		}
		data, err := unitywrite.Encode(tree, o.fields)
		if err != nil {
			return nil, fmt.Errorf("path id %d (class %d): %w", o.pathID, o.class, err)
		}
		fileObjs = append(fileObjs, unitywrite.FileObject{PathID: o.pathID, Type: ti, Data: data})
	}
	sf, err := unitywrite.WriteSerializedFile(spec, fileObjs)
	if err != nil {
		return nil, err
	}
	arch := t.archive
	arch.Compression = opts.Compression
	return unitywrite.WriteBundle(arch, []unitywrite.Entry{{Path: cab, Data: sf, Flags: 4}})
}

func pptr(pathID int64) unitywrite.Fields {
	return unitywrite.Fields{"m_FileID": 0, "m_PathID": pathID}
}

// ContainerPath is the container path Unity gives an asset of a name under
// a folder: lower case, with the extension of its class.
func ContainerPath(folder, name, ext string) string {
	p := strings.TrimSuffix(folder, "/")
	if p != "" {
		p += "/"
	}
	return strings.ToLower(p + name + ext)
}
