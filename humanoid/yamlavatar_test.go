package humanoid

// A crude reader of the one YAML avatar in the corpus (ChadRigAvatar.asset),
// enough to test the muscle rules before decode/yamlasset and decode/compiled
// exist. It understands block maps, block lists, flow maps of scalars and
// scalars: what Unity writes for an Avatar.

import (
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/mecanim/mecanim/geom"
	"github.com/mecanim/mecanim/model"
)

type yline struct {
	indent int
	text   string
}

// yparse parses lines[i:] at the given indent into a value (map[string]any,
// []any or string) and returns the next line index.
func yparse(lines []yline, i, indent int) (any, int) {
	if i >= len(lines) {
		return "", i
	}
	if strings.HasPrefix(lines[i].text, "- ") || lines[i].text == "-" {
		var list []any
		for i < len(lines) && lines[i].indent == indent && (strings.HasPrefix(lines[i].text, "- ") || lines[i].text == "-") {
			// An item: rewrite "- a: b" as a map line at indent+2.
			rest := strings.TrimPrefix(strings.TrimPrefix(lines[i].text, "-"), " ")
			if !strings.Contains(rest, ": ") && !strings.HasSuffix(rest, ":") {
				list = append(list, yscalar(rest))
				i++
				continue
			}
			lines[i] = yline{indent + 2, rest}
			v, j := yparse(lines, i, indent+2)
			list = append(list, v)
			i = j
		}
		return list, i
	}
	m := map[string]any{}
	for i < len(lines) && lines[i].indent == indent && !strings.HasPrefix(lines[i].text, "- ") {
		t := lines[i].text
		k, v, _ := strings.Cut(t, ":")
		v = strings.TrimSpace(v)
		i++
		if v == "" && i < len(lines) && (lines[i].indent > indent || (lines[i].indent == indent && strings.HasPrefix(lines[i].text, "- "))) {
			var sub any
			sub, i = yparse(lines, i, lines[i].indent)
			m[k] = sub
			continue
		}
		m[k] = yscalar(v)
	}
	return m, i
}

func yscalar(v string) any {
	if strings.HasPrefix(v, "{") && strings.HasSuffix(v, "}") {
		m := map[string]any{}
		for _, kv := range strings.Split(v[1:len(v)-1], ",") {
			k, val, _ := strings.Cut(kv, ":")
			m[strings.TrimSpace(k)] = strings.TrimSpace(val)
		}
		return m
	}
	return v
}

type ywalk struct {
	t testing.TB
}

func (w *ywalk) get(v any, path ...string) any {
	for _, p := range path {
		m, ok := v.(map[string]any)
		if !ok {
			w.t.Fatalf("yaml: %q: not a map", p)
		}
		v, ok = m[p]
		if !ok {
			w.t.Fatalf("yaml: no %q", p)
		}
	}
	return v
}

func (w *ywalk) f(v any, path ...string) float32 {
	s, _ := w.get(v, path...).(string)
	x, err := strconv.ParseFloat(s, 64)
	if err != nil {
		w.t.Fatalf("yaml %v: %v", path, err)
	}
	return float32(x)
}

func (w *ywalk) list(v any, path ...string) []any {
	x := w.get(v, path...)
	if s, ok := x.(string); ok && s == "[]" {
		return nil
	}
	l, _ := x.([]any)
	return l
}

func (w *ywalk) v3(v any, path ...string) geom.Vec3 {
	m := w.get(v, path...)
	return geom.Vec3{X: w.f(m, "x"), Y: w.f(m, "y"), Z: w.f(m, "z")}
}

func (w *ywalk) q(v any, path ...string) geom.Quat {
	m := w.get(v, path...)
	return geom.Quat{X: w.f(m, "x"), Y: w.f(m, "y"), Z: w.f(m, "z"), W: w.f(m, "w")}
}

func (w *ywalk) xform(v any) geom.Transform {
	return geom.Transform{T: w.v3(v, "t"), R: w.q(v, "q"), S: w.v3(v, "s")}
}

func (w *ywalk) hexU32(v any, path ...string) []uint32 {
	s, _ := w.get(v, path...).(string)
	b, err := hex.DecodeString(s)
	if err != nil {
		w.t.Fatalf("yaml %v: %v", path, err)
	}
	out := make([]uint32, len(b)/4)
	for i := range out {
		out[i] = binary.LittleEndian.Uint32(b[4*i:])
	}
	return out
}

func (w *ywalk) hexInt(v any, path ...string) []int {
	u := w.hexU32(v, path...)
	out := make([]int, len(u))
	for i, x := range u {
		out[i] = int(int32(x))
	}
	return out
}

