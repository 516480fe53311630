package inputs

import (
	"os"
	"path/filepath"
	"testing"
)

// KindOf names the inputs a set reads besides built Unity files, by
// extension or, for YAML, by the line Unity starts its text assets with.
func TestKindOfNamesWhatASetReads(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		name, content, want string
	}{
		{"me.glb", "glTF", GLTF},
		{"emotes.unitypackage", "\x1f\x8b", Package},
		{"me.VRM", "glTF", GLTF},
		{"scene.gltf", "{}", GLTF},
		{"Hero.fbx.meta", "fileFormatVersion: 2", Model},
		{"Dab.anim", "", YAML},
		{"Hero.controller", "", YAML},
		{"ChadRigAvatar.asset", "", YAML},
		{"noextension", "%YAML 1.1\n", YAML},
		{"Dab.anim.meta", "fileFormatVersion: 2", ""},
		{"char.bundle", "UnityFS\x00", ""},
		{"level0", "\x00\x00", ""},
	} {
		p := filepath.Join(dir, tc.name)
		if err := os.WriteFile(p, []byte(tc.content), 0o644); err != nil {
			t.Fatal(err)
		}
		if got := KindOf(p); got != tc.want {
			t.Errorf("KindOf(%s) = %q, want %q", tc.name, got, tc.want)
		}
		if got := KindOfHead(p, []byte(tc.content)); got != tc.want {
			t.Errorf("KindOfHead(%s) = %q, want %q", tc.name, got, tc.want)
		}
	}
}
