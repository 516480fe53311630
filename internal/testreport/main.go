// Command testreport reads `go test -json` on standard input and says what ran:
// it prints what plain `go test` would (each package's result line, and the
// output of the tests that failed), then every test that skipped with its
// reason, and fails (exit 1) when a test failed, a package did not
// build, or a test skipped that the allow-list does not name. CI runs it so a
// test that quietly skips (a missing tool, a corpus file lacking what a test
// expects) is a failure there, not a pass.
//
// Usage:
//
//	go test -json ./... | go run ./internal/testreport -allow .ci/skips-allowed
//
// The allow-list has one pattern a line, "PACKAGE.TEST" matched with path.Match
// ("*" stops at "/", so "pkg.TestX/*" names TestX's subtests), then optionally
// " # why"; blank lines and lines starting with "#" are ignored.
package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"path"
	"sort"
	"strings"
)

// event is one line of `go test -json` (cmd/test2json's TestEvent).
type event struct {
	Action  string
	Package string
	Test    string
	Output  string
	// ImportPath names the package of the build-output and build-fail
	// events (which have no Package).
	ImportPath string
}

// outcome counts what the stream reported.
type outcome struct {
	passed, failed, skipped int
	skips                   []skip
	failures                []string
	broken                  []string // packages that did not build or failed outside a test
}

// skip is one skipped test with the reason it printed.
type skip struct {
	name, reason string
}

func main() {
	allowPath := flag.String("allow", "", "file of PACKAGE.TEST patterns allowed to skip")
	quiet := flag.Bool("quiet", false, "print only the summary, not the packages' results and failed tests' output")
	flag.Parse()
	var allow []string
	if *allowPath != "" {
		var err error
		allow, err = readAllow(*allowPath)
		if err != nil {
			fmt.Fprintln(os.Stderr, "testreport:", err)
			os.Exit(2)
		}
	}
	out := bufio.NewWriter(os.Stdout)
	o, err := read(os.Stdin, out, *quiet)
	out.Flush()
	if err != nil {
		fmt.Fprintln(os.Stderr, "testreport:", err)
		os.Exit(2)
	}
	os.Exit(report(os.Stdout, o, allow))
}

// readAllow reads the allow-list's patterns.
func readAllow(name string) ([]string, error) {
	b, err := os.ReadFile(name)
	if err != nil {
		return nil, err
	}
	var pats []string
	for n, line := range strings.Split(string(b), "\n") {
		if i := strings.Index(line, "#"); i >= 0 {
			line = line[:i]
		}
		line = strings.TrimSpace(line)
		if line == "" {
			continue
		}
		if _, err := path.Match(line, ""); err != nil {
			return nil, fmt.Errorf("%s:%d: pattern %q: %w", name, n+1, line, err)
		}
		pats = append(pats, line)
	}
	return pats, nil
}

// read consumes the event stream, printing (unless quiet) the packages'
// output and the output of failed tests, and counting.
func read(r io.Reader, w io.Writer, quiet bool) (*outcome, error) {
	o := &outcome{}
	testFailed := map[string]bool{}         // packages with a failed test
	output := map[string]*strings.Builder{} // per test, for failures and skip reasons
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	for sc.Scan() {
		line := sc.Bytes()
		var e event
		if len(line) == 0 || line[0] != '{' || json.Unmarshal(line, &e) != nil {
			// Not an event (a build error printed by go itself).
			fmt.Fprintf(w, "%s\n", line)
			continue
		}
		if e.Package == "" && e.ImportPath != "" {
			e.Package = e.ImportPath
		}
		key := e.Package + "." + e.Test
		switch e.Action {
		case "output", "build-output":
			if e.Test == "" {
				if !quiet {
					io.WriteString(w, e.Output)
				}
				continue
			}
			b := output[key]
			if b == nil {
				b = &strings.Builder{}
				output[key] = b
			}
			if b.Len() < 64<<10 {
				b.WriteString(e.Output)
			}
		case "pass":
			if e.Test != "" {
				o.passed++
			}
			delete(output, key)
		case "fail", "build-fail":
			if e.Test != "" {
				o.failed++
				o.failures = append(o.failures, key)
				testFailed[e.Package] = true
				if b := output[key]; b != nil && !quiet {
					io.WriteString(w, b.String())
				}
			} else if !testFailed[e.Package] {
				o.broken = append(o.broken, e.Package)
				// A package that failed with no failed test was cut
				// short (a time-out, a panic, os.Exit): the tests still
				// running say where.
				prefix := e.Package + "."
				for k, b := range output {
					if strings.HasPrefix(k, prefix) && !quiet {
						io.WriteString(w, b.String())
					}
				}
			}
			delete(output, key)
		case "skip":
			if e.Test != "" {
				o.skipped++
				o.skips = append(o.skips, skip{key, reason(output[key])})
			}
			delete(output, key)
		}
	}
	return o, sc.Err()
}

// reason picks the skip message out of a test's output: the lines after the
// "=== RUN" header that are not the "--- SKIP" line itself.
func reason(b *strings.Builder) string {
	if b == nil {
		return ""
	}
	var keep []string
	for _, l := range strings.Split(b.String(), "\n") {
		t := strings.TrimSpace(l)
		if t == "" || strings.HasPrefix(t, "=== ") || strings.HasPrefix(t, "--- SKIP") {
			continue
		}
		keep = append(keep, t)
	}
	return strings.Join(keep, " / ")
}

// allowed reports whether a skipped test's name matches a pattern.
func allowed(name string, allow []string) bool {
	for _, p := range allow {
		if ok, _ := path.Match(p, name); ok {
			return true
		}
	}
	return false
}

// report prints the summary and returns the exit status.
func report(w io.Writer, o *outcome, allow []string) int {
	status := 0
	sort.Slice(o.skips, func(i, j int) bool { return o.skips[i].name < o.skips[j].name })
	var undeclared int
	if len(o.skips) > 0 {
		fmt.Fprintln(w, "\n== skipped tests")
		for _, s := range o.skips {
			mark := "allowed"
			if !allowed(s.name, allow) {
				mark = "NOT ALLOWED"
				undeclared++
			}
			fmt.Fprintf(w, "%s  %s: %s\n", mark, s.name, s.reason)
		}
	}
	if len(o.failures) > 0 {
		fmt.Fprintln(w, "\n== failed tests")
		for _, f := range o.failures {
			fmt.Fprintln(w, f)
		}
		status = 1
	}
	if len(o.broken) > 0 {
		fmt.Fprintln(w, "\n== packages that failed outside a test (build errors, panics in init, TestMain)")
		for _, p := range o.broken {
			fmt.Fprintln(w, p)
		}
		status = 1
	}
	if undeclared > 0 {
		fmt.Fprintf(w, "\n%d skipped tests are not in the allow-list: under CI every test runs\n", undeclared)
		status = 1
	}
	if o.passed+o.failed == 0 {
		fmt.Fprintln(w, "\nno test ran")
		status = 1
	}
	fmt.Fprintf(w, "\n%d passed, %d failed, %d skipped\n", o.passed, o.failed, o.skipped)
	return status
}
