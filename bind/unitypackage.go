package bind

import (
	"bytes"
	"context"
	"fmt"
	"path"
	"path/filepath"

	"github.com/mecanim/mecanim/decode/yamlasset"
	"github.com/mecanim/mecanim/inputs"
	"github.com/mecanim/mecanim/model"
)

// addUnityPackage reads an editor package (inputs.ReadPackage) as a project
// folder: every editor text asset in it is an input, references between them
// followed through the GUIDs, and a model's importer settings give its avatar
// as a .fbx.meta does. Objects are named by their project paths (File of
// their Source). It stops when ctx ends (between assets).
func (s *Set) addUnityPackage(ctx context.Context, pkg string) []error {
	assets, errs := inputs.ReadPackage(pkg)
	abs, _ := filepath.Abs(pkg)
	key := func(a *inputs.PackageAsset) string { return filepath.Join(abs, filepath.FromSlash(a.Pathname)) }
	// Every GUID first, so that references resolve whatever the order.
	for i := range assets {
		s.guidPath[assets[i].GUID] = key(&assets[i])
	}
	for i := range assets {
		if ctx.Err() != nil {
			return errs
		}
		a := &assets[i]
		wrap := func(err error) error { return fmt.Errorf("%s: %s: %w", pkg, a.Pathname, err) }
		if a.Text != nil {
			yf, err := yamlasset.Parse(bytes.NewReader(a.Text), key(a))
			if err == nil {
				err = s.addYAMLFile(yf, key(a), pkg, a.Pathname)
			}
			if err != nil {
				errs = append(errs, wrap(err))
			}
		}
		if a.Meta != nil && inputs.IsModelMeta(a.Pathname+".meta") {
			mf, err := yamlasset.Parse(bytes.NewReader(a.Meta), key(a)+".meta")
			if err == nil {
				err = s.addModelSettings(mf, path.Base(a.Pathname), model.Source{Container: pkg, File: a.Pathname})
			}
			if err != nil {
				errs = append(errs, wrap(err))
			}
		}
	}
	return errs
}
