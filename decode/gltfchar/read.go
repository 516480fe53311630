package gltfchar

import (
	"bytes"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"strings"

	"github.com/mecanim/mecanim/model"
	qg "github.com/qmuntal/gltf"
)

// Format is the kind of character file read.
type Format int

// The formats told apart.
const (
	FormatGLTF Format = iota // plain glTF 2.0 (.gltf or .glb)
	FormatVRM0               // VRM 0.x (extensions.VRM)
	FormatVRM1               // VRM 1.0 (extensions.VRMC_vrm)
)

// String names the format.
func (f Format) String() string {
	switch f {
	case FormatGLTF:
		return "glTF"
	case FormatVRM0:
		return "VRM 0.x"
	case FormatVRM1:
		return "VRM 1.0"
	}
	return "unknown"
}

// Character is what a glTF or VRM file holds, in the project's
// format-free model and in Unity's frame (see the package documentation).
type Character struct {
	// Name is the file's base name without its extension.
	Name   string
	Format Format
	// Rig is the node hierarchy of the scene under one root.
	Rig *model.Rig
	// Nodes maps each rig node to its glTF node (-1 for a synthetic root).
	Nodes []int
	// Meshes are the meshes drawn on the rig, one per glTF node with a
	// mesh.
	Meshes []model.MeshInstance
	// Clips are the file's animations as generic clips over the rig.
	Clips []*model.Clip
	// Human is the humanoid description (bone map and T-pose skeleton),
	// nil when no human bone map was found.
	Human *model.HumanDescription
	// HumanSource says where Human's bone map came from.
	HumanSource HumanSource
	// Mirror is the conversion used into Unity's frame; Facing says why
	// it was chosen.
	Mirror Mirror
	Facing string
	// ArmsRaised is how many degrees Human's skeleton turns the left and
	// the right upper arm from the rest pose to make a T-pose (0 where
	// the rest pose is one; see APoseThresholdDeg).
	ArmsRaised [2]float32
	// Warnings lists what was read with a loss the caller may want to
	// report (a channel dropped, a node renamed).
	Warnings []string
}

// Config holds the choices of a read. The zero Config reads with the
// defaults (Read, Open).
type Config struct {
	// HumanMap, when not nil, is the human bone map to use (a user's map
	// file, see ParseHumanMap); it takes precedence over the file's VRM
	// humanoid extension and over bone names.
	HumanMap HumanMap
}

// Read reads a glTF character from r (size bytes): a GLB (.glb, .vrm) or a
// JSON glTF whose buffers are embedded as data URIs. name names the file
// in errors and gives the character its name.
func Read(r io.ReaderAt, size int64, name string) (*Character, error) {
	return Config{}.Read(r, size, name)
}

// Open reads a glTF character file (.glb, .vrm, or .gltf with its buffers
// beside it).
func Open(path string) (*Character, error) { return Config{}.Open(path) }

// Read reads a character as the package-level Read does, with c's choices.
func (c Config) Read(r io.ReaderAt, size int64, name string) (*Character, error) {
	d := &decoder{name: name, cfg: c}
	if err := d.load(r, size); err != nil {
		return nil, err
	}
	return d.character()
}

// Open reads a character file as the package-level Open does, with c's
// choices. Buffers given by relative URIs are read from the file's
// directory (never above it).
func (c Config) Open(path string) (*Character, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("gltfchar: %w", err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("gltfchar: %w", err)
	}
	d := &decoder{name: filepath.Base(path), cfg: c, dir: filepath.Dir(path), haveDir: true}
	if err := d.load(f, st.Size()); err != nil {
		return nil, err
	}
	return d.character()
}

// decoder holds one read's state.
type decoder struct {
	name    string
	cfg     Config
	dir     string
	haveDir bool

	doc    *qg.Document
	raw    rawDoc
	glbBin []byte // the GLB's BIN chunk (nil without one)
	isGLB  bool

	buffers  [][]byte // loaded buffers (nil until used)
	accCache map[accKey]any
	budget   int64                  // bytes that decoded data may still take
	textures map[int]*model.Texture // decoded images by index (nil: left out)
	warnings []string
}

