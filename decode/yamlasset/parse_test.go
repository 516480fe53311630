package yamlasset

import (
	"errors"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/mecanim/mecanim/internal/corpustest"
)

// corpusYAML lists the corpus's YAML assets (relative paths).
func corpusYAML(dir string) []string {
	var out []string
	filepath.WalkDir(dir, func(p string, e os.DirEntry, err error) error {
		if err != nil || e.IsDir() {
			return nil
		}
		for _, ext := range []string{".anim", ".controller", ".prefab", ".asset", ".meta", ".overrideController", ".mask", ".unity"} {
			if strings.HasSuffix(p, ext) {
				out = append(out, p)
			}
		}
		return nil
	})
	return out
}

func TestEveryCorpusYAMLFileParses(t *testing.T) {
	dir := corpustest.Dir(t)
	files := corpusYAML(dir)
	if len(files) < 30 {
		t.Fatalf("found only %d YAML files in the corpus", len(files))
	}
	for _, p := range files {
		rel, _ := filepath.Rel(dir, p)
		f, err := ParseFile(p)
		if err != nil {
			t.Errorf("%s: %v", rel, err)
			continue
		}
		if len(f.Docs) == 0 {
			t.Errorf("%s: no documents", rel)
		}
		for _, d := range f.Docs {
			if d.Root == nil || d.Body == nil {
				t.Errorf("%s: document at line %d has no root", rel, d.Line)
			}
		}
	}
}

// dump renders a node tree compactly: {k:v,...}, [a,...], scalars as
// written ("quoted" ones in quotes).
func dump(n *Node) string {
	var sb strings.Builder
	var walk func(n *Node)
	walk = func(n *Node) {
		switch n.Kind {
		case Mapping:
			sb.WriteByte('{')
			for i, k := range n.Keys {
				if i > 0 {
					sb.WriteByte(',')
				}
				sb.WriteString(k + ":")
				walk(n.Values[i])
			}
			sb.WriteByte('}')
		case Sequence:
			sb.WriteByte('[')
			for i, it := range n.Items {
				if i > 0 {
					sb.WriteByte(',')
				}
				walk(it)
			}
			sb.WriteByte(']')
		default:
			if n.Quoted {
				sb.WriteString(strconv.Quote(n.Value))
			} else {
				sb.WriteString(n.Value)
			}
		}
	}
	walk(n)
	return sb.String()
}

func TestParserReadsUnitysYAMLSubset(t *testing.T) {
	for _, tc := range []struct{ name, src, want string }{
		{"block mapping", "a: 1\nb: two words\n", "{a:1,b:two words}"},
		{"empty value", "a:\nb: \n", "{a:,b:}"},
		{"sequence at the key's indent", "a:\n- 1\n- 2\nb: 3\n", "{a:[1,2],b:3}"},
		{"indented sequence", "a:\n  - 1\n  - 2\n", "{a:[1,2]}"},
		{"mappings in a sequence", "- x: 1\n  y: 2\n- x: 3\n", "[{x:1,y:2},{x:3}]"},
		{"nested sequences", "- - a\n  - b\n- c\n", "[[a,b],c]"},
		{"empty item", "-\n- a\n", "[,a]"},
		{"item on the next line", "-\n  k: v\n", "[{k:v}]"},
		{"flow mapping", "p: {fileID: 0, guid: ab12, type: 2}\n", "{p:{fileID:0,guid:ab12,type:2}}"},
		{"flow across lines", "p: {fileID: 1, guid: ab12,\n    type: 3}\nq: 1\n", "{p:{fileID:1,guid:ab12,type:3},q:1}"},
		{"flow sequence and empties", "a: []\nb: {}\nc: [1, {x: 2}, [3]]\n", "{a:[],b:{},c:[1,{x:2},[3]]}"},
		{"flow empty value", "a: {x: , y: 1}\n", "{a:{x:,y:1}}"},
		{"plain folds lines", "k: one\n  two\n\n  three\nn: 1\n", "{k:one two\nthree,n:1}"},
		{"plain item folds", "- a\n  b\n- c\n", "[a b,c]"},
		{"double-quoted escapes", `k: "a\"b\\c\tt\u00e9\x41\/"` + "\n", `{k:"a\"b\\c\ttéA/"}`},
		{"surrogate pair", `k: "\uD83D\uDE00 \uD800"` + "\n", `{k:"😀 ` + "\uFFFD" + `"}`},
		{"single-quoted", "k: 'it''s: #not a comment'\n", `{k:"it's: #not a comment"}`},
		{"quoted folds lines", "k: \"a\n   b\n\n   c\"\n", `{k:"a b\nc"}`},
		{"escaped line break", "k: \"ab\\\n   cd\"\n", `{k:"abcd"}`},
		{"quoted key", "\"a b\": 1\n'c': 2\n", "{a b:1,c:2}"},
		{"comments", "# head\na: 1 # tail\n  # indented\nb: x#y\n", "{a:1,b:x#y}"},
		{"colon in plain value", "k: UnityEngine:Material\nu: http://x\n", "{k:UnityEngine:Material,u:http://x}"},
		{"CRLF", "a: 1\r\nb:\r\n- 2\r\n", "{a:1,b:[2]}"},
		{"numeric keys", "m_TOS:\n  0: \n  12: a/b\n", "{m_TOS:{0:,12:a/b}}"},
		{"dash scalar", "k: -1\n- x: -0.5\n", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f, err := Parse(strings.NewReader(tc.src), "t.yaml")
			if tc.want == "" {
				if err == nil {
					t.Errorf("parsed %s", dump(f.Docs[0].Root))
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if len(f.Docs) != 1 {
				t.Fatalf("%d documents", len(f.Docs))
			}
			if got := dump(f.Docs[0].Root); got != tc.want {
				t.Errorf("got  %s\nwant %s", got, tc.want)
			}
		})
	}
}

func TestParserReadsDocumentHeaders(t *testing.T) {
	src := "%YAML 1.1\n%TAG !u! tag:unity3d.com,2011:\n--- !u!1 &-42 stripped\nGameObject:\n  m_Name: a\n" +
		"--- !u!4 &7\nTransform:\n  m_Father: {fileID: -42}\n--- !u!114 &8\n...\n--- !u!1 &9\nGameObject: {}\n"
	f, err := Parse(strings.NewReader(src), "h.prefab")
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Docs) != 4 || f.Tags["!u!"] != "tag:unity3d.com,2011:" {
		t.Fatalf("%d documents, tags %v", len(f.Docs), f.Tags)
	}
	d := f.Docs[0]
	if d.ClassID != 1 || d.FileID != -42 || !d.Stripped || d.Type != "GameObject" || d.Name() != "a" || d.Line != 3 {
		t.Errorf("document 0 = %+v", d)
	}
	if f.Object(7).Type != "Transform" || f.Object(7).Body.Path("m_Father", "fileID").Value != "-42" {
		t.Errorf("document &7 = %+v", f.Object(7))
	}
	if d := f.Object(8); d.Type != "" || !d.Root.IsNull() {
		t.Errorf("empty document = %+v", d)
	}
	if len(f.ByClass(1)) != 2 || f.Object(9).Body.Kind != Mapping {
		t.Errorf("by class: %d", len(f.ByClass(1)))
	}
}

