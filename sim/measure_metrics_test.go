package sim

import (
	"math"
	"slices"
	"testing"
	"time"

	"github.com/rlsim/rlsim/algorithms"
)

func TestFairnessAgainstMaxMinShares(t *testing.T) {
	type client struct {
		class      int32
		asked, got int64
	}
	for _, tc := range []struct {
		name              string
		clients           []client
		byClient, byClass float64
	}{
		{"small asker served in full, the big one the rest", []client{{0, 10, 10}, {1, 120, 42}}, 1, 1},
		{"one of four served", []client{{0, 4, 4}, {0, 4, 0}, {0, 4, 0}, {1, 4, 0}}, 0.25, jainOf(4.0/3, 0)},
		{"silent clients left out", []client{{0, 10, 10}, {1, 120, 42}, {1, 0, 0}}, 1, 1},
		{"nothing served", []client{{0, 5, 0}, {1, 5, 0}}, 1, 1},
		// Refused at the same rate, yet the small asker gets 40% of what it was
		// owed: success fractions alone would read 1.
		{"refused alike, small asker starved", []client{{0, 10, 4}, {1, 120, 48}}, jainOf(4.0/10, 48.0/42), jainOf(4.0/10, 48.0/42)},
		// nat-per-user's shape: many small users served in full and one abuser
		// refused most of its asks is fair; the class of one is owed no more
		// than what the users left.
		{"many small users, one big asker held back", []client{{0, 2, 2}, {0, 2, 2}, {0, 2, 2}, {1, 100, 4}}, 1, 1},
	} {
		clients := make([]clientState, len(tc.clients))
		groupOf := make([]int32, len(tc.clients))
		classes := make([]ClassResult, 2)
		for i, c := range tc.clients {
			clients[i] = clientState{requests: c.asked, succeeded: int32(c.got)}
			groupOf[i] = c.class
			classes[c.class].Succeeded += c.got
		}
		byClient, byClass := fairness(clients, groupOf, classes)
		if math.Abs(byClient-tc.byClient) > 1e-12 || math.Abs(byClass-tc.byClass) > 1e-12 {
			t.Errorf("%s: fairness = %v by client, %v by class; want %v, %v", tc.name, byClient, byClass, tc.byClient, tc.byClass)
		}
	}
}

func jainOf(xs ...float64) float64 {
	var sum, sq float64
	for _, x := range xs {
		sum += x
		sq += x * x
	}
	return sum * sum / (float64(len(xs)) * sq)
}

func TestMaxMinFairSplit(t *testing.T) {
	got := fairSplit([]share{{asked: 30}, {asked: 5}, {asked: 100}}, 60)
	want := []float64{27.5, 5, 27.5}
	if !slices.Equal(got, want) {
		t.Errorf("fairSplit = %v, want %v", got, want)
	}
}

// The default series bucket tiles the first limit's window (or whole windows
// tile it), so a rate over whole buckets counts exactly one window.
func TestDefaultBucketTilesTheWindow(t *testing.T) {
	for _, tc := range []struct{ duration, window time.Duration }{
		{3 * time.Second, time.Second}, {20 * time.Second, time.Second}, {10 * time.Minute, time.Second},
		{time.Hour, time.Minute}, {7 * time.Second, 300 * time.Millisecond}, {10 * time.Second, time.Hour},
		{time.Second, 7 * time.Millisecond},
	} {
		b := defaultBucket(tc.duration, []Limit{{Policy: algorithms.Policy{Limit: 1, Window: tc.window}}})
		target := max(time.Millisecond, tc.duration/200)
		if tc.window%b != 0 && b%tc.window != 0 {
			t.Errorf("duration %v, window %v: bucket %v neither tiles the window nor is tiled by it", tc.duration, tc.window, b)
		}
		if b < time.Millisecond && b < tc.window || b > 2*target && b > tc.window {
			t.Errorf("duration %v, window %v: bucket %v, far from %v", tc.duration, tc.window, b, target)
		}
	}
}

func TestKeyFairness(t *testing.T) {
	clients := []clientState{{requests: 10, succeeded: 10}, {requests: 10, succeeded: 0}, {requests: 10, succeeded: 0}}
	for _, tc := range []struct {
		name  string
		keyOf []int32
		keys  int
		want  float64
	}{
		{"one key for all", []int32{0, 0, 0}, 1, 1},
		// 10 successes split fairly by key: 5 each; key 0 got 10, key 1 none.
		{"one key served, one starved", []int32{0, 1, 1}, 2, jainOf(2, 0)},
		{"every client its own key", []int32{0, 1, 2}, 3, jainOf(3, 0, 0)},
	} {
		if got := keyFairness(clients, tc.keyOf, tc.keys); math.Abs(got-tc.want) > 1e-12 {
			t.Errorf("%s: keyFairness = %v, want %v", tc.name, got, tc.want)
		}
		// result takes the clients' fairness for the keys' when each has its own.
		if byClient, _ := fairness(clients, []int32{0, 0, 0}, []ClassResult{{}}); oneKeyPerClient(tc.keyOf, tc.keys) && byClient != tc.want {
			t.Errorf("%s: one key per client, but the clients' fairness %v is not the keys' %v", tc.name, byClient, tc.want)
		}
	}
	if !oneKeyPerClient([]int32{0, 1, 2}, 3) || oneKeyPerClient([]int32{0, 2, 1}, 3) || oneKeyPerClient([]int32{0, 1, 1}, 2) {
		t.Error("oneKeyPerClient: wrong on {0,1,2}/3, {0,2,1}/3 or {0,1,1}/2")
	}
}