// rawDoc is what the JSON says in the places qmuntal/gltf decodes into
// defaults without complaint (unknown enum values) or keeps undecoded
// (extensions): read a second time so that nothing is silently wrong.
type rawDoc struct {
	ExtensionsRequired []string                   `json:"extensionsRequired"`
	Extensions         map[string]json.RawMessage `json:"extensions"`
	Accessors          []struct {
		ComponentType int `json:"componentType"`
		Sparse        *struct {
			Indices struct {
				ComponentType int `json:"componentType"`
			} `json:"indices"`
		} `json:"sparse"`
	} `json:"accessors"`
	Meshes []struct {
		Primitives []struct {
			Mode    *int       `json:"mode"`
			Targets []struct{} `json:"targets"`
		} `json:"primitives"`
	} `json:"meshes"`
	// Counted only (see load).
	Nodes       []struct{} `json:"nodes"`
	BufferViews []struct{} `json:"bufferViews"`
	Buffers     []struct{} `json:"buffers"`
	Skins       []struct{} `json:"skins"`
	Materials   []struct{} `json:"materials"`
	Animations  []struct {
		Samplers []struct {
			Interpolation *string `json:"interpolation"`
		} `json:"samplers"`
		Channels []struct {
			Target struct {
				Path string `json:"path"`
			} `json:"target"`
		} `json:"channels"`
	} `json:"animations"`
}

// glbMagic is "glTF" little-endian.
const (
	glbMagic     = 0x46546C67
	glbChunkJSON = 0x4E4F534A
	glbChunkBIN  = 0x004E4942
)

// load reads the container (GLB or JSON) and the document.
func (d *decoder) load(r io.ReaderAt, size int64) error {
	if size < 0 {
		return d.malformed("", "negative size %d", size)
	}
	var head [12]byte
	n, err := r.ReadAt(head[:], 0)
	if n < 4 && err != nil && !errors.Is(err, io.EOF) {
		return fmt.Errorf("gltfchar: %s: %w", d.name, err)
	}
	var js []byte
	if n >= 4 && binary.LittleEndian.Uint32(head[:4]) == glbMagic {
		d.isGLB = true
		if js, err = d.readGLB(r, size); err != nil {
			return err
		}
	} else {
		js = make([]byte, size)
		if _, err := r.ReadAt(js, 0); err != nil && !(errors.Is(err, io.EOF) && size == 0) {
			if !errors.Is(err, io.EOF) {
				return fmt.Errorf("gltfchar: %s: %w", d.name, err)
			}
			return d.malformed("", "file shorter than its size %d", size)
		}
	}
	js = bytes.TrimPrefix(js, []byte("\xef\xbb\xbf"))
	d.budget = decodeBudget(size)
	if err := json.Unmarshal(js, &d.raw); err != nil {
		return d.malformed("JSON", "%v", err)
	}
	// qmuntal/gltf's structures take a few hundred bytes an element
	// whatever the JSON says ("{}" is a node): charge them first.
	cost := int64(len(d.raw.Nodes))*400 + int64(len(d.raw.Accessors))*200 + int64(len(d.raw.BufferViews))*120 +
		int64(len(d.raw.Buffers))*120 + int64(len(d.raw.Skins))*120 + int64(len(d.raw.Materials))*400
	for _, m := range d.raw.Meshes {
		cost += 100 + int64(len(m.Primitives))*200
		for _, p := range m.Primitives {
			cost += int64(len(p.Targets)) * 100
		}
	}
	for _, a := range d.raw.Animations {
		cost += 100 + int64(len(a.Channels))*150 + int64(len(a.Samplers))*100
	}
	if err := d.charge("JSON", cost); err != nil {
		return err
	}
	d.doc = new(qg.Document)
	if err := json.Unmarshal(js, d.doc); err != nil {
		return d.malformed("JSON", "%v", err)
	}
	if !strings.HasPrefix(d.doc.Asset.Version, "2.") {
		return d.unsupported("asset", "glTF version %q (2.x is read)", d.doc.Asset.Version)
	}
	d.buffers = make([][]byte, len(d.doc.Buffers))
	d.accCache = map[accKey]any{}
	return nil
}

// decodeBudget is how many bytes decoded data may take for a file of size
// bytes: what a mesh decoded from tightly packed floats needs several
// times over, so that counts in the file can never ask for more. Work
// done over decoded data (converting, merging, building curves) is
// charged to the same budget, since one accessor may be named by many
// primitives, targets or channels.
func decodeBudget(size int64) int64 { return 16<<20 + 32*size }

