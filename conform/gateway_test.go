package conform

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math/rand"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"testing/quick"
	"time"

	"github.com/rlsim/rlsim/algorithms"
	"github.com/rlsim/rlsim/run"
	"github.com/rlsim/rlsim/sim"
)

// fixedWindowGateway is a gateway written for the tests: per X-Key a fixed
// window of limit requests per window, windows aligned to the Unix epoch,
// refusals (429) not counted, as DESIGN.md states the fixed window. With
// every > 0 it also refuses every every-th request it receives, whatever the
// window says, counting none of them. It logs each request, under the lock it
// decides under, as rid=<X-Request-Id> t=<Unix seconds, 9 decimals> to the
// returned log.
type fixedWindowGateway struct {
	limit  int
	window time.Duration
	every  int

	mu      sync.Mutex
	counts  map[string][2]int64 // key: window number, admitted in it
	seen    int
	log     *os.File
	onEvery func(n int) // called with the request count, unlocked
}

func startFixedWindowGateway(t *testing.T, limit int, window time.Duration, every int) (*httptest.Server, *fixedWindowGateway, string) {
	t.Helper()
	logPath := filepath.Join(t.TempDir(), "access.log")
	f, err := os.Create(logPath)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	g := &fixedWindowGateway{limit: limit, window: window, every: every, counts: map[string][2]int64{}, log: f}
	srv := httptest.NewServer(g)
	t.Cleanup(srv.Close)
	return srv, g, logPath
}

func (g *fixedWindowGateway) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	g.mu.Lock()
	now := time.Now()
	g.seen++
	n := g.seen
	key := r.Header.Get("X-Key")
	win := now.UnixNano() / int64(g.window)
	c := g.counts[key]
	if c[0] != win {
		c = [2]int64{win, 0}
	}
	status := http.StatusOK
	switch {
	case g.every > 0 && n%g.every == 0:
		status = http.StatusTooManyRequests
	case c[1]+1 > int64(g.limit):
		status = http.StatusTooManyRequests
	default:
		c[1]++
	}
	g.counts[key] = c
	fmt.Fprintf(g.log, "127.0.0.1 rid=%s t=%d.%09d status=%d\n", r.Header.Get("X-Request-Id"), now.Unix(), now.Nanosecond(), status)
	g.mu.Unlock()
	if g.onEvery != nil {
		g.onEvery(n)
	}
	w.WriteHeader(status)
}

// gatewayLane is lane i's traffic and rule in the scenario at path.
func gatewayLane(t *testing.T, path string, lane int) ([]Attempt, sim.KeyRule, *sim.Config) {
	t.Helper()
	cfg := loadConfig(t, path)
	attempts, rule, err := GatewayTraffic(context.Background(), *cfg, lane, 0)
	if err != nil {
		t.Fatal(err)
	}
	return attempts, rule, cfg
}

func gatewayOptions(t *testing.T, cfg *sim.Config, accessLog string) GatewayOptions {
	prefix := fmt.Sprintf("t%d-", time.Now().UnixNano())
	return GatewayOptions{KeyPrefix: prefix, IDPrefix: prefix + "r", Tolerance: 50 * time.Millisecond, Shown: 100,
		RefusalStatus: cfg.RefusalStatus(0), AccessLog: accessLog, Align: time.Second, Timeout: 5 * time.Second}
}

