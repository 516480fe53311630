// Command gen writes the example Unity files of the examples folder
// (see package examples/internal/hello for what they hold).
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"

	"github.com/mecanim/mecanim/examples/internal/hello"
)

func main() {
	out := flag.String("o", ".", "output directory")
	flag.Parse()
	b, err := hello.HelloBundle()
	if err == nil {
		err = os.WriteFile(filepath.Join(*out, "hello.bundle"), b, 0o644)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
}
