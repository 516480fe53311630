package compiled

import (
	"fmt"
	"math"
	"reflect"
)

// diff lists where a and b (values of the same type) differ, field by
// field, up to max entries; float32s differing by at most tol relative to
// max(1, |a|) count as equal (tol 0: exact, NaN equal to NaN).
func diff(a, b any, tol float64, max int) []string {
	var out []string
	var walk func(path string, x, y reflect.Value)
	walk = func(path string, x, y reflect.Value) {
		if len(out) >= max {
			return
		}
		switch x.Kind() {
		case reflect.Pointer:
			if x.IsNil() || y.IsNil() {
				if x.IsNil() != y.IsNil() {
					out = append(out, fmt.Sprintf("%s: nil %v vs %v", path, x.IsNil(), y.IsNil()))
				}
				return
			}
			walk(path, x.Elem(), y.Elem())
		case reflect.Struct:
			for i := 0; i < x.NumField(); i++ {
				walk(path+"."+x.Type().Field(i).Name, x.Field(i), y.Field(i))
			}
		case reflect.Slice, reflect.Array:
			if x.Len() != y.Len() {
				out = append(out, fmt.Sprintf("%s: length %d vs %d", path, x.Len(), y.Len()))
				return
			}
			for i := 0; i < x.Len(); i++ {
				walk(fmt.Sprintf("%s[%d]", path, i), x.Index(i), y.Index(i))
			}
		case reflect.Map:
			for _, k := range x.MapKeys() {
				yv := y.MapIndex(k)
				if !yv.IsValid() {
					out = append(out, fmt.Sprintf("%s[%v]: only in the first", path, k))
					continue
				}
				walk(fmt.Sprintf("%s[%v]", path, k), x.MapIndex(k), yv)
			}
			for _, k := range y.MapKeys() {
				if !x.MapIndex(k).IsValid() {
					out = append(out, fmt.Sprintf("%s[%v]: only in the second", path, k))
				}
			}
		case reflect.Float32, reflect.Float64:
			p, q := x.Float(), y.Float()
			if p == q || (math.IsNaN(p) && math.IsNaN(q)) {
				return
			}
			if math.Abs(p-q) > tol*math.Max(1, math.Abs(p)) {
				out = append(out, fmt.Sprintf("%s: %v vs %v", path, p, q))
			}
		default:
			if !reflect.DeepEqual(x.Interface(), y.Interface()) {
				out = append(out, fmt.Sprintf("%s: %v vs %v", path, x.Interface(), y.Interface()))
			}
		}
	}
	walk("", reflect.ValueOf(a), reflect.ValueOf(b))
	return out
}
