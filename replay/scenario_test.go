package replay

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/rlsim/rlsim/algorithms"
	"github.com/rlsim/rlsim/scenarios"
	"github.com/rlsim/rlsim/sim"
)

// limitFields are the fields of a scenario limit, from the scenario format's
// JSON Schema (generated from the loader's own struct): a field added to the
// format shows here, and TestScenarioLimitFields fails until it is classified.
func limitFields(t *testing.T) []string {
	t.Helper()
	var schema map[string]any
	if err := json.Unmarshal(scenarios.JSONSchema(), &schema); err != nil {
		t.Fatal(err)
	}
	var find func(v any) map[string]any
	find = func(v any) map[string]any { // the object schema, through any anyOf
		m, _ := v.(map[string]any)
		if p, ok := m["properties"].(map[string]any); ok {
			return p
		}
		if alts, ok := m["anyOf"].([]any); ok {
			for _, a := range alts {
				if p := find(a); p != nil {
					return p
				}
			}
		}
		return nil
	}
	limits, _ := schema["properties"].(map[string]any)["limits"].(map[string]any)
	props := find(limits["items"])
	if props == nil {
		t.Fatal("the scenario schema has no limits[].properties")
	}
	var names []string
	for name := range props {
		names = append(names, name)
	}
	sort.Strings(names)
	return names
}

// fieldCase is one scenario limit field: a limit using it (YAML, inline), and
// either the error naming it that replay gives, or "" when replay honours it.
type fieldCase struct {
	limit string
	extra string // more of the scenario (a topology)
	err   string
}

var limitFieldCases = map[string]fieldCase{
	"name":     {limit: "{name: login-per-ip, key: ip, limit: 3, window: 1s}"},
	"key":      {limit: "{key: api_key, limit: 4, window: 1s, burst: 2}"},
	"limit":    {limit: "{key: user, limit: 2}"},
	"window":   {limit: "{key: tenant, limit: 5, window: 3s}"},
	"burst":    {limit: "{key: ip, limit: 6, window: 2s, burst: 1}"},
	"headers":  {limit: "{key: ip, limit: 3, window: 1s, headers: none}"},
	"enforce":  {limit: "{key: ip, limit: 3, window: 1s, enforce: false}"},
	"endpoint": {limit: "{key: ip, limit: 2, window: 1s, endpoint: login}"},
	"concurrency": {limit: "{key: ip, limit: 3, window: 1s}\n  - {key: user, concurrency: 2}",
		err: "limits[1].concurrency: replay cannot count requests in flight"},
	"changes": {limit: "{key: ip, limit: 3, window: 1s, changes: [{at: 2s, limit: 1}]}",
		err: "limits[0].changes: replay cannot push rules"},
	"state":          {limit: "{key: ip, limit: 3, window: 1s, state: shared}", extra: "topology: {replicas: 2}"},
	"local_limit":    {limit: "{key: ip, limit: 3, window: 1s, local_limit: divided}", extra: "topology: {replicas: 2}"},
	"sync_interval":  {limit: "{key: ip, limit: 3, window: 1s, state: synced, sync_interval: 100ms}", extra: "topology: {replicas: 2}"},
	"on_store_error": {limit: "{key: ip, limit: 3, window: 1s, state: shared, on_store_error: closed}", extra: "topology: {replicas: 2}"},
	"fallback":       {limit: "{key: ip, limit: 3, window: 1s, state: shared, on_store_error: local, fallback: {limit: 1}}", extra: "topology: {replicas: 2}"},
	"store":          {limit: "{key: ip, limit: 3, window: 1s, state: shared, store: abuse}", extra: "topology: {replicas: 2, stores: [{name: abuse}]}"},
}

