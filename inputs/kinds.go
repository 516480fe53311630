// Package inputs finds what a set of paths holds for mecanim to read: built
// Unity files (told by their first bytes, whatever their names), split files,
// glTF and VRM characters, model importer settings, the editor's YAML assets
// and packages, and folders (a game's or a mod's, or a Unity project). It is
// where every command and extract learn what their inputs are; package bind
// reads them.
package inputs

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
)

// Kinds of inputs that are not built Unity files (KindOf).
const (
	GLTF    = "glTF character"
	Model   = "model importer settings"
	YAML    = "Unity YAML asset"
	Package = "Unity package"
	Project = "Unity project folder"
)

// Error is the failure to read one of the inputs given.
type Error struct {
	Input string
	Err   error
}

// Error says the input, once.
func (e *Error) Error() string {
	msg := e.Err.Error()
	if strings.Contains(msg, e.Input) {
		return msg
	}
	return e.Input + ": " + msg
}

// Unwrap returns the cause.
func (e *Error) Unwrap() error { return e.Err }

// KindOf says which of the inputs besides built Unity files the file at
// path is: GLTF (.glb, .gltf, .vrm), Model (a model's .meta, with its human
// description), YAML (an editor text asset: .anim, .controller, .prefab and
// the rest, or a file starting "%YAML") or Package (a .unitypackage, read as
// a project); "" for any other file. A folder is read as a Project.
func KindOf(path string) string {
	if k := kindByName(path); k != "" {
		return k
	}
	if isYAMLAsset(path) {
		return YAML
	}
	return ""
}

// KindOfHead is KindOf for a file whose first bytes (head, at least 5 of
// them when the file has them) the caller has read already: it opens
// nothing.
func KindOfHead(path string, head []byte) string {
	if k := kindByName(path); k != "" {
		return k
	}
	if HasYAMLExtension(path) || bytes.HasPrefix(head, yamlMark) {
		return YAML
	}
	return ""
}

// kindByName is the kind a file's name alone tells.
func kindByName(path string) string {
	switch {
	case isCharacterFile(path):
		return GLTF
	case strings.EqualFold(filepath.Ext(path), ".unitypackage"):
		return Package
	case IsModelMeta(path):
		return Model
	}
	return ""
}

// isCharacterFile reports whether path is a glTF or VRM character.
func isCharacterFile(path string) bool {
	switch strings.ToLower(filepath.Ext(path)) {
	case ".glb", ".gltf", ".vrm":
		return true
	}
	return false
}

// IsModelMeta reports whether path is a model importer's settings (a
// .fbx.meta or the like), which hold a human description.
func IsModelMeta(path string) bool {
	p := strings.ToLower(path)
	return strings.HasSuffix(p, ".meta") && !strings.HasSuffix(p, ".anim.meta") && !strings.HasSuffix(p, ".controller.meta") &&
		(strings.Contains(p, ".fbx.") || strings.Contains(p, ".obj.") || strings.Contains(p, ".blend.") || strings.Contains(p, ".dae."))
}

// yamlExts are the editor's text assets read, by extension (lower case):
// clips, controllers, override controllers, avatar masks, prefabs and
// scenes, avatar assets.
var yamlExts = map[string]bool{
	".anim": true, ".controller": true, ".overridecontroller": true, ".mask": true,
	".prefab": true, ".unity": true, ".asset": true,
}

// HasYAMLExtension reports whether path names an editor text asset by its
// extension.
func HasYAMLExtension(path string) bool { return yamlExts[strings.ToLower(filepath.Ext(path))] }

// isYAMLAsset reports whether path is an editor text asset: by its
// extension, or by the "%YAML" line Unity starts them with.
func isYAMLAsset(path string) bool {
	if HasYAMLExtension(path) {
		return true
	}
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	head := make([]byte, len(yamlMark))
	n, _ := f.Read(head)
	return bytes.Equal(head[:n], yamlMark)
}

// yamlMark is how Unity starts its text assets.
var yamlMark = []byte("%YAML")
