package web

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/rlsim/rlsim/sim"
)

// randomControl is a control a client might send, drawn from rnd: mostly
// bursts of every size up to the largest, and every other op.
func randomControl(rnd *rand.Rand, groups int) string {
	switch rnd.IntN(10) {
	case 0, 1, 2, 3:
		n := 1 << rnd.IntN(18) // 1 to 131072: some over maxBurst
		return fmt.Sprintf(`{"op":"burst","count":%d,"spread":%d}`, min(n+rnd.IntN(n), maxBurst+1), rnd.Int64N(int64(5*time.Second)))
	case 4:
		return fmt.Sprintf(`{"op":"rule","limit":%d,"window":%d,"burst":%d}`, 1+rnd.IntN(1000), 1+rnd.Int64N(int64(10*time.Second)), rnd.IntN(100))
	case 5:
		return fmt.Sprintf(`{"op":"rate","index":%d,"count":%d}`, rnd.IntN(groups+1), rnd.IntN(1000))
	case 6:
		return fmt.Sprintf(`{"op":"step","count":%d}`, rnd.IntN(40))
	case 7:
		return []string{`{"op":"play"}`, `{"op":"pause"}`}[rnd.IntN(2)]
	case 8:
		return fmt.Sprintf(`{"op":"speed","index":%d}`, rnd.IntN(len(speeds)))
	}
	return fmt.Sprintf(`{"op":"sample","lane":%d,"column":%d,"mark":%d}`, rnd.IntN(8), rnd.IntN(100), rnd.IntN(markKinds))
}

// attach opens sess's event stream, as the page does, and reads it until the
// test ends.
func attach(t *testing.T, url, id string) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	req, _ := http.NewRequestWithContext(ctx, "GET", url+"/api/sessions/"+id+"/events", nil)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		cancel()
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() { defer close(done); _, _ = io.Copy(io.Discard, resp.Body) }()
	t.Cleanup(func() { cancel(); resp.Body.Close(); <-done })
}

// Clients at once, each sending random controls, never take the server's heap
// over the worst case it states (Options.WorstCase): a control that would take
// a session over its bound is refused with 409 and a message, and the other
// sessions (and the refused one) go on being served.
func TestConcurrentClientsStayUnderTheBound(t *testing.T) {
	opt := Options{MaxSessions: 4, MaxSessionBytes: 40 << 20, Frame: time.Millisecond}
	before := heapInUse()
	srv, url := serve(t, opt)
	const clients, rounds = 6, 12
	var ids []string
	var groups []int
	for i := range clients {
		body := `{"builtin":"demo"}`
		if i%2 == 1 {
			body, _ = strings.CutSuffix(mustJSON(createRequest{YAML: userKeyed(2000)}), "\n")
		}
		var rep sessionReply
		code := do(t, "POST", url+"/api/sessions", body, nil, &rep)
		switch {
		case i < opt.MaxSessions && code != http.StatusOK, i >= opt.MaxSessions && code != http.StatusServiceUnavailable:
			t.Fatalf("session %d: status %d", i+1, code)
		case code == http.StatusOK:
			attach(t, url, rep.ID)
			ids, groups = append(ids, rep.ID), append(groups, len(rep.Groups))
		}
	}
	var refused atomic.Int64
	var peak int64
	for r := range rounds {
		var wg sync.WaitGroup
		for i, id := range ids {
			wg.Add(1)
			go func() {
				defer wg.Done()
				rnd := rand.New(rand.NewPCG(uint64(r), uint64(i)))
				for range 4 {
					c := randomControl(rnd, groups[i])
					var reply errorReply
					code := do(t, "POST", url+"/api/sessions/"+id+"/control", c, nil, &reply)
					switch code {
					case http.StatusOK:
					case http.StatusConflict:
						refused.Add(1)
						if !strings.Contains(reply.Error, "a session may") {
							t.Errorf("%s: 409 %q, want what the session may hold", c, reply.Error)
						}
					case http.StatusBadRequest:
						if reply.Error == "" {
							t.Errorf("%s: 400 without a message", c)
						}
					default:
						t.Errorf("%s: status %d %q", c, code, reply.Error)
					}
				}
			}()
		}
		wg.Wait()
		peak = max(peak, heapInUse()-before)
		if peak > opt.WorstCase() {
			t.Fatalf("round %d: the heap holds %d MB, over the worst case of %d MB", r, peak>>20, opt.WorstCase()>>20)
		}
	}
	if refused.Load() == 0 {
		t.Fatal("no control was refused: the test never reached a session's bound")
	}
	for _, id := range ids { // every session, refused or not, is still served
		for _, c := range []string{`{"op":"pause"}`, `{"op":"step","count":3}`, `{"op":"sample","lane":0,"column":0,"mark":0}`} {
			if code := do(t, "POST", url+"/api/sessions/"+id+"/control", c, nil, &errorReply{}); code != http.StatusOK && !(code == http.StatusBadRequest && strings.Contains(c, "sample")) {
				t.Errorf("session %s, after the refusals: %s answered %d", id, c, code)
			}
		}
	}
	if srv.Sessions() != opt.MaxSessions {
		t.Errorf("%d sessions open, want %d", srv.Sessions(), opt.MaxSessions)
	}
	t.Logf("%d controls refused; the heap held %d MB at most, of a worst case of %d MB", refused.Load(), peak>>20, opt.WorstCase()>>20)
}

