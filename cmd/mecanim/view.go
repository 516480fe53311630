package main

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/signal"
	"syscall"

	"github.com/mecanim/mecanim/present/view"
)

func runView(e *env, args []string) error {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	return serveView(ctx, e, args, nil)
}

// serveView serves the viewer until ctx is done; ready, when not nil, is
// told the address it listens on once it does (for tests).
//
// --public opens the viewer to the network: on a network address it
// answers any host name (the page has no authentication; a warning says
// so). On a loopback address only this machine can connect anyway, and
// answering other host names would only let other web sites in through
// DNS rebinding, so there the Host check stays on and a note says that
// --public changed nothing.
func serveView(ctx context.Context, e *env, args []string, ready func(addr string)) error {
	fs := newFlags(e, "view", "FILE... [--addr 127.0.0.1:8080] [--public]")
	addr := fs.String("addr", "127.0.0.1:8080", "address to listen on (host:port; port 0 picks a free one)")
	public := fs.Bool("public", false, "listen on a network address and answer any host name (the page has no authentication; on a loopback address it changes nothing)")
	var rf readerFlags
	rf.register(fs)
	files, err := parseArgs(fs, args)
	if err != nil {
		return err
	}
	loopback := view.IsLoopback(*addr)
	if !*public && !loopback {
		return usagef("--addr %s is not a loopback address: the viewer has no authentication; add --public to serve it to the network anyway", *addr)
	}
	if *public && loopback {
		fmt.Fprintf(e.stderr, "mecanim view: --public changes nothing on the loopback address %s: the viewer still answers only requests addressed to this machine (which keeps other web sites out through DNS rebinding); listen on a network address to serve the network\n", *addr)
	}
	set, failed, err := openSet(ctx, e, "view", files, &rf)
	if err != nil {
		return err
	}
	defer set.Close()
	clips, ctls, chars := len(set.Clips()), len(set.Controllers()), len(set.Characters())
	if clips+ctls+chars == 0 {
		if failed > 0 {
			return &failedError{failed}
		}
		return errors.New("nothing to view: the inputs hold no clip, controller or character")
	}
	srv, err := view.New(set, view.Options{Public: *public && !loopback, Logf: func(format string, a ...any) {
		fmt.Fprintf(e.stderr, "mecanim view: "+format+"\n", a...)
	}})
	if err != nil {
		return err
	}
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		return err
	}
	if *public && !loopback {
		fmt.Fprintf(e.stderr, "mecanim view: warning: serving %s to the network without authentication\n", ln.Addr())
	}
	fmt.Fprintf(e.stdout, "mecanim view: serving %s, %s and %s on http://%s/ (Ctrl-C stops)\n",
		count(clips, "clip"), count(ctls, "controller"), count(chars, "character"), ln.Addr())
	if ready != nil {
		ready(ln.Addr().String())
	}
	if err := view.Serve(ctx, ln, srv); err != nil {
		return err
	}
	fmt.Fprintln(e.stdout, "mecanim view: stopped")
	return nil
}

// count says n things: "1 clip", "3 clips".
func count(n int, thing string) string {
	if n == 1 {
		return "1 " + thing
	}
	return fmt.Sprintf("%d %ss", n, thing)
}
