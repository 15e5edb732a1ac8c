package web

import (
	"context"
	"fmt"
	"net/http/httptest"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"

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
// says (for docs/), after playing a scenario part way.
func TestScreenshot(t *testing.T) {
	out := os.Getenv("RLSIM_SCREENSHOT")
	if out == "" {
		t.Skip("RLSIM_SCREENSHOT names no file")
	}
	p := openPage(t, Options{First: builtin(t, "boundary-burst")})
	p.run(t, chromedp.SetValue("#speed", "5"), chromedp.Click("#play"))
	p.waitFor(t, `document.body.dataset.finished === "true"`)
	p.screenshot(t, out)
}

func exception(d *runtime.ExceptionDetails) string {
	if d.Exception != nil && d.Exception.Description != "" {
		return "exception: " + d.Exception.Description
	}
	return "exception: " + d.Text
}
