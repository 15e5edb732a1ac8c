package scenarios

import (
	"fmt"
	"reflect"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/rlsim/rlsim/algorithms"
	"github.com/rlsim/rlsim/sim"
)

// defaultHashKey is the key sticky routing hashes when the file names none.
const defaultHashKey = sim.KeyIP

// topology turns the topology section into sim's, and reports the topology
// fields of limits that mean nothing without it or without their state.
func (b *builder) topology(ts *topologySpec, specs []limitSpec, limits []sim.Limit) *sim.Topology {
	for i := range specs {
		if i < len(limits) { // a topology section in error is still one: its errors are reported
			b.placement(&specs[i], fmt.Sprintf("limits[%d]", i), &limits[i], ts != nil || b.has("topology"))
		}
	}
	if ts == nil {
		if b.has("topology") && !b.reported("topology") {
			b.addf("topology", "the section is empty: give at least replicas (or leave topology out)")
		}
		return nil
	}
	t := &sim.Topology{HashKey: defaultHashKey}
	first := 1
	if ts.Replicas != nil {
		first = *ts.Replicas
	}
	t.Replicas = []sim.ReplicaStep{{Count: first}}
	for _, s := range ts.Autoscaler {
		t.Replicas = append(t.Replicas, sim.ReplicaStep{At: durOr(s.At, 0), Count: s.Count})
	}
	if ts.Routing != "" {
		t.Routing, _ = sim.ParseRouting(ts.Routing)
	}
	if ts.HashKey != "" {
		t.HashKey, _ = sim.ParseKey(ts.HashKey)
		if t.Routing != sim.RoutingHash {
			b.addf("topology.hash_key", "is only used with routing hash")
		}
	}
	if ts.Store != nil {
		t.Store = b.store("topology.store", ts.Store)
	}
	t.Stores = b.namedStores("topology.stores", ts.Stores)
	if h := ts.Health; h != nil {
		t.Health = &sim.HealthCheck{Endpoint: h.Endpoint, Interval: durOr(h.Interval, 0),
			UnhealthyAfter: intOr(h.UnhealthyAfter, 0), HealthyAfter: intOr(h.HealthyAfter, 0)}
	}
	return t
}

// store turns st, written at path, into sim's store.
func (b *builder) store(path string, st *storeSpec) sim.Store {
	var s sim.Store
	if st.Latency != nil {
		s.Latency = latency(st.Latency)
	}
	s.Racy = st.Atomic != nil && !*st.Atomic
	s.Timeout = durOr(st.Timeout, 0)
	for _, o := range st.Outages {
		s.Outages = append(s.Outages, sim.Outage{From: durOr(o.From, 0), To: durOr(o.To, 0), Flush: o.Flush})
	}
	for _, r := range st.Restarts {
		s.Restarts = append(s.Restarts, durOr(r.At, 0))
	}
	for _, p := range st.Partitions {
		s.Partitions = append(s.Partitions, sim.Partition{From: durOr(p.From, 0), To: durOr(p.To, 0),
			Replicas: p.Replicas, Hung: p.Kind == "hung"})
	}
	if bs := st.Breaker; bs != nil {
		s.Breaker = sim.Breaker{Failures: bs.Failures, Window: durOr(bs.Window, 0), Cooldown: durOr(bs.Cooldown, 0), Probes: 1}
		if bs.Probes != 0 {
			s.Breaker.Probes = bs.Probes
		}
	}
	s.RefusalCache = st.RefusalCache
	s.Lease = st.Lease
	storeSystem(b, path, st, &s)
	return s
}

func intOr(p *int, def int) int {
	if p == nil {
		return def
	}
	return *p
}

