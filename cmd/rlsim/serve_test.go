package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rlsim/rlsim/web"
)

func TestServeFlags(t *testing.T) {
	seven := uint64(7)
	for _, tc := range []struct {
		name string
		args []string
		want serveOptions
	}{
		{"defaults", nil, serveOptions{Arg: "demo", Addr: defaultAddr, MaxEvents: defaultMaxEvents}},
		{"all", []string{"nat-per-ip", "--addr", "127.0.0.1:0", "--seed", "7", "--lanes", "gcra", "--set", "limits[0].limit=3", "--max-events", "9"},
			serveOptions{Arg: "nat-per-ip", Addr: "127.0.0.1:0", Seed: &seven, Lanes: "gcra", Sets: []string{"limits[0].limit=3"}, MaxEvents: 9}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var got *serveOptions
			cmd := NewCmdServe(io.Discard, func(o *serveOptions) error { got = o; return nil })
			cmd.SetArgs(append([]string{}, tc.args...))
			if err := cmd.Execute(); err != nil {
				t.Fatal(err)
			}
			if got.Arg != tc.want.Arg || got.Addr != tc.want.Addr || got.Lanes != tc.want.Lanes || got.MaxEvents != tc.want.MaxEvents ||
				strings.Join(got.Sets, ",") != strings.Join(tc.want.Sets, ",") || (got.Seed == nil) != (tc.want.Seed == nil) ||
				(got.Seed != nil && *got.Seed != *tc.want.Seed) {
				t.Errorf("options %+v, want %+v", *got, tc.want)
			}
		})
	}
}

// rlsim serve prints its URL, serves the page there and stops cleanly when
// its context ends (Ctrl-C).
func TestServeServesAndStops(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	var out bytes.Buffer
	urls := make(chan string, 1)
	done := make(chan error, 1)
	go func() {
		done <- serveRun(&serveOptions{Out: &out, Ctx: ctx, Arg: "boundary-burst", Addr: "127.0.0.1:0", MaxEvents: defaultMaxEvents,
			Sets: []string{"limits[0].limit=12"}, Ready: func(u string) { urls <- u }})
	}()
	url := <-urls
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	page, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || !strings.Contains(string(page), "rlsim playground") {
		t.Errorf("GET %s: %d %.200q", url, resp.StatusCode, page)
	}
	resp, err = http.Post(url+"api/sessions", "application/json", strings.NewReader(`{}`))
	if err != nil {
		t.Fatal(err)
	}
	first, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if !strings.Contains(string(first), `"name":"boundary-burst"`) || !strings.Contains(string(first), `"limit":12,`) {
		t.Errorf("the first scenario, with its --set: %.300s", first)
	}
	cancel()
	if err := <-done; err != nil {
		t.Errorf("stopped with %v", err)
	}
	if want := "rlsim playground: " + url + " (Ctrl-C stops it)\nrlsim playground: stopped\n"; out.String() != want {
		t.Errorf("printed %q, want %q", out.String(), want)
	}
}

func TestServeBadInput(t *testing.T) {
	garbage := filepath.Join(t.TempDir(), "garbage.conf")
	if err := os.WriteFile(garbage, []byte("garbage {{{\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"contention study", []string{"serve", "backoff-contention"}, "a contention study has no lanes to watch"},
		{"bad address", []string{"serve", "--addr", "nonsense"}, "--addr nonsense:"},
		{"bad set", []string{"serve", "--set", "limits[0].limit=x", "--addr", "127.0.0.1:0"}, "limits[0].limit"},
		{"no such scenario", []string{"serve", "nope", "--addr", "127.0.0.1:0"}, "nope: no such file"},
		{"budget", []string{"serve", "--max-events", "0"}, "--max-events: must be positive"},
		// A config that does not import is told before the address is bound
		// (a bad address behind it keeps a server that ignored it from serving).
		{"no such config", []string{"serve", "--config", "nope.conf", "--addr", "nonsense"}, "--config: nope.conf: no such file"},
		{"config no product writes", []string{"serve", "--config", garbage, "--addr", "nonsense"}, "not a config rlsim can tell"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, _, errOut := execute(t, tc.args...)
			if code != exitBadInput || !strings.Contains(errOut, tc.want) || strings.Contains(errOut, "goroutine") {
				t.Errorf("exit %d, stderr %q; want 2 and %q", code, errOut, tc.want)
			}
		})
	}
}

// rlsim serve --help states the memory the server's pages may hold, as web has it.
func TestServeHelpStatesTheMemoryBound(t *testing.T) {
	long := strings.Join(strings.Fields(NewCmdServe(io.Discard, nil).Long), " ")
	want := fmt.Sprintf("plays at most %d pages at once, each within the --max-events budget and %d MB of memory (%d MB in all, whatever the pages do)",
		web.DefaultMaxSessions, web.DefaultMaxSessionBytes>>20, web.Options{}.WorstCase()>>20)
	if !strings.Contains(long, want) {
		t.Errorf("rlsim serve --help does not say %q:\n%s", want, long)
	}
}
