// Command mecanim reads Unity files and evaluates their animation outside
// Unity: it lists and dumps objects, decodes clips, avatars and controllers,
// samples poses, runs controllers, exports glTF and draws pictures.
//
// Each command is a thin layer over the library packages; see the README,
// `mecanim help COMMAND`, and docs/json.md for the JSON every command
// prints.
//
// The contract every command keeps: stdout carries only the output asked
// for (a table, JSON, nothing when the output is a file); notes (what was
// inferred, left out, written) go to stderr, and --quiet silences them;
// each reason something asked for was not done is one line on stderr.
// Exit status 0 when everything asked for was done, 1 when anything was
// not, 2 for a usage error.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"strings"

	"github.com/mecanim/mecanim/bind"
	"github.com/mecanim/mecanim/unity/unityfs"
)

// exit statuses
const (
	exitOK     = 0
	exitFailed = 1 // something asked for was not done (each reason printed)
	exitUsage  = 2 // the command line was wrong
)

// command is one subcommand.
type command struct {
	name    string
	summary string
	// synopsis is the usage line after "mecanim NAME"; about (optional)
	// is what `mecanim help NAME` says after it, before the options.
	synopsis string
	about    string
	run      func(e *env, args []string) error
}

// env is what a command writes to, and what it has reported.
type env struct {
	stdout, stderr io.Writer
	// cmd is the command's name, for messages.
	cmd string
	// quiet silences notes (--quiet).
	quiet bool
	// failures counts what was reported not done (fail).
	failures int
}

// usageError is a command-line mistake (exit status 2).
type usageError struct{ msg string }

func (e *usageError) Error() string { return e.msg }

func usagef(format string, a ...any) error { return &usageError{fmt.Sprintf(format, a...)} }

// errReported is returned by a command whose failures were each reported
// on stderr already (env.fail).
var errReported = errors.New("failures reported")

// failedError is errReported with the count, for commands that count
// their failures themselves.
type failedError struct{ n int }

func (e *failedError) Error() string { return fmt.Sprintf("%d failures reported", e.n) }

func commands() []command {
	return []command{
		{"ls", "list the objects of Unity files", lsSynopsis, lsAbout, runLs},
		{"dump", "print one object as JSON", dumpSynopsis, dumpAbout, runDump},
		{"clips", "list the animation clips of the files", clipsSynopsis, clipsAbout, runClips},
		{"sample", "evaluate a clip's curves at given times", sampleSynopsis, sampleAbout, runSample},
		{"avatar", "show avatars: skeleton, axes and limits, human bones and fingers, checks", "FILE... [--name N] [--rebuild] [--json]", avatarAbout, runAvatar},
		{"controller", "show animator controllers: parameters, layers, states, transitions", "FILE... [--name N] [--json]", controllerAbout, runController},
		{"pose", "pose a rig with a clip at given times (generic or humanoid)", poseSynopsis, poseAbout, runPose},
		{"retarget", "record a clip playing on a humanoid avatar as a humanoid clip (muscles)", retargetSynopsis, retargetAbout, runRetarget},
		{"pack", "compile clips as Unity does and write them into a bundle a game loads (--like a file of the game)", packSynopsis, packAbout, runPack},
		{"play", "run a controller headless on a script of parameter changes", playSynopsis, playAbout, runPlay},
		{"view", "serve a local web page that plays the clips (WebGL)", "FILE... [--addr 127.0.0.1:8080] [--public]", "", runView},
		{"render", "draw a clip as a contact sheet of skeleton poses, or plot its curves (PNG)", renderSynopsis, renderAbout, runRender},
		{"export", "write a rig with its meshes and clips as glTF (.glb/.gltf)", exportSynopsis, exportAbout, runExport},
		{"extract", "export every character of a game with its clips (glTF) and a manifest", extractSynopsis, extractAbout, runExtract},
	}
}