// TestGatewayAgreesWithAFixedWindow holds the fixed_window lane to a gateway
// that implements it: on the instants the gateway logged every verdict agrees
// (the lane decides at the very instants the gateway did, in its order); on
// the send instants, every one agrees within the tolerance. The traffic is
// twice the limit, so the lane refuses some: agreement says something.
func TestGatewayAgreesWithAFixedWindow(t *testing.T) {
	t.Parallel() // a gateway of its own on its own port
	attempts, rule, cfg := gatewayLane(t, "testdata/gateway.yaml", 0)
	refused := 0
	for _, a := range attempts {
		if !a.Admitted {
			refused++
		}
	}
	if refused == 0 || refused == len(attempts) {
		t.Fatalf("the scenario's lane refuses %d of %d: want some, not all", refused, len(attempts))
	}
	for _, logged := range []bool{true, false} {
		t.Run(fmt.Sprintf("access log %v", logged), func(t *testing.T) {
			t.Parallel()
			srv, _, logPath := startFixedWindowGateway(t, 10, time.Second, 0)
			opts := gatewayOptions(t, cfg, "")
			if logged {
				opts.AccessLog = logPath
			}
			c, err := CheckGateway(context.Background(), srv.URL, attempts, rule, opts)
			if err != nil {
				t.Fatal(err)
			}
			if c.Sent != len(attempts) || c.Differed != 0 || c.NoDecision != 0 || c.Agreed+c.Within != c.Sent {
				t.Errorf("sent %d (want %d), agreed %d, within %d, differed %d, no decision %d; want every one agreed or within: %+v",
					c.Sent, len(attempts), c.Agreed, c.Within, c.Differed, c.NoDecision, c.Diffs)
			}
			if logged && (c.Agreed != c.Sent || c.Clock != "access log" || c.NotLogged != 0) {
				t.Errorf("on the logged instants: agreed %d of %d, clock %q, %d not logged; want all agreed", c.Agreed, c.Sent, c.Clock, c.NotLogged)
			}
			if c.GatewayAdmitted == c.Sent || c.Within == 0 && c.LaneAdmitted != c.GatewayAdmitted {
				t.Errorf("admitted lane/gateway %d/%d of %d: want some refused, and as many admitted by each when all agree", c.LaneAdmitted, c.GatewayAdmitted, c.Sent)
			}
		})
	}
}

// TestGatewayFindsTheRefusalsOfEverySeventh holds the lane to a gateway that
// refuses every 7th request it receives besides its fixed window: with
// traffic under the limit the lane admits every request, so the differences
// are exactly the 7th, 14th, ... requests the gateway received, each refused
// (429) where the lane admits.
func TestGatewayFindsTheRefusalsOfEverySeventh(t *testing.T) {
	t.Parallel() // a gateway of its own on its own port
	attempts, rule, cfg := gatewayLane(t, "testdata/gateway_under.yaml", 0)
	srv, _, logPath := startFixedWindowGateway(t, 100, time.Second, 7)
	c, err := CheckGateway(context.Background(), srv.URL, attempts, rule, gatewayOptions(t, cfg, logPath))
	if err != nil {
		t.Fatal(err)
	}
	want := len(attempts) / 7
	if len(attempts) < 14 || c.Differed != want || c.Agreed != c.Sent-want || c.Within != 0 || len(c.Diffs) != want {
		t.Fatalf("%d sent: differed %d, agreed %d, within %d, %d shown; want %d differed, the rest agreed", c.Sent, c.Differed, c.Agreed, c.Within, len(c.Diffs), want)
	}
	for _, d := range c.Diffs {
		if d.Status != http.StatusTooManyRequests || !d.LaneAdmitted || d.Outcome != GatewayDiffered {
			t.Errorf("difference %+v: want the gateway's 429 where the lane admits", d)
		}
	}
	if err := gatewayFailures([]GatewayCheck{c}); err == nil || !strings.Contains(err.Error(), fmt.Sprintf("%d requests decided otherwise", want)) {
		t.Errorf("failures: %v", err)
	}
}

// TestGatewayUnreachable: a port nothing listens on ends the check before any
// request, as a run that could not finish.
func TestGatewayUnreachable(t *testing.T) {
	attempts, rule, cfg := gatewayLane(t, "testdata/gateway_under.yaml", 0)
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	begin := time.Now()
	_, err = CheckGateway(context.Background(), "http://"+addr, attempts, rule, gatewayOptions(t, cfg, ""))
	var unfinished *run.UnfinishedError
	if !errors.As(err, &unfinished) || !strings.Contains(err.Error(), "cannot be reached") {
		t.Fatalf("error %v; want a could-not-finish error saying the gateway cannot be reached", err)
	}
	if took := time.Since(begin); took > time.Second {
		t.Errorf("took %v to tell: want it before the schedule (aligned to a second) starts", took)
	}
}