// fieldScenario is a scenario of two groups on two endpoints, whose clients
// share some api keys and tenants, under one limit.
func fieldScenario(limit, extra string) string {
	return `duration: 6s
lanes: [fixed_window, sliding_log, sliding_window_counter, token_bucket, leaky_bucket, gcra]
limits:
  - ` + limit + `
` + extra + `
clients:
  - name: a
    count: 3
    identity: {user: "u{i}", ip: "192.0.2.{i}", api_key: "k{i}", tenant: "t{i}", endpoint: login}
    arrivals: [{kind: poisson, rate: 6/s}]
  - name: b
    count: 2
    identity: {user: "v{i}", ip: "192.0.2.1{i}", api_key: "k{i}", tenant: "t0", endpoint: search}
    arrivals: [{kind: constant, rate: 7/s}]
`
}

// identityLog writes one lane's first attempts as JSON lines with each
// client's identity, and collects every lane's verdicts under the one limit
// by client, in time order.
type identityLog struct {
	order    string
	limit    string
	ids      []sim.Identity // by global client index
	log      bytes.Buffer
	verdicts map[string]map[int][]algorithms.Verdict // lane → client → verdicts
}

func (t *identityLog) Record(r *sim.TraceRecord) error {
	var v algorithms.Verdict
	switch r.Event {
	case sim.TraceAdmit:
		v = algorithms.Admit
	case sim.TraceDelay:
		v = algorithms.Delay
	case sim.TraceRefuse:
		v = algorithms.Refuse
	default:
		return nil
	}
	if r.Attempt != 1 {
		return fmt.Errorf("attempt %d: the scenario retries", r.Attempt)
	}
	if r.Shadow == t.limit {
		v = algorithms.Refuse // would have refused
	}
	if t.verdicts[r.LaneName] == nil {
		t.verdicts[r.LaneName] = map[int][]algorithms.Verdict{}
	}
	t.verdicts[r.LaneName][r.Client] = append(t.verdicts[r.LaneName][r.Client], v)
	if r.LaneName == t.order {
		id := t.ids[r.Client]
		at := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC).Add(r.At)
		line, _ := json.Marshal(map[string]any{"time": at.Format(time.RFC3339Nano), "client": r.Client, "ip": id.IP, "user": id.User,
			"api_key": id.APIKey, "tenant": id.Tenant, "method": "GET", "path": "/" + id.Endpoint})
		t.log.Write(append(line, '\n'))
	}
	return nil
}