// placement sets a limit's topology fields, reporting those its state does not use.
func (b *builder) placement(ls *limitSpec, path string, l *sim.Limit, topology bool) {
	written := map[string]bool{"state": ls.State != "", "local_limit": ls.LocalLimit != "",
		"sync_interval": ls.SyncInterval != nil, "on_store_error": ls.OnStoreError != "", "fallback": ls.Fallback != nil, "store": ls.Store != ""}
	if !topology {
		for _, f := range []string{"state", "local_limit", "sync_interval", "on_store_error", "fallback", "store"} {
			if written[f] {
				b.addf(path+"."+f, "is only used with a topology section (replicas and a store)")
			}
		}
		return
	}
	if b.reported(path + ".state") {
		return // which fields it would use is unknown
	}
	if ls.State != "" {
		l.State, _ = sim.ParseState(ls.State)
	}
	uses := map[sim.StateKind][]string{
		sim.StateLocal:  {"local_limit"},
		sim.StateShared: {"on_store_error", "fallback", "store"},
		sim.StateSynced: {"sync_interval"},
	}[l.State]
	for _, f := range []string{"local_limit", "sync_interval", "on_store_error", "fallback", "store"} {
		if written[f] && !contains(uses, f) {
			b.addf(path+"."+f, "is not used by state %s (it uses %s)", l.State, strings.Join(uses, ", "))
		}
	}
	if ls.LocalLimit != "" {
		l.LocalLimit, _ = sim.ParseLocalLimit(ls.LocalLimit)
	}
	l.SyncInterval = durOr(ls.SyncInterval, 0)
	l.Store = ls.Store
	if ls.OnStoreError != "" {
		l.OnStoreError, _ = sim.ParseFailMode(ls.OnStoreError)
	}
	if fb := ls.Fallback; fb != nil {
		l.Fallback = algorithms.Policy{Limit: fb.Limit, Window: durOr(fb.Window, l.Policy.Window), Burst: fb.Burst}
		if l.OnStoreError != sim.FailLocal {
			b.addf(path+".fallback", "is only used with on_store_error local")
		} else if fb.Divided {
			l.LocalLimit = sim.LocalDivided // the fallback is the limit each replica counts alone
		}
	}
}

// topologyPath is the file's path for a field of sim's Topology: the first
// replica step is replicas, the others the autoscaler's.
func topologyPath(field string) string {
	const steps = "topology.replicas["
	if !strings.HasPrefix(field, steps) {
		return field
	}
	var i int
	var rest string
	if n, _ := fmt.Sscanf(strings.TrimPrefix(field, steps), "%d]", &i); n != 1 {
		return field
	}
	rest = field[strings.Index(field, "]")+1:]
	if i == 0 {
		return "topology.replicas"
	}
	return fmt.Sprintf("topology.autoscaler[%d]%s", i-1, rest)
}

// topologyToFile writes t as the file's topology section.
func topologyToFile(t *sim.Topology) *topologySpec {
	if t == nil {
		return nil
	}
	ts := &topologySpec{}
	if len(t.Replicas) > 0 {
		n := t.Replicas[0].Count
		ts.Replicas = &n
		for _, s := range t.Replicas[1:] {
			ts.Autoscaler = append(ts.Autoscaler, replicaStep{At: dur(s.At), Count: s.Count})
		}
	}
	ts.Routing = t.Routing.String()
	if t.Routing == sim.RoutingHash {
		ts.HashKey = t.HashKey.String()
	}
	ts.Store = storeToFile(t.Store)
	ts.Stores = namedStoresToFile(t.Stores)
	if h := t.Health; h != nil {
		ts.Health = &healthSpec{Endpoint: h.Endpoint, Interval: optDur(h.Interval)}
		if n := h.UnhealthyAfter; n != 0 {
			ts.Health.UnhealthyAfter = &n
		}
		if n := h.HealthyAfter; n != 0 {
			ts.Health.HealthyAfter = &n
		}
	}
	return ts
}

// storeToFile writes s as the file's store section.
func storeToFile(s sim.Store) *storeSpec {
	st := &storeSpec{Timeout: optDur(s.Timeout)}
	atomic := !s.Racy
	st.Atomic = &atomic
	if s.Latency != (sim.Service{}) {
		st.Latency = &latencySpec{Mean: dur(s.Latency.Mean), Distribution: s.Latency.Kind.String()}
	}
	for _, o := range s.Outages {
		st.Outages = append(st.Outages, outageSpec{From: dur(o.From), To: dur(o.To), Flush: o.Flush})
	}
	for _, at := range s.Restarts {
		st.Restarts = append(st.Restarts, restartSpec{At: dur(at)})
	}
	for _, p := range s.Partitions {
		kind := map[bool]string{false: "refused", true: "hung"}[p.Hung]
		st.Partitions = append(st.Partitions, partitionSpec{From: dur(p.From), To: dur(p.To), Replicas: p.Replicas, Kind: kind})
	}
	if b := s.Breaker; b.Failures > 0 {
		st.Breaker = &breakerSpec{Failures: b.Failures, Window: dur(b.Window), Cooldown: dur(b.Cooldown), Probes: b.Probes}
	}
	st.RefusalCache, st.Lease = s.RefusalCache, s.Lease
	storeSystemToFile(s, st)
	return st
}