// TestGatewayGoneAway: a gateway that closes for good after its 5th request
// ends the check as a run that could not finish.
func TestGatewayGoneAway(t *testing.T) {
	t.Parallel() // a gateway of its own on its own port
	attempts, rule, cfg := gatewayLane(t, "testdata/gateway_under.yaml", 0)
	srv, g, _ := startFixedWindowGateway(t, 100, time.Second, 0)
	var once sync.Once
	g.onEvery = func(n int) {
		if n == 5 {
			once.Do(func() { go srv.Close() })
		}
	}
	_, err := CheckGateway(context.Background(), srv.URL, attempts, rule, gatewayOptions(t, cfg, ""))
	var unfinished *run.UnfinishedError
	if !errors.As(err, &unfinished) || !strings.Contains(err.Error(), "went away") {
		t.Fatalf("error %v; want a could-not-finish error saying the gateway went away", err)
	}
}

// TestGatewayNoDecision: statuses that are neither an admission nor a refusal
// are counted apart, never agreed, and shown.
func TestGatewayNoDecision(t *testing.T) {
	t.Parallel() // a gateway of its own on its own port
	attempts, rule, cfg := gatewayLane(t, "testdata/gateway_under.yaml", 0)
	srv := httptest.NewServer(http.NotFoundHandler())
	t.Cleanup(srv.Close)
	opts := gatewayOptions(t, cfg, "")
	opts.Shown = 3
	c, err := CheckGateway(context.Background(), srv.URL, attempts, rule, opts)
	if err != nil {
		t.Fatal(err)
	}
	if c.NoDecision != c.Sent || c.Agreed+c.Within+c.Differed != 0 || len(c.Diffs) != 3 || c.Diffs[0].Status != 404 || c.Diffs[0].Outcome != GatewayNoDecision {
		t.Errorf("no decision %d of %d, agreed %d, %d shown (%+v); want every 404 no decision", c.NoDecision, c.Sent, c.Agreed, len(c.Diffs), c.Diffs)
	}
}

// TestGatewayBadInput: a bad URL, a cost above 1 and a missing access log are
// refused before anything is sent.
func TestGatewayBadInput(t *testing.T) {
	attempts, rule, cfg := gatewayLane(t, "testdata/gateway_under.yaml", 0)
	costly := append([]Attempt(nil), attempts...)
	costly[3].Cost = 2
	var hits atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { hits.Add(1) }))
	t.Cleanup(srv.Close)
	for _, tc := range []struct {
		name, url, log string
		attempts       []Attempt
		want           string
	}{
		{"no URL", "127.0.0.1:80", "", attempts, "not an absolute http"},
		{"a query", srv.URL + "/?a=1", "", attempts, "not an absolute http"},
		{"a cost", srv.URL, "", costly, "every cost must be 1, got 2"},
		{"no log", srv.URL, filepath.Join(t.TempDir(), "none.log"), attempts, "--access-log"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := CheckGateway(context.Background(), tc.url, tc.attempts, rule, gatewayOptions(t, cfg, tc.log))
			if !run.IsBadInput(err) || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v; want bad input saying %q", err, tc.want)
			}
		})
	}
	if n := hits.Load(); n != 0 {
		t.Errorf("%d requests reached the gateway; want none", n)
	}
}

