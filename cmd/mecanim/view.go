package main

import (
	"context"
	"fmt"
	"net"
	"os"
	"os/signal"
	"syscall"

	"github.com/mecanim/mecanim/present/view"
)

func runView(e *env, args []string) error {
	fs := newFlags(e, "view", "FILE... [--addr 127.0.0.1:8080] [--public]")
	addr := fs.String("addr", "127.0.0.1:8080", "address to listen on (host:port; port 0 picks a free one)")
	public := fs.Bool("public", false, "allow listening on a non-loopback address and answering any host name (the page has no authentication)")
	var rf readerFlags
	rf.register(fs)
	files, err := parseArgs(fs, args)
	if err != nil {
		return err
	}
	if !*public && !view.IsLoopback(*addr) {
		return usagef("--addr %s is not a loopback address: the viewer has no authentication; add --public to serve it to the network anyway", *addr)
	}
	set, failed, err := openSet(e, "view", files, &rf)
	if err != nil {
		return err
	}
	defer set.Close()
	if failed == len(files) {
		return &failedError{failed}
	}
	srv, err := view.New(set, view.Options{Public: *public, Logf: func(format string, a ...any) {
		fmt.Fprintf(e.stderr, "mecanim view: "+format+"\n", a...)
	}})
	if err != nil {
		return err
	}
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		return err
	}
	if *public && !view.IsLoopback(*addr) {
		fmt.Fprintf(e.stderr, "mecanim view: warning: serving %s to the network without authentication\n", ln.Addr())
	}
	fmt.Fprintf(e.stdout, "mecanim view: serving %d file(s) on http://%s/ (Ctrl-C stops)\n", len(files)-failed, ln.Addr())
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := view.Serve(ctx, ln, srv); err != nil {
		return err
	}
	fmt.Fprintln(e.stdout, "mecanim view: stopped")
	return nil
}
