package yamlasset

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

// maxDepth bounds the nesting of collections (Unity's deepest assets nest
// about a dozen levels), so hostile input cannot exhaust the stack.
const maxDepth = 200

// SyntaxError is a YAML text the parser cannot read, with where.
type SyntaxError struct {
	File string // the name given to Parse
	Line int    // 1-based
	Msg  string
}

// Error describes the failure and where it happened.
func (e *SyntaxError) Error() string {
	return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Msg)
}

// parser reads Unity's subset of YAML 1.1: block mappings and sequences by
// indentation, flow mappings and sequences, plain and quoted scalars.
//
// Block-mode invariant: between nodes, pos is at the first non-space byte
// of a content line and col is its column; eod is set (and col is -1) at the
// end of input or at a document marker line.
type parser struct {
	src   []byte
	s     string // src as a string: scalars and keys are substrings of it
	name  string
	slab  []Node // nodes are carved from slabs to save allocations
	pos   int
	col   int
	eod   bool
	depth int
	// incremental line counting (pos only grows, except when a quoted key
	// is re-read, which saves and restores these)
	lnPos, lnNum int
}

// node returns a new node from the current slab.
func (p *parser) node(k Kind, line int) *Node {
	if len(p.slab) == 0 {
		p.slab = make([]Node, 256)
	}
	n := &p.slab[0]
	p.slab = p.slab[1:]
	n.Kind, n.Line = k, line
	return n
}

func (p *parser) lineAt(pos int) int {
	if pos < p.lnPos {
		p.lnPos, p.lnNum = 0, 1
	}
	if pos > len(p.src) {
		pos = len(p.src)
	}
	p.lnNum += bytes.Count(p.src[p.lnPos:pos], []byte{'\n'})
	p.lnPos = pos
	return p.lnNum
}

func (p *parser) errf(pos int, format string, args ...any) error {
	return &SyntaxError{File: p.name, Line: p.lineAt(pos), Msg: fmt.Sprintf(format, args...)}
}

func isBlank(c byte) bool { return c == ' ' || c == '\t' || c == '\r' || c == '\n' }

// blankAt reports whether position i is whitespace or the end of input.
func (p *parser) blankAt(i int) bool { return i >= len(p.src) || isBlank(p.src[i]) }

// isMarker reports whether the line starting at i is a document marker or
// a directive.
func (p *parser) isMarker(i int) bool {
	s := p.src[i:]
	if len(s) > 0 && s[0] == '%' {
		return true
	}
	if bytes.HasPrefix(s, []byte("---")) || bytes.HasPrefix(s, []byte("...")) {
		return p.blankAt(i + 3)
	}
	return false
}

// nextContent moves from a line start to the next content line, skipping
// blank and comment lines, and returns how many blank lines it skipped.
func (p *parser) nextContent() (int, error) {
	blanks := 0
	for {
		if p.pos >= len(p.src) {
			p.eod, p.col = true, -1
			return blanks, nil
		}
		start := p.pos
		i, ind, tab := start, 0, false
		for i < len(p.src) && (p.src[i] == ' ' || p.src[i] == '\t') {
			if p.src[i] == '\t' {
				tab = true
			} else if !tab {
				ind++
			}
			i++
		}
		if i >= len(p.src) {
			p.pos = i
			continue
		}
		switch c := p.src[i]; {
		case c == '\n' || (c == '\r' && (i+1 >= len(p.src) || p.src[i+1] == '\n')):
			blanks++
			p.pos = p.skipLine(i)
			continue
		case c == '#':
			p.pos = p.skipLine(i)
			continue
		}
		if tab {
			return blanks, p.errf(i, "tab character in indentation")
		}
		if i == start && p.isMarker(i) {
			p.pos, p.eod, p.col = i, true, -1
			return blanks, nil
		}
		p.pos, p.col = i, ind
		return blanks, nil
	}
}

// skipLine returns the start of the line after the one holding i.
func (p *parser) skipLine(i int) int {
	j := bytes.IndexByte(p.src[i:], '\n')
	if j < 0 {
		return len(p.src)
	}
	return i + j + 1
}