func TestParserErrorsSayWhere(t *testing.T) {
	deep := strings.Repeat("[", 300) + strings.Repeat("]", 300)
	for _, tc := range []struct{ name, src, want string }{
		{"tab indentation", "a:\n\tb: 1\n", "e.yaml:2: tab character"},
		{"bad indentation", "a:\n    b: 1\n  c: 2\n", "e.yaml:3: bad indentation"},
		{"unterminated flow", "a: {x: 1\nb: 2\n", "e.yaml:1: unterminated flow mapping"},
		{"unterminated quote", "a: 1\nb: \"abc\n", "e.yaml:2: unterminated quoted string"},
		{"text after flow", "a: {x: 1} y\n", "e.yaml:1: unexpected text"},
		{"bad escape", "a: \"\\q\"\n", "e.yaml:1: unknown escape"},
		{"too deep", "a: " + deep + "\n", "nesting deeper than"},
		{"not a key", "a: 1\nb\n", "e.yaml:2: expected a mapping key"},
		{"item in mapping", "a: 1\n- b\n", "e.yaml:2: sequence item where a mapping key"},
		{"bad header", "--- !u!x &1\nA: 1\n", "e.yaml:1: bad class id"},
		{"block scalar", "a: |\n  text\n", "block scalars"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse(strings.NewReader(tc.src), "e.yaml")
			var se *SyntaxError
			if err == nil || !strings.Contains(err.Error(), tc.want) || !errors.As(err, &se) {
				t.Errorf("error %v, want a SyntaxError containing %q", err, tc.want)
			}
		})
	}
}

func TestNodeConversions(t *testing.T) {
	f, err := Parse(strings.NewReader("a: Infinity\nb: -Infinity\nc: NaN\nd: 1e40\ne: 4294967295\nf: 0a0b\ng: x\n"), "n.yaml")
	if err != nil {
		t.Fatal(err)
	}
	r := f.Docs[0].Root
	if v, _ := r.Get("a").Float32(); !math.IsInf(float64(v), 1) {
		t.Errorf("Infinity = %v", v)
	}
	if v, _ := r.Get("b").Float32(); !math.IsInf(float64(v), -1) {
		t.Errorf("-Infinity = %v", v)
	}
	if v, _ := r.Get("c").Float32(); !math.IsNaN(float64(v)) {
		t.Errorf("NaN = %v", v)
	}
	if v, err := r.Get("d").Float32(); err != nil || !math.IsInf(float64(v), 1) {
		t.Errorf("1e40 as float32 = %v, %v", v, err)
	}
	if v, err := r.Get("e").Int(); err != nil || v != 4294967295 {
		t.Errorf("uint = %v, %v", v, err)
	}
	if b, err := r.Get("f").Hex(); err != nil || len(b) != 2 || b[1] != 0x0b {
		t.Errorf("hex = %v, %v", b, err)
	}
	if _, err := r.Get("g").Float32(); err == nil || !strings.Contains(err.Error(), "line 7") {
		t.Errorf("bad float error %v", err)
	}
	if _, err := r.Get("missing").Int(); err == nil {
		t.Error("missing node converted")
	}
}
