package assets

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/mecanim/mecanim/internal/synth"
	"github.com/mecanim/mecanim/unity/serialized"
	"github.com/mecanim/mecanim/unity/unityfs"
	"github.com/mecanim/mecanim/unity/unitywrite"
)

// TestMetadataCountsAgainstTheMemoryLimit: what open inputs hold besides
// decompressed blocks — a bundle's directory, a serialized file's object
// table and type trees — is charged to the one Cache of the process, so
// that many inputs at once stay within its limit: an input that would go
// over is refused (naming it and the limit), and closing an input gives
// its share back.
func TestMetadataCountsAgainstTheMemoryLimit(t *testing.T) {
	t.Run("a directory of many nodes", func(t *testing.T) {
		var entries []unitywrite.Entry
		for i := range 4000 {
			entries = append(entries, unitywrite.Entry{Path: fmt.Sprintf("res%05d.resource", i), Data: []byte{byte(i), 1, 2, 3}})
		}
		b, err := unitywrite.Bundle("2022.3.9f1", entries, 0)
		if err != nil {
			t.Fatal(err)
		}
		cache := unityfs.NewCache(1 << 20) // below 4000 nodes' share
		_, err = OpenReader(bytes.NewReader(b), int64(len(b)), "many.bundle", Options{Cache: cache})
		var me *unityfs.MetadataError
		if !errors.As(err, &me) || !errors.Is(err, unityfs.ErrMemoryLimit) {
			t.Fatalf("err %v, want a MetadataError", err)
		}
		var ae *Error
		if !errors.As(err, &ae) || ae.Container != "many.bundle" {
			t.Errorf("%v does not name the input", err)
		}
		if cache.Used() != 0 || cache.Metadata() != 0 {
			t.Errorf("a refused input keeps %d bytes (%d of metadata) charged", cache.Used(), cache.Metadata())
		}
		big := unityfs.NewCache(64 << 20)
		c, err := OpenReader(bytes.NewReader(b), int64(len(b)), "many.bundle", Options{Cache: big})
		if err != nil {
			t.Fatal(err)
		}
		if m := big.Metadata(); m < 4000*unityfs.NodeBytes {
			t.Errorf("the directory of 4000 nodes charges %d bytes", m)
		}
		c.Close()
		if m := big.Metadata(); m != 0 {
			t.Errorf("closed, the bundle still charges %d bytes", m)
		}
	})
	t.Run("object tables of several files at once", func(t *testing.T) {
		sf, err := synth.SerializedFile(0, true, false)
		if err != nil {
			t.Fatal(err)
		}
		probe, err := serialized.Open(bytes.NewReader(sf), int64(len(sf)), "probe")
		if err != nil {
			t.Fatal(err)
		}
		one := probe.HeldBytes()
		if one <= int64(len(probe.Objects))*40 {
			t.Fatalf("a file of %d objects and type trees holds %d bytes?", len(probe.Objects), one)
		}
		// An object table that cannot fit is refused before it is made,
		// and nothing stays charged.
		tiny := unityfs.NewCache(int64(len(probe.Objects)) * 8)
		_, err = OpenReader(bytes.NewReader(sf), int64(len(sf)), "tiny.assets", Options{Cache: tiny})
		var me *unityfs.MetadataError
		if !errors.As(err, &me) || !strings.Contains(me.What, "object table") || tiny.Metadata() != 0 {
			t.Fatalf("err %v (%d bytes left charged), want the object table refused", err, tiny.Metadata())
		}
		// Room for two files' metadata (each container's own type trees),
		// not three.
		cache := unityfs.NewCache(2*one + one/2)
		var open []*Container
		for i := range 3 {
			c, err := OpenReader(bytes.NewReader(sf), int64(len(sf)), fmt.Sprintf("copy%d.assets", i), Options{Cache: cache})
			if i < 2 {
				if err != nil {
					t.Fatalf("copy %d: %v", i, err)
				}
				open = append(open, c)
				continue
			}
			if !errors.Is(err, unityfs.ErrMemoryLimit) {
				t.Fatalf("the third copy: %v, want ErrMemoryLimit", err)
			}
		}
		open[0].Close()
		c, err := OpenReader(bytes.NewReader(sf), int64(len(sf)), "again.assets", Options{Cache: cache})
		if err != nil {
			t.Fatalf("after closing one: %v", err)
		}
		c.Close()
		open[1].Close()
		if m := cache.Metadata(); m != 0 {
			t.Errorf("all closed, %d bytes still charged", m)
		}
	})
}
