package replay

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"reflect"
	"testing"
	"time"
)

// TestTabledAsBoxed holds the key-table lanes (tabled) to the boxed state per
// key they replaced (keyed, Options.boxed) on random logs: combined (times
// to the second: many ties) and JSON lines (to the nanosecond), keys by
// address, user or both, policies from one request a second to bursts of a
// dozen, gaps that retire keys and give their ids to others, lines out of
// order, small batches and reorder buffers, with and without retirement.
// Every verdict and every figure of the result must be the same.
func TestTabledAsBoxed(t *testing.T) {
	var retiring, refusing int // seeds whose logs reach these
	for seed := range uint64(60) {
		rng := rand.New(rand.NewPCG(seed, 30))
		log, format := tabledLog(rng)
		opts := Options{Format: format, Verdicts: true, Late: time.Duration(rng.IntN(4)) * time.Second,
			batchMax: 1 + rng.IntN(300), reorderMax: []int{0, 4, 50}[rng.IntN(3)], noRetire: rng.IntN(4) == 0}
		for range 1 + rng.IntN(3) {
			spec := fmt.Sprintf("key=%s limit=%d/%ds burst=%d", []string{"ip", "user", "ip+user"}[rng.IntN(3)],
				1+rng.IntN(8), 1+rng.IntN(5), 1+rng.IntN(12))
			opts.Limits = append(opts.Limits, mustLimit(t, spec))
		}
		t.Run(fmt.Sprint(seed), func(t *testing.T) {
			fast := replayBoth(t, log, opts, false)
			boxed := replayBoth(t, log, opts, true)
			sameResult(t, fast, boxed)
			if boxed.retired > 0 {
				retiring++
			}
			if boxed.Limits[0].Lanes[0].Refused > 0 {
				refusing++
			}
		})
	}
	if retiring < 20 || refusing < 20 {
		t.Errorf("of 60 logs %d retire keys and %d refuse some, want 20 of each at least", retiring, refusing)
	}
}

func replayBoth(t *testing.T, log []byte, opts Options, boxed bool) *Result {
	t.Helper()
	opts.boxed = boxed
	res, err := Replay(context.Background(), []Input{{Name: "log", R: bytes.NewReader(log)}}, opts)
	if err != nil {
		t.Fatalf("boxed=%v: %v", boxed, err)
	}
	return res
}

// sameResult fails unless fast and boxed agree verdict for verdict and in
// every figure, the JSON included.
func sameResult(t *testing.T, fast, boxed *Result) {
	t.Helper()
	for j := range boxed.Limits {
		for i, lane := range boxed.Limits[j].Lanes {
			got := fast.Limits[j].Lanes[i]
			for k, v := range lane.Verdicts {
				if k >= len(got.Verdicts) || got.Verdicts[k] != v {
					t.Fatalf("limit %d, %s: request %d: verdict differs from the boxed path's %d", j, lane.Lane, k, v)
				}
			}
		}
	}
	a, _ := json.Marshal(fast)
	b, _ := json.Marshal(boxed)
	if !bytes.Equal(a, b) {
		t.Fatalf("results differ:\n tabled %s\n boxed  %s", a, b)
	}
	if !reflect.DeepEqual(fast.Limits, boxed.Limits) || fast.Keys != boxed.Keys || fast.retired != boxed.retired {
		t.Fatal("results differ outside their JSON")
	}
}

// tabledLog is a random log of a few hundred lines and its format.
func tabledLog(rng *rand.Rand) ([]byte, string) {
	var b bytes.Buffer
	at := time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)
	ips, users := 1+rng.IntN(12), 1+rng.IntN(6)
	format := []string{"combined", "json"}[rng.IntN(2)]
	for range 100 + rng.IntN(500) {
		switch r := rng.IntN(20); {
		case r < 8: // the same instant
		case r < 18:
			at = at.Add(time.Duration(rng.IntN(900)) * time.Millisecond)
		default: // long enough to retire every key
			at = at.Add(time.Duration(5+rng.IntN(60)) * time.Second)
		}
		line := at
		if rng.IntN(15) == 0 {
			line = at.Add(-time.Duration(rng.IntN(3000)) * time.Millisecond)
		}
		ip, user := fmt.Sprintf("10.0.0.%d", rng.IntN(ips)), fmt.Sprintf("u%d", rng.IntN(users))
		if format == "combined" {
			fmt.Fprintf(&b, "%s - %s [%s] \"GET /x HTTP/1.1\" 200 5 \"-\" \"c\"\n", ip, user, line.Format("02/Jan/2006:15:04:05 -0700"))
			continue
		}
		fmt.Fprintf(&b, "{\"time\":%q,\"ip\":%q,\"user\":%q}\n", line.Format(time.RFC3339Nano), ip, user)
	}
	return b.Bytes(), format
}