// TestGatewayTrafficRefusesOtherLanes: only rate-limiter lanes have a rule to
// hold a gateway to.
func TestGatewayTrafficRefusesOtherLanes(t *testing.T) {
	cfg := loadConfig(t, "../scenarios/builtin/demo.yaml")
	for i, k := range cfg.LanesRun() {
		_, _, err := GatewayTraffic(context.Background(), *cfg, i, 0)
		if rate := k.Info().Class == sim.RateLimiter; (err == nil) != rate {
			t.Errorf("lane %v: error %v; want one only for a lane that is no rate limiter", k, err)
		}
	}
}

// TestAccessLine holds the access log's one format: rid= and t= (less rt=),
// seconds with up to 9 decimals, read exactly.
func TestAccessLine(t *testing.T) {
	for _, tc := range []struct {
		line   string
		id     string
		unixNS int64
		ok     bool
		bad    bool
	}{
		{"rid=x-1 t=1764644562.123", "x-1", 1764644562_123_000_000, true, false},
		{"rid=x-1 t=1764644562.123 rt=0.010 status=200", "x-1", 1764644562_113_000_000, true, false},
		{`127.0.0.1 - - "GET / HTTP/1.1" 503 t=1764644562.5 rid=x-22`, "x-22", 1764644562_500_000_000, true, false},
		{"rid=x-3 t=1764644562.000000001", "x-3", 1764644562_000_000_001, true, false},
		{"rid=x-4 t=1764644562", "x-4", 1764644562_000_000_000, true, false},
		{"rid=other-1 t=nonsense", "", 0, false, false}, // another's: skipped
		{"t=1764644562.123", "", 0, false, false},
		{"rid=x-5 t=1764644562,123", "", 0, false, true},
		{"rid=x-5 t=1764644562.1234567890", "", 0, false, true},
		{"rid=x-5 t=-1.5", "", 0, false, true},
		{"rid=x-5 t=1764644562.", "", 0, false, true},
		{"rid=x-5", "", 0, false, true},
		{"rid=x-5 t=1764644562.123 rt=.5", "", 0, false, true},
	} {
		id, at, ok, err := accessLine(tc.line, "x-")
		if (err != nil) != tc.bad || ok != tc.ok || ok && (id != tc.id || at.UnixNano() != tc.unixNS) {
			t.Errorf("accessLine(%q) = %q, %d, %v, %v; want %q, %d, %v, error %v", tc.line, id, at.UnixNano(), ok, err, tc.id, tc.unixNS, tc.ok, tc.bad)
		}
	}
}

// TestReadAccessLogFromOffset reads only what follows the offset, the first
// line of an id, and names the line of a bad one.
func TestReadAccessLogFromOffset(t *testing.T) {
	path := filepath.Join(t.TempDir(), "a.log")
	old := "rid=x-0 t=1.000\n"
	if err := os.WriteFile(path, []byte(old+"rid=x-1 t=2.5\nrid=x-1 t=3\nrid=y-1 t=4\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	got, err := ReadAccessLog(path, int64(len(old)), "x-")
	want := map[string]time.Time{"x-1": time.Unix(2, 500_000_000)}
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Errorf("ReadAccessLog = %v, %v; want %v", got, err, want)
	}
	if err := os.WriteFile(path, []byte("rid=x-1 t=2.5\nrid=x-2 t=soon\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadAccessLog(path, 0, "x-"); err == nil || !strings.Contains(err.Error(), "line 2") {
		t.Errorf("error %v; want one naming line 2", err)
	}
}

// TestGatewayJSONRoundTrips: what WriteGatewayJSON writes, ReadGatewayJSON
// reads back whole, a Retry-After of never as -1 in between.
func TestGatewayJSONRoundTrips(t *testing.T) {
	r := GatewayRun{Scenario: "s", Seed: 3, URL: "http://127.0.0.1:1", Path: "/", KeyHeader: "X-Key", AccessLog: "a.log",
		Lanes: []GatewayCheck{{Lane: "edge", Product: "nginx 1.22.1", RefusalStatus: 503, Clock: "access log", StartUnixNS: 1764644562_000_000_000,
			ToleranceNS: 2 * time.Millisecond, Sent: 9, Agreed: 5, Within: 1, Differed: 2, NoDecision: 1, LaneAdmitted: 4, GatewayAdmitted: 5,
			NotLogged: 1, MaxSkewNS: 3, LaneDelayed: 1, MaxLaneDelayNS: 100 * time.Millisecond, AnswerP50NS: 7, AnswerMaxNS: 8,
			Diffs: []GatewayDiff{
				{Outcome: GatewayDiffered, ID: "r1", Key: "user-1", AtNS: 10, InstantNS: 11, Status: 503, LaneAdmitted: true},
				{Outcome: GatewayDiffered, ID: "r2", Key: "user-1", AtNS: 12, InstantNS: 13, Status: 200, GatewayRetryAfter: "1", LaneRetryAfterNS: algorithms.Never},
				{Outcome: GatewayNoDecision, ID: "r3", Key: "user-2", AtNS: 14, InstantNS: 14, Error: "connection refused", LaneRetryAfterNS: 99},
			}}}}
	var b bytes.Buffer
	if err := WriteGatewayJSON(&b, r); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), `"lane_retry_after_ns": -1`) || r.Lanes[0].Diffs[1].LaneRetryAfterNS != algorithms.Never {
		t.Errorf("never is not -1 in the JSON, or writing changed r:\n%s", b.String())
	}
	got, err := ReadGatewayJSON(&b)
	if err != nil || !reflect.DeepEqual(got, r) {
		t.Errorf("read back %+v, %v; want %+v", got, err, r)
	}
}