// endLine checks that only spaces or a comment follow pos on its line and
// moves to the next line's start.
func (p *parser) endLine() error {
	i := p.pos
	for i < len(p.src) && (p.src[i] == ' ' || p.src[i] == '\t' || p.src[i] == '\r') {
		i++
	}
	if i < len(p.src) && p.src[i] != '\n' && p.src[i] != '#' {
		return p.errf(i, "unexpected text %q after a value", clip(p.src[i:]))
	}
	p.pos = p.skipLine(i)
	return nil
}

// clip returns the rest of a line, shortened for an error message.
func clip(b []byte) string {
	if j := bytes.IndexByte(b, '\n'); j >= 0 {
		b = b[:j]
	}
	if len(b) > 40 {
		return string(b[:40]) + "..."
	}
	return string(b)
}

func (p *parser) enter() error {
	p.depth++
	if p.depth > maxDepth {
		return p.errf(p.pos, "nesting deeper than %d levels", maxDepth)
	}
	return nil
}

func (p *parser) leave() { p.depth-- }

// isSeqItem reports whether a block sequence item ("- ") starts at i.
func (p *parser) isSeqItem(i int) bool {
	return i < len(p.src) && p.src[i] == '-' && p.blankAt(i+1)
}

// blockNode parses the block node whose first byte is at pos; parent is the
// indentation of the collection holding it (-1 at the top).
func (p *parser) blockNode(parent int) (*Node, error) {
	if err := p.enter(); err != nil {
		return nil, err
	}
	defer p.leave()
	c := p.src[p.pos]
	switch {
	case p.isSeqItem(p.pos):
		return p.blockSeq(p.col)
	case c == '{' || c == '[':
		n, err := p.flowNode()
		if err != nil {
			return nil, err
		}
		return n, p.finishInline()
	case c == '"' || c == '\'':
		// A quoted scalar, or the quoted key of a mapping.
		save, saveCol, sLnPos, sLnNum := p.pos, p.col, p.lnPos, p.lnNum
		n, err := p.quoted()
		if err != nil {
			return nil, err
		}
		i := p.pos
		for i < len(p.src) && (p.src[i] == ' ' || p.src[i] == '\t') {
			i++
		}
		if i < len(p.src) && p.src[i] == ':' && p.blankAt(i+1) {
			p.pos, p.col, p.lnPos, p.lnNum = save, saveCol, sLnPos, sLnNum
			return p.blockMapping(p.col)
		}
		return n, p.finishInline()
	}
	if p.lineHasKey(p.pos) {
		return p.blockMapping(p.col)
	}
	return p.plain(parent)
}

// finishInline ends the line of an inline value and moves to the next
// content line.
func (p *parser) finishInline() error {
	if err := p.endLine(); err != nil {
		return err
	}
	_, err := p.nextContent()
	return err
}

// lineHasKey reports whether the line from i holds a plain "key:" (a colon
// followed by a blank or the end of the line).
func (p *parser) lineHasKey(i int) bool {
	for ; i < len(p.src) && p.src[i] != '\n'; i++ {
		switch p.src[i] {
		case ':':
			if p.blankAt(i + 1) {
				return true
			}
		case '#':
			if i > 0 && isBlank(p.src[i-1]) {
				return false
			}
		}
	}
	return false
}

