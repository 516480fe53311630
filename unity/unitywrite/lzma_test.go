package unitywrite

import (
	"bytes"
	"math/rand"
	"testing"

	"github.com/mecanim/mecanim/unity/internal/lzma"
)

// lzmaInputs are data of every kind the encoder meets: empty, one byte,
// random (literals only), runs (distance 1), repeats at short and long
// distances (every distance slot), and a serialized file's mix.
func lzmaInputs() map[string][]byte {
	rnd := rand.New(rand.NewSource(7))
	random := make([]byte, 50000)
	rnd.Read(random)
	var far bytes.Buffer
	chunk := make([]byte, 3000)
	rnd.Read(chunk)
	for far.Len() < 1<<20 {
		far.Write(chunk)
		pad := make([]byte, rnd.Intn(200000))
		rnd.Read(pad)
		far.Write(pad)
	}
	var mixed bytes.Buffer
	for mixed.Len() < 200000 {
		switch rnd.Intn(3) {
		case 0:
			mixed.Write(bytes.Repeat([]byte{byte(rnd.Intn(256))}, rnd.Intn(600)))
		case 1:
			b := mixed.Bytes()
			if len(b) > 10 {
				s := rnd.Intn(len(b) - 5)
				mixed.Write(append([]byte(nil), b[s:s+min(len(b)-s, rnd.Intn(300))]...))
			}
		default:
			x := make([]byte, rnd.Intn(50))
			rnd.Read(x)
			mixed.Write(x)
		}
	}
	return map[string][]byte{
		"empty": {}, "one": {42}, "random": random, "run": bytes.Repeat([]byte{7}, 100000),
		"far": far.Bytes(), "mixed": mixed.Bytes(),
	}
}

func TestLZMAStreamsDecodeToTheirInput(t *testing.T) {
	for name, in := range lzmaInputs() {
		c, err := compressLZMA(in)
		if err != nil {
			t.Fatal(err)
		}
		out := make([]byte, len(in))
		if err := lzma.Decompress(out, c); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if !bytes.Equal(out, in) {
			t.Fatalf("%s: decodes to other bytes", name)
		}
		// Runs shrink to almost nothing; the repeated chunks among random
		// bytes are found across hundreds of kilobytes.
		if (name == "run" && len(c) > 1000) || (name == "far" && len(c) > len(in)-10000) {
			t.Errorf("%s: %d bytes coded in %d", name, len(in), len(c))
		}
	}
}
