package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

const helloBundle = "../../examples/hello.bundle"

// statusFor sends GET / to addr with the given Host header.
func statusFor(t *testing.T, addr, host string) int {
	t.Helper()
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(10 * time.Second))
	fmt.Fprintf(c, "GET / HTTP/1.1\r\nHost: %s\r\nConnection: close\r\n\r\n", host)
	r, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil {
		t.Fatal(err)
	}
	r.Body.Close()
	return r.StatusCode
}

// On a loopback address --public cannot open the viewer to anyone else,
// and turning off the Host check there would only let other web sites in
// through DNS rebinding: it stays on, and the command says so.
func TestViewPublicOnLoopbackKeepsTheRebindingCheck(t *testing.T) {
	for _, tc := range []struct {
		name string
		args []string
		note bool
	}{
		{"loopback", []string{"--addr", "127.0.0.1:0", helloBundle}, false},
		{"loopback with --public", []string{"--addr", "127.0.0.1:0", "--public", helloBundle}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			e := &env{stdout: &stdout, stderr: &stderr}
			ctx, cancel := context.WithCancel(context.Background())
			addrc := make(chan string, 1)
			done := make(chan error, 1)
			go func() { done <- serveView(ctx, e, tc.args, func(a string) { addrc <- a }) }()
			var addr string
			select {
			case addr = <-addrc:
			case err := <-done:
				t.Fatalf("view returned %v before listening: %s", err, stderr.String())
			case <-time.After(30 * time.Second):
				t.Fatal("view did not start listening")
			}
			if code := statusFor(t, addr, addr); code != http.StatusOK {
				t.Errorf("Host %s: %d, want 200", addr, code)
			}
			if code := statusFor(t, addr, "rebound.example:8080"); code != http.StatusMisdirectedRequest {
				t.Errorf("Host rebound.example: %d, want %d: the DNS-rebinding check is off", code, http.StatusMisdirectedRequest)
			}
			cancel()
			if err := <-done; err != nil {
				t.Errorf("view returned %v", err)
			}
			if got := strings.Contains(stderr.String(), "--public changes nothing"); got != tc.note {
				t.Errorf("note on stderr %v, want %v: %q", got, tc.note, stderr.String())
			}
		})
	}
}

func TestViewRefusesANetworkAddressWithoutPublic(t *testing.T) {
	var stdout, stderr bytes.Buffer
	err := serveView(context.Background(), &env{stdout: &stdout, stderr: &stderr}, []string{"--addr", "0.0.0.0:0", helloBundle}, nil)
	var ue *usageError
	if !errors.As(err, &ue) {
		t.Errorf("got %v, want a usage error", err)
	}
}

// A folder with nothing to show is an error, not an empty viewer; what is
// served is counted in what it holds (a folder is one input of many
// files).
func TestViewSaysWhatItServes(t *testing.T) {
	var stdout, stderr bytes.Buffer
	e := &env{stdout: &stdout, stderr: &stderr}
	err := serveView(context.Background(), e, []string{"--addr", "127.0.0.1:0", t.TempDir()}, nil)
	if err == nil || !strings.Contains(err.Error(), "nothing to view") {
		t.Errorf("an empty folder: %v", err)
	}
	dir := t.TempDir()
	b, err := os.ReadFile(helloBundle)
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, "hello-data"), b, 0o644)
	stdout.Reset()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- serveView(ctx, e, []string{"--addr", "127.0.0.1:0", dir}, func(string) { cancel() }) }()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if !regexp.MustCompile(`serving 1 clip, 0 controllers and 1 character on http://`).MatchString(stdout.String()) {
		t.Errorf("stdout %q", stdout.String())
	}
}