func (p *parser) blockMapping(indent int) (*Node, error) {
	n := p.node(Mapping, p.lineAt(p.pos))
	for !p.eod && p.col == indent {
		if p.isSeqItem(p.pos) {
			return nil, p.errf(p.pos, "sequence item where a mapping key was expected")
		}
		keyLine := p.lineAt(p.pos)
		key, err := p.key()
		if err != nil {
			return nil, err
		}
		for p.pos < len(p.src) && (p.src[p.pos] == ' ' || p.src[p.pos] == '\t') {
			p.pos++
			p.col++
		}
		var v *Node
		if p.pos >= len(p.src) || p.src[p.pos] == '\n' || p.src[p.pos] == '\r' || p.src[p.pos] == '#' {
			if err := p.endLine(); err != nil {
				return nil, err
			}
			if _, err := p.nextContent(); err != nil {
				return nil, err
			}
			switch {
			case !p.eod && p.col > indent:
				v, err = p.blockNode(indent)
			case !p.eod && p.col == indent && p.isSeqItem(p.pos):
				if err = p.enter(); err == nil {
					v, err = p.blockSeq(indent)
					p.leave()
				}
			default:
				v = p.node(Scalar, keyLine)
			}
		} else {
			v, err = p.inline(indent)
		}
		if err != nil {
			return nil, err
		}
		n.Keys = append(n.Keys, key)
		n.Values = append(n.Values, v)
	}
	if !p.eod && p.col > indent {
		return nil, p.errf(p.pos, "bad indentation (column %d inside a mapping at column %d)", p.col, indent)
	}
	return n, nil
}

// key reads a mapping key and its colon.
func (p *parser) key() (string, error) {
	start := p.pos
	if c := p.src[p.pos]; c == '"' || c == '\'' {
		n, err := p.quoted()
		if err != nil {
			return "", err
		}
		for p.pos < len(p.src) && (p.src[p.pos] == ' ' || p.src[p.pos] == '\t') {
			p.pos++
		}
		if p.pos >= len(p.src) || p.src[p.pos] != ':' {
			return "", p.errf(start, "expected ':' after a quoted key")
		}
		p.pos++
		p.col += p.pos - start
		return n.Value, nil
	}
	i := p.pos
	for ; i < len(p.src) && p.src[i] != '\n'; i++ {
		if p.src[i] == ':' && p.blankAt(i+1) {
			k := strings.TrimRight(p.s[p.pos:i], " \t")
			p.col += i + 1 - p.pos
			p.pos = i + 1
			return k, nil
		}
	}
	return "", p.errf(start, "expected a mapping key, found %q", clip(p.src[start:]))
}

// inline parses a value that starts on the line of its key.
func (p *parser) inline(indent int) (*Node, error) {
	if err := p.enter(); err != nil {
		return nil, err
	}
	defer p.leave()
	switch p.src[p.pos] {
	case '{', '[':
		n, err := p.flowNode()
		if err != nil {
			return nil, err
		}
		return n, p.finishInline()
	case '"', '\'':
		n, err := p.quoted()
		if err != nil {
			return nil, err
		}
		return n, p.finishInline()
	case '|', '>':
		if p.blankAt(p.pos+1) || p.src[p.pos+1] == '-' || p.src[p.pos+1] == '+' {
			return nil, p.errf(p.pos, "block scalars (| and >) are not supported")
		}
	}
	return p.plain(indent)
}

// plain reads a plain scalar from pos; lines below it indented deeper than
// parent continue it (folded: a line break is a space, n blank lines are n
// newlines).
func (p *parser) plain(parent int) (*Node, error) {
	n := p.node(Scalar, p.lineAt(p.pos))
	n.Value = p.plainLine()
	var sb *strings.Builder
	for {
		if err := p.endLine(); err != nil {
			return nil, err
		}
		blanks, err := p.nextContent()
		if err != nil {
			return nil, err
		}
		if p.eod || p.col <= parent {
			break
		}
		if sb == nil {
			sb = &strings.Builder{}
			sb.WriteString(n.Value)
		}
		if blanks == 0 {
			sb.WriteByte(' ')
		} else {
			sb.WriteString(strings.Repeat("\n", blanks))
		}
		sb.WriteString(p.plainLine())
	}
	if sb != nil {
		n.Value = sb.String()
	}
	return n, nil
}

