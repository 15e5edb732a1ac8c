package web

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"os"
	"os/exec"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"

	"github.com/rlsim/rlsim/run"
	"github.com/rlsim/rlsim/scenarios"
)

// browser is the one headless Chromium the package's tests share: started by
// the first test that needs it, stopped by TestMain. Its context is nil when
// the tests run without one.
var browser struct {
	once   sync.Once
	ctx    context.Context
	reason string // why there is none
	stop   func()
}

func TestMain(m *testing.M) {
	code := m.Run()
	if browser.stop != nil {
		browser.stop()
	}
	os.Exit(code)
}

// chromiumPath finds Chromium as .ci/run installs it.
func chromiumPath() string {
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "headless-shell"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	return ""
}

func startBrowser() func() {
	if testing.Short() {
		browser.reason = "-short"
		return func() {}
	}
	path := chromiumPath()
	if path == "" {
		browser.reason = "no chromium on PATH (.ci/run installs it)"
		return func() {}
	}
	opts := append(chromedp.DefaultExecAllocatorOptions[:], chromedp.ExecPath(path), chromedp.NoSandbox,
		chromedp.DisableGPU, chromedp.WindowSize(1440, 1000))
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	bctx, cancelBrowser := chromedp.NewContext(actx)
	if err := chromedp.Do(bctx); err != nil {
		browser.reason = "chromium did not start: " + err.Error()
		cancelBrowser()
		cancelAlloc()
		return func() {}
	}
	browser.ctx = bctx
	return func() { cancelBrowser(); cancelAlloc() }
}

// page is one browser tab on a fresh playground server.
type page struct {
	ctx    context.Context
	url    string
	srv    *Server
	mu     sync.Mutex
	errors []string // console errors and uncaught exceptions
}

