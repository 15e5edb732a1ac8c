package sim

import (
	"math"
	"slices"
	"testing"
)

// TestJainSumPromise: (Σx)²/(n·Σx²); 1 when all equal, 1/n when one has
// everything, 1 with fewer than two parties or all zero.
func TestJainSumPromise(t *testing.T) {
	tests := []struct {
		xs   []float64
		want float64
	}{
		{nil, 1}, {[]float64{0.3}, 1}, {[]float64{0, 0, 0}, 1}, {[]float64{2, 2, 2, 2}, 1},
		{[]float64{1, 0, 0, 0}, 0.25}, {[]float64{1, 0}, 0.5}, {[]float64{1, 3}, 16.0 / 20},
		{[]float64{1, 2, 3}, 36.0 / 42},
	}
	for _, tt := range tests {
		var j jainSum
		for _, x := range tt.xs {
			j.add(x)
		}
		if got := j.index(); math.Abs(got-tt.want) > 1e-12 {
			t.Errorf("jain(%v) = %v, want %v", tt.xs, got, tt.want)
		}
	}
}

// TestMaxMinFairPromise: the smallest asks are met in full while below an even
// split of what is left; an ask of nothing is owed nothing; more than all ask
// leaves the rest unowed.
func TestMaxMinFairPromise(t *testing.T) {
	tests := []struct {
		name  string
		asks  []int64
		total int64
		want  []float64
	}{
		{"even split", []int64{10, 10, 10}, 15, []float64{5, 5, 5}},
		{"small met in full", []int64{100, 2, 100}, 12, []float64{5, 2, 5}},
		{"ask exactly the even split", []int64{4, 4, 100}, 12, []float64{4, 4, 4}},
		{"zero ask owed nothing", []int64{0, 10, 10}, 10, []float64{0, 5, 5}},
		{"more than all ask", []int64{3, 4}, 100, []float64{3, 4}},
		{"nothing to split", []int64{3, 4}, 0, []float64{0, 0}},
		{"no parties", nil, 5, []float64{}},
	}
	for _, tt := range tests {
		parties := make([]share, len(tt.asks))
		for i, a := range tt.asks {
			parties[i].asked = a
		}
		got := fairSplit(parties, tt.total)
		if !slices.EqualFunc(got, tt.want, func(a, b float64) bool { return math.Abs(a-b) < 1e-12 }) {
			t.Errorf("%s: fairSplit(%v, %d) = %v, want %v", tt.name, tt.asks, tt.total, got, tt.want)
		}
	}
}

// TestFairnessClassesPromise: a class is owed the sum of its clients' fair
// shares (reset each call); a client that asked nothing is left out of the
// clients' index; nothing succeeded reads 1.
func TestFairnessClassesPromise(t *testing.T) {
	clients := []clientState{{requests: 10, succeeded: 2}, {requests: 10, succeeded: 2}, {requests: 2, succeeded: 2}, {requests: 0}}
	groupOf := []int32{0, 0, 1, 1}
	classes := []ClassResult{{Succeeded: 4, FairShare: 99}, {Succeeded: 2, FairShare: 99}}
	byClient, byClass := fairness(clients, groupOf, classes)
	// 6 successes: the 2-ask client is owed 2, the two 10-ask clients 2 each.
	if classes[0].FairShare != 4 || classes[1].FairShare != 2 {
		t.Errorf("FairShare = %v, %v; want 4, 2", classes[0].FairShare, classes[1].FairShare)
	}
	if byClient != 1 || byClass != 1 {
		t.Errorf("fair split served exactly: byClient %v byClass %v, want 1, 1", byClient, byClass)
	}
	// 4 successes over asks 10, 10, 2: an even third each (4/3 < 2); the 2-ask client got none.
	clients = []clientState{{requests: 10, succeeded: 3}, {requests: 10, succeeded: 1}, {requests: 2, succeeded: 0}}
	classes = []ClassResult{{Succeeded: 4}, {Succeeded: 0}}
	byClient, byClass = fairness(clients, []int32{0, 0, 1}, classes)
	f := 4.0 / 3 // an even third each: 4/3 < 2
	var j jainSum
	for _, x := range []float64{3 / f, 1 / f, 0} {
		j.add(x)
	}
	if math.Abs(byClient-j.index()) > 1e-12 {
		t.Errorf("byClient = %v, want %v", byClient, j.index())
	}
	var g jainSum
	g.add(4 / (2 * f))
	g.add(0)
	if math.Abs(byClass-g.index()) > 1e-12 || byClass != 0.5 {
		t.Errorf("byClass = %v, want %v (one class got everything)", byClass, g.index())
	}
	byClient, byClass = fairness([]clientState{{requests: 3}, {requests: 5}}, []int32{0, 0}, []ClassResult{{}})
	if byClient != 1 || byClass != 1 {
		t.Errorf("nothing succeeded: %v, %v; want 1, 1", byClient, byClass)
	}
}
