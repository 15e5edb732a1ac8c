package report

import (
	"bytes"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/rlsim/rlsim/sim"
)

// hot-key-shard's findings name the shard the scraper's key hashes to (FNV-1a
// modulo 4, as documented), with its share of the calls, its latency, queue
// and failures as the result has them; the table shows every shard; the JSON
// carries each shard's figures.
func TestHotShardFindingTableAndJSON(t *testing.T) {
	h := fnv.New64a()
	h.Write([]byte("user:scraper-1"))
	hot := int(h.Sum64() % 4)
	sc, r := runBuiltin(t, "hot-key-shard", nil)
	o := Run{Scenario: sc, Result: &r}
	l := o.Result.Lanes[0]
	sh := l.Topology.Shards
	var total int64
	for _, s := range sh {
		total += s.Calls
	}
	s := sh[hot]
	want := fmt.Sprintf("shard %d of 4 took %.0f%% of the store calls (%d of %d), its p99 latency 50ms", hot, 100*float64(s.Calls)/float64(total), s.Calls, total)
	want2 := fmt.Sprintf("its queue at most 200; %d of its calls failed (%d timed out, %d refused)", s.TimedOut+s.Refused, s.TimedOut, s.Refused)
	found := false
	for _, f := range o.Findings() {
		if strings.Contains(f, want) && strings.Contains(f, want2) {
			found = true
		}
		if strings.Contains(f, "memory filled") {
			t.Errorf("a finding of memory where none is set: %q", f)
		}
	}
	if !found {
		t.Errorf("no finding says %q ... %q:\n%s", want, want2, strings.Join(o.Findings(), "\n"))
	}
	var b bytes.Buffer
	if err := WriteTable(&b, []Run{o}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "the store, by shard") || !strings.Contains(b.String(), "4 shards, 1000 calls/s a shard (exponential), queue 200") {
		t.Errorf("the table lacks the store by shard or its settings:\n%s", b.String())
	}
	b.Reset()
	if err := WriteJSON(&b, []Run{o}); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Runs []struct {
			Lanes []struct {
				Topology struct {
					Shards []jsonShard `json:"shards"`
				} `json:"topology"`
			} `json:"lanes"`
		} `json:"runs"`
	}
	if err := json.Unmarshal(b.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	js := doc.Runs[0].Lanes[0].Topology.Shards
	if len(js) != 4 || js[hot].Calls != s.Calls || js[hot].Refused != s.Refused || js[hot].TimedOut != s.TimedOut ||
		js[hot].PeakQueue != 200 || js[hot].QueueFull != s.QueueFull || js[hot].MeanWait != s.MeanWait || js[hot].Shard != hot {
		t.Errorf("JSON shards %+v, want the result's %+v at %d", js, s, hot)
	}
}

// storeMemoryYAML is 200 users, each its own key, 2 a second, on a store of
// two shards with room for %d bytes each, evicting by %s.
const storeMemoryYAML = `
duration: 5s
lanes: [fixed_window]
limits:
  - name: api
    key: user
    limit: 10
    state: shared
    on_store_error: closed
topology:
  store:
    shards: 2
    maxmemory: %d
    eviction: %s
clients:
  - count: 200
    arrivals:
      - kind: poisson
        rate: 2/s
`

// A store whose memory fills says so: under allkeys-lru the keys evicted,
// under noeviction the calls failed, each count the result's sum over the
// shards, with the most keys and bytes a shard held; shards that share the
// calls evenly make no finding of a hot shard.
func TestStoreMemoryFindings(t *testing.T) {
	for _, ev := range []string{"allkeys-lru", "noeviction"} {
		o, _ := runYAML(t, fmt.Sprintf(storeMemoryYAML, 20*72, ev))
		var evicted, refused, keys, bytes int64
		for _, s := range o.Result.Lanes[0].Topology.Shards {
			evicted, refused = evicted+s.Evictions, refused+s.RefusedWrites
			keys, bytes = max(keys, s.KeysPeak), max(bytes, s.MemoryPeak)
		}
		if keys != 20 || bytes != 20*72 {
			t.Errorf("%s: at most %d keys, %d bytes on a shard, want 20 and 1440 (full)", ev, keys, bytes)
		}
		want := fmt.Sprintf("the store's memory filled (at most 20 keys, 1440 bytes on a shard): %d keys were evicted", evicted)
		if ev == "noeviction" {
			want = fmt.Sprintf("the store's memory filled (at most 20 keys, 1440 bytes on a shard): %d calls failed as their writes did not fit (noeviction)", refused)
		}
		f := strings.Join(o.Findings(), "\n")
		if !strings.Contains(f, want) || evicted+refused == 0 {
			t.Errorf("%s: the findings lack %q:\n%s", ev, want, f)
		}
		if why := fmt.Sprintf("while the store was unavailable (or its memory full: %d writes), api failed closed", refused); ev == "noeviction" && !strings.Contains(f, why) {
			t.Errorf("the findings lack %q:\n%s", why, f)
		}
		if strings.Contains(f, "of the store calls") {
			t.Errorf("%s: a hot shard found where the calls are spread:\n%s", ev, f)
		}
	}
}

// The shards figure draws each shard's calls and failures as the result has
// them, and is there only with several shards.
func TestShardFigure(t *testing.T) {
	sc, r := runBuiltin(t, "hot-key-shard", nil)
	calls, failed := shardLoads(r, 4)
	for s := range 4 {
		for i, l := range r.Lanes {
			sh := l.Topology.Shards[s]
			if calls[s][i] != float64(sh.Calls) || failed[s][i] != float64(sh.Refused+sh.TimedOut+sh.RefusedWrites) {
				t.Errorf("shard %d lane %d: drawn %v calls %v failed, the result %d and %d", s, i, calls[s][i], failed[s][i], sh.Calls, sh.Refused+sh.TimedOut)
			}
		}
	}
	has := func(o Run) bool {
		for _, f := range Figures(o) {
			if f.Name == "shards" {
				return true
			}
		}
		return false
	}
	if !has(Run{Scenario: sc, Result: &r}) {
		t.Error("hot-key-shard has no shards figure")
	}
	sc, r = runBuiltin(t, "store-outage", nil)
	if has(Run{Scenario: sc, Result: &r}) {
		t.Error("store-outage, one shard, has a shards figure")
	}
}

// The store is down in its outages and from a change with down to the next
// change without it (for ever when none comes), in time order.
func TestStoreDownSpans(t *testing.T) {
	s := time.Second
	topo := &sim.Topology{Store: sim.Store{Outages: []sim.Outage{{From: 5 * s, To: 6 * s}}, Changes: []sim.StoreChange{
		{At: s, Down: true}, {At: 2 * s, Down: true}, {At: 3 * s, Capacity: 10}, {At: 7 * s, Down: true}}}}
	want := []sim.Outage{{From: s, To: 3 * s}, {From: 5 * s, To: 6 * s}, {From: 7 * s, To: sim.MaxTime}}
	if got := storeDownSpans(topo); !reflect.DeepEqual(got, want) {
		t.Errorf("down %v, want %v", got, want)
	}
	if got := outageTime(topo, 10*s); got != 6*s {
		t.Errorf("down for %v of 10s, want 6s", got)
	}
}