// charge takes n bytes (of memory, or their worth of work) from the
// budget, failing when the file asks for more than its size can justify.
func (d *decoder) charge(elem string, n int64) error {
	if n < 0 || n > d.budget {
		return d.malformed(elem, "asks for more data than a file of this size can describe")
	}
	d.budget -= n
	return nil
}

// readGLB reads a GLB's header and chunks, returning the JSON.
func (d *decoder) readGLB(r io.ReaderAt, size int64) ([]byte, error) {
	var head [12]byte
	if size < 12 {
		return nil, d.malformed("GLB header", "file of %d bytes is shorter than the 12-byte header", size)
	}
	if _, err := r.ReadAt(head[:], 0); err != nil {
		return nil, fmt.Errorf("gltfchar: %s: %w", d.name, err)
	}
	if v := binary.LittleEndian.Uint32(head[4:]); v != 2 {
		return nil, d.unsupported("GLB header", "container version %d (2 is read)", v)
	}
	total := int64(binary.LittleEndian.Uint32(head[8:]))
	if total > size {
		return nil, d.malformed("GLB header", "length %d past the file's %d bytes", total, size)
	}
	var js []byte
	off := int64(12)
	for chunk := 0; off+8 <= total; chunk++ {
		var ch [8]byte
		if _, err := r.ReadAt(ch[:], off); err != nil {
			return nil, fmt.Errorf("gltfchar: %s: %w", d.name, err)
		}
		n := int64(binary.LittleEndian.Uint32(ch[:4]))
		typ := binary.LittleEndian.Uint32(ch[4:])
		off += 8
		if n > total-off {
			return nil, d.malformed(fmt.Sprintf("GLB chunk %d", chunk), "length %d past the end of the file (%d bytes left)", n, total-off)
		}
		switch {
		case chunk == 0 && typ != glbChunkJSON:
			return nil, d.malformed("GLB chunk 0", "type %#x, not JSON", typ)
		case chunk == 0:
			js = make([]byte, n)
			if _, err := r.ReadAt(js, off); err != nil {
				return nil, fmt.Errorf("gltfchar: %s: %w", d.name, err)
			}
		case chunk == 1 && typ == glbChunkBIN:
			d.glbBin = make([]byte, n)
			if _, err := r.ReadAt(d.glbBin, off); err != nil {
				return nil, fmt.Errorf("gltfchar: %s: %w", d.name, err)
			}
		}
		off += n
	}
	if js == nil {
		return nil, d.malformed("GLB", "no JSON chunk")
	}
	return js, nil
}

// buffer returns buffer i's bytes, loading them on first use.
func (d *decoder) buffer(i int) ([]byte, error) {
	elem := fmt.Sprintf("buffer %d", i)
	if i < 0 || i >= len(d.doc.Buffers) {
		return nil, d.malformed(elem, "no such buffer (%d buffers)", len(d.doc.Buffers))
	}
	if d.buffers[i] != nil {
		return d.buffers[i], nil
	}
	b := d.doc.Buffers[i]
	n := b.ByteLength
	if n <= 0 {
		return nil, d.malformed(elem, "byteLength %d", n)
	}
	var data []byte
	switch {
	case b.URI == "" && i == 0 && d.isGLB:
		if d.glbBin == nil {
			return nil, d.malformed(elem, "the GLB has no BIN chunk")
		}
		data = d.glbBin
	case b.URI == "":
		return nil, d.malformed(elem, "no uri (only a GLB's first buffer may have none)")
	case strings.HasPrefix(b.URI, "data:"):
		comma := strings.IndexByte(b.URI, ',')
		if comma < 0 || !strings.HasSuffix(b.URI[:comma], ";base64") {
			return nil, d.unsupported(elem, "data URI that is not base64")
		}
		enc := b.URI[comma+1:]
		if int64(base64.StdEncoding.DecodedLen(len(enc))) < int64(n) {
			return nil, d.malformed(elem, "data URI of %d base64 characters holds fewer than byteLength %d bytes", len(enc), n)
		}
		var err error
		if data, err = base64.StdEncoding.DecodeString(enc); err != nil {
			return nil, d.malformed(elem, "data URI: %v", err)
		}
	default:
		var err error
		if data, err = d.external(elem, b.URI, int64(n)); err != nil {
			return nil, err
		}
	}
	if len(data) < n {
		return nil, d.malformed(elem, "%d bytes, fewer than byteLength %d", len(data), n)
	}
	d.buffers[i] = data[:n:n]
	return d.buffers[i], nil
}

