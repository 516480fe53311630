package unityversion

import (
	"errors"
	"slices"
	"testing"

	"github.com/mecanim/mecanim/internal/fuzzcount"
)

func TestParseGivesFields(t *testing.T) {
	tests := []struct {
		in   string
		want Version
	}{
		{"2022.3.9f1", Version{2022, 3, 9, TypeFinal, 1, 0}},
		{"5.6.7f1", Version{5, 6, 7, TypeFinal, 1, 0}},
		{"2023.1.0a16", Version{2023, 1, 0, TypeAlpha, 16, 0}},
		{"6000.0.23f1", Version{6000, 0, 23, TypeFinal, 1, 0}},
		{"2019.4.26f1c1", Version{2019, 4, 26, TypeFinal, 1, 1}},
		{"2017.4.40c1", Version{2017, 4, 40, TypeChina, 1, 0}},
		{"2017.1.0p5", Version{2017, 1, 0, TypePatch, 5, 0}},
		{"2017.1.0b10", Version{2017, 1, 0, TypeBeta, 10, 0}},
		{"2018.3.0x2", Version{2018, 3, 0, TypeExperimental, 2, 0}},
		{"0.0.0", Version{}},
		{"2022.3.9", Version{2022, 3, 9, TypeNone, 0, 0}},
		{"5.x.x", Version{5, Wildcard, Wildcard, TypeNone, 0, 0}},
		{"2020.1.x", Version{2020, 1, Wildcard, TypeNone, 0, 0}},
		{"2022.3.9f1\x00", Version{2022, 3, 9, TypeFinal, 1, 0}},
		{" 2022.3.9f1\n", Version{2022, 3, 9, TypeFinal, 1, 0}},
	}
	for _, tt := range tests {
		got, err := Parse(tt.in)
		if err != nil {
			t.Errorf("Parse(%q): %v", tt.in, err)
			continue
		}
		if got != tt.want {
			t.Errorf("Parse(%q) = %+v, want %+v", tt.in, got, tt.want)
		}
	}
}

func TestStringRoundTrips(t *testing.T) {
	for _, s := range []string{"2022.3.9f1", "5.6.7f1", "2023.1.0a16", "6000.0.23f1", "2019.4.26f1c1",
		"2017.4.40c1", "2017.1.0p5", "0.0.0", "5.x.x", "2020.1.x", "2022.3.9", "2018.3.0x2"} {
		v, err := Parse(s)
		if err != nil {
			t.Fatalf("Parse(%q): %v", s, err)
		}
		if got := v.String(); got != s {
			t.Errorf("Parse(%q).String() = %q", s, got)
		}
	}
}

func TestParseRejectsMalformed(t *testing.T) {
	for _, s := range []string{"", "2022", "2022.3", "2022.3.", "2022..9f1", "a.b.c", "2022.3.9q1", "2022.3.9f",
		"2022.3.9f1x", "2022.3.9f1c", "2022.3.9f1c0", "2022.3.9b1c1", "2022.x.9", "-1.0.0", "2022.3.9f1 extra",
		"1234567890.0.0", "2022.3.9f1.2"} {
		if v, err := Parse(s); err == nil {
			t.Errorf("Parse(%q) = %v, want an error", s, v)
		} else if !errors.Is(err, ErrSyntax) {
			t.Errorf("Parse(%q) error %v does not wrap ErrSyntax", s, err)
		}
	}
}

func TestCompareFollowsReleaseOrder(t *testing.T) {
	// Each version sorts strictly before the next.
	order := []string{
		"0.0.0",
		"5.x.x",
		"5.0.0f4",
		"5.6.7f1",
		"2017.1.0b10",
		"2017.1.0f3",
		"2017.1.0p1",
		"2017.1.1f1",
		"2019.4.26",
		"2019.4.26x1",
		"2019.4.26a1",
		"2019.4.26b2",
		"2019.4.26b10",
		"2019.4.26f1",
		"2019.4.26f1c1",
		"2019.4.26f1c2",
		"2019.4.26f2",
		"2019.4.26c1",
		"2019.4.26p1",
		"2019.4.27f1",
		"2022.3.9f1",
		"2022.3.19f1",
		"2023.1.0a16",
		"6000.0.23f1",
	}
	vs := make([]Version, len(order))
	for i, s := range order {
		vs[i] = MustParse(s)
	}
	for i := range vs {
		for j := range vs {
			want := 0
			if i < j {
				want = -1
			} else if i > j {
				want = 1
			}
			if got := Compare(vs[i], vs[j]); got != want {
				t.Errorf("Compare(%s, %s) = %d, want %d", vs[i], vs[j], got, want)
			}
		}
	}
	shuffled := slices.Clone(vs)
	slices.Reverse(shuffled)
	slices.SortFunc(shuffled, Compare)
	if !slices.Equal(shuffled, vs) {
		t.Errorf("sorting gives %v", shuffled)
	}
}

func TestIsBlankOnlyForZero(t *testing.T) {
	tests := []struct {
		in   string
		want bool
	}{
		{"0.0.0", true},
		{"0.0.0f1", false},
		{"5.x.x", false},
		{"2022.3.9f1", false},
	}
	for _, tt := range tests {
		if got := MustParse(tt.in).IsBlank(); got != tt.want {
			t.Errorf("%s.IsBlank() = %v, want %v", tt.in, got, tt.want)
		}
	}
	if !(Version{}).IsBlank() {
		t.Error("the zero Version is not blank")
	}
}

func TestSameMinorAndWildcard(t *testing.T) {
	a, b, c := MustParse("2022.3.9f1"), MustParse("2022.3.62f1"), MustParse("2022.2.9f1")
	if !a.SameMinor(b) || a.SameMinor(c) {
		t.Error("SameMinor wrong")
	}
	if !MustParse("5.x.x").HasWildcard() || a.HasWildcard() {
		t.Error("HasWildcard wrong")
	}
}

func FuzzParse(f *testing.F) {
	for _, s := range []string{"2022.3.9f1", "5.x.x", "0.0.0", "2019.4.26f1c1", "2023.1.0a16"} {
		f.Add(s)
	}
	count := fuzzcount.Counter("FuzzParse")
	f.Fuzz(func(t *testing.T, s string) {
		count()
		v, err := Parse(s)
		if err != nil {
			return
		}
		w, err := Parse(v.String())
		if err != nil {
			t.Fatalf("Parse(%q) = %v whose String does not parse: %v", s, v, err)
		}
		if w != v || Compare(v, w) != 0 {
			t.Fatalf("round trip of %q: %v != %v", s, v, w)
		}
	})
}
