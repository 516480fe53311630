package bind

import (
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/mecanim/mecanim/internal/corpustest"
)

// Older Unity versions write a model's human description with every
// parent name empty: the hierarchy is the model file's. Such settings are
// valid: they open without error, their avatar is listed, and it is
// refused, saying why, only where it is used.
func TestModelSettingsThatLeaveParentsToTheModelAreListedAndRefusedWhereUsed(t *testing.T) {
	b, err := os.ReadFile(corpustest.Path(t, "animation-jobs-samples/DefaultMale/Models/DefaultMale_Humanoid.fbx.meta"))
	if err != nil {
		t.Fatal(err)
	}
	blank := regexp.MustCompile(`(?m)^(\s*parentName:).*$`)
	if len(blank.FindAll(b, -1)) < 20 {
		t.Fatal("the corpus settings name fewer than 20 parents")
	}
	p := filepath.Join(t.TempDir(), "Old.fbx.meta")
	if err := os.WriteFile(p, blank.ReplaceAll(b, []byte("$1 ")), 0o644); err != nil {
		t.Fatal(err)
	}
	set, err := Open(t.Context(), []string{p}, Options{})
	if err != nil {
		t.Fatalf("valid settings refused at open: %v", err)
	}
	defer set.Close()
	i, err := set.FindAvatar("OldAvatar")
	if err != nil {
		t.Fatalf("the avatar is not listed: %v", err)
	}
	_, err = set.Avatar(i)
	if err == nil || !strings.Contains(err.Error(), "model's own hierarchy") || !strings.Contains(err.Error(), p) {
		t.Fatalf("using the avatar: %v; want a refusal naming the file and the hierarchy", err)
	}
	if errors.Is(err, ErrAmbiguous) {
		t.Fatal("refused as ambiguous")
	}
}