// external reads a buffer stored in a file beside the glTF.
func (d *decoder) external(elem, uri string, n int64) ([]byte, error) {
	if !d.haveDir {
		return nil, d.unsupported(elem, "external buffer %q: read the file with Open to resolve it", uri)
	}
	u, err := url.Parse(uri)
	if err != nil || u.Scheme != "" || u.Host != "" {
		return nil, d.unsupported(elem, "buffer uri %q is not a relative file path", uri)
	}
	p, err := url.PathUnescape(strings.ReplaceAll(u.Path, "\\", "/"))
	if err != nil || !filepath.IsLocal(filepath.FromSlash(p)) {
		return nil, d.malformed(elem, "buffer uri %q leaves the file's directory", uri)
	}
	f, err := os.Open(filepath.Join(d.dir, filepath.FromSlash(p)))
	if err != nil {
		return nil, fmt.Errorf("gltfchar: %s: %s: %w", d.name, elem, err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("gltfchar: %s: %s: %w", d.name, elem, err)
	}
	if st.Size() < n {
		return nil, d.malformed(elem, "%q has %d bytes, fewer than byteLength %d", p, st.Size(), n)
	}
	data := make([]byte, n)
	if _, err := io.ReadFull(f, data); err != nil {
		return nil, fmt.Errorf("gltfchar: %s: %s: %w", d.name, elem, err)
	}
	return data, nil
}

// warn records a loss for Character.Warnings.
func (d *decoder) warn(format string, args ...any) {
	d.warnings = append(d.warnings, fmt.Sprintf(format, args...))
}

// supportedRequired reports whether a required extension leaves what this
// reader decodes (nodes, geometry, skins, animations) as plain glTF has it.
func supportedRequired(ext string) bool {
	switch {
	case ext == "KHR_mesh_quantization": // integer vertex data: decoded like any accessor
		return true
	case strings.HasPrefix(ext, "KHR_materials_"), strings.HasPrefix(ext, "KHR_texture_"),
		strings.HasPrefix(ext, "EXT_texture_"), strings.HasPrefix(ext, "KHR_lights_"),
		ext == "VRM", strings.HasPrefix(ext, "VRMC_"):
		return true
	}
	return false
}

// character converts the document.
func (d *decoder) character() (*Character, error) {
	for _, e := range d.raw.ExtensionsRequired {
		if !supportedRequired(e) {
			return nil, d.unsupported("extensionsRequired", "extension %s", e)
		}
	}
	ch := &Character{Name: baseName(d.name)}
	switch {
	case d.raw.Extensions["VRMC_vrm"] != nil:
		ch.Format = FormatVRM1
	case d.raw.Extensions["VRM"] != nil:
		ch.Format = FormatVRM0
	}
	h, err := d.hierarchy(ch.Name)
	if err != nil {
		return nil, err
	}
	hm, src, err := d.humanMap(h, ch.Format)
	if err != nil {
		return nil, err
	}
	ch.HumanSource = src
	ch.Mirror, ch.Facing = d.chooseMirror(h, hm, ch.Format)
	f := newFrame(ch.Mirror)
	ch.Rig, ch.Nodes = d.rig(h, f, ch.Name)
	if ch.Meshes, err = d.meshes(h, f); err != nil {
		return nil, err
	}
	if ch.Clips, err = d.clips(h, f, ch.Meshes, ch.Rig); err != nil {
		return nil, err
	}
	if hm != nil {
		ch.Human, ch.ArmsRaised = d.description(h, ch.Rig, hm, ch.Format)
	}
	ch.Warnings = d.warnings
	return ch, nil
}

// baseName is a file name without directory and extension.
func baseName(name string) string {
	b := filepath.Base(name)
	if b == "." || b == string(filepath.Separator) {
		return ""
	}
	return strings.TrimSuffix(b, filepath.Ext(b))
}