// TestCompareGatewayTolerance walks hand-made answers of a gateway through
// the comparison with a fixed window of 2 a second (windows from t=0) and a
// tolerance of 50ms, one key, requests at the instants given: each count is
// derived from the fixed window's rule by hand.
func TestCompareGatewayTolerance(t *testing.T) {
	rule, err := sim.LaneFixedWindow.PerKey(algorithms.Policy{Limit: 2, Window: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	ms := func(n int) time.Duration { return time.Duration(n) * time.Millisecond }
	for _, tc := range []struct {
		name                               string
		at                                 []int // ms
		status                             []int
		agreed, within, differed, decision int
	}{
		// The third is refused: the window holds 2.
		{"the same", []int{100, 200, 300}, []int{200, 200, 429}, 3, 0, 0, 0},
		// The lane admits the third 700ms later, not within 50ms.
		{"an extra admission", []int{100, 200, 300}, []int{200, 200, 200}, 2, 0, 1, 0},
		// At 980ms the lane admits 20ms later, in the next window: within.
		{"by a boundary", []int{100, 200, 980}, []int{200, 200, 200}, 2, 1, 0, 0},
		// 200ms and 210ms reached it within 50ms: the gateway took 210ms first.
		{"another order within", []int{100, 200, 210}, []int{200, 429, 200}, 2, 1, 0, 0},
		// 100ms apart: the lane admits the second (at 150ms and 250ms too) and
		// refuses the third (at 250ms and 350ms too).
		{"another order beyond", []int{100, 200, 300}, []int{200, 429, 200}, 1, 0, 2, 0},
		// The 404 reached the gateway and counts in the lane: the third is refused.
		{"no decision", []int{100, 200, 300}, []int{404, 200, 429}, 2, 0, 0, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			start := time.Unix(1_000_000, 0)
			var attempts []Attempt
			var reqs []HTTPRequest
			var results []HTTPResult
			for i, at := range tc.at {
				attempts = append(attempts, Attempt{At: ms(at), Key: "k", Cost: 1})
				reqs = append(reqs, HTTPRequest{At: ms(at), Key: "k", ID: fmt.Sprint(i)})
				results = append(results, HTTPResult{Status: tc.status[i], Sent: start.Add(ms(at)), Answered: start.Add(ms(at + 1))})
			}
			var c GatewayCheck
			compareGateway(&c, attempts, reqs, results, nil, start, rule, GatewayOptions{Tolerance: 50 * time.Millisecond, Shown: 10, RefusalStatus: 429})
			if c.Agreed != tc.agreed || c.Within != tc.within || c.Differed != tc.differed || c.NoDecision != tc.decision {
				t.Errorf("agreed %d, within %d, differed %d, no decision %d; want %d, %d, %d, %d: %+v",
					c.Agreed, c.Within, c.Differed, c.NoDecision, tc.agreed, tc.within, tc.differed, tc.decision, c.Diffs)
			}
		})
	}
}

// TestCompareGatewayProperties holds the comparison, on arbitrary schedules
// (up to 3 keys, instants anywhere in 3s, several at one instant), to two
// properties: every request is counted once (agreed, within, differed or no
// decision), the differences shown in schedule order; and a gateway that is
// the lane's own rule, fed the same instants, agrees on every request at
// tolerance 0.
func TestCompareGatewayProperties(t *testing.T) {
	policy := algorithms.Policy{Limit: 5, Window: time.Second, Burst: 3}
	var rules []sim.KeyRule
	for _, k := range []sim.LaneKind{sim.LaneFixedWindow, sim.LaneSlidingLog, sim.LaneGCRA, sim.LaneNginx} {
		r, err := k.PerKey(policy)
		if err != nil {
			t.Fatal(err)
		}
		rules = append(rules, r)
	}
	prop := func(seed int64, n uint8, which uint8, tolMs uint8) bool {
		rng := rand.New(rand.NewSource(seed))
		rule := rules[int(which)%len(rules)]
		start := time.Unix(2_000_000, 0)
		var attempts []Attempt
		var reqs []HTTPRequest
		var own, random []HTTPResult
		states := map[string]sim.KeyState{}
		var at time.Duration
		for i := range int(n) {
			if rng.Intn(4) > 0 { // a quarter at the previous one's instant
				at += time.Duration(rng.Int63n(int64(3 * time.Second / 20)))
			}
			key := fmt.Sprint("k", rng.Intn(3))
			attempts = append(attempts, Attempt{At: at, Key: key, Cost: 1})
			reqs = append(reqs, HTTPRequest{At: at, Key: key, ID: fmt.Sprint(i)})
			if states[key] == nil {
				states[key] = rule.NewState()
			}
			status := 429
			if states[key].Decide(at, 1).Admitted() {
				status = 200
			}
			sent := start.Add(at)
			own = append(own, HTTPResult{Status: status, Sent: sent, Answered: sent})
			random = append(random, HTTPResult{Status: []int{200, 429, 503, 404, 0}[rng.Intn(5)], Sent: sent, Answered: sent})
		}
		var c GatewayCheck
		compareGateway(&c, attempts, reqs, own, nil, start, rule, GatewayOptions{Shown: 1000, RefusalStatus: 429})
		if c.Agreed != len(reqs) || c.Sent != len(reqs) {
			t.Logf("seed %d: the rule's own verdicts: agreed %d of %d: %+v", seed, c.Agreed, len(reqs), c.Diffs)
			return false
		}
		c = GatewayCheck{}
		compareGateway(&c, attempts, reqs, random, nil, start, rule,
			GatewayOptions{Tolerance: time.Duration(tolMs) * time.Millisecond, Shown: 1000, RefusalStatus: 429})
		if c.Agreed+c.Within+c.Differed+c.NoDecision != len(reqs) || len(c.Diffs) != c.Differed+c.NoDecision {
			t.Logf("seed %d: counts %+v of %d", seed, c, len(reqs))
			return false
		}
		for i := 1; i < len(c.Diffs); i++ {
			if c.Diffs[i-1].AtNS > c.Diffs[i].AtNS {
				t.Logf("seed %d: differences out of order: %+v", seed, c.Diffs)
				return false
			}
		}
		return true
	}
	if err := quick.Check(prop, &quick.Config{MaxCount: 300}); err != nil {
		t.Error(err)
	}
}
