package extract_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// checkManifestSchema validates a written manifest.json against
// docs/schema/manifest.json (unknown keys rejected), as every command's JSON
// is validated against its schema.
func checkManifestSchema(t *testing.T, path string) {
	t.Helper()
	schema, err := filepath.Abs("../docs/schema/manifest.json")
	if err != nil {
		t.Fatal(err)
	}
	s, err := jsonschema.NewCompiler().Compile(schema)
	if err != nil {
		t.Fatalf("docs/schema/manifest.json: %v", err)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	v, err := jsonschema.UnmarshalJSON(f)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	if err := s.Validate(v); err != nil {
		t.Errorf("%s does not follow docs/schema/manifest.json: %v", path, err)
	}
}