func (w *ywalk) skeleton(v any) model.Skeleton {
	var s model.Skeleton
	ids := w.hexU32(v, "m_ID")
	for i, n := range w.list(v, "m_Node") {
		nd := model.SkeletonNode{Parent: int(w.f(n, "m_ParentId")), Axes: int(w.f(n, "m_AxesId"))}
		if i < len(ids) {
			nd.PathHash = ids[i]
		}
		s.Nodes = append(s.Nodes, nd)
	}
	for _, a := range w.list(v, "m_AxesArray") {
		s.Axes = append(s.Axes, model.Axes{
			Pre: w.q(a, "m_PreQ"), Post: w.q(a, "m_PostQ"), Sign: w.v3(a, "m_Sgn"),
			Min: w.v3(a, "m_Limit", "m_Min"), Max: w.v3(a, "m_Limit", "m_Max"),
			Length: w.f(a, "m_Length"), Type: int32(w.f(a, "m_Type")),
		})
	}
	return s
}

func (w *ywalk) pose(v any) []geom.Transform {
	var out []geom.Transform
	for _, x := range w.list(v, "m_X") {
		out = append(out, w.xform(x))
	}
	return out
}

// loadYAMLAvatar reads a Unity YAML Avatar asset into a model.Avatar.
func loadYAMLAvatar(t testing.TB, path string) *model.Avatar {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var lines []yline
	for _, l := range strings.Split(string(b), "\n") {
		l = strings.TrimRight(l, "\r")
		if strings.TrimSpace(l) == "" || strings.HasPrefix(l, "%") || strings.HasPrefix(l, "---") {
			continue
		}
		tr := strings.TrimLeft(l, " ")
		lines = append(lines, yline{len(l) - len(tr), tr})
	}
	root, _ := yparse(lines, 0, 0)
	w := &ywalk{t: t}
	av := w.get(root, "Avatar")
	a := &model.Avatar{Names: model.Names{}}
	a.Name, _ = w.get(av, "m_Name").(string)
	c := w.get(av, "m_Avatar")
	a.Skeleton = w.skeleton(w.get(c, "m_AvatarSkeleton", "data"))
	a.SkeletonPose = w.pose(w.get(c, "m_AvatarSkeletonPose", "data"))
	a.DefaultPose = w.pose(w.get(c, "m_DefaultPose", "data"))
	a.HumanSkeletonIndex = w.hexInt(c, "m_HumanSkeletonIndexArray")
	a.RootMotionBone = int(w.f(c, "m_RootMotionBoneIndex"))
	hd := w.get(c, "m_Human", "data")
	h := &model.Human{
		RootX:         w.xform(w.get(hd, "m_RootX")),
		Skeleton:      w.skeleton(w.get(hd, "m_Skeleton", "data")),
		Pose:          w.pose(w.get(hd, "m_SkeletonPose", "data")),
		BoneIndex:     w.hexInt(hd, "m_HumanBoneIndex"),
		LeftHand:      w.hexInt(hd, "m_LeftHand", "data", "m_HandBoneIndex"),
		RightHand:     w.hexInt(hd, "m_RightHand", "data", "m_HandBoneIndex"),
		Scale:         w.f(hd, "m_Scale"),
		ArmTwist:      w.f(hd, "m_ArmTwist"),
		ForeArmTwist:  w.f(hd, "m_ForeArmTwist"),
		UpperLegTwist: w.f(hd, "m_UpperLegTwist"),
		LegTwist:      w.f(hd, "m_LegTwist"),
		ArmStretch:    w.f(hd, "m_ArmStretch"),
		LegStretch:    w.f(hd, "m_LegStretch"),
		FeetSpacing:   w.f(hd, "m_FeetSpacing"),
		HasLeftHand:   w.f(hd, "m_HasLeftHand") != 0,
		HasRightHand:  w.f(hd, "m_HasRightHand") != 0,
		HasTDoF:       w.f(hd, "m_HasTDoF") != 0,
	}
	for _, m := range w.list(hd, "m_HumanBoneMass") {
		x, err := strconv.ParseFloat(m.(string), 32)
		if err != nil {
			t.Fatal(err)
		}
		h.BoneMass = append(h.BoneMass, float32(x))
	}
	a.Human = h
	if tos, ok := w.get(av, "m_TOS").(map[string]any); ok {
		for k, v := range tos {
			x, err := strconv.ParseUint(k, 10, 32)
			if err != nil {
				t.Fatal(fmt.Errorf("m_TOS key %q: %w", k, err))
			}
			s, _ := v.(string)
			a.Names[uint32(x)] = s
		}
	}
	return a
}