// plainLine returns the text from pos to the end of the line or a comment,
// trimmed, leaving pos at the end of the text.
func (p *parser) plainLine() string {
	i := p.pos
	for ; i < len(p.src) && p.src[i] != '\n'; i++ {
		if p.src[i] == '#' && i > p.pos && isBlank(p.src[i-1]) {
			break
		}
	}
	s := strings.TrimRight(p.s[p.pos:i], " \t\r")
	p.pos = i
	if i < len(p.src) && p.src[i] == '#' {
		p.pos = p.skipLine(i) - 1 // leave pos at the newline for endLine
		if p.pos < i {
			p.pos = len(p.src)
		}
	}
	return s
}

func (p *parser) blockSeq(indent int) (*Node, error) {
	n := p.node(Sequence, p.lineAt(p.pos))
	for !p.eod && p.col == indent && p.isSeqItem(p.pos) {
		itemLine := p.lineAt(p.pos)
		p.pos++
		p.col++
		for p.pos < len(p.src) && (p.src[p.pos] == ' ' || p.src[p.pos] == '\t') {
			p.pos++
			p.col++
		}
		var item *Node
		var err error
		if p.pos >= len(p.src) || p.src[p.pos] == '\n' || p.src[p.pos] == '\r' || p.src[p.pos] == '#' {
			if err := p.endLine(); err != nil {
				return nil, err
			}
			if _, err := p.nextContent(); err != nil {
				return nil, err
			}
			if !p.eod && p.col > indent {
				item, err = p.blockNode(indent)
			} else {
				item = p.node(Scalar, itemLine)
			}
		} else {
			item, err = p.blockNode(indent)
		}
		if err != nil {
			return nil, err
		}
		n.Items = append(n.Items, item)
	}
	if !p.eod && p.col > indent {
		return nil, p.errf(p.pos, "bad indentation (column %d inside a sequence at column %d)", p.col, indent)
	}
	return n, nil
}

// skipFlowSpace skips whitespace, line breaks and comments inside a flow
// collection.
func (p *parser) skipFlowSpace() {
	for p.pos < len(p.src) {
		c := p.src[p.pos]
		switch {
		case isBlank(c):
			p.pos++
		case c == '#' && p.pos > 0 && isBlank(p.src[p.pos-1]):
			p.pos = p.skipLine(p.pos)
		default:
			return
		}
	}
}

// flowNode parses a flow collection or a scalar inside one.
func (p *parser) flowNode() (*Node, error) {
	if err := p.enter(); err != nil {
		return nil, err
	}
	defer p.leave()
	p.skipFlowSpace()
	if p.pos >= len(p.src) {
		return nil, p.errf(p.pos, "unexpected end of input in a flow collection")
	}
	switch p.src[p.pos] {
	case '{':
		return p.flowMapping()
	case '[':
		return p.flowSeq()
	case '"', '\'':
		return p.quoted()
	}
	return p.flowPlain(false), nil
}

func (p *parser) flowMapping() (*Node, error) {
	n := p.node(Mapping, p.lineAt(p.pos))
	open := p.pos
	p.pos++ // '{'
	for {
		p.skipFlowSpace()
		if p.pos >= len(p.src) {
			return nil, p.errf(open, "unterminated flow mapping")
		}
		if p.src[p.pos] == '}' {
			p.pos++
			return n, nil
		}
		var key string
		if c := p.src[p.pos]; c == '"' || c == '\'' {
			k, err := p.quoted()
			if err != nil {
				return nil, err
			}
			key = k.Value
		} else {
			key = p.flowPlain(true).Value
		}
		p.skipFlowSpace()
		var v *Node
		if p.pos < len(p.src) && p.src[p.pos] == ':' {
			p.pos++
			p.skipFlowSpace()
			if p.pos < len(p.src) && (p.src[p.pos] == ',' || p.src[p.pos] == '}') {
				v = p.node(Scalar, p.lineAt(p.pos))
			} else {
				var err error
				if v, err = p.flowNode(); err != nil {
					return nil, err
				}
			}
		} else {
			v = p.node(Scalar, p.lineAt(p.pos))
		}
		n.Keys = append(n.Keys, key)
		n.Values = append(n.Values, v)
		p.skipFlowSpace()
		if p.pos >= len(p.src) {
			return nil, p.errf(open, "unterminated flow mapping")
		}
		switch p.src[p.pos] {
		case ',':
			p.pos++
		case '}':
		default:
			return nil, p.errf(p.pos, "expected ',' or '}' in a flow mapping, found %q", clip(p.src[p.pos:]))
		}
	}
}

