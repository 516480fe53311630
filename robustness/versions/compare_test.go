package versions

import (
	"fmt"
	"math"
	"reflect"
	"sort"
	"testing"
)

// maxDiffs bounds how many differences one comparison reports.
const maxDiffs = 12

// diff lists where got and want differ, field by field (floats bit for
// bit, NaN equal to NaN), at most maxDiffs of them.
func diff(got, want any) []string {
	var out []string
	diffValue(reflect.ValueOf(got), reflect.ValueOf(want), "", &out)
	return out
}

func diffValue(g, w reflect.Value, path string, out *[]string) {
	if len(*out) >= maxDiffs {
		return
	}
	add := func(format string, args ...any) {
		if len(*out) < maxDiffs {
			*out = append(*out, path+": "+fmt.Sprintf(format, args...))
		}
	}
	if g.IsValid() != w.IsValid() {
		add("got valid %v, want valid %v", g.IsValid(), w.IsValid())
		return
	}
	if !g.IsValid() {
		return
	}
	switch g.Kind() {
	case reflect.Pointer, reflect.Interface:
		if g.IsNil() != w.IsNil() {
			add("got nil %v, want nil %v", g.IsNil(), w.IsNil())
			return
		}
		if !g.IsNil() {
			diffValue(g.Elem(), w.Elem(), path, out)
		}
	case reflect.Struct:
		for i := 0; i < g.NumField(); i++ {
			if !g.Type().Field(i).IsExported() {
				continue
			}
			diffValue(g.Field(i), w.Field(i), path+"."+g.Type().Field(i).Name, out)
		}
	case reflect.Slice, reflect.Array:
		if g.Len() != w.Len() {
			add("got %d elements, want %d", g.Len(), w.Len())
			return
		}
		for i := 0; i < g.Len(); i++ {
			diffValue(g.Index(i), w.Index(i), fmt.Sprintf("%s[%d]", path, i), out)
		}
	case reflect.Map:
		keys := map[string]reflect.Value{}
		for _, k := range append(g.MapKeys(), w.MapKeys()...) {
			keys[fmt.Sprint(k.Interface())] = k
		}
		names := make([]string, 0, len(keys))
		for n := range keys {
			names = append(names, n)
		}
		sort.Strings(names)
		for _, n := range names {
			k := keys[n]
			gv, wv := g.MapIndex(k), w.MapIndex(k)
			p := fmt.Sprintf("%s[%s]", path, n)
			if gv.IsValid() != wv.IsValid() {
				if len(*out) < maxDiffs {
					*out = append(*out, fmt.Sprintf("%s: got present %v, want present %v", p, gv.IsValid(), wv.IsValid()))
				}
				continue
			}
			diffValue(gv, wv, p, out)
		}
	case reflect.Float32, reflect.Float64:
		a, b := g.Float(), w.Float()
		if g.Kind() == reflect.Float32 {
			if math.Float32bits(float32(a)) != math.Float32bits(float32(b)) && !(a != a && b != b) {
				add("got %v, want %v", a, b)
			}
		} else if math.Float64bits(a) != math.Float64bits(b) && !(a != a && b != b) {
			add("got %v, want %v", a, b)
		}
	case reflect.Func, reflect.Chan, reflect.UnsafePointer:
		// Not data.
	default:
		if !reflect.DeepEqual(g.Interface(), w.Interface()) {
			add("got %v, want %v", g.Interface(), w.Interface())
		}
	}
}

// TestDiffReportsEveryKindOfDifference proves the comparison sees what it
// must: a float's last bit, a slice's length, a nil pointer, a map key.
func TestDiffReportsEveryKindOfDifference(t *testing.T) {
	type inner struct{ F float32 }
	type outer struct {
		P *inner
		S []int
		M map[uint32]string
		N float32
	}
	base := func() outer {
		return outer{P: &inner{1}, S: []int{1, 2}, M: map[uint32]string{1: "a"}, N: float32(math.NaN())}
	}
	if d := diff(base(), base()); len(d) != 0 {
		t.Fatalf("equal values differ: %v", d)
	}
	for _, tc := range []struct {
		name   string
		change func(*outer)
	}{
		{"float last bit", func(o *outer) { o.P.F = math.Nextafter32(1, 2) }},
		{"nil pointer", func(o *outer) { o.P = nil }},
		{"slice length", func(o *outer) { o.S = o.S[:1] }},
		{"slice element", func(o *outer) { o.S[1] = 3 }},
		{"map key", func(o *outer) { o.M[2] = "b" }},
		{"map value", func(o *outer) { o.M[1] = "b" }},
		{"NaN against a number", func(o *outer) { o.N = 0 }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			o := base()
			tc.change(&o)
			if d := diff(o, base()); len(d) == 0 {
				t.Error("no difference reported")
			}
		})
	}
}