// TestScenarioLimitFields: every field of a scenario limit means in replay
// what it means in run, or replay refuses a scenario using it with an error
// naming it. For a field replay honours, the scenario is simulated (retries
// off), its traffic written as a log and replayed with the scenario's limits:
// every lane decides every client's every request as the simulation did
// (a would-be refusal of a shadow limit is a refusal; a delay is compared to
// a delay, except under a shadow, which delays nothing in run).
func TestScenarioLimitFields(t *testing.T) {
	fields := limitFields(t)
	for _, f := range fields {
		if _, ok := limitFieldCases[f]; !ok {
			t.Errorf("scenario limit field %q: replay neither honours it nor refuses it here; add it to limitFieldCases", f)
		}
	}
	for f := range limitFieldCases {
		if !slices.Contains(fields, f) {
			t.Errorf("limitFieldCases: %q is not a field of a scenario limit (%v)", f, fields)
		}
	}
	for _, f := range fields {
		tc, ok := limitFieldCases[f]
		if !ok {
			continue
		}
		t.Run(f, func(t *testing.T) {
			s, err := scenarios.Parse(f+".yaml", []byte(fieldScenario(tc.limit, tc.extra)))
			if err != nil {
				t.Fatal(err)
			}
			limits, lanes, err := FromScenario(s.Config)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("FromScenario: err %v, want one containing %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			cfg := *s.Config
			cfg.Clients = slices.Clone(cfg.Clients)
			var ids []sim.Identity
			for i := range cfg.Clients {
				cfg.Clients[i].Retry = sim.Retry{}
				for j := range cfg.Clients[i].Count {
					ids = append(ids, cfg.Clients[i].IdentityOf(j))
				}
			}
			tl := &identityLog{order: "gcra", limit: cfg.Limits[0].Name, ids: ids, verdicts: map[string]map[int][]algorithms.Verdict{}}
			if tl.limit == "" {
				tl.limit = cfg.Limits[0].Key.String()
			}
			if _, err := sim.Run(context.Background(), cfg, sim.Options{Trace: tl}); err != nil {
				t.Fatal(err)
			}
			fleet, err := ScenarioFleet(s.Config) // a topology's replicas, routing and placements
			if err != nil {
				t.Fatal(err)
			}
			res, err := Replay(context.Background(), []Input{{Name: f, R: bytes.NewReader(tl.log.Bytes())}},
				Options{Limits: limits, Lanes: lanes, Format: "json", Verdicts: true, Config: s.Config, Fleet: fleet})
			if err != nil {
				t.Fatal(err)
			}
			var clients []int
			for _, l := range bytes.Split(bytes.TrimSpace(tl.log.Bytes()), []byte("\n")) {
				var m struct{ Client int }
				json.Unmarshal(l, &m)
				clients = append(clients, m.Client)
			}
			shadow := cfg.Limits[0].Shadow
			norm := func(v algorithms.Verdict) algorithms.Verdict {
				if shadow && v == algorithms.Delay {
					return algorithms.Admit
				}
				return v
			}
			refused := int64(0)
			for _, lane := range res.Limits[0].Lanes {
				want := tl.verdicts[lane.Lane]
				got := map[int][]algorithms.Verdict{}
				for i, v := range lane.Verdicts {
					got[clients[i]] = append(got[clients[i]], norm(algorithms.Verdict(v)))
				}
				for c, w := range want {
					for i := range w {
						w[i] = norm(w[i])
					}
					if !slices.Equal(got[c], w) {
						t.Errorf("%s: client %d (%+v): replay %v, run %v", lane.Lane, c, ids[c], got[c], w)
					}
				}
				refused += lane.Refused
			}
			if len(res.Limits[0].Lanes) != len(LaneNames) || len(clients) < 100 || refused == 0 {
				t.Errorf("compared %d lanes over %d requests with %d refusals: want %d lanes, 100 requests and some refusals",
					len(res.Limits[0].Lanes), len(clients), refused, len(LaneNames))
			}
		})
	}
}

// TestEndpointScope: a limit with an endpoint counts only the lines to it, by
// path (with or without the leading slash) or by method and path.
func TestEndpointScope(t *testing.T) {
	var log bytes.Buffer
	for i := range 30 {
		path := "/search"
		if i%3 == 0 {
			path = "/login/"
		}
		fmt.Fprintf(&log, `{"time":"2026-01-01T00:00:%02dZ","ip":"192.0.2.1","method":"POST","path":%q}`+"\n", i/10, path)
	}
	for _, e := range []string{"login", "/login", "POST /login"} {
		l := mustLimit(t, "key=ip limit=1/1h")
		l.Endpoint = e
		res, err := Replay(context.Background(), []Input{{Name: "x", R: bytes.NewReader(log.Bytes())}},
			Options{Limits: []Limit{l}, Lanes: []string{"fixed_window"}, Format: "json"})
		if err != nil {
			t.Fatal(err)
		}
		if got := res.Limits[0].Lanes[0].Refused; got != 9 { // 10 to /login, 1 admitted
			t.Errorf("endpoint %q: would refuse %d of 30, want 9 (10 lines are to /login)", e, got)
		}
	}
	l, err := ParseLimit("key=ip limit=1/1h endpoint=/login")
	if err != nil || l.Endpoint != "/login" || !strings.Contains(l.String(), "endpoint=/login") {
		t.Errorf("ParseLimit endpoint=/login: %+v, %v", l, err)
	}
}
