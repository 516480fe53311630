package archtest

import (
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

const module = "github.com/mecanim/mecanim/"

// TestPicturesAndExportLinkNoReader is the layering checked as a user would:
// `go list -deps ./present/render ./export/gltf ./present/view` names no
// unity/ or decode/ package (drawing a pose or writing a file links no
// Unity reader).
func TestPicturesAndExportLinkNoReader(t *testing.T) {
	_, file, _, _ := runtime.Caller(0)
	root := filepath.Join(filepath.Dir(file), "..", "..")
	cmd := exec.Command("go", "list", "-deps", "./present/render", "./export/gltf", "./present/view")
	cmd.Dir = root
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	for _, p := range strings.Fields(string(out)) {
		if strings.HasPrefix(p, module+"unity/") || strings.HasPrefix(p, module+"decode/") {
			t.Errorf("a picture, an export or the viewer links %s", p)
		}
	}
}
