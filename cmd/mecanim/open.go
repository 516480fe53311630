package main

import (
	"flag"
	"os"

	"github.com/mecanim/mecanim/bind"
	"github.com/mecanim/mecanim/decode/gltfchar"
	"github.com/mecanim/mecanim/unity/assets"
	"github.com/mecanim/mecanim/unity/serialized"
	"github.com/mecanim/mecanim/unity/unityfs"
	"github.com/mecanim/mecanim/unity/unityversion"
)

// readerFlags are the options every command that reads inputs takes.
type readerFlags struct {
	layouts      string
	unityVersion string
	humanMap     string
}

func (r *readerFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&r.layouts, "layouts", "auto", "where object layouts come from: auto (embedded type trees, built-in for stripped files) or builtin")
	fs.StringVar(&r.unityVersion, "unity-version", "", "Unity version to assume for built-in layouts (for files whose version is blanked; otherwise it is inferred and said on stderr)")
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
	// One Cache and one set of type trees for the whole command: every
	// bundle it opens shares one memory limit for decompressed data, and
	// each distinct type tree is held once.
	return assets.Options{Layouts: m, UnityVersion: r.unityVersion, Cache: unityfs.NewCache(0), Trees: serialized.NewTrees()}, nil
}

// openSet opens the inputs of a command as one set, reporting (and
// counting) the ones that fail, and noting each Unity version that was
// inferred rather than read.
func openSet(e *env, cmd string, files []string, rf *readerFlags) (*bind.Set, int, error) {
	if len(files) == 0 {
		return nil, 0, usagef("no files given")
	}
	opts, err := rf.options()
	if err != nil {
		return nil, 0, err
	}
	bo := bind.Options{Reader: opts}
	if rf.humanMap != "" {
		f, err := os.Open(rf.humanMap)
		if err != nil {
			return nil, 0, usagef("--human-map: %v", err)
		}
		bo.HumanMap, err = gltfchar.ParseHumanMap(f)
		f.Close()
		if err != nil {
			return nil, 0, usagef("--human-map %s: %v", rf.humanMap, err)
		}
	}
	set, errs := bind.Open(files, bo)
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
