package sim

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/rlsim/rlsim/algorithms"
)

// Each phrase of the live views names its own figures: a concurrency limit's
// places come from the config, a partition's guaranteed share is one number
// or a range, and a section is left out when it has nothing.
func TestLimitingPhrasesSayEachFigure(t *testing.T) {
	cfg := Config{Limits: []Limit{
		{Name: "rate", Key: KeyUser, Policy: algorithms.Policy{Limit: 5, Window: time.Second}},
		{Name: "conns", Key: KeyUser, Concurrency: 7},
		{Name: "db", Key: KeyTenant, Concurrency: 3},
	}}
	if got := LimitingPhrases(cfg, nil, nil, nil); got != nil {
		t.Errorf("LimitingPhrases of nothing = %q, want nil", got)
	}
	inFlight := []LimitCount{{Limit: "conns", Count: 4}, {Limit: "db", Count: 2}, {Limit: "gone", Count: 1}}
	crit := []CriticalityResult{{Criticality: 0, Served: 9, Offered: 12}, {Criticality: 1, Served: 1, Offered: 30}}
	parts := []PartitionResult{
		{Name: "live", Admitted: 40, Refused: 3, MostInFlight: 6, Guaranteed: [2]int{5, 5}},
		{Name: "batch", Admitted: 8, Refused: 11, MostInFlight: 2, Guaranteed: [2]int{1, 2}},
	}
	want := []string{
		"most of one key in flight: conns 4 of 7, db 2 of 3, gone 1 of 0",
		fmt.Sprintf("served/offered by criticality: %s 9/12, %s 1/30", Criticality(0), Criticality(1)),
		"partitions: live 40 in, 3 refused, 6 at once of 5 guaranteed; batch 8 in, 11 refused, 2 at once of 1–2 guaranteed",
	}
	got := LimitingPhrases(cfg, inFlight, crit, parts)
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("LimitingPhrases =\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	// One section alone is one phrase, the others left out.
	for i, only := range [][]string{
		LimitingPhrases(cfg, inFlight, nil, nil),
		LimitingPhrases(cfg, nil, crit, nil),
		LimitingPhrases(cfg, nil, nil, parts),
	} {
		if len(only) != 1 || only[0] != want[i] {
			t.Errorf("section %d alone = %q, want [%q]", i, only, want[i])
		}
	}
}

// Every phase kind has words of its own (never its bare enum name), which
// say where it happened: the shard of a store phase, the replica (and shard)
// of a breaker's, the replica of a rotation's, the limit of a fail mode's.
func TestPhaseWordsOfEveryKind(t *testing.T) {
	seen := map[string]PhaseKind{}
	for k := PhaseKind(0); phaseEnum.valid(k); k++ {
		fleet := Phase{Kind: k, Replica: 3, Shard: -1, Limit: "login"}.Words()
		sharded := Phase{Kind: k, Replica: 3, Shard: 2, Limit: "login"}.Words()
		if fleet == k.String() || fleet == "" {
			t.Errorf("%v: Words = %q, the kind's bare name", k, fleet)
		}
		if prev, dup := seen[fleet]; dup {
			t.Errorf("%v and %v both say %q", prev, k, fleet)
		}
		seen[fleet] = k
		name := k.String()
		switch {
		case strings.HasPrefix(name, "store_") && k != PhaseStoreRestart:
			if !strings.HasPrefix(fleet, "the store ") || !strings.HasPrefix(sharded, "shard 2 ") {
				t.Errorf("%v: Words %q / %q, want the store / shard 2 first", k, fleet, sharded)
			}
		case strings.HasPrefix(name, "fail_"):
			if !strings.HasPrefix(fleet, "login ") || sharded != fleet {
				t.Errorf("%v: Words %q / %q, want the limit's name first, no shard", k, fleet, sharded)
			}
		case strings.HasPrefix(name, "breaker_"):
			if !strings.HasSuffix(fleet, " on replica 3") || !strings.HasSuffix(sharded, " on replica 3, shard 2") {
				t.Errorf("%v: Words %q / %q, want the replica (and the shard) last", k, fleet, sharded)
			}
		case strings.HasPrefix(name, "replica_"):
			if !strings.HasPrefix(fleet, "replica 3 ") || sharded != fleet {
				t.Errorf("%v: Words %q / %q, want the replica first", k, fleet, sharded)
			}
		}
	}
	for words, k := range map[string]PhaseKind{
		"shard 2 timing out":                           PhaseStoreTimeouts,
		"the store refusing calls":                     PhaseStoreRefusing,
		"the store answering again":                    PhaseStoreAnswering,
		"login failing open":                           PhaseFailOpen,
		"login failing closed":                         PhaseFailClosed,
		"login falling back to its local limit":        PhaseFailLocal,
		"breaker open on replica 3":                    PhaseBreakerOpen,
		"breaker half-open on replica 3":               PhaseBreakerHalfOpen,
		"breaker closed on replica 3":                  PhaseBreakerClosed,
		"replica 3 out of the rotation":                PhaseReplicaOut,
		"replica 3 back in the rotation":               PhaseReplicaIn,
		"no replica in the rotation: 503 for everyone": PhaseNoHealthyReplica,
		"the store restarting empty":                   PhaseStoreRestart,
	} {
		shard := -1
		if strings.HasPrefix(words, "shard 2") {
			shard = 2
		}
		if got := (Phase{Kind: k, Replica: 3, Shard: shard, Limit: "login"}).Words(); got != words {
			t.Errorf("%v: Words = %q, want %q", k, got, words)
		}
	}
	if got, want := (Phase{Kind: PhaseKind(200)}).Words(), PhaseKind(200).String(); got != want {
		t.Errorf("an unknown kind's Words = %q, want its String %q", got, want)
	}
}