// openPage serves a playground with opt (Addr filled in) and opens it in a new tab.
func openPage(t *testing.T, opt Options) *page {
	t.Helper()
	browser.once.Do(func() { browser.stop = startBrowser() })
	if browser.ctx == nil {
		t.Skip("no browser: " + browser.reason)
	}
	ts := httptest.NewUnstartedServer(nil)
	opt.Addr = ts.Listener.Addr().String()
	srv := New(opt)
	ts.Config.Handler = srv
	ts.Start()
	t.Cleanup(func() { srv.Close(); ts.Close() })
	ctx, cancel := chromedp.NewContext(browser.ctx)
	ctx, cancelTime := context.WithTimeout(ctx, 30*time.Second)
	t.Cleanup(func() { cancelTime(); cancel() })
	p := &page{ctx: ctx, url: ts.URL + "/", srv: srv}
	err := chromedp.Listen(ctx, func(ev any) {
		p.mu.Lock()
		defer p.mu.Unlock()
		switch ev := ev.(type) {
		case *runtime.EventConsoleAPICalled:
			if ev.Type == runtime.ConsoleAPICalledTypeError {
				p.errors = append(p.errors, fmt.Sprintf("console.error: %d args", len(ev.Args)))
			}
		case *runtime.EventExceptionThrown:
			p.errors = append(p.errors, exception(ev.ExceptionDetails))
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(ctx, chromedp.Navigate(p.url), chromedp.WaitVisible(".lane canvas")); err != nil {
		t.Fatalf("load %s: %v", p.url, err)
	}
	t.Cleanup(func() {
		p.mu.Lock()
		defer p.mu.Unlock()
		if len(p.errors) > 0 {
			t.Errorf("errors on the page:\n%s", strings.Join(p.errors, "\n"))
		}
	})
	return p
}

func (p *page) run(t *testing.T, actions ...chromedp.Action[chromedp.Void]) {
	t.Helper()
	if err := chromedp.Do(p.ctx, actions...); err != nil {
		t.Fatal(err)
	}
}

// eval is the value of a JavaScript expression.
func eval[T any](t *testing.T, p *page, expr string) T {
	t.Helper()
	v, err := chromedp.Run(p.ctx, chromedp.Evaluate[T](expr))
	if err != nil {
		t.Fatalf("%s: %v", expr, err)
	}
	return v
}

// waitFor polls a JavaScript condition until it holds.
func (p *page) waitFor(t *testing.T, cond string) {
	t.Helper()
	if _, err := chromedp.Run(p.ctx, chromedp.Poll[chromedp.Void](cond, chromedp.WithPollingInterval(20*time.Millisecond), chromedp.WithPollingTimeout(20*time.Second))); err != nil {
		t.Fatalf("waiting for %s: %v", cond, err)
	}
}

func (p *page) screenshot(t *testing.T, path string) {
	t.Helper()
	png, err := chromedp.Run(p.ctx, chromedp.FullScreenshot(100))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, png, 0o644); err != nil {
		t.Fatal(err)
	}
}

func builtin(t *testing.T, name string) *scenarios.Scenario {
	t.Helper()
	sc, err := scenarios.LoadBuiltin(name)
	if err != nil {
		t.Fatal(err)
	}
	return sc
}

// TestScreenshot writes a screenshot of the playground where RLSIM_SCREENSHOT
// says (docs/playground.png): the demo part way, with a burst fired and a
// hover open.
func TestScreenshot(t *testing.T) {
	out := os.Getenv("RLSIM_SCREENSHOT")
	if out == "" {
		t.Skip("RLSIM_SCREENSHOT names no file")
	}
	p := openPage(t, Options{First: builtin(t, "demo")})
	p.ctl(t, steps(45))
	p.run(t, chromedp.SetValue("#burst-count", "25"), chromedp.SetValue("#burst-spread", "200"), chromedp.Click("#fire"))
	p.waitFor(t, `document.body.dataset.bursts === "1"`)
	p.ctl(t, steps(37))
	p.waitFor(t, `document.getElementById("now").textContent === "8.2s"`)
	p.ctl(t, `(() => {
		const c = document.querySelector('.lane[data-lane=sliding_log] canvas'), v = rlsim.state.view;
		const k = Math.floor(4.6e9 / rlsim.state.sess.column), r = c.getBoundingClientRect();
		c.dispatchEvent(new MouseEvent("mousemove", {clientX: r.left + (k - v.from) * v.px + 1, clientY: r.bottom - 3, bubbles: true}));
	})()`)
	p.waitFor(t, `!document.getElementById("tip").hidden`)
	png, err := chromedp.Run(p.ctx, chromedp.CaptureScreenshot())
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(out, png, 0o644); err != nil {
		t.Fatal(err)
	}
}

func exception(d *runtime.ExceptionDetails) string {
	if d.Exception != nil && d.Exception.Description != "" {
		return "exception: " + d.Exception.Description
	}
	return "exception: " + d.Text
}

// ctl sends a control from the page, as its buttons do, and waits for it.
func (p *page) ctl(t *testing.T, js string) {
	t.Helper()
	if _, err := chromedp.Run(p.ctx, chromedp.Evaluate[chromedp.Void](js, chromedp.EvalAwaitPromise)); err != nil {
		t.Fatalf("%s: %v", js, err)
	}
}

// fastest picks the fastest speed, as a user does in the speed list.
const fastest = `(() => { const s = document.getElementById("speed"); s.value = s.options.length - 1; s.dispatchEvent(new Event("change")); })()`

// steps steps n columns forward, as n presses of step do.
func steps(n int) string {
	return fmt.Sprintf(`control({op: "step", count: %d})`, n)
}

// figure is a lane's figure as the page shows it.
func figure(t *testing.T, p *page, lane, fig string) int64 {
	t.Helper()
	return eval[int64](t, p, fmt.Sprintf(`+document.querySelector('.lane[data-lane=%q] [data-fig=%q]').dataset.value`, lane, fig))
}

// Played to its end, the boundary burst turns the fixed window's box red and
// leaves the sliding log's clear, and the page shows rlsim run's figures.
func TestBrowserBoundaryBurst(t *testing.T) {
	t.Parallel() // in tabs of their own; the draw-time test runs alone
	sc := builtin(t, "boundary-burst")
	p := openPage(t, Options{First: sc})
	p.ctl(t, fastest)
	p.run(t, chromedp.Click("#play"))
	p.waitFor(t, `document.body.dataset.finished === "true"`)
	over := eval[map[string]string](t, p, `Object.fromEntries([...document.querySelectorAll(".lane")].map(r => [r.dataset.lane, r.dataset.over]))`)
	if over["fixed_window"] != "true" || over["sliding_log"] != "false" {
		t.Errorf("over the limit: %v; want the fixed window red and the sliding log clear", over)
	}
	if red := eval[bool](t, p, `document.querySelector('.lane[data-lane=fixed_window] .peakbox').classList.contains("over")`); !red {
		t.Error("the fixed window's box is not red")
	}
	out, err := run.Scenario(context.Background(), builtin(t, "boundary-burst"), run.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range out.Result.Lanes {
		for fig, want := range map[string]int64{"attempts": l.Attempts, "admitted": l.Admitted, "refused": l.Refused,
			"delayed": l.Delayed, "shed": l.Shed, "dropped": l.Dropped, "peak": l.Peak.Count} {
			if got := figure(t, p, l.Lane.String(), fig); got != want {
				t.Errorf("%v %s: the page shows %d, rlsim run %d", l.Lane, fig, got, want)
			}
		}
	}
	if got := eval[string](t, p, `document.getElementById("status").textContent`); !strings.Contains(got, "rlsim run boundary-burst") {
		t.Errorf("status %q", got)
	}
	p.run(t, chromedp.Click("#restart"))
	p.waitFor(t, `document.body.dataset.finished === "false" && document.getElementById("now").textContent === "0s"`)
	p.run(t, chromedp.Click(`.lane[data-lane=gcra] input[type=checkbox]`))
	if off := eval[[]string](t, p, `[...document.querySelectorAll(".lane.off")].map(r => r.dataset.lane)`); !slices.Equal(off, []string{"gcra"}) {
		t.Errorf("lanes toggled off: %v, want gcra", off)
	}
}

// A burst fired shows as a mark on every lane and its requests in the figures;
// hovering a column shows a request and the headers a server would send.
func TestBrowserFireBurstAndHover(t *testing.T) {
	t.Parallel() // in tabs of their own; the draw-time test runs alone
	p := openPage(t, Options{First: builtin(t, "steady-overload")})
	p.ctl(t, steps(20))
	p.waitFor(t, `document.getElementById("now").textContent === "2s"`)
	before := figure(t, p, "sliding_log", "attempts")
	p.run(t, chromedp.SetValue("#burst-count", "40"), chromedp.SetValue("#burst-spread", "100"), chromedp.Click("#fire"))
	p.waitFor(t, `document.body.dataset.bursts === "1"`)
	p.ctl(t, steps(3))
	p.waitFor(t, `document.getElementById("now").textContent === "2.3s"`)
	if got := figure(t, p, "sliding_log", "attempts"); got < before+40 {
		t.Errorf("attempts %d after a burst of 40, %d before", got, before)
	}
	// The burst's bar, in the burst colour, at the top of each lane.
	colours := eval[[][]int](t, p, `[...document.querySelectorAll(".lane canvas")].map(c => {
		const v = rlsim.state.view, b = rlsim.state.frame.bursts[0];
		const x = Math.floor((b.at / rlsim.state.sess.column - v.from) * v.px) + 1;
		return [...c.getContext("2d").getImageData(x, 1, 1, 1).data].slice(0, 3); })`)
	for i, c := range colours {
		if len(c) != 3 || c[0] != 0x7b || c[1] != 0x3f || c[2] != 0xa0 {
			t.Errorf("lane %d: colour %v where the burst is drawn, want the burst's #7b3fa0", i, c)
		}
	}
	// Hover the refused part of the sliding log's column under the burst.
	p.ctl(t, `(() => {
		const row = document.querySelector('.lane[data-lane=sliding_log]'), c = row.querySelector("canvas");
		const v = rlsim.state.view, k = Math.floor(rlsim.state.frame.bursts[0].at / rlsim.state.sess.column);
		const r = c.getBoundingClientRect();
		c.dispatchEvent(new MouseEvent("mousemove", {clientX: r.left + (k - v.from) * v.px + 1, clientY: r.top + 2, bubbles: true}));
	})()`)
	p.waitFor(t, `!document.getElementById("tip").hidden`)
	tip := eval[string](t, p, `document.getElementById("tip").textContent`)
	for _, want := range []string{"refused at", "429 Too Many Requests", "Retry-After: 1", "RateLimit-Policy: \"global\";q=10;w=1"} {
		if !strings.Contains(tip, want) {
			t.Errorf("the hover says %q, want %q in it", tip, want)
		}
	}
}

// Raising the limit from the slider raises the admissions from then on, and
// the rule push is marked.
func TestBrowserLimitSlider(t *testing.T) {
	t.Parallel() // in tabs of their own; the draw-time test runs alone
	p := openPage(t, Options{First: builtin(t, "steady-overload")})
	p.ctl(t, steps(50))
	p.waitFor(t, `document.getElementById("now").textContent === "5s"`)
	first := figure(t, p, "sliding_log", "admitted")
	p.ctl(t, `(() => { const s = document.getElementById("limit"); s.value = 30; s.dispatchEvent(new Event("input")); s.dispatchEvent(new Event("change")); })()`)
	p.waitFor(t, `document.body.dataset.rules === "1"`)
	if got := eval[string](t, p, `document.getElementById("limit-value").textContent`); got != "30" {
		t.Errorf("the slider reads %q, want 30", got)
	}
	p.ctl(t, steps(50))
	p.waitFor(t, `document.getElementById("now").textContent === "10s"`)
	then := figure(t, p, "sliding_log", "admitted") - first
	if then < 2*first {
		t.Errorf("the sliding log admitted %d in the 5s at limit 10 and %d in the 5s at 30 (3× the offered 10/s, want at least twice as many", first, then)
	}
	offered := figure(t, p, "sliding_log", "attempts")
	p.ctl(t, `(() => { const s = document.getElementById("rate"); s.value = 30; s.dispatchEvent(new Event("input")); s.dispatchEvent(new Event("change")); })()`)
	p.waitFor(t, `document.body.dataset.rates === "1"`)
	p.ctl(t, steps(50))
	p.waitFor(t, `document.getElementById("now").textContent === "15s"`)
	if more := figure(t, p, "sliding_log", "attempts") - offered; more < offered { // 3× the rate for half the time: 1.5× as many, 0.5× without the change
		t.Errorf("%d offered in the 5s at 30/s per client, %d in the 10s before at 10/s: want about three times the rate", more, offered)
	}
}

// A scenario with two errors shows both, each at its line; nothing is applied.
func TestBrowserEditorErrors(t *testing.T) {
	t.Parallel() // in tabs of their own; the draw-time test runs alone
	p := openPage(t, Options{First: builtin(t, "boundary-burst")})
	p.waitFor(t, `rlsim.state.sess !== null && rlsim.state.frame !== null`) // the first session's frames flowing: nothing left to overwrite the editor
	yaml := "duration: 3s\nlimits:\n  - key: global\n    limit: 0\n    window: 1s\nclients:\n  - name: a\n    arrivals:\n      - kind: burts\n        count: 5\n"
	js, _ := json.Marshal(yaml)
	p.ctl(t, `(() => { const ta = document.getElementById("yaml"); ta.value = `+string(js)+`; ta.dispatchEvent(new Event("input")); })()`)
	p.ctl(t, `document.getElementById("apply").click()`) // not a pointer click: frames reflow the page under one
	p.waitFor(t, `document.querySelectorAll("#problems li").length > 0`)
	marked := eval[[]string](t, p, `[...document.querySelectorAll("#marks div")].map(d => d.dataset.line)`)
	gutter := eval[[]string](t, p, `[...document.querySelectorAll("#gutter .bad")].map(d => d.textContent)`)
	if want := []string{"4", "9"}; !slices.Equal(marked, want) || !slices.Equal(gutter, want) {
		t.Errorf("problems marked at lines %v, in the gutter at %v; want %v", marked, gutter, want)
	}
	texts := eval[[]string](t, p, `[...document.querySelectorAll("#problems li")].map(d => d.textContent)`)
	_, err := scenarios.Parse(editorFile, []byte(yaml))
	if want := strings.Split(err.Error(), "\n"); !slices.Equal(texts, want) {
		t.Errorf("problems listed %q, want the CLI's %q", texts, want)
	}
	if lane := eval[string](t, p, `document.getElementById("scenario").value`); lane != "boundary-burst" {
		t.Errorf("the scenario picked became %q: a scenario with problems must not be applied", lane)
	}
	fixed := strings.Replace(strings.Replace(yaml, "limit: 0", "limit: 4", 1), "burts", "burst", 1)
	js, _ = json.Marshal(fixed)
	p.ctl(t, `(() => { const ta = document.getElementById("yaml"); ta.value = `+string(js)+`; ta.dispatchEvent(new Event("input")); })()`)
	p.ctl(t, `document.getElementById("apply").click()`) // not a pointer click: frames reflow the page under one
	p.waitFor(t, `rlsim.state.sess.name === "editor" && document.querySelectorAll("#problems li").length === 0 && rlsim.state.frame !== null && document.querySelector(".lane [data-fig=limit]").textContent !== ""`)
	if got := eval[string](t, p, `document.querySelector(".lane [data-fig=limit]").textContent`); got != "4" {
		t.Errorf("after apply the lanes judge against limit %q, want the edited 4", got)
	}
}

// With 8 lanes and 100,000 clients the page keeps drawing while it plays, and
// the stream sends aggregates: a frame's size does not grow with the clients.
// The draw times, while playing and in full redraws of the last frame (every
// figure rewritten), are logged, not asserted: a test's clock measures the
// machine it shares as much as the page.
func TestBrowserPlaysAtScale(t *testing.T) {
	sc, err := scenarios.Load("testdata/crowd.yaml")
	if err != nil {
		t.Fatal(err)
	}
	p := openPage(t, Options{First: sc})
	p.ctl(t, `(() => { const s = document.getElementById("speed"); s.value = 5; s.dispatchEvent(new Event("change")); })()`) // 5×
	p.run(t, chromedp.Click("#play"))
	p.waitFor(t, `rlsim.draws >= 22 || document.body.dataset.finished === "true"`) // 10 after the first 10, and 2 to spare
	p.run(t, chromedp.Click("#play"))
	p.waitFor(t, `!rlsim.state.frame.playing`)
	live := eval[[]float64](t, p, `rlsim.drawMs.slice(10)`) // after the first frames' layout
	if len(live) < 10 {
		t.Fatalf("only %d frames drawn", len(live))
	}
	redraw := eval[[]float64](t, p, `(() => {
		const ms = [];
		for (let i = 0; i < 20; i++) {
			for (const row of document.getElementById("rows").children) row.refs.last = {};
			rlsim.state.head = "";
			const t0 = performance.now();
			draw();
			ms.push(performance.now() - t0);
		}
		return ms; })()`)
	slices.Sort(live)
	slices.Sort(redraw)
	q := func(ms []float64, p int) float64 { return ms[len(ms)*p/100] }
	t.Logf("%d frames while playing: median %.2f ms, longest %.2f ms", len(live), q(live, 50), live[len(live)-1])
	t.Logf("%d full redraws: median %.2f ms, longest %.2f ms", len(redraw), q(redraw, 50), redraw[len(redraw)-1])
	lanes := eval[int](t, p, `rlsim.state.frame.lanes.length`)
	size := eval[float64](t, p, `JSON.stringify(rlsim.state.frame).length`)
	if lanes != 8 || size > 16<<10 {
		t.Errorf("a frame of %d lanes and %.0f bytes: want 8 lanes, and the stream must send aggregates", lanes, size)
	}
}

// A burst the session cannot hold is refused: the page shows the server's
// message as an error, nothing is drawn, and the session plays on.
func TestBrowserShowsARefusedBurst(t *testing.T) {
	t.Parallel() // in tabs of their own; the draw-time test runs alone
	p := openPage(t, Options{First: builtin(t, "demo"), MaxSessionBytes: 40 << 20})
	p.ctl(t, steps(20))
	p.waitFor(t, `document.getElementById("now").textContent === "2s"`)
	p.run(t, chromedp.SetValue("#burst-count", "100000"), chromedp.SetValue("#burst-spread", "1000"), chromedp.Click("#fire"))
	p.waitFor(t, `document.getElementById("status").classList.contains("error")`)
	if got := eval[string](t, p, `document.getElementById("status").textContent`); !strings.Contains(got, "no burst: this session would hold about") ||
		!strings.Contains(got, "more than the 40 MB a session may hold here") {
		t.Errorf("status %q, want the refusal's message", got)
	}
	if out := os.Getenv("RLSIM_REFUSED_SCREENSHOT"); out != "" {
		p.screenshot(t, out)
	}
	if n := eval[int](t, p, `rlsim.state.frame.bursts.length`); n != 0 {
		t.Errorf("%d bursts drawn after the refusal, want none", n)
	}
	p.ctl(t, steps(5))
	p.waitFor(t, `document.getElementById("now").textContent === "2.5s"`)
}