// Creations at once never build more sessions than the cap: each takes its
// slot before its scenario is parsed or built, and gives it back if that fails.
func TestCreationsReserveTheirSlot(t *testing.T) {
	srv, url := serve(t, Options{MaxSessions: 2})
	var builds atomic.Int64
	srv.onBuild = func() { builds.Add(1) }
	body := mustJSON(createRequest{YAML: userKeyed(20_000)})
	const at = 12
	codes := make([]int, at)
	var wg sync.WaitGroup
	for i := range at {
		wg.Add(1)
		go func() {
			defer wg.Done()
			codes[i] = do(t, "POST", url+"/api/sessions", body, nil, &errorReply{})
		}()
	}
	wg.Wait()
	count := map[int]int{}
	for _, c := range codes {
		count[c]++
	}
	if count[http.StatusOK] != 2 || count[http.StatusServiceUnavailable] != at-2 || builds.Load() != 2 {
		t.Errorf("%d creations at once: statuses %v, %d simulations built; want 2 built and opened, %d refused with 503", at, count, builds.Load(), at-2)
	}
	// A creation that fails gives its slot back.
	srv2, url2 := serve(t, Options{MaxSessions: 1})
	for range 3 {
		if code := do(t, "POST", url2+"/api/sessions", `{"builtin":"nope"}`, nil, &errorReply{}); code != http.StatusBadRequest {
			t.Fatalf("a bad built-in: status %d, want 400", code)
		}
	}
	if code := do(t, "POST", url2+"/api/sessions", `{"builtin":"demo"}`, nil, &errorReply{}); code != http.StatusOK || srv2.Sessions() != 1 {
		t.Errorf("after failed creations: status %d with %d sessions, want the one slot free", code, srv2.Sessions())
	}
}

func mustJSON(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return string(b)
}

// A scenario whose session would hold more than a session may is refused
// with 413 before anything is built; one within it opens.
func TestCreationWithinTheSessionBound(t *testing.T) {
	srv, url := serve(t, Options{MaxSessionBytes: 30 << 20})
	var builds atomic.Int64
	srv.onBuild = func() { builds.Add(1) }
	var reply errorReply
	code := do(t, "POST", url+"/api/sessions", mustJSON(createRequest{YAML: userKeyed(50_000)}), nil, &reply)
	if code != http.StatusRequestEntityTooLarge || !strings.Contains(reply.Error, "editor.yaml: its session would hold about ") ||
		!strings.Contains(reply.Error, "more than the 30 MB a session may hold here") || builds.Load() != 0 {
		t.Errorf("50,000 keys in 30 MB: status %d %q, %d built; want 413 naming the bound, nothing built", code, reply.Error, builds.Load())
	}
	if code := do(t, "POST", url+"/api/sessions", `{"builtin":"demo"}`, nil, &reply); code != http.StatusOK {
		t.Errorf("the demo in 30 MB: status %d %q", code, reply.Error)
	}
}

