package main

import (
	"github.com/mecanim/mecanim/geom"
)

// xformJSON is a transform in the CLI's JSON: t, r (x y z w) and s arrays.
type xformJSON struct {
	T [3]jsonFloat `json:"t"`
	R [4]jsonFloat `json:"r"`
	S [3]jsonFloat `json:"s"`
}

func xform(x geom.Transform) xformJSON {
	return xformJSON{
		T: vec3(x.T),
		R: [4]jsonFloat{jsonFloat(x.R.X), jsonFloat(x.R.Y), jsonFloat(x.R.Z), jsonFloat(x.R.W)},
		S: vec3(x.S),
	}
}

func vec3(v geom.Vec3) [3]jsonFloat {
	return [3]jsonFloat{jsonFloat(v.X), jsonFloat(v.Y), jsonFloat(v.Z)}
}

func quat4(q geom.Quat) [4]jsonFloat {
	return [4]jsonFloat{jsonFloat(q.X), jsonFloat(q.Y), jsonFloat(q.Z), jsonFloat(q.W)}
}
