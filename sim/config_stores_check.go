package sim

import (
	"fmt"
	"reflect"
	"slices"
	"strings"
)

// checkNamedStores reports what is wrong with a topology's named stores and
// the limits that name them: names, the settings a named store reads, a
// store no store is named, and one client group's shared limits on two
// stores (its decisions would need two calls).
func checkNamedStores(ck *checker, c Config) {
	t := c.Topology
	if len(t.Stores) > MaxStores {
		ck.add("topology.stores", "at most %d stores, got %d", MaxStores, len(t.Stores))
	}
	if n := totalShards(t); n > MaxShards && len(t.Stores) > 0 {
		ck.add("topology.stores", "%d shards over the stores; at most %d in all (each keeps a latency histogram)", n, MaxShards)
	}
	names := map[string]int{}
	for i, ns := range t.Stores {
		path := fmt.Sprintf("topology.stores[%d]", i)
		if problem := storeNameProblem(ns.Name); problem != "" {
			ck.add(path+".name", "%s", problem)
		}
		if j, dup := names[ns.Name]; dup {
			ck.add(path+".name", "%s is also topology.stores[%d]: give each store its own name", ns.Name, j)
		}
		names[ns.Name] = i
		checkStore(ck, path, ns.Store)
		checkNamedStoreReads(ck, path, ns.Store)
	}
	for i, l := range c.Limits {
		if l.Store == "" {
			continue
		}
		path := fmt.Sprintf("limits[%d].store", i)
		if _, ok := names[l.Store]; !ok {
			ck.add(path, "no store is named %s (%s)", l.Store, storeList(t))
		}
		if l.State != StateShared {
			ck.add(path, "a store holds a shared limit's state; this limit's state is %v", l.State)
		}
	}
}

// checkStoresPerClient is checkOneStorePerClient for c and for each lane's
// own placements and stores (under the variant's path), once every cap has
// been checked: it walks the clients.
func checkStoresPerClient(ck *checker, c Config) {
	if c.Topology == nil {
		return
	}
	var top checker
	checkOneStorePerClient(&top, c)
	ck.errs = append(ck.errs, top.errs...)
	for i, v := range c.Variants {
		if !v.ownSetup() || i >= len(c.Lanes) {
			continue
		}
		var sub checker
		checkOneStorePerClient(&sub, *c.laneConfig(i))
		for _, e := range sub.errs {
			if !slices.Contains(top.errs, e) {
				ck.add(fmt.Sprintf("variants[%d].%s", i, e.Field), "%s", e.Problem)
			}
		}
	}
}

// totalShards is how many shards t's stores have together.
func totalShards(t *Topology) int {
	n := max(1, t.Store.Shards)
	for _, ns := range t.Stores {
		n += max(1, ns.Store.Shards)
	}
	return n
}

// storeNameProblem is what is wrong with name as a store's name, or "".
func storeNameProblem(name string) string {
	if name == "" {
		return "a store needs a name (the limits name it in store:)"
	}
	if len(name) > MaxLaneName {
		return fmt.Sprintf("%d bytes long; at most %d", len(name), MaxLaneName)
	}
	for i, r := range name {
		if !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' && i > 0 || (r == '_' || r == '-') && i > 0) {
			return fmt.Sprintf("%q: a store's name is lower case letters, digits, '_' and '-', starting with a letter", name)
		}
	}
	return ""
}

// checkNamedStoreReads reports the settings of a named store that are
// Topology.Store's for every store.
func checkNamedStoreReads(ck *checker, path string, s Store) {
	for _, f := range []struct {
		name string
		set  bool
	}{{"atomic", s.Racy}, {"breaker", s.Breaker != Breaker{}}, {"refusal_cache", s.RefusalCache}, {"lease", s.Lease != 0},
		{"restarts", len(s.Restarts) > 0}, {"partitions", len(s.Partitions) > 0}} {
		if f.set {
			ck.add(path+"."+f.name, "is topology.store's, for every store; a named store has none of its own")
		}
	}
	for i, o := range s.Outages {
		if o.Flush {
			ck.add(fmt.Sprintf("%s.outages[%d].flush", path, i), "restarts are topology.store's, for every store; a named store's outage cannot flush")
		}
	}
}

