package main

import (
	"flag"

	"github.com/mecanim/mecanim/unity/assets"
	"github.com/mecanim/mecanim/unity/unityfs"
	"github.com/mecanim/mecanim/unity/unityversion"
)

// readerFlags are the options every command that reads Unity files takes.
type readerFlags struct {
	layouts      string
	unityVersion string
}

func (r *readerFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&r.layouts, "layouts", "auto", "where object layouts come from: auto (embedded type trees, built-in for stripped files) or builtin")
	fs.StringVar(&r.unityVersion, "unity-version", "", "Unity version to assume for built-in layouts (for files whose version is blanked)")
}

func (r *readerFlags) options() (assets.Options, error) {
	m, err := assets.ParseLayoutMode(r.layouts)
	if err != nil {
		return assets.Options{}, usagef("%v", err)
	}
	if r.unityVersion != "" {
		if _, err := unityversion.Parse(r.unityVersion); err != nil {
			return assets.Options{}, usagef("--unity-version: %v", err)
		}
	}
	// One Cache for the whole command: every bundle it opens shares one
	// memory limit for decompressed data.
	return assets.Options{Layouts: m, UnityVersion: r.unityVersion, Cache: unityfs.NewCache(0)}, nil
}