// findCommand returns the command of a name.
func findCommand(name string) (command, bool) {
	for _, c := range commands() {
		if c.name == name {
			return c, true
		}
	}
	return command{}, false
}

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// run executes the command line and returns the exit status.
func run(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		printUsage(stderr)
		return exitUsage
	}
	switch args[0] {
	case "-h", "-help", "--help":
		printUsage(stdout)
		return exitOK
	case "-version", "--version", "version":
		fmt.Fprintln(stdout, versionLine(debug.ReadBuildInfo()))
		return exitOK
	case "help":
		if len(args) == 1 {
			printUsage(stdout)
			return exitOK
		}
		if _, ok := findCommand(args[1]); !ok || len(args) > 2 {
			fmt.Fprintf(stderr, "mecanim help: no command %q\n", strings.Join(args[1:], " "))
			printUsage(stderr)
			return exitUsage
		}
		return run([]string{args[1], "-h"}, stdout, stderr)
	}
	c, ok := findCommand(args[0])
	if !ok {
		fmt.Fprintf(stderr, "mecanim: unknown command %q\n", args[0])
		printUsage(stderr)
		return exitUsage
	}
	e := &env{stdout: stdout, stderr: stderr, cmd: c.name}
	err := c.run(e, args[1:])
	var ue *usageError
	var ce *bind.ChoiceError
	switch {
	case err == nil && e.failures == 0:
		return exitOK
	case errors.Is(err, flag.ErrHelp):
		return exitOK
	case errors.As(err, &ue):
		fmt.Fprintf(stderr, "mecanim %s: %v\n", c.name, err)
		fmt.Fprintf(stderr, "run 'mecanim help %s' for usage\n", c.name)
		return exitUsage
	case errors.As(err, &ce):
		// Which object was meant is the command line's to say.
		fmt.Fprintf(stderr, "mecanim %s: %s\n", c.name, choiceText(c.name, ce))
		return exitUsage
	case err == nil || errors.Is(err, errReported) || errors.As(err, new(*failedError)):
		return exitFailed
	default:
		e.fail(err)
		return exitFailed
	}
}

// printUsage writes the general usage.
func printUsage(w io.Writer) {
	fmt.Fprintln(w, "usage: mecanim COMMAND [ARGS]")
	fmt.Fprintln(w)
	for _, c := range commands() {
		fmt.Fprintf(w, "  %-11s %s\n", c.name, c.summary)
	}
	fmt.Fprint(w, `
  help CMD    what a command does and its options (also: mecanim CMD -h)
  --version   the module version and VCS revision of this build

Files given together form one set: a clip in one bundle can play on a
character from another. Inputs: built Unity files (bundles, level and
.assets files, WebGL .data), glTF/VRM characters, the editor's YAML assets
(.anim, .controller, .prefab, ...), .unitypackage files, and folders: a
game's data or a mod's (every Unity file in it) or a Unity project. Every
command that reads files takes --layouts, --unity-version, --human-map and
--block-cache (see 'mecanim help ls'), and --quiet.

stdout carries only the output asked for (--json: see docs/json.md for the
schema of each command's JSON); notes go to stderr and --quiet silences
them. Exit status: 0 when everything asked for was done, 1 when anything
was not (each reason one line on stderr), 2 for a usage error.
`)
}

// versionLine describes the build: module path and version, VCS revision
// and time (and whether the tree was modified), Go version.
func versionLine(bi *debug.BuildInfo, ok bool) string {
	if !ok || bi == nil {
		return "mecanim (no build information)"
	}
	v := bi.Main.Version
	if v == "" {
		v = "(devel)"
	}
	s := fmt.Sprintf("mecanim %s %s", bi.Main.Path, v)
	var rev, when, modified string
	for _, kv := range bi.Settings {
		switch kv.Key {
		case "vcs.revision":
			rev = kv.Value
		case "vcs.time":
			when = kv.Value
		case "vcs.modified":
			modified = kv.Value
		}
	}
	if rev == "" {
		s += ", revision unknown (built without VCS information)"
	} else {
		s += ", revision " + rev
		if when != "" {
			s += " (" + when + ")"
		}
		if modified == "true" {
			s += " with local changes"
		}
	}
	return s + ", " + bi.GoVersion
}

