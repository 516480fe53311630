package gltf

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// issues is the part of the Khronos validator's report the tests read.
type issues struct {
	NumErrors   int `json:"numErrors"`
	NumWarnings int `json:"numWarnings"`
	NumInfos    int `json:"numInfos"`
	NumHints    int `json:"numHints"`
	Messages    []struct {
		Code     string `json:"code"`
		Message  string `json:"message"`
		Severity int    `json:"severity"`
		Pointer  string `json:"pointer"`
	} `json:"messages"`
}

// validatorPath returns the node_modules directory holding gltf-validator,
// or skips (fails when MECANIM_REQUIRE_GLTF_VALIDATOR=1) when node or the
// package is missing.
func validatorPath(tb testing.TB) string {
	tb.Helper()
	var dirs []string
	if d := os.Getenv("GLTF_VALIDATOR_DIR"); d != "" {
		dirs = append(dirs, filepath.Join(d, "node_modules"), d)
	}
	dirs = append(dirs, "/tmp/node_modules")
	_, nodeErr := exec.LookPath("node")
	for _, d := range dirs {
		if _, err := os.Stat(filepath.Join(d, "gltf-validator", "package.json")); err == nil && nodeErr == nil {
			return d
		}
	}
	msg := "glTF validator not available: install node and `npm install gltf-validator` in /tmp or $GLTF_VALIDATOR_DIR"
	if os.Getenv("MECANIM_REQUIRE_GLTF_VALIDATOR") == "1" {
		tb.Fatal(msg + " (required by MECANIM_REQUIRE_GLTF_VALIDATOR=1)")
	}
	tb.Skip(msg)
	return ""
}

// validate runs the Khronos validator on a written file.
func validate(tb testing.TB, modules, file string) issues {
	tb.Helper()
	cmd := exec.Command("node", filepath.Join("testdata", "validate.js"), file)
	cmd.Env = append(os.Environ(), "NODE_PATH="+modules)
	out, err := cmd.Output()
	if err != nil {
		if ee, ok := err.(*exec.ExitError); ok {
			tb.Fatalf("validator on %s: %v: %s", file, err, ee.Stderr)
		}
		tb.Fatalf("validator on %s: %v", file, err)
	}
	var is issues
	if err := json.Unmarshal(out, &is); err != nil {
		tb.Fatalf("validator output %q: %v", out, err)
	}
	return is
}

// checkValid fails the test for every error the validator reports and
// logs the warnings.
func checkValid(t *testing.T, name string, is issues) {
	t.Helper()
	if is.NumErrors > 0 {
		t.Errorf("%s: %d validator errors", name, is.NumErrors)
	}
	shown := map[string]int{}
	for _, m := range is.Messages {
		if m.Severity > 1 {
			continue
		}
		shown[m.Code]++
		if shown[m.Code] > 3 {
			continue
		}
		if m.Severity == 0 {
			t.Errorf("%s: error %s at %s: %s", name, m.Code, m.Pointer, m.Message)
		} else {
			t.Logf("%s: warning %s at %s: %s", name, m.Code, m.Pointer, m.Message)
		}
	}
}

// validatorPathOrEmpty is validatorPath for tests that do more than
// validate: "" (logged) instead of a skip when the validator is missing.
func validatorPathOrEmpty(t *testing.T) string {
	t.Helper()
	var got string
	ok := t.Run("validator", func(t *testing.T) { got = validatorPath(t) })
	if !ok {
		t.FailNow()
	}
	if got == "" {
		t.Log("glTF validator not available: exports are checked by reading them back only")
	}
	return got
}