// storeList names the stores a limit may name.
func storeList(t *Topology) string {
	if len(t.Stores) == 0 {
		return "the topology has no stores section"
	}
	var names []string
	for _, s := range t.Stores {
		names = append(names, s.Name)
	}
	return "the stores: " + strings.Join(names, ", ")
}

// checkOneStorePerClient reports a client group, or the health probes,
// counted by shared limits on two stores: a decision makes one store call,
// with every shared limit counting the client in it.
func checkOneStorePerClient(ck *checker, c Config) {
	for gi := range c.Clients {
		g := &c.Clients[gi]
		first := -1
		for i, l := range c.Limits {
			if l.State != StateShared || !countsGroup(l, g) {
				continue
			}
			if first < 0 {
				first = i
			} else if c.Limits[first].Store != l.Store {
				ck.add(fmt.Sprintf("limits[%d].store", i), "clients[%d] is counted by limits[%d] on %s and by this limit on %s: the shared limits counting one client group are on one store (a decision makes one call)",
					gi, first, storeWords(c.Limits[first].Store), storeWords(l.Store))
				break
			}
		}
	}
	hc := c.Topology.WithHealthDefaults().Health
	if hc == nil {
		return
	}
	first := -1
	for i, l := range c.Limits {
		if l.State != StateShared || l.Endpoint != "" && l.Endpoint != hc.Endpoint {
			continue
		}
		if first < 0 {
			first = i
		} else if c.Limits[first].Store != l.Store {
			ck.add(fmt.Sprintf("limits[%d].store", i), "the health probes are counted by limits[%d] on %s and by this limit on %s: the shared limits counting the probes are on one store",
				first, storeWords(c.Limits[first].Store), storeWords(l.Store))
			break
		}
	}
}

// storeWords names a store in a message.
func storeWords(name string) string {
	if name == "" {
		return "topology.store"
	}
	return "store " + name
}

// countsGroup reports whether limit l counts the requests of some client of
// g (run only once the clients are within their caps: it may walk them).
func countsGroup(l Limit, g *ClientGroup) bool {
	if l.Endpoint == "" {
		return true
	}
	want := KeyEndpoint.String() + ":" + l.Endpoint
	if !strings.Contains(g.Identity.Endpoint, "{") && g.Identity.Endpoint != "" {
		return clientKey(g, 0, KeyEndpoint) == want
	}
	for i := range g.Count {
		if clientKey(g, i, KeyEndpoint) == want {
			return true
		}
	}
	return false
}

// checkLaneSetups checks each lane's own fleet and placements
// (Variant.Topology, Variant.Placements) as checkTopology checks the
// Config's, reporting under the variant's path what the Config's own check
// does not report already.
func checkLaneSetups(ck *checker, c Config) {
	var top checker
	checkTopology(&top, c)
	seen := map[FieldError]bool{}
	for _, e := range top.errs {
		seen[e] = true
	}
	for i, v := range c.Variants {
		if !v.ownSetup() || i >= len(c.Lanes) {
			continue
		}
		path := fmt.Sprintf("variants[%d]", i)
		if c.Topology == nil {
			ck.add(path, "a lane's own topology or placements need a topology section (replicas and a store)")
			continue
		}
		if v.Placements != nil && len(*v.Placements) != len(c.Limits) {
			ck.add(path+".limits", "%d placements for a chain of %d limits", len(*v.Placements), len(c.Limits))
			continue
		}
		if t := v.Topology; t != nil && !sameFleet(*t, *c.Topology) {
			ck.add(path+".topology", "a lane's own topology changes its stores alone (store, stores); replicas, autoscaler, routing and health are the run's")
		}
		var sub checker
		checkTopology(&sub, *c.laneConfig(i))
		for _, e := range sub.errs {
			if !seen[e] {
				ck.add(path+"."+e.Field, "%s", e.Problem)
			}
		}
	}
}

// sameFleet reports whether a and b have the same replicas, routing and
// health check (they may differ in their stores).
func sameFleet(a, b Topology) bool {
	a.Store, a.Stores, b.Store, b.Stores = Store{}, nil, Store{}, nil
	return reflect.DeepEqual(a, b)
}
