package main

import (
	"io"
	"strings"
	"testing"
)

func TestReportStatus(t *testing.T) {
	const (
		pass    = `{"Action":"pass","Package":"p","Test":"TestA"}`
		fail    = `{"Action":"output","Package":"p","Test":"TestB","Output":"boom\n"}` + "\n" + `{"Action":"fail","Package":"p","Test":"TestB"}` + "\n" + `{"Action":"fail","Package":"p"}`
		skipped = `{"Action":"output","Package":"p","Test":"TestC","Output":"=== RUN   TestC\n"}` + "\n" + `{"Action":"output","Package":"p","Test":"TestC","Output":"    x_test.go:9: no blender\n"}` + "\n" + `{"Action":"skip","Package":"p","Test":"TestC"}`
		broken  = `{"ImportPath":"q.test","Action":"build-output","Output":"# q.test\n"}` + "\n" + `{"ImportPath":"q.test","Action":"build-fail"}`
	)
	tests := []struct {
		name   string
		stream string
		allow  []string
		want   int
		say    string
	}{
		{"a pass passes", pass, nil, 0, "1 passed, 0 failed, 0 skipped"},
		{"a failed test fails", pass + "\n" + fail, nil, 1, "p.TestB"},
		{"a skip not allowed fails", pass + "\n" + skipped, nil, 1, "NOT ALLOWED  p.TestC: x_test.go:9: no blender"},
		{"an allowed skip passes", pass + "\n" + skipped, []string{"p.TestC"}, 0, "allowed  p.TestC"},
		{"a pattern allows subtests", pass + "\n" + strings.ReplaceAll(skipped, "TestC", "TestC/sub"), []string{"p.TestC/*"}, 0, "1 skipped"},
		{"a package that does not build fails", pass + "\n" + broken, nil, 1, "failed outside a test (build errors, panics in init, TestMain)\nq.test"},
		{"no test is a failure", `{"Action":"pass","Package":"p"}`, nil, 1, "no test ran"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			o, err := read(strings.NewReader(tc.stream), io.Discard, true)
			if err != nil {
				t.Fatal(err)
			}
			var b strings.Builder
			if got := report(&b, o, tc.allow); got != tc.want {
				t.Errorf("status %d, want %d\n%s", got, tc.want, b.String())
			}
			if !strings.Contains(b.String(), tc.say) {
				t.Errorf("report lacks %q:\n%s", tc.say, b.String())
			}
		})
	}
}

func TestAFailedTestIsNotAlsoABrokenPackage(t *testing.T) {
	s := `{"Action":"fail","Package":"p","Test":"TestB"}` + "\n" + `{"Action":"fail","Package":"p"}`
	o, _ := read(strings.NewReader(s), io.Discard, true)
	if len(o.broken) != 0 {
		t.Errorf("broken = %v, want none", o.broken)
	}
}

func TestOnlyFailedTestsAndPackagesArePrinted(t *testing.T) {
	s := `{"Action":"output","Package":"p","Test":"TestA","Output":"quiet pass\n"}
{"Action":"pass","Package":"p","Test":"TestA"}
{"Action":"output","Package":"p","Test":"TestB","Output":"loud failure\n"}
{"Action":"fail","Package":"p","Test":"TestB"}
{"Action":"output","Package":"p","Output":"FAIL\tp\t0.1s\n"}`
	var b strings.Builder
	if _, err := read(strings.NewReader(s), &b, false); err != nil {
		t.Fatal(err)
	}
	if got := b.String(); strings.Contains(got, "quiet pass") || !strings.Contains(got, "loud failure") || !strings.Contains(got, "FAIL\tp") {
		t.Errorf("printed %q", got)
	}
}

func TestATestCutShortIsPrinted(t *testing.T) {
	s := `{"Action":"run","Package":"p","Test":"TestSlow"}
{"Action":"output","Package":"p","Test":"TestSlow","Output":"panic: test timed out after 10m0s\n"}
{"Action":"output","Package":"p","Output":"FAIL\tp\t600s\n"}
{"Action":"fail","Package":"p"}`
	var b strings.Builder
	o, err := read(strings.NewReader(s), &b, false)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "timed out") || len(o.broken) != 1 {
		t.Errorf("printed %q, broken %v", b.String(), o.broken)
	}
}
