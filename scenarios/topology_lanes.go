package scenarios

import (
	"fmt"
	"reflect"

	"github.com/rlsim/rlsim/sim"
)

// A lane's own contract with its fleet: its stores (lanes[i].topology) and
// where it keeps each limit's state (the placement fields of lanes[i].limits).

// namedStores turns the stores written at path into sim's.
func (b *builder) namedStores(path string, specs []namedStoreSpec) []sim.NamedStore {
	var out []sim.NamedStore
	for i, ns := range specs {
		st := storeSpec{Latency: ns.Latency, Timeout: ns.Timeout, Outages: ns.Outages, Shards: ns.Shards, Capacity: ns.Capacity,
			Service: ns.Service, QueueLimit: ns.QueueLimit, Changes: ns.Changes, MaxMemory: ns.MaxMemory, Eviction: ns.Eviction}
		out = append(out, sim.NamedStore{Name: ns.Name, Store: b.store(fmt.Sprintf("%s[%d]", path, i), &st)})
	}
	return out
}

// namedStoresToFile writes stores as the file's stores section.
func namedStoresToFile(stores []sim.NamedStore) []namedStoreSpec {
	var out []namedStoreSpec
	for _, ns := range stores {
		st := storeToFile(ns.Store)
		out = append(out, namedStoreSpec{Name: ns.Name, Latency: st.Latency, Timeout: st.Timeout, Outages: st.Outages, Shards: st.Shards,
			Capacity: st.Capacity, Service: st.Service, QueueLimit: st.QueueLimit, Changes: st.Changes, MaxMemory: st.MaxMemory, Eviction: st.Eviction})
	}
	return out
}

// laneSetups gives each lane that writes stores or placements of its own a
// topology and placements of its own (sim.Variant.Topology, Placements):
// the file's, with what the lane writes in place.
func (b *builder) laneSetups(f *fileSpec, c *sim.Config) {
	for i, ls := range f.Lanes {
		path := fmt.Sprintf("lanes[%d]", i)
		placing := slicesAny(ls.Limits, variantLimitSpec.places)
		if ls.Topology == nil && !placing || i >= len(c.Lanes) {
			continue
		}
		if c.Topology == nil {
			if ls.Topology != nil {
				b.addf(path+".topology", "a lane's own stores need a topology section (replicas and a store)")
			}
			for j, l := range ls.Limits {
				if l.places() && j < len(f.Limits) {
					b.placement(l.asLimit(f.Limits[j]), fmt.Sprintf("%s.limits[%d]", path, j), &sim.Limit{}, false)
				}
			}
			continue
		}
		if c.Variants == nil {
			c.Variants = make([]sim.Variant, len(c.Lanes))
		}
		v := &c.Variants[i]
		if ls.Topology != nil {
			v.Topology = b.laneTopology(path+".topology", ls.Topology, f.Topology, c.Topology)
		}
		if placing {
			v.Placements = b.lanePlacements(path, ls.Limits, f.Limits, c.Limits)
		}
	}
}

// laneTopology is top with the stores lt, written at path, gives the lane:
// the fields of its store given in place of the file's (file), its stores in
// place of the file's when given.
func (b *builder) laneTopology(path string, lt *laneTopologySpec, file *topologySpec, top *sim.Topology) *sim.Topology {
	t := *top
	if lt.Store != nil {
		merged := storeSpec{}
		if file != nil && file.Store != nil {
			merged = *file.Store
		}
		overlaySpec(&merged, lt.Store)
		t.Store = b.store(path+".store", &merged)
	}
	if lt.Stores != nil {
		t.Stores = b.namedStores(path+".stores", *lt.Stores)
	}
	return &t
}

// lanePlacements is every limit's placement in a lane whose limits entries
// (specs, at path) place some: the chain's, with each entry's in its place.
func (b *builder) lanePlacements(path string, specs []variantLimitSpec, chain []limitSpec, limits []sim.Limit) *[]sim.Placement {
	out := make([]sim.Placement, len(limits))
	for j, l := range limits {
		out[j] = l.Placement()
		if j >= len(specs) || !specs[j].places() || j >= len(chain) {
			continue
		}
		lim := l
		lim.State, lim.LocalLimit, lim.SyncInterval, lim.OnStoreError, lim.Fallback, lim.Store = 0, 0, 0, 0, sim.Limit{}.Fallback, ""
		b.placement(specs[j].asLimit(chain[j]), fmt.Sprintf("%s.limits[%d]", path, j), &lim, true)
		out[j] = lim.Placement()
	}
	return &out
}

// places reports whether l writes a placement field.
func (l variantLimitSpec) places() bool {
	return l.State != "" || l.LocalLimit != "" || l.SyncInterval != nil || l.OnStoreError != "" || l.Fallback != nil || l.Store != ""
}

// asLimit is chain's limit with l's placement: with a state, l's fields
// alone; without, each field l gives in place of chain's.
func (l variantLimitSpec) asLimit(chain limitSpec) *limitSpec {
	ls := chain
	if l.State != "" {
		ls.LocalLimit, ls.SyncInterval, ls.OnStoreError, ls.Fallback, ls.Store = "", nil, "", nil, ""
	}
	over := limitSpec{State: l.State, LocalLimit: l.LocalLimit, SyncInterval: l.SyncInterval, OnStoreError: l.OnStoreError, Fallback: l.Fallback, Store: l.Store}
	overlaySpec(&ls, &over)
	return &ls
}

// placementToLane writes placement p as a lane's limits entry, whole.
func placementToLane(p sim.Placement, entry *variantLimitSpec) {
	var ls limitSpec
	placementToFile(sim.Limit{State: p.State, LocalLimit: p.LocalLimit, SyncInterval: p.SyncInterval,
		OnStoreError: p.OnStoreError, Fallback: p.Fallback, Store: p.Store}, &ls, true)
	entry.State, entry.LocalLimit, entry.SyncInterval, entry.OnStoreError, entry.Fallback, entry.Store =
		ls.State, ls.LocalLimit, ls.SyncInterval, ls.OnStoreError, ls.Fallback, ls.Store
}

// laneSetupToFile writes variant v's own stores and placements into ls.
func laneSetupToFile(v sim.Variant, ls *laneSpec) {
	if v.Placements != nil {
		for j, p := range *v.Placements {
			for len(ls.Limits) <= j {
				ls.Limits = append(ls.Limits, variantLimitSpec{})
			}
			placementToLane(p, &ls.Limits[j])
		}
	}
	if t := v.Topology; t != nil {
		stores := namedStoresToFile(t.Stores)
		if stores == nil {
			stores = []namedStoreSpec{}
		}
		ls.Topology = &laneTopologySpec{Store: storeToFile(t.Store), Stores: &stores}
	}
}

// overlaySpec sets every field of dst that over gives (not zero) to over's.
func overlaySpec[T any](dst, over *T) {
	d, o := reflect.ValueOf(dst).Elem(), reflect.ValueOf(over).Elem()
	for i := range o.NumField() {
		if !o.Field(i).IsZero() {
			d.Field(i).Set(o.Field(i))
		}
	}
}

func slicesAny[T any](s []T, f func(T) bool) bool {
	for _, v := range s {
		if f(v) {
			return true
		}
	}
	return false
}