func (p *parser) flowSeq() (*Node, error) {
	n := p.node(Sequence, p.lineAt(p.pos))
	open := p.pos
	p.pos++ // '['
	for {
		p.skipFlowSpace()
		if p.pos >= len(p.src) {
			return nil, p.errf(open, "unterminated flow sequence")
		}
		if p.src[p.pos] == ']' {
			p.pos++
			return n, nil
		}
		item, err := p.flowNode()
		if err != nil {
			return nil, err
		}
		n.Items = append(n.Items, item)
		p.skipFlowSpace()
		if p.pos >= len(p.src) {
			return nil, p.errf(open, "unterminated flow sequence")
		}
		switch p.src[p.pos] {
		case ',':
			p.pos++
		case ']':
		default:
			return nil, p.errf(p.pos, "expected ',' or ']' in a flow sequence, found %q", clip(p.src[p.pos:]))
		}
	}
}

// flowPlain reads a plain scalar inside a flow collection, up to a flow
// indicator (and, for a key, a colon); line breaks fold to spaces.
func (p *parser) flowPlain(isKey bool) *Node {
	n := p.node(Scalar, p.lineAt(p.pos))
	// Fast path: the scalar ends on its line without a comment.
	for i := p.pos; i < len(p.src); i++ {
		c := p.src[i]
		if c == '\n' || c == '#' {
			break
		}
		if c == ',' || c == '}' || c == ']' || c == '{' || c == '[' ||
			(c == ':' && isKey && (p.blankAt(i+1) || strings.IndexByte(",}]", p.src[i+1]) >= 0)) {
			n.Value = strings.TrimSpace(p.s[p.pos:i])
			p.pos = i
			return n
		}
	}
	var sb strings.Builder
	space := false
	for p.pos < len(p.src) {
		c := p.src[p.pos]
		if c == ',' || c == '}' || c == ']' || c == '{' || c == '[' {
			break
		}
		if c == ':' && isKey && (p.blankAt(p.pos+1) || strings.IndexByte(",}]", p.src[p.pos+1]) >= 0) {
			break
		}
		if c == '#' && p.pos > 0 && isBlank(p.src[p.pos-1]) {
			p.pos = p.skipLine(p.pos)
			space = sb.Len() > 0
			continue
		}
		if isBlank(c) {
			space = sb.Len() > 0
			p.pos++
			continue
		}
		if space {
			sb.WriteByte(' ')
			space = false
		}
		sb.WriteByte(c)
		p.pos++
	}
	n.Value = sb.String()
	return n
}

// quoted reads a single- or double-quoted scalar at pos, which may span
// lines (folded as YAML folds them).
func (p *parser) quoted() (*Node, error) {
	n := p.node(Scalar, p.lineAt(p.pos))
	n.Quoted = true
	open := p.pos
	q := p.src[p.pos]
	p.pos++
	// Fast path: a one-line string without escapes is a substring.
	for i := p.pos; i < len(p.src); i++ {
		c := p.src[i]
		if c == q {
			if q == '\'' && i+1 < len(p.src) && p.src[i+1] == '\'' {
				break
			}
			n.Value = p.s[p.pos:i]
			p.pos = i + 1
			return n, nil
		}
		if c == '\n' || c == '\r' || (c == '\\' && q == '"') {
			break
		}
	}
	var buf []byte
	for {
		if p.pos >= len(p.src) {
			return nil, p.errf(open, "unterminated quoted string")
		}
		c := p.src[p.pos]
		switch {
		case c == q:
			if q == '\'' && p.pos+1 < len(p.src) && p.src[p.pos+1] == '\'' {
				buf = append(buf, '\'')
				p.pos += 2
				continue
			}
			p.pos++
			n.Value = string(buf)
			return n, nil
		case c == '\\' && q == '"':
			var err error
			if buf, err = p.escape(buf); err != nil {
				return nil, err
			}
		case c == '\n' || c == '\r':
			// Fold: drop trailing blanks, count line breaks, skip indentation.
			for len(buf) > 0 && (buf[len(buf)-1] == ' ' || buf[len(buf)-1] == '\t') {
				buf = buf[:len(buf)-1]
			}
			breaks := 0
			for p.pos < len(p.src) && isBlank(p.src[p.pos]) {
				if p.src[p.pos] == '\n' {
					breaks++
				}
				p.pos++
			}
			if breaks <= 1 {
				buf = append(buf, ' ')
			} else {
				for k := 1; k < breaks; k++ {
					buf = append(buf, '\n')
				}
			}
		default:
			buf = append(buf, c)
			p.pos++
		}
	}
}

