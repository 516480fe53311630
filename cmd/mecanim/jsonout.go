package main

import (
	"encoding/json"
	"io"
	"math"
	"strconv"

	"github.com/mecanim/mecanim/bound"
	"github.com/mecanim/mecanim/model"
)

// The JSON every command prints is described in docs/json.md and checked
// against the JSON Schemas in docs/schema. The conventions, kept by the
// types of this file:
//
//   - An object read from a file carries its identity: container, file and
//     path_id (model.Source's JSON), flat in a record that lists the object
//     itself (ls, clips, avatar, controller, dump), as an objectRef where a
//     record names another object (a clip, an avatar, a controller), as a
//     characterRef for what a clip plays on ("on").
//   - A time in seconds is "time"; a series of times is "frames", each
//     with its "time"; frames per second is "sample_rate". "t", "r" and "s"
//     are a transform's translation, rotation (x, y, z, w) and scale.
//   - Lists are [] when empty, never null; null is only written where the
//     schema says a value may be absent.

// writeJSONLine writes v as one line of JSON.
func writeJSONLine(w io.Writer, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	b = append(b, '\n')
	_, err = w.Write(b)
	return err
}

// jsonFloat writes a float32 in its shortest form, with NaN and the
// infinities as strings.
type jsonFloat float32

// MarshalJSON implements json.Marshaler.
func (f jsonFloat) MarshalJSON() ([]byte, error) {
	x := float64(f)
	switch {
	case math.IsNaN(x):
		return []byte(`"NaN"`), nil
	case math.IsInf(x, 1):
		return []byte(`"Infinity"`), nil
	case math.IsInf(x, -1):
		return []byte(`"-Infinity"`), nil
	}
	return strconv.AppendFloat(nil, x, 'g', -1, 32), nil
}

// UnmarshalJSON implements json.Unmarshaler (numbers, and the strings
// MarshalJSON writes), for reading the commands' JSON back.
func (f *jsonFloat) UnmarshalJSON(b []byte) error {
	switch string(b) {
	case `"NaN"`:
		*f = jsonFloat(math.NaN())
	case `"Infinity"`:
		*f = jsonFloat(math.Inf(1))
	case `"-Infinity"`:
		*f = jsonFloat(math.Inf(-1))
	default:
		x, err := strconv.ParseFloat(string(b), 32)
		if err != nil {
			return err
		}
		*f = jsonFloat(x)
	}
	return nil
}

// objectRef names an object read from a file: its name and where it is.
type objectRef struct {
	Name      string `json:"name"`
	Container string `json:"container"`
	File      string `json:"file"`
	PathID    int64  `json:"path_id"`
}

func refOf(name string, src model.Source) objectRef {
	return objectRef{Name: name, Container: src.Container, File: src.File, PathID: src.PathID}
}

// characterRef is what a clip or a controller plays on: a rig (the
// GameObjects under an Animator, a prefab's root, a glTF character) or,
// when the inputs hold no GameObjects for it, an avatar's own skeleton;
// with the avatar it plays through (null: none).
type characterRef struct {
	Name      string     `json:"name"`
	Kind      string     `json:"kind"` // "rig" or "avatar"
	Container string     `json:"container"`
	File      string     `json:"file"`
	PathID    int64      `json:"path_id"`
	Avatar    *objectRef `json:"avatar"`
}

func characterOf(ch *bound.Character) characterRef {
	src := ch.Source()
	r := characterRef{Name: ch.Name(), Kind: "rig", Container: src.Container, File: src.File, PathID: src.PathID}
	switch {
	case ch.FromAvatar():
		r.Kind = "avatar"
	case ch.OwnPaths():
		r.Kind = "paths"
	}
	if av, asrc := ch.Avatar(); av != nil {
		a := refOf(av.Name, asrc)
		r.Avatar = &a
	}
	return r
}
