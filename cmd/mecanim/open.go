package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"strconv"
	"strings"

	"github.com/mecanim/mecanim/bind"
	"github.com/mecanim/mecanim/decode/gltfchar"
	"github.com/mecanim/mecanim/unity/assets"
	"github.com/mecanim/mecanim/unity/filepool"
	"github.com/mecanim/mecanim/unity/serialized"
	"github.com/mecanim/mecanim/unity/unityfs"
	"github.com/mecanim/mecanim/unity/unityversion"
)

// readerFlags are the options every command that reads inputs takes.
type readerFlags struct {
	layouts      string
	unityVersion string
	humanMap     string
	blockCache   string
}

func (r *readerFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&r.layouts, "layouts", "auto", "where object layouts come from: auto (embedded type trees, built-in for stripped files) or builtin")
	fs.StringVar(&r.unityVersion, "unity-version", "", "Unity version to assume for built-in layouts (for files whose version is blanked; otherwise it is inferred and said on stderr)")
	fs.StringVar(&r.blockCache, "block-cache", "256MiB", "most decompressed bundle data held at once, for all files together (e.g. 512MiB, 2GiB); a bundle block larger than it cannot be read")
	fs.StringVar(&r.humanMap, "human-map", "", "JSON file mapping Unity's human bone names to the nodes of the glTF characters given ({\"Hips\": \"pelvis\", ...}), for rigs whose bone names are not recognised")
}

func (r *readerFlags) options() (assets.Options, error) {
	m, err := assets.ParseLayoutMode(r.layouts)
	if err != nil {
		return assets.Options{}, usagef("--layouts: %v", err)
	}
	if r.unityVersion != "" {
		if _, err := unityversion.Parse(r.unityVersion); err != nil {
			return assets.Options{}, usagef("--unity-version: %v", err)
		}
	}
	limit, err := parseSize(r.blockCache)
	if err != nil {
		return assets.Options{}, usagef("--block-cache: %v", err)
	}
	// One Cache and one set of type trees for the whole command: every
	// bundle it opens shares one memory limit for decompressed data, and
	// each distinct type tree is held once.
	return assets.Options{Layouts: m, UnityVersion: r.unityVersion, Cache: unityfs.NewCache(limit), Trees: serialized.NewTrees(), Files: filepool.New(0)}, nil
}

// bindOptions are the options of a set read with these flags.
func (r *readerFlags) bindOptions() (bind.Options, error) {
	opts, err := r.options()
	if err != nil {
		return bind.Options{}, err
	}
	bo := bind.Options{Reader: opts}
	if r.humanMap != "" {
		f, err := os.Open(r.humanMap)
		if err != nil {
			return bind.Options{}, usagef("--human-map: %v", err)
		}
		bo.HumanMap, err = gltfchar.ParseHumanMap(f)
		f.Close()
		if err != nil {
			return bind.Options{}, usagef("--human-map %s: %v", r.humanMap, err)
		}
	}
	return bo, nil
}

// parseSize reads a byte size: a whole number with an optional unit KiB,
// MiB or GiB (K, M, G, KB, MB and GB mean the same); at least 1 MiB.
func parseSize(s string) (int64, error) {
	t := strings.TrimSpace(s)
	i := 0
	for i < len(t) && t[i] >= '0' && t[i] <= '9' {
		i++
	}
	n, err := strconv.ParseInt(t[:i], 10, 64)
	if err != nil {
		return 0, fmt.Errorf("%q is not a size (want a number of bytes, or e.g. 512MiB)", s)
	}
	var shift uint
	switch strings.ToUpper(strings.TrimSpace(t[i:])) {
	case "", "B":
	case "K", "KB", "KIB":
		shift = 10
	case "M", "MB", "MIB":
		shift = 20
	case "G", "GB", "GIB":
		shift = 30
	default:
		return 0, fmt.Errorf("%q: unknown unit %q (want KiB, MiB or GiB)", s, t[i:])
	}
	if n > (1<<62)>>shift {
		return 0, fmt.Errorf("%q is too large", s)
	}
	if n <<= shift; n < 1<<20 {
		return 0, fmt.Errorf("%q is under the least of 1MiB", s)
	}
	return n, nil
}

// openSet opens the inputs of a command as one set, reporting (and
// counting) the ones that fail, and noting each Unity version that was
// inferred rather than read. When ctx ends it returns ctx's error.
func openSet(ctx context.Context, e *env, cmd string, files []string, rf *readerFlags) (*bind.Set, int, error) {
	if len(files) == 0 {
		return nil, 0, usagef("no files given")
	}
	bo, err := rf.bindOptions()
	if err != nil {
		return nil, 0, err
	}
	set, err := bind.Open(ctx, files, bo)
	if set == nil {
		return nil, 0, err
	}
	errs := bind.Errors(err)
	for _, err := range errs {
		e.fail(err)
	}
	if cat := set.Catalog(); cat != nil {
		for _, c := range cat.Containers {
			noteVersions(e, c)
		}
	}
	return set, len(errs), nil
}

// noteVersions says, once per serialized file, how its Unity version was
// chosen when it is not the file's own (blanked versions are inferred).
func noteVersions(e *env, c *assets.Container) {
	for _, f := range c.Files {
		if f.VersionNote != "" {
			e.notef("%s: %s: %s", c.Path, f.Name, f.VersionNote)
		}
	}
}
