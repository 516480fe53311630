package synth

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"math"
)

// mixamoBone is one node of MixamoGLB's armature: a Mixamo bone name, its
// parent (index in mixamoBones, -1 for the armature's root bone) and its
// position in the parent, in glTF's frame (the character faces +z, its
// left is +x).
type mixamoBone struct {
	name   string
	parent int
	pos    [3]float32
}

var mixamoBones = []mixamoBone{
	{"mixamorig:Hips", -1, [3]float32{0, 1, 0}},
	{"mixamorig:Spine", 0, [3]float32{0, 0.1, 0}},
	{"mixamorig:Spine1", 1, [3]float32{0, 0.12, 0}},
	{"mixamorig:Spine2", 2, [3]float32{0, 0.12, 0}},
	{"mixamorig:Neck", 3, [3]float32{0, 0.16, 0}},
	{"mixamorig:Head", 4, [3]float32{0, 0.1, 0}},
	{"mixamorig:LeftShoulder", 3, [3]float32{0.05, 0.12, 0}},
	{"mixamorig:LeftArm", 6, [3]float32{0.12, 0, 0}},
	{"mixamorig:LeftForeArm", 7, [3]float32{0.28, 0, 0}},
	{"mixamorig:LeftHand", 8, [3]float32{0.25, 0, 0}},
	{"mixamorig:RightShoulder", 3, [3]float32{-0.05, 0.12, 0}},
	{"mixamorig:RightArm", 10, [3]float32{-0.12, 0, 0}},
	{"mixamorig:RightForeArm", 11, [3]float32{-0.28, 0, 0}},
	{"mixamorig:RightHand", 12, [3]float32{-0.25, 0, 0}},
	{"mixamorig:LeftUpLeg", 0, [3]float32{0.1, -0.05, 0}},
	{"mixamorig:LeftLeg", 14, [3]float32{0, -0.45, 0}},
	{"mixamorig:LeftFoot", 15, [3]float32{0, -0.42, 0}},
	{"mixamorig:LeftToeBase", 16, [3]float32{0, -0.06, 0.12}},
	{"mixamorig:RightUpLeg", 0, [3]float32{-0.1, -0.05, 0}},
	{"mixamorig:RightLeg", 18, [3]float32{0, -0.45, 0}},
	{"mixamorig:RightFoot", 19, [3]float32{0, -0.42, 0}},
	{"mixamorig:RightToeBase", 20, [3]float32{0, -0.06, 0.12}},
}

// MixamoWalk is the name of MixamoGLB's animation, as Blender names the
// action of a Mixamo FBX it converts.
const MixamoWalk = "Armature|mixamo.com|Layer0"

// MixamoGLB returns a binary glTF holding what Blender writes for a Mixamo
// character: a node "Armature" over bones named "mixamorig:…" and, when
// walk is set, an animation (MixamoWalk, one second, 25 keys) swinging the
// legs and arms in opposition while the hips move forward by 1 m. No mesh.
func MixamoGLB(walk bool) []byte {
	type node struct {
		Name        string     `json:"name"`
		Children    []int      `json:"children,omitempty"`
		Translation []float32  `json:"translation,omitempty"`
		Rotation    *[]float32 `json:"rotation,omitempty"`
	}
	nodes := []node{{Name: "Armature"}}
	for i, b := range mixamoBones {
		nodes = append(nodes, node{Name: b.name, Translation: b.pos[:]})
		parent := 0
		if b.parent >= 0 {
			parent = b.parent + 1
		}
		nodes[parent].Children = append(nodes[parent].Children, i+1)
	}
	doc := map[string]any{
		"asset":  map[string]any{"version": "2.0", "generator": "mecanim synth"},
		"scene":  0,
		"scenes": []any{map[string]any{"nodes": []int{0}}},
		"nodes":  nodes,
	}
	var bin bytes.Buffer
	var views, accessors []any
	addFloats := func(v []float32, typ string, minmax bool) int {
		off := bin.Len()
		for _, x := range v {
			binary.Write(&bin, binary.LittleEndian, x)
		}
		views = append(views, map[string]any{"buffer": 0, "byteOffset": off, "byteLength": 4 * len(v)})
		comps := map[string]int{"SCALAR": 1, "VEC3": 3, "VEC4": 4}[typ]
		acc := map[string]any{"bufferView": len(views) - 1, "componentType": 5126, "count": len(v) / comps, "type": typ}
		if minmax {
			acc["min"], acc["max"] = []float32{v[0]}, []float32{v[len(v)-1]}
		}
		accessors = append(accessors, acc)
		return len(accessors) - 1
	}
	if walk {
		const keys = 25
		times := make([]float32, keys)
		for k := range times {
			times[k] = float32(k) / (keys - 1)
		}
		in := addFloats(times, "SCALAR", true)
		var channels, samplers []any
		swing := func(bone int, amp, phase float64) {
			v := make([]float32, 0, 4*keys)
			for _, t := range times {
				a := amp * math.Sin(2*math.Pi*float64(t)+phase) / 2
				v = append(v, float32(math.Sin(a)), 0, 0, float32(math.Cos(a))) // about x
			}
			samplers = append(samplers, map[string]any{"input": in, "output": addFloats(v, "VEC4", false)})
			channels = append(channels, map[string]any{"sampler": len(samplers) - 1, "target": map[string]any{"node": bone + 1, "path": "rotation"}})
		}
		const legs, knees, arms = 0.6, 0.5, 0.5
		swing(14, legs, 0)           // left upper leg
		swing(18, legs, math.Pi)     // right upper leg
		swing(15, -knees, math.Pi/2) // left knee
		swing(19, -knees, -math.Pi/2)
		swing(7, arms, math.Pi) // arms against the legs
		swing(11, arms, 0)
		hips := make([]float32, 0, 3*keys)
		for _, t := range times {
			hips = append(hips, 0, 1+0.02*float32(math.Cos(4*math.Pi*float64(t))), t)
		}
		samplers = append(samplers, map[string]any{"input": in, "output": addFloats(hips, "VEC3", false)})
		channels = append(channels, map[string]any{"sampler": len(samplers) - 1, "target": map[string]any{"node": 1, "path": "translation"}})
		doc["animations"] = []any{map[string]any{"name": MixamoWalk, "channels": channels, "samplers": samplers}}
	}
	if bin.Len() > 0 {
		doc["buffers"] = []any{map[string]any{"byteLength": bin.Len()}}
		doc["bufferViews"] = views
		doc["accessors"] = accessors
	}
	js, err := json.Marshal(doc)
	if err != nil {
		panic(err) // maps of plain values always marshal
	}
	for len(js)%4 != 0 {
		js = append(js, ' ')
	}
	for bin.Len()%4 != 0 {
		bin.WriteByte(0)
	}
	var out bytes.Buffer
	total := 12 + 8 + len(js)
	if bin.Len() > 0 {
		total += 8 + bin.Len()
	}
	le := binary.LittleEndian
	out.Write(le.AppendUint32(nil, 0x46546C67)) // "glTF"
	out.Write(le.AppendUint32(nil, 2))
	out.Write(le.AppendUint32(nil, uint32(total)))
	out.Write(le.AppendUint32(nil, uint32(len(js))))
	out.Write(le.AppendUint32(nil, 0x4E4F534A)) // "JSON"
	out.Write(js)
	if bin.Len() > 0 {
		out.Write(le.AppendUint32(nil, uint32(bin.Len())))
		out.Write(le.AppendUint32(nil, 0x004E4942)) // "BIN"
		out.Write(bin.Bytes())
	}
	return out.Bytes()
}