// Each control that adds to a session is checked before it is applied: over
// the bound it is refused with 409 and a message, changes nothing, and the
// session goes on.
func TestControlsWithinTheSessionBound(t *testing.T) {
	_, url := serve(t, Options{MaxSessionBytes: 40 << 20})
	var rep sessionReply
	if code := do(t, "POST", url+"/api/sessions", `{"builtin":"demo"}`, nil, &rep); code != http.StatusOK {
		t.Fatalf("status %d", code)
	}
	ctl := url + "/api/sessions/" + rep.ID + "/control"
	for _, tc := range []struct {
		body string
		code int
		want string
	}{
		{`{"op":"burst","count":100000,"spread":1000000000}`, http.StatusConflict, "no burst: this session would hold about 119 MB, more than the 40 MB a session may hold here"},
		{`{"op":"burst","count":10000,"spread":1000000000}`, http.StatusOK, "burst of 10000"},
		{`{"op":"rate","index":0,"count":100000}`, http.StatusConflict, "no change: at that rate the clients would keep about 1400100 requests under way, more than the 1000000 a session may"},
		{`{"op":"rate","index":0,"count":20}`, http.StatusOK, "sends 20/s"},
		{`{"op":"step","count":5}`, http.StatusOK, ""},
	} {
		var reply struct {
			Error  string `json:"error"`
			Status string `json:"status"`
		}
		if code := do(t, "POST", ctl, tc.body, nil, &reply); code != tc.code || !strings.Contains(reply.Error+reply.Status, tc.want) {
			t.Errorf("%s: %d %q, want %d %q", tc.body, code, reply.Error+reply.Status, tc.code, tc.want)
		}
	}
	var f frame
	srvFrame(t, url, rep.ID, &f)
	if len(f.Bursts) != 1 || f.Bursts[0].Count != 10000 || len(f.Rates) != 1 {
		t.Errorf("bursts %+v, rates %+v: want only the burst and the rate change applied", f.Bursts, f.Rates)
	}
}

// srvFrame reads the first frame of a session's stream.
func srvFrame(t *testing.T, url, id string, f *frame) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, "GET", url+"/api/sessions/"+id+"/events", nil)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	line, err := bufio.NewReader(resp.Body).ReadString('\n')
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal([]byte(strings.TrimPrefix(line, "data: ")), f); err != nil {
		t.Fatal(err)
	}
}

// The counts a session may reach, whatever the bytes: injected requests and marks.
func TestHoldingsCounts(t *testing.T) {
	cfg := sim.Config{Lanes: []sim.LaneKind{sim.DefaultLanes()[0]}}
	h := holdings{injected: maxInjected - 10, marks: maxMarks - 1}
	if err := h.admit(&cfg, "no burst", 11, 1, 1<<40); err == nil || !strings.Contains(err.Error(), "a session may inject 1000000 in all") {
		t.Errorf("one request over maxInjected: %v", err)
	}
	if err := h.admit(&cfg, "no burst", 10, 1, 1<<40); err != nil {
		t.Errorf("up to maxInjected and maxMarks: %v", err)
	}
	if err := h.admit(&cfg, "no change", 0, 1, 1<<40); err == nil || !strings.Contains(err.Error(), "a session may make 1000 in all") {
		t.Errorf("one mark over maxMarks: %v", err)
	}
	if h.injected != maxInjected || h.marks != maxMarks {
		t.Errorf("holdings %+v after two refusals, want them unchanged at the caps", h)
	}
}

// A creation whose request never finishes holds its slot only until
// BodyWithin: then it is answered 408 and the slot is free again.
func TestASlowCreationGivesItsSlotBack(t *testing.T) {
	srv, url := serve(t, Options{MaxSessions: 1, BodyWithin: 50 * time.Millisecond})
	pr, pw := io.Pipe()
	defer pw.Close()
	req, _ := http.NewRequest("POST", url+"/api/sessions", pr)
	go func() { _, _ = pw.Write([]byte(`{"builtin":`)) }() // and nothing more
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	var reply errorReply
	_ = json.NewDecoder(resp.Body).Decode(&reply)
	resp.Body.Close()
	if resp.StatusCode != http.StatusRequestTimeout || !strings.Contains(reply.Error, "the request took over 50ms to send") {
		t.Errorf("a request never finished: %d %q, want 408", resp.StatusCode, reply.Error)
	}
	if code := do(t, "POST", url+"/api/sessions", `{"builtin":"demo"}`, nil, &reply); code != http.StatusOK || srv.Sessions() != 1 {
		t.Errorf("after it: status %d %q, want the slot free", code, reply.Error)
	}
}

// Close lets go of every session, those no stream shows too: nothing holds
// their memory until their 30 seconds are up.
func TestCloseHoldsNoSession(t *testing.T) {
	srv := New(Options{Addr: "127.0.0.1:8080"})
	for range 3 {
		if rec := post(srv, "/api/sessions", `{"builtin":"demo"}`); rec.Code != http.StatusOK {
			t.Fatalf("status %d %s", rec.Code, rec.Body)
		}
	}
	srv.Close()
	if n := srv.Sessions(); n != 0 {
		t.Errorf("%d sessions held after Close, want none", n)
	}
	if rec := post(srv, "/api/sessions", `{"builtin":"demo"}`); rec.Code != http.StatusServiceUnavailable {
		t.Errorf("a creation after Close: status %d, want 503", rec.Code)
	}
}
