package inputs

import (
	"archive/tar"
	"bufio"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"sort"
	"strings"
)

// Limits on what a Unity package may make a set of inputs hold: an editor
// text asset's bytes, a pathname's. Assets that are not text (models, textures,
// audio) are passed over unread.
const (
	maxPackageAsset    = 256 << 20
	maxPackagePathname = 4096
)

// PackageAsset is one GUID folder of a Unity package: the asset's GUID and
// path in the project it came from, its bytes when it is an editor text
// asset, and its .meta (the importer settings: a model's hold its human
// description).
type PackageAsset struct {
	GUID     string
	Pathname string
	Text     []byte // the asset, when it is an editor text asset (%YAML)
	Meta     []byte // asset.meta
}

// ReadPackage reads an editor package (a .unitypackage: a gzip'd tar of one
// folder per asset, named by its GUID, holding the asset's project path, its
// bytes and its .meta): its assets that have a path, in path order, with
// their text when they are editor text assets. Other assets (models,
// textures, audio) are passed over unread. What cannot be read is an error
// naming the package and the entry; the assets read before are returned.
func ReadPackage(pkg string) ([]PackageAsset, []error) {
	f, err := os.Open(pkg)
	if err != nil {
		return nil, []error{err}
	}
	defer f.Close()
	zr, err := gzip.NewReader(bufio.NewReader(f))
	if err != nil {
		return nil, []error{fmt.Errorf("%s: not a Unity package (a gzip'd tar): %w", pkg, err)}
	}
	var errs []error
	byGUID := map[string]*PackageAsset{}
	get := func(guid string) *PackageAsset {
		a := byGUID[guid]
		if a == nil {
			a = &PackageAsset{GUID: guid}
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
			get(guid).Pathname = strings.TrimSpace(name)
		case "asset", "asset.meta":
			b, err := readTextAsset(tr, h.Size, file == "asset.meta")
			if err != nil {
				errs = append(errs, fmt.Errorf("%s: %s: %w", pkg, h.Name, err))
				continue
			}
			if file == "asset" {
				get(guid).Text = b
			} else {
				get(guid).Meta = b
			}
		}
	}
	var assets []PackageAsset
	for _, a := range byGUID {
		if a.Pathname != "" {
			assets = append(assets, *a)
		}
	}
	sort.Slice(assets, func(i, j int) bool { return assets[i].Pathname < assets[j].Pathname })
	return assets, errs
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