// newFlags returns the flag set of command name, with --quiet. Its parse
// errors are returned (and printed once, by run); help asked for with -h
// goes to stdout. The synopsis and description are the command table's;
// synopsis is used for a command not in it.
func newFlags(e *env, name, synopsis string) *flag.FlagSet {
	c, ok := findCommand(name)
	if !ok {
		c = command{name: name, synopsis: synopsis}
	}
	e.cmd = name
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.BoolVar(&e.quiet, "quiet", false, "no notes on stderr (what was inferred, left out or written); errors still")
	fs.Usage = func() {
		fmt.Fprintf(e.stdout, "usage: mecanim %s %s\n", c.name, c.synopsis)
		if c.about != "" {
			fmt.Fprintf(e.stdout, "\n%s\n", strings.TrimSpace(c.about))
		}
		fmt.Fprintf(e.stdout, "\noptions:\n")
		printOptions(e.stdout, fs)
	}
	return fs
}

// printOptions lists a flag set's options as the docs write them
// (--name), with their defaults.
func printOptions(w io.Writer, fs *flag.FlagSet) {
	fs.VisitAll(func(f *flag.Flag) {
		name, usage := flag.UnquoteUsage(f)
		line := "  --" + f.Name
		if name != "" {
			line += " " + name
		}
		fmt.Fprintf(w, "%s\n      %s", line, usage)
		if d := f.DefValue; d != "" && d != "false" && d != "0" && d != "[]" {
			fmt.Fprintf(w, " (default %s)", d)
		}
		fmt.Fprintln(w)
	})
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

// notef writes a note (what was inferred, done, left out and why) on
// stderr, unless --quiet.
func (e *env) notef(format string, a ...any) {
	if !e.quiet {
		fmt.Fprintf(e.stderr, "mecanim %s: note: %s\n", e.cmd, fmt.Sprintf(format, a...))
	}
}

// fail reports one thing asked for that was not done, on one line of
// stderr (a choice between objects lists them on the lines after), and
// counts it: the command then exits 1.
func (e *env) fail(err error) {
	e.failures++
	var ce *bind.ChoiceError
	if errors.As(err, &ce) {
		fmt.Fprintf(e.stderr, "mecanim %s: %s\n", e.cmd, choiceText(e.cmd, ce))
		return
	}
	msg := strings.ReplaceAll(strings.TrimSpace(err.Error()), "\n", "; ")
	if errors.Is(err, unityfs.ErrMemoryLimit) {
		msg += " (--block-cache sets the limit)"
	}
	fmt.Fprintf(e.stderr, "mecanim %s: %s\n", e.cmd, msg)
}

// failf is fail with a message.
func (e *env) failf(format string, a ...any) { e.fail(fmt.Errorf(format, a...)) }

// done returns what a command returns when it has reported its failures
// itself: nil when there were none.
func (e *env) done() error {
	if e.failures > 0 {
		return errReported
	}
	return nil
}

// optionOf is the option that chooses an object of each kind, in the
// commands that take objects of several kinds; avatar and controller
// choose their own kind with --name.
func optionOf(cmd string, k bind.Kind) string {
	switch {
	case cmd == "avatar" && k == bind.KindAvatar, cmd == "controller" && k == bind.KindController:
		return "--name"
	}
	switch k {
	case bind.KindClip:
		return "--clip"
	case bind.KindCharacter:
		return "--animator"
	case bind.KindAvatar:
		return "--avatar"
	default:
		return "--controller"
	}
}

// choiceText says what was ambiguous and how to choose each candidate on
// this command line.
func choiceText(cmd string, ce *bind.ChoiceError) string {
	opt := optionOf(cmd, ce.Kind)
	var b strings.Builder
	fmt.Fprintf(&b, "%s; choose one with %s:", ce.What, opt)
	for _, c := range ce.Candidates {
		fmt.Fprintf(&b, "\n  %s %-40s %q in %s", opt, shellQuote(c.Ref), c.Name, c.Source)
	}
	return b.String()
}

// shellQuote quotes a command-line argument for a POSIX shell when it
// needs it.
func shellQuote(a string) string {
	if a != "" && strings.IndexFunc(a, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("-_.#/:", r))
	}) < 0 {
		return a
	}
	return "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
}
