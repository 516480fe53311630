package view

// The viewer under load, in a child process whose peak memory the kernel
// counts (VmHWM): many clients and slow readers at the heaviest frames
// request there is, on loopback only, for a bounded time.

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mecanim/mecanim/bind"
	"github.com/mecanim/mecanim/internal/corpustest"
)

// The load and its bounds.
const (
	loadClients     = 200
	loadSlowReaders = 50
	loadFor         = 12 * time.Second
	// loadPeakBound is the most memory the server may take at its peak
	// (VmHWM), its inputs included.
	loadPeakBound = 512 << 20
	// loadProbeBound is the longest a light request may wait throughout:
	// a server that queues light requests behind heavy ones makes them wait
	// for the whole load (seconds to the test's 12); one that serves them
	// answers in well under a second alone, and took up to 1.5 s with the
	// machine's two cores shared by other test processes.
	loadProbeBound = 5 * time.Second
)

// childEnv names the input a child process serves ("synthetic" or a
// file); it is how TestViewLoadChild knows it is the child.
const childEnv = "MECANIM_VIEW_LOAD_CHILD"

// TestViewLoadChild is the server of TestLoadKeepsMemoryBoundedAndProbesAnswered
// when run as its child; otherwise it does nothing.
func TestViewLoadChild(t *testing.T) {
	input := os.Getenv(childEnv)
	if input == "" {
		t.Skip("the server of the load test, run in a child process")
	}
	var s *Server
	var err error
	if input == "synthetic" {
		s, err = New(newSynthLib(t), Options{})
	} else {
		set, oerr := bind.Open(t.Context(), []string{input}, bind.Options{})
		if oerr != nil {
			t.Fatal(oerr)
		}
		defer set.Close()
		s, err = New(set, Options{})
	}
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	go func() { // the parent closes our stdin to stop us
		io.Copy(io.Discard, os.Stdin)
		cancel()
	}()
	fmt.Printf("LISTENING %s %s\n", ln.Addr(), s.Token())
	if err := Serve(ctx, ln, s); err != nil {
		t.Fatal(err)
	}
}

// procStatus reads a field of /proc/PID/status in bytes.
func procStatus(pid int, field string) (int64, error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0, err
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, field+":"); ok {
			f := strings.Fields(v)
			if len(f) == 2 && f[1] == "kB" {
				n, err := strconv.ParseInt(f[0], 10, 64)
				return n << 10, err
			}
		}
	}
	return 0, fmt.Errorf("no %s in /proc/%d/status", field, pid)
}

