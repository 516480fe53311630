package view

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// foreignPage is another site's page that tries every way a page can to
// make the viewer at VIEWER work or give its token away, and writes what
// it got into window.result.
const foreignPage = `<!doctype html><html><head><title>foreign</title></head><body>
<img src="VIEWER/api/clip/4/frames?rate=240&amp;mesh=1">
<img src="VIEWER/api/scene">
<form id="f" method="POST" action="VIEWER/api/controller/0/tick" enctype="text/plain" target="sink">
<input name='{"dt":1,"x":"' value='"}'></form>
<iframe name="sink"></iframe>
<script>
(async () => {
  const v = 'VIEWER', out = {};
  const attempt = async (name, f) => { try { out[name] = await f(); } catch (e) { out[name] = 'error: ' + e.message; } };
  await attempt('page', async () => (await fetch(v + '/')).text());
  await attempt('nocors', async () => { await fetch(v + '/api/clip/4/frames?rate=240&mesh=1', { mode: 'no-cors' }); return 'sent'; });
  await attempt('header', async () => (await fetch(v + '/api/scene', { headers: { 'X-Mecanim-Token': 'guess' } })).status);
  await attempt('post', async () => { await fetch(v + '/api/controller/0/tick', { method: 'POST', mode: 'no-cors', headers: { 'Content-Type': 'text/plain' }, body: '{"dt":1}' }); return 'sent'; });
  document.getElementById('f').submit();
  const fr = document.createElement('iframe');
  fr.src = v + '/';
  document.body.appendChild(fr);
  await new Promise((r) => setTimeout(r, 2000));
  await attempt('frame', async () => fr.contentDocument ? fr.contentDocument.documentElement.outerHTML : 'no access');
  window.result = out;
  document.title = 'done';
})();
</script></body></html>`

// A page of another site (or another port of this machine) can send
// requests to the viewer but cannot read its page, so it never has the
// token, and everything it sends is refused before any work starts.
func TestBrowserForeignPageCannotStartWork(t *testing.T) {
	ctx, _, p := browserPage(t)
	s, err := New(newSynthLib(t), Options{Logf: t.Logf})
	if err != nil {
		t.Fatal(err)
	}
	var api, refused atomic.Int64
	viewer := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasPrefix(r.URL.Path, "/api/") {
			api.Add(1)
			rec := &statusRecorder{ResponseWriter: w}
			s.ServeHTTP(rec, r)
			if rec.code == http.StatusForbidden {
				refused.Add(1)
			}
			return
		}
		s.ServeHTTP(w, r)
	}))
	defer viewer.Close()
	for _, origin := range []string{"localhost", "127.0.0.1"} { // another site; the same site on another port
		t.Run(origin, func(t *testing.T) {
			foreign := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "text/html")
				fmt.Fprint(w, strings.ReplaceAll(foreignPage, "VIEWER", viewer.URL))
			}))
			defer foreign.Close()
			url := strings.Replace(foreign.URL, "127.0.0.1", origin, 1)
			p.navigate(ctx, t, url+"/")
			var title string
			for title != "done" {
				p.eval(ctx, t, `document.title`, &title)
				select {
				case <-ctx.Done():
					t.Fatalf("the foreign page did not finish: %v", ctx.Err())
				case <-time.After(100 * time.Millisecond):
				}
			}
			time.Sleep(500 * time.Millisecond) // the form post lands
			var result map[string]any
			p.eval(ctx, t, `window.result`, &result)
			for k, v := range result {
				if strings.Contains(fmt.Sprint(v), s.Token()) {
					t.Errorf("the foreign page read the token (%s)", k)
				}
			}
			t.Logf("what the foreign page got: %v; %d API requests reached the viewer, %d refused", result, api.Load(), refused.Load())
			if api.Load() < 3 {
				t.Errorf("only %d requests from the foreign page reached the API: the test proves nothing", api.Load())
			}
			if refused.Load() != api.Load() {
				t.Errorf("%d of %d API requests from the foreign page were refused", refused.Load(), api.Load())
			}
			if w := heavyWork(s); w != "" {
				t.Errorf("the foreign page started work: %s", w)
			}
		})
	}
}

type statusRecorder struct {
	http.ResponseWriter
	code int
}

func (r *statusRecorder) WriteHeader(code int) {
	r.code = code
	r.ResponseWriter.WriteHeader(code)
}
