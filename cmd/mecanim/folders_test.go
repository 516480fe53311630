package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A folder given to ls, clips or any other command is read for the Unity
// files in it, whatever their names: a game's data folder lists what its
// files list one by one.
func TestFoldersAreReadForTheirUnityFiles(t *testing.T) {
	dir := t.TempDir()
	b, err := os.ReadFile(helloBundle)
	if err != nil {
		t.Fatal(err)
	}
	data := filepath.Join(dir, "Game_Data", "StreamingAssets", "hero") // no Unity name
	os.MkdirAll(filepath.Dir(data), 0o755)
	os.WriteFile(data, b, 0o644)
	os.WriteFile(filepath.Join(dir, "Game_Data", "boot.config"), []byte("gfx-enable-jobs=1\n"), 0o644)
	for _, cmd := range []string{"ls", "clips", "controller", "avatar"} {
		byFile, errFile, codeFile := runCLI(cmd, "--json", data)
		byFolder, errFolder, codeFolder := runCLI(cmd, "--json", dir)
		if codeFile != codeFolder || errFile != errFolder {
			t.Errorf("%s: exit %d %q for the file, %d %q for its folder", cmd, codeFile, errFile, codeFolder, errFolder)
		}
		if byFile != byFolder || (codeFile == exitOK && byFile == "") {
			t.Errorf("%s: the folder lists\n%s\nwhere its file lists\n%s", cmd, byFolder, byFile)
		}
	}
	// ls lists a YAML asset's documents; one with none is a failure
	// naming it.
	yaml := filepath.Join(dir, "Dab.anim")
	os.WriteFile(yaml, []byte("%YAML 1.1\n%TAG !u! tag:unity3d.com,2011:\n"), 0o644)
	_, stderr, code := runCLI("ls", yaml)
	if code != exitFailed || !strings.Contains(stderr, "holds no objects") || !strings.Contains(stderr, yaml) {
		t.Errorf("ls of a YAML asset: exit %d, %q", code, stderr)
	}
}