func TestLoadKeepsMemoryBoundedAndProbesAnswered(t *testing.T) {
	if testing.Short() {
		t.Skip("load test skipped in -short mode")
	}
	if _, err := os.Stat("/proc/self/status"); err != nil {
		t.Skip("no /proc to measure peak memory with")
	}
	// The heaviest request: the longest clip at MaxRate with meshes, which
	// MaxFrameValues caps (bandit's BayonettaTest in the corpus; without
	// it, the synthetic ten-minute clip).
	input, clipName, rig := "synthetic", "Long", "0"
	if _, ok := corpustest.Lookup(); ok {
		input, clipName = corpustest.Path(t, "lethal-emotes/customemotespackage"), "BayonettaTest"
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestViewLoadChild$")
	cmd.Env = append(os.Environ(), childEnv+"="+input, "GOMAXPROCS=2")
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	pid := cmd.Process.Pid
	defer func() {
		stdin.Close()
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		select {
		case <-done:
		case <-time.After(15 * time.Second):
			cmd.Process.Kill()
			<-done
		}
	}()
	var addr, token string
	sc := bufio.NewScanner(stdout)
	for sc.Scan() {
		if f := strings.Fields(sc.Text()); len(f) == 3 && f[0] == "LISTENING" {
			addr, token = f[1], f[2]
			break
		}
	}
	if addr == "" {
		t.Fatalf("the server did not start: %v", sc.Err())
	}
	go io.Copy(io.Discard, stdout)
	base := "http://" + addr

	do := func(c *http.Client, url string) (int, int64, error) {
		r, err := http.NewRequest("GET", url, nil)
		if err != nil {
			return 0, 0, err
		}
		r.Header.Set(TokenHeader, token)
		resp, err := c.Do(r)
		if err != nil {
			return 0, 0, err
		}
		defer resp.Body.Close()
		n, err := io.Copy(io.Discard, resp.Body)
		return resp.StatusCode, n, err
	}
	probe := &http.Client{Timeout: 10 * time.Second, Transport: &http.Transport{DisableCompression: true}}
	var scene Scene
	{
		r, _ := http.NewRequest("GET", base+"/api/scene", nil)
		r.Header.Set(TokenHeader, token)
		resp, err := probe.Do(r)
		if err != nil {
			t.Fatal(err)
		}
		err = jsonDecode(resp.Body, &scene)
		resp.Body.Close()
		if err != nil {
			t.Fatal(err)
		}
	}
	clip := -1
	for _, c := range scene.Clips {
		if c.Name == clipName {
			clip = c.ID
		}
	}
	if clip < 0 {
		t.Fatalf("no clip %s", clipName)
	}
	heavy := fmt.Sprintf("%s/api/clip/%d/frames?rate=%d&mesh=1&rig=%s", base, clip, MaxRate, rig)
	code, size, err := do(probe, heavy)
	if err != nil || code != 200 {
		t.Fatalf("the heavy request: %d, %v", code, err)
	}
	warm, _ := procStatus(pid, "VmHWM")
	t.Logf("server over %s; the heavy request (%s at %d Hz with meshes) answers %.1f MB; peak after one: %.0f MB",
		input, clipName, MaxRate, float64(size)/(1<<20), float64(warm)/(1<<20))

	ctx, cancel := context.WithTimeout(context.Background(), loadFor)
	defer cancel()
	var wg sync.WaitGroup
	var ok200, busy503, other, bytes, cut atomic.Int64
	clients := &http.Client{Timeout: loadFor + 30*time.Second, Transport: &http.Transport{
		DisableCompression: true, MaxIdleConnsPerHost: loadClients, MaxConnsPerHost: 0}}
	for i := 0; i < loadClients; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for ctx.Err() == nil {
				code, n, err := do(clients, heavy)
				bytes.Add(n)
				switch {
				case err != nil:
					other.Add(1)
				case code == 200:
					ok200.Add(1)
				case code == 503:
					busy503.Add(1)
				default:
					other.Add(1)
				}
			}
		}()
	}
	// slow readers: half never read, half take a few bytes a second; when
	// the server lets one go, it comes back
	target := strings.TrimPrefix(heavy, base)
	for i := 0; i < loadSlowReaders; i++ {
		wg.Add(1)
		go func(trickle bool) {
			defer wg.Done()
			for ctx.Err() == nil {
				c, err := net.Dial("tcp", addr)
				if err != nil {
					return
				}
				c.(*net.TCPConn).SetReadBuffer(4 << 10)
				fmt.Fprintf(c, "GET %s HTTP/1.1\r\nHost: %s\r\n%s: %s\r\n\r\n", target, addr, TokenHeader, token)
				if !trickle {
					<-ctx.Done()
					break
				}
				buf := make([]byte, 64)
				for ctx.Err() == nil {
					c.SetReadDeadline(time.Now().Add(time.Second))
					if _, err := c.Read(buf); err != nil && !isTimeout(err) {
						cut.Add(1)
						break
					}
					select {
					case <-ctx.Done():
					case <-time.After(500 * time.Millisecond):
					}
				}
				c.Close()
			}
		}(i%2 == 1)
	}
	// the probe, and the server's memory, throughout
	var worst time.Duration
	var probes, failed int
	var peakRSS int64
	tick := time.NewTicker(200 * time.Millisecond)
	for ctx.Err() == nil {
		<-tick.C
		start := time.Now()
		code, _, err := do(probe, base+"/api/scene")
		d := time.Since(start)
		probes++
		if err != nil || code != 200 {
			failed++
			t.Logf("probe: %d %v", code, err)
		}
		worst = max(worst, d)
		if rss, err := procStatus(pid, "VmRSS"); err == nil {
			peakRSS = max(peakRSS, rss)
		}
	}
	tick.Stop()
	peak, err := procStatus(pid, "VmHWM")
	if err != nil {
		t.Fatal(err)
	}
	wg.Wait()
	t.Logf("%d clients and %d slow readers for %v: %d answers (%.0f MB), %d busy (503), %d failed, %d trickling readers let go; "+
		"%d probes, slowest %v; peak RSS %.0f MB (sampled %.0f MB), bound %d MB",
		loadClients, loadSlowReaders, loadFor, ok200.Load(), float64(bytes.Load())/(1<<20), busy503.Load(), other.Load(), cut.Load(),
		probes, worst.Round(time.Millisecond), float64(peak)/(1<<20), float64(peakRSS)/(1<<20), loadPeakBound>>20)
	if peak > loadPeakBound {
		t.Errorf("the server's peak RSS was %.0f MB, over the bound of %d MB", float64(peak)/(1<<20), loadPeakBound>>20)
	}
	if worst > loadProbeBound || failed > 0 {
		t.Errorf("the probe waited up to %v (%d of %d failed), bound %v", worst, failed, probes, loadProbeBound)
	}
	if ok200.Load() == 0 {
		t.Errorf("no heavy request was answered under load")
	}
}

func jsonDecode(r io.Reader, v any) error { return json.NewDecoder(r).Decode(v) }

func isTimeout(err error) bool {
	ne, ok := err.(net.Error)
	return ok && ne.Timeout()
}
