package bind

import (
	"archive/tar"
	"bufio"
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"github.com/mecanim/mecanim/inputs"
	"io"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"github.com/mecanim/mecanim/decode/yamlasset"
	"github.com/mecanim/mecanim/model"
)

// Limits on what a Unity package may make a set hold: an editor text
// asset's bytes, a pathname's. Assets that are not text (models, textures,
// audio) are passed over unread.
const (
	maxPackageAsset    = 256 << 20
	maxPackagePathname = 4096
)

// packageAsset is one GUID folder of a Unity package: the asset's path in
// the project it came from, its bytes when it is a text asset, and its
// importer settings when they hold a human description.
type packageAsset struct {
	guid     string
	pathname string
	text     []byte // the asset, when it is an editor text asset (%YAML)
	meta     []byte // asset.meta, for the models among them
}

// addUnityPackage reads an editor package (a .unitypackage: a gzip'd tar
// of one folder per asset, named by its GUID, holding the asset's project
// path, its bytes and its .meta) as a project folder: every editor text
// asset in it is an input, references between them followed through the
// GUIDs, and a model's importer settings give its avatar as a .fbx.meta
// does. Objects are named by their project paths (File of their Source).
func (s *Set) addUnityPackage(pkg string) []error {
	f, err := os.Open(pkg)
	if err != nil {
		return []error{err}
	}
	defer f.Close()
	zr, err := gzip.NewReader(bufio.NewReader(f))
	if err != nil {
		return []error{fmt.Errorf("%s: not a Unity package (a gzip'd tar): %w", pkg, err)}
	}
	var errs []error
	byGUID := map[string]*packageAsset{}
	get := func(guid string) *packageAsset {
		a := byGUID[guid]
		if a == nil {
			a = &packageAsset{guid: guid}
			byGUID[guid] = a
		}
		return a
	}
	tr := tar.NewReader(zr)
	for {
		h, err := tr.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			errs = append(errs, fmt.Errorf("%s: reading the package: %w", pkg, err))
			break
		}
		if h.Typeflag != tar.TypeReg {
			continue
		}
		guid, file := path.Split(strings.TrimPrefix(h.Name, "./"))
		guid = strings.TrimSuffix(guid, "/")
		if guid == "" || strings.Contains(guid, "/") {
			continue
		}
		switch file {
		case "pathname":
			b, err := io.ReadAll(io.LimitReader(tr, maxPackagePathname+1))
			if err == nil && len(b) > maxPackagePathname {
				err = fmt.Errorf("over %d bytes", maxPackagePathname)
			}
			if err != nil {
				errs = append(errs, fmt.Errorf("%s: %s: %w", pkg, h.Name, err))
				continue
			}
			name, _, _ := strings.Cut(string(b), "\n")
			get(guid).pathname = strings.TrimSpace(name)
		case "asset", "asset.meta":
			b, err := readTextAsset(tr, h.Size, file == "asset.meta")
			if err != nil {
				errs = append(errs, fmt.Errorf("%s: %s: %w", pkg, h.Name, err))
				continue
			}
			if file == "asset" {
				get(guid).text = b
			} else {
				get(guid).meta = b
			}
		}
	}
	var assets []*packageAsset
	for _, a := range byGUID {
		if a.pathname != "" {
			assets = append(assets, a)
		}
	}
	sort.Slice(assets, func(i, j int) bool { return assets[i].pathname < assets[j].pathname })
	abs, _ := filepath.Abs(pkg)
	key := func(a *packageAsset) string { return filepath.Join(abs, filepath.FromSlash(a.pathname)) }
	// Every GUID first, so that references resolve whatever the order.
	for _, a := range assets {
		s.guidPath[a.guid] = key(a)
	}
	for _, a := range assets {
		wrap := func(err error) error { return fmt.Errorf("%s: %s: %w", pkg, a.pathname, err) }
		if a.text != nil {
			yf, err := yamlasset.Parse(bytes.NewReader(a.text), key(a))
			if err == nil {
				err = s.addYAMLFile(yf, key(a), pkg, a.pathname)
			}
			if err != nil {
				errs = append(errs, wrap(err))
			}
		}
		if a.meta != nil && inputs.IsModelMeta(a.pathname+".meta") {
			mf, err := yamlasset.Parse(bytes.NewReader(a.meta), key(a)+".meta")
			if err == nil {
				err = s.addModelSettings(mf, path.Base(a.pathname), model.Source{Container: pkg, File: a.pathname})
			}
			if err != nil {
				errs = append(errs, wrap(err))
			}
		}
	}
	return errs
}

// readTextAsset reads a package entry of size bytes when it is an editor
// text asset (it starts "%YAML", or any .meta file), nil otherwise (the
// rest of the entry is left for the tar reader to skip).
func readTextAsset(r io.Reader, size int64, meta bool) ([]byte, error) {
	head := make([]byte, 5)
	n, err := io.ReadFull(r, head)
	if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) && !errors.Is(err, io.EOF) {
		return nil, err
	}
	if !meta && string(head[:n]) != "%YAML" {
		return nil, nil
	}
	if size > maxPackageAsset {
		return nil, fmt.Errorf("a text asset of %d bytes, over the %d-byte limit", size, maxPackageAsset)
	}
	rest, err := io.ReadAll(io.LimitReader(r, maxPackageAsset))
	if err != nil {
		return nil, err
	}
	return append(head[:n], rest...), nil
}