// escape decodes one backslash escape of a double-quoted scalar.
func (p *parser) escape(buf []byte) ([]byte, error) {
	at := p.pos
	p.pos++ // backslash
	if p.pos >= len(p.src) {
		return buf, p.errf(at, "unterminated escape")
	}
	c := p.src[p.pos]
	p.pos++
	if s := simpleEscape(c); s != "" {
		return append(buf, s...), nil
	}
	switch c {
	case '\r', '\n':
		// An escaped line break joins the lines without a space.
		if c == '\r' && p.pos < len(p.src) && p.src[p.pos] == '\n' {
			p.pos++
		}
		for p.pos < len(p.src) && (p.src[p.pos] == ' ' || p.src[p.pos] == '\t') {
			p.pos++
		}
		return buf, nil
	case 'x', 'u', 'U':
		size := 2
		if c == 'u' {
			size = 4
		} else if c == 'U' {
			size = 8
		}
		r, err := p.hexRune(size, at)
		if err != nil {
			return buf, err
		}
		if c == 'u' && r >= 0xD800 && r < 0xDC00 {
			// A UTF-16 surrogate pair written as two escapes.
			if p.pos+6 <= len(p.src) && p.src[p.pos] == '\\' && p.src[p.pos+1] == 'u' {
				save := p.pos
				p.pos += 2
				lo, err := p.hexRune(4, save)
				if err == nil && lo >= 0xDC00 && lo < 0xE000 {
					return utf8.AppendRune(buf, 0x10000+(r-0xD800)<<10+(lo-0xDC00)), nil
				}
				p.pos = save
			}
			return utf8.AppendRune(buf, utf8.RuneError), nil
		}
		if !utf8.ValidRune(r) {
			r = utf8.RuneError
		}
		return utf8.AppendRune(buf, r), nil
	}
	return buf, p.errf(at, "unknown escape \\%c", c)
}

func (p *parser) hexRune(size, at int) (rune, error) {
	if p.pos+size > len(p.src) {
		return 0, p.errf(at, "short hex escape")
	}
	v, err := strconv.ParseUint(string(p.src[p.pos:p.pos+size]), 16, 32)
	if err != nil {
		return 0, p.errf(at, "bad hex escape %q", p.src[p.pos:p.pos+size])
	}
	p.pos += size
	return rune(v), nil
}

// simpleEscape returns the text of a one-character escape ("" if c is not
// one).
func simpleEscape(c byte) string {
	switch c {
	case '0':
		return "\x00"
	case 'a':
		return "\a"
	case 'b':
		return "\b"
	case 't', '\t':
		return "\t"
	case 'n':
		return "\n"
	case 'v':
		return "\v"
	case 'f':
		return "\f"
	case 'r':
		return "\r"
	case 'e':
		return "\x1b"
	case ' ':
		return " "
	case '"':
		return "\""
	case '/':
		return "/"
	case '\\':
		return "\\"
	case 'N':
		return "\u0085"
	case '_':
		return "\u00a0"
	case 'L':
		return "\u2028"
	case 'P':
		return "\u2029"
	}
	return ""
}
