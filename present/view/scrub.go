package view

import (
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	"github.com/mecanim/mecanim/bound"
)

// containerPaths lists the inputs' container paths that are more than a
// base name, longest first (so a path is replaced before a shorter one
// inside it).
func containerPaths(groups ...[]bound.Item) []string {
	seen := map[string]bool{}
	var out []string
	for _, g := range groups {
		for _, it := range g {
			c := it.Source.Container
			if c == "" || seen[c] || filepath.Base(c) == c {
				continue
			}
			seen[c] = true
			out = append(out, c)
		}
	}
	sort.Slice(out, func(i, j int) bool { return len(out[i]) > len(out[j]) })
	return out
}

// absPath is an absolute path in a message: Unix-like after a separator
// (not a URL's "//"), or a Windows drive path.
var absPath = regexp.MustCompile(`(^|[\s"'(=,\[])(/[^/\s"'():,\]][^\s"'():,\]]*|[A-Za-z]:\\[^\s"'():,\]]*)`)

// public makes a message fit to send to a client: the inputs' paths and
// any other absolute path become their base names, so answers never show
// where files live on this machine (the log, for the person running the
// server, keeps the full message).
func (s *Server) public(msg string) string {
	for _, p := range s.paths {
		if strings.Contains(msg, p) {
			msg = strings.ReplaceAll(msg, p, filepath.Base(p))
		}
	}
	return absPath.ReplaceAllStringFunc(msg, func(m string) string {
		sub := absPath.FindStringSubmatch(m)
		p := strings.TrimRight(sub[2], `/\`)
		if i := strings.LastIndexAny(p, `/\`); i >= 0 {
			p = p[i+1:]
		}
		return sub[1] + p
	})
}

// publicAll applies public to each message (never nil).
func (s *Server) publicAll(msgs []string) []string {
	out := make([]string, len(msgs))
	for i, m := range msgs {
		out[i] = s.public(m)
	}
	return out
}
