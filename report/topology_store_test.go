package report

import (
	"bytes"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"strings"
	"testing"
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