// placementToFile writes l's topology fields into ls.
func placementToFile(l sim.Limit, ls *limitSpec, topology bool) {
	if !topology {
		return
	}
	ls.State = l.State.String()
	switch l.State {
	case sim.StateLocal:
		ls.LocalLimit = l.LocalLimit.String()
	case sim.StateSynced:
		ls.SyncInterval = dur(l.SyncInterval)
	case sim.StateShared:
		ls.Store = l.Store
		ls.OnStoreError = l.OnStoreError.String()
		if l.OnStoreError == sim.FailLocal {
			ls.Fallback = &fallbackSpec{Limit: l.Fallback.Limit, Window: dur(l.Fallback.Window), Burst: l.Fallback.Burst,
				Divided: l.LocalLimit == sim.LocalDivided}
		}
	}
}

// Warnings are what is legal in s but likely not meant, as file:line: path:
// problems whose Msg begins "warning: "; none for a scenario without any. Today
// they are the divided limits and fallbacks with fewer cost units per window
// than replicas: some replicas then have a share of nothing and refuse.
func Warnings(s *Scenario) Errors {
	c := s.Config
	if c == nil || c.Topology == nil {
		return nil
	}
	b := &builder{errs: &errorList{file: s.File}, lines: sourceLines(s.Source), bad: map[string]bool{}}
	for i, l := range c.Limits {
		dividedWarnings(b, fmt.Sprintf("limits[%d]", i), l.Placement(), l.Policy, c.Topology.Replicas)
	}
	for v, lane := range c.Variants {
		if lane.Placements == nil {
			continue
		}
		for i, p := range *lane.Placements {
			if i < len(c.Limits) && p != c.Limits[i].Placement() {
				dividedWarnings(b, fmt.Sprintf("lanes[%d].limits[%d]", v, i), p, c.Limits[i].Policy, c.Topology.Replicas)
			}
		}
	}
	if err := b.errs.err(); err != nil {
		return err.(Errors)
	}
	return nil
}

// dividedWarnings adds, for a limit placed as pl at path (policy p), the
// warning of its divided limit or fallback, if any.
func dividedWarnings(b *builder, path string, pl sim.Placement, p algorithms.Policy, steps []sim.ReplicaStep) {
	if pl.LocalLimit != sim.LocalDivided {
		return
	}
	path += ".local_limit"
	if pl.State == sim.StateShared {
		path, p = strings.TrimSuffix(path, ".local_limit")+".fallback.divided", pl.Fallback
	}
	if msg := dividedWarning(p, steps); msg != "" {
		b.errs.add(b.line(path), path, "warning: "+msg)
	}
}

// dividedWarning tells what policy p divided over the most replicas of steps
// leaves a replica when some share is nothing, or "".
func dividedWarning(p algorithms.Policy, steps []sim.ReplicaStep) string {
	n := 0
	for _, s := range steps {
		n = max(n, s.Count)
	}
	var out []string
	per := formatDuration(p.Window)
	if p.Limit < int64(n) {
		out = append(out, fmt.Sprintf("%d per %s divided over %d replicas leaves %d of them a share of nothing (they refuse every request) and %d a share of 1: the fleet admits at most %d per %s, a key routed to one replica 1 or none",
			p.Limit, per, n, int64(n)-p.Limit, p.Limit, p.Limit, per))
	}
	if p.Burst > 0 && p.Burst < int64(n) {
		out = append(out, fmt.Sprintf("a burst of %d divided over %d replicas leaves %d of them no burst: in the token bucket, GCRA and leaky bucket lanes they refuse every request",
			p.Burst, n, int64(n)-p.Burst))
	}
	return strings.Join(out, "; ")
}

// sourceLines is the line of every field written in a scenario file's source.
func sourceLines(src []byte) map[string]int {
	var root yaml.Node
	if yaml.Unmarshal(src, &root) != nil || len(root.Content) == 0 {
		return nil
	}
	var f fileSpec
	d := &decoder{errs: &errorList{}, lines: map[string]int{}}
	d.decode(root.Content[0], reflect.ValueOf(&f).Elem(), "", "")
	return d.lines
}
