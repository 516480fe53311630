// Package assetbundle writes AssetBundles a Unity game loads: the objects
// given (compiled clips, controllers, avatars) with an AssetBundle object
// whose container paths and names the caller chooses, in a serialized file
// and UnityFS bundle whose Unity version, formats, type trees and type
// hashes are the target game's own (taken from a file of that game, or from
// the built-in layouts of its version when the game strips its type trees).
package assetbundle

import (
	"errors"
	"fmt"

	"github.com/mecanim/mecanim/unity/assets"
	"github.com/mecanim/mecanim/unity/layouts"
	"github.com/mecanim/mecanim/unity/typetree"
	"github.com/mecanim/mecanim/unity/unityversion"
	"github.com/mecanim/mecanim/unity/unitywrite"
)

// ErrNoLayout is wrapped when neither the target file nor the built-in
// layouts give a class's layout for the target's Unity version.
var ErrNoLayout = errors.New("assetbundle: no layout for the class")

// ErrTarget is wrapped when a target file cannot serve as one (no
// serialized file in it, a format this package does not write).
var ErrTarget = errors.New("assetbundle: not a usable target file")

// Target is what a packed bundle copies from the game it is made for.
type Target struct {
	source  string
	version string
	// layoutVersion is the version built-in layouts are looked up by: the
	// file's own, or the one inferred from its type trees when it is
	// blanked.
	layoutVersion unityversion.Version
	platform      int32
	format        uint32
	embed         bool
	archive       unitywrite.BundleSpec
	types         map[int32]unitywrite.Type // the game's own, by class (scripts left out)
	notes         []string
	// The target bundle's own AssetBundle object, when it has one: its
	// name, its serialized file's name and its assets by container path.
	bundleName, cab string
	existing        map[string]existingAsset
}

// existingAsset is an asset the target bundle already holds.
type existingAsset struct {
	pathID  int64
	preload int
}

// Version is the Unity version the bundle is written for.
func (t *Target) Version() string { return t.version }

// LayoutVersion is the Unity version the target's layouts and rules are
// those of: the file's own, or the one inferred from its type trees when
// the file's is blanked.
func (t *Target) LayoutVersion() unityversion.Version { return t.layoutVersion }

// Source names the file the target was taken from.
func (t *Target) Source() string { return t.source }

// Stripped reports whether the game's files carry no type trees (the packed
// file carries none either).
func (t *Target) Stripped() bool { return !t.embed }

// Notes says what the target could not give and what was used instead.
func (t *Target) Notes() []string { return t.notes }

// TargetOf reads the target from a file of the game: a bundle (its archive
// format too) or a serialized file (.assets, level). The first serialized
// file in it gives the version, platform, format and type table.
func TargetOf(path string) (*Target, error) {
	c, err := assets.Open(path, assets.Options{})
	if err != nil {
		return nil, err
	}
	defer c.Close()
	if len(c.Files) == 0 {
		return nil, fmt.Errorf("%s: %w: it holds no serialized file", path, ErrTarget)
	}
	f := c.Files[0]
	t := &Target{source: path, version: f.UnityVersion, layoutVersion: f.Version, platform: f.Platform, format: f.File.Version,
		embed: f.EnableTypeTree, types: map[int32]unitywrite.Type{}}
	if t.format < 17 || t.format > 22 {
		return nil, fmt.Errorf("%s: %w: serialized file format %d (17 to 22 are written: Unity 5.5 on)", path, ErrTarget, t.format)
	}
	if v, err := unityversion.Parse(t.version); err != nil || v.IsBlank() {
		if f.Version.IsBlank() {
			return nil, fmt.Errorf("%s: %w: its Unity version %q is blanked and cannot be inferred", path, ErrTarget, f.UnityVersion)
		}
		t.notes = append(t.notes, fmt.Sprintf("%s: the file's Unity version is %q; layouts of %s are used (the file keeps its own string)", path, f.UnityVersion, f.Version))
	}
	for i := range f.Types {
		ty := &f.Types[i]
		if ty.ScriptTypeIndex >= 0 {
			continue
		}
		if _, dup := t.types[ty.ClassID]; dup {
			continue
		}
		t.types[ty.ClassID] = unitywrite.Type{ClassID: ty.ClassID, Stripped: ty.Stripped, ScriptTypeIndex: -1,
			OldTypeHash: ty.OldTypeHash, Tree: ty.Tree, Dependencies: ty.Dependencies}
	}
	t.readAssetBundle(f)
	t.archive = unitywrite.BundleSpec{Format: archiveFormatFor(f.Version), EngineVersion: t.version}
	if len(c.Bundles) > 0 {
		a := c.Bundles[0]
		t.archive = unitywrite.BundleSpec{Format: a.FormatVersion, PlayerVersion: a.PlayerVersion, EngineVersion: a.EngineVersion}
	}
	return t, nil
}

