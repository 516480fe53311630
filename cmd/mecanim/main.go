// Command mecanim reads Unity files and evaluates their animation outside
// Unity: it lists and dumps objects, decodes clips, avatars and controllers,
// samples poses, runs controllers, exports glTF and draws pictures.
//
// Each command is a thin layer over the library packages; see the README.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
)

// exit statuses
const (
	exitOK    = 0
	exitRead  = 1 // a file could not be read or decoded
	exitUsage = 2 // the command line was wrong
)

// command is one subcommand.
type command struct {
	name    string
	summary string
	run     func(env *env, args []string) error
}

// env is what a command writes to.
type env struct {
	stdout, stderr io.Writer
}

// usageError is a command-line mistake (exit status 2).
type usageError struct{ msg string }

func (e *usageError) Error() string { return e.msg }

func usagef(format string, a ...any) error { return &usageError{fmt.Sprintf(format, a...)} }

// failedError reports that some inputs failed after the others were
// processed; the individual errors were already printed.
type failedError struct{ n int }

func (e *failedError) Error() string {
	if e.n == 1 {
		return "1 error"
	}
	return fmt.Sprintf("%d errors", e.n)
}

func commands() []command {
	return []command{
		{"ls", "list the objects of Unity files", runLs},
		{"dump", "print one object as JSON", runDump},
		{"clips", "list the animation clips of Unity files", runClips},
		{"sample", "evaluate a clip's curves at given times", runSample},
		{"avatar", "show avatars: skeleton, axes, human bones, checks", runAvatar},
		{"controller", "show animator controllers: parameters, layers, states, transitions", runController},
		{"pose", "pose a rig with a clip at given times (generic or humanoid)", runPose},
		{"retarget", "record a clip playing on a humanoid avatar as a humanoid clip (muscles)", runRetarget},
		{"play", "run a controller headless on a script of parameter changes", runPlay},
		{"view", "serve a local web page that plays the clips (WebGL)", runView},
		{"render", "draw a clip as a contact sheet of skeleton poses (PNG)", runRender},
		{"export", "write a rig with its meshes and clips as glTF (.glb/.gltf)", runExport},
		{"extract", "export every character of a game with its clips (glTF) and a manifest", runExtract},
	}
}

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// run executes the command line and returns the exit status.
func run(args []string, stdout, stderr io.Writer) int {
	e := &env{stdout: stdout, stderr: stderr}
	if len(args) == 0 {
		printUsage(stderr)
		return exitUsage
	}
	if args[0] == "-h" || args[0] == "--help" || args[0] == "help" {
		printUsage(stdout)
		return exitOK
	}
	for _, c := range commands() {
		if c.name != args[0] {
			continue
		}
		err := c.run(e, args[1:])
		var ue *usageError
		var fe *failedError
		switch {
		case err == nil:
			return exitOK
		case errors.Is(err, flag.ErrHelp):
			return exitOK
		case errors.As(err, &ue):
			fmt.Fprintf(stderr, "mecanim %s: %v\n", c.name, err)
			fmt.Fprintf(stderr, "run 'mecanim %s -h' for usage\n", c.name)
			return exitUsage
		case errors.As(err, &fe):
			fmt.Fprintf(stderr, "mecanim %s: %v\n", c.name, err)
			return exitRead
		default:
			fmt.Fprintf(stderr, "mecanim %s: %v\n", c.name, err)
			return exitRead
		}
	}
	fmt.Fprintf(stderr, "mecanim: unknown command %q\n", args[0])
	printUsage(stderr)
	return exitUsage
}

func printUsage(w io.Writer) {
	fmt.Fprintln(w, "usage: mecanim COMMAND [ARGS]")
	fmt.Fprintln(w)
	for _, c := range commands() {
		fmt.Fprintf(w, "  %-11s %s\n", c.name, c.summary)
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, "run 'mecanim COMMAND -h' for a command's options")
}

// newFlags returns a flag set for a command. Its parse errors are returned
// (and printed once, by run); help asked for with -h goes to stdout.
func newFlags(e *env, name, synopsis string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Usage = func() {
		fmt.Fprintf(e.stdout, "usage: mecanim %s %s\n", name, synopsis)
		fs.SetOutput(e.stdout)
		fs.PrintDefaults()
		fs.SetOutput(io.Discard)
	}
	return fs
}

// helpAsked reports whether the arguments ask for help (before any "--").
func helpAsked(args []string) bool {
	for _, a := range args {
		switch a {
		case "--":
			return false
		case "-h", "-help", "--help", "--h":
			return true
		}
	}
	return false
}

// parseArgs parses flags that may come before, between or after the
// positional arguments, and returns the positional ones.
func parseArgs(fs *flag.FlagSet, args []string) ([]string, error) {
	if helpAsked(args) {
		fs.Usage()
		return nil, flag.ErrHelp
	}
	usage := fs.Usage
	fs.Usage = func() {} // a parse error is returned and printed once
	defer func() { fs.Usage = usage }()
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				usage()
				return nil, err
			}
			return nil, &usageError{err.Error()}
		}
		args = fs.Args()
		if len(args) == 0 {
			return pos, nil
		}
		if args[0] == "--" {
			return append(pos, args[1:]...), nil
		}
		pos = append(pos, args[0])
		args = args[1:]
	}
}

// multiFlag collects a repeated string flag.
type multiFlag []string

func (m *multiFlag) String() string { return strings.Join(*m, ",") }

// Set appends a value.
func (m *multiFlag) Set(s string) error { *m = append(*m, s); return nil }

// note writes a note (what was done, what was left out and why) on
// stderr, unless quiet.
func note(e *env, quiet bool, format string, a ...any) {
	if !quiet {
		fmt.Fprintf(e.stderr, format+"\n", a...)
	}
}