// TargetForVersion is a target for a Unity version without a file of the
// game: built-in layouts, type trees embedded, no type hashes (Unity then
// checks the layout by the embedded trees).
func TargetForVersion(version string, platform int32) (*Target, error) {
	v, err := unityversion.Parse(version)
	if err != nil || v.IsBlank() {
		return nil, fmt.Errorf("%w: Unity version %q", ErrTarget, version)
	}
	format := uint32(22)
	if v.Less(unityversion.MustParse("2020.1.0a1")) {
		format = 21
	}
	if v.Less(unityversion.MustParse("2019.1.0a1")) {
		format = 17
	}
	return &Target{source: "Unity " + version, version: version, layoutVersion: v, platform: platform, format: format, embed: true,
		archive: unitywrite.BundleSpec{Format: archiveFormatFor(v), EngineVersion: version},
		types:   map[int32]unitywrite.Type{}}, nil
}

// archiveFormatFor is the UnityFS format Unity's versions write, as the
// corpus shows it: 6 up to 2019.3, 7 from 2019.4, 8 from 2022.1.
func archiveFormatFor(v unityversion.Version) uint32 {
	switch {
	case v.Less(unityversion.MustParse("2019.4.0a1")):
		return 6
	case v.Less(unityversion.MustParse("2022.1.0a1")):
		return 7
	}
	return 8
}

// typeFor returns the type entry and tree objects of a class are written
// with: the game's own when its file has the class (its tree, or for a
// stripped game the built-in layout of its version with the game's hash),
// else the built-in layout (noted).
func (t *Target) typeFor(classID int32) (unitywrite.Type, *typetree.Tree, error) {
	ty, ok := t.types[classID]
	if ok && ty.Tree != nil {
		return ty, ty.Tree, nil
	}
	if t.layoutVersion.IsBlank() {
		return ty, nil, fmt.Errorf("class %d (%s): %w: the target's Unity version %q is blanked and could not be inferred", classID, assets.ClassName(classID), ErrNoLayout, t.version)
	}
	tree, _, err := layouts.Lookup(t.layoutVersion, classID)
	if err != nil {
		return ty, nil, fmt.Errorf("class %d (%s) for Unity %s: %w: %v", classID, assets.ClassName(classID), t.layoutVersion, ErrNoLayout, err)
	}
	if !ok {
		ty = unitywrite.Type{ClassID: classID, ScriptTypeIndex: -1}
		if t.embed || len(t.types) > 0 {
			t.notes = append(t.notes, fmt.Sprintf("%s has no %s: its layout is the built-in one of Unity %s, without the game's type hash",
				t.source, assets.ClassName(classID), t.layoutVersion))
		}
	}
	if t.embed {
		ty.Tree = tree
	}
	return ty, tree, nil
}

// readAssetBundle records the target file's AssetBundle object, if any: a
// bundle packed again under its name keeps its serialized file's name, and
// assets packed at its container paths keep their path ids and preload
// order (so that other bundles' references to them still resolve).
func (t *Target) readAssetBundle(f *assets.File) {
	for i := range f.Objects {
		o := &f.Objects[i]
		if o.ClassID != classAssetBundle {
			continue
		}
		v, err := f.Decode(o)
		if err != nil {
			t.notes = append(t.notes, fmt.Sprintf("%s: its AssetBundle object does not read (%v): its path ids are not reused", t.source, err))
			return
		}
		t.bundleName, t.cab = v.Field("m_AssetBundleName").Str(), f.Name
		t.existing = map[string]existingAsset{}
		for _, e := range v.Field("m_Container").Elems() {
			_, id, _ := e.Path("second", "asset").PPtr()
			t.existing[e.Field("first").Str()] = existingAsset{id, int(e.Path("second", "preloadIndex").Int())}
		}
		return
	}
}
