package engine

import (
	"math"
	"testing"
	"time"
)

func draws(s Stream, n int) []uint64 {
	out := make([]uint64, n)
	for i := range out {
		out[i] = s.Uint64()
	}
	return out
}

func TestStreamForLabels(t *testing.T) {
	type key struct {
		seed   uint64
		labels []uint64
	}
	keys := []key{
		{0, nil}, {1, nil}, {0, []uint64{0}}, {0, []uint64{0, 0}},
		{1, []uint64{2}}, {2, []uint64{1}}, {1, []uint64{1, 2}}, {1, []uint64{2, 1}},
		{1, []uint64{1, 2, 0}}, {7, []uint64{0, 100, 3, 0}}, {7, []uint64{0, 100, 3, 1}},
		{7, []uint64{0, 100, 4, 0}}, {7, []uint64{1, 100, 3, 0}},
	}
	seen := map[[4]uint64]int{}
	for i, k := range keys {
		a, b := draws(NewStream(k.seed, k.labels...), 4), draws(NewStream(k.seed, k.labels...), 4)
		if [4]uint64(a) != [4]uint64(b) {
			t.Errorf("NewStream(%d, %v) twice gave %x and %x, want the same stream", k.seed, k.labels, a, b)
		}
		if j, dup := seen[[4]uint64(a)]; dup {
			t.Errorf("NewStream(%d, %v) and NewStream(%d, %v) gave the same stream", k.seed, k.labels, keys[j].seed, keys[j].labels)
		}
		seen[[4]uint64(a)] = i
	}
}

// TestStreamForNeighbours: streams of neighbouring clients must not be shifted
// copies of each other, as they would be if labels only moved the starting state.
func TestStreamForNeighbours(t *testing.T) {
	const n = 1000
	values := map[uint64]bool{}
	for client := range uint64(50) {
		for _, v := range draws(NewStream(9, 0, client), n) {
			if values[v] {
				t.Fatalf("client %d repeats a value drawn by a neighbour: %x", client, v)
			}
			values[v] = true
		}
	}
}

func TestStreamFloat(t *testing.T) {
	const n = 1_000_000
	s := NewStream(1, 1)
	var sum float64
	var bins [10]int
	for range n {
		f := s.Float64()
		if f < 0 || f >= 1 {
			t.Fatalf("float() = %v, want [0, 1)", f)
		}
		sum += f
		bins[int(f*10)]++
	}
	// The mean of n uniforms has sd √(1/12n) ≈ 0.00029; allow 5 sd.
	if mean := sum / n; math.Abs(mean-0.5) > 5*math.Sqrt(1.0/12/n) {
		t.Errorf("mean of %d float() = %v, want 0.5", n, mean)
	}
	for i, c := range bins {
		if math.Abs(float64(c)-n/10) > 5*math.Sqrt(n*0.1*0.9) {
			t.Errorf("float() fell in [%.1f, %.1f) %d times out of %d, want about %d", float64(i)/10, float64(i+1)/10, c, n, n/10)
		}
	}
}

func TestStreamExp(t *testing.T) {
	const n = 1_000_000
	for _, mean := range []time.Duration{time.Millisecond, 3 * time.Second} {
		s := NewStream(2, uint64(mean))
		var sum float64
		for range n {
			d := s.Exp(mean)
			if d < 0 {
				t.Fatalf("exp(%v) = %v, want ≥ 0", mean, d)
			}
			sum += float64(d)
		}
		// The sd of the mean is mean/1000: 1% is 10 sd.
		if got := time.Duration(sum / n); math.Abs(float64(got-mean)) > 0.01*float64(mean) {
			t.Errorf("mean of %d exp(%v) = %v, want within 1%%", n, mean, got)
		}
	}
}

// foldedNormal is the mean and standard deviation of |X| for X ~ Normal(mu, sigma).
func foldedNormal(mu, sigma float64) (mean, sd float64) {
	if sigma == 0 {
		return math.Abs(mu), 0
	}
	phi := func(x float64) float64 { return 0.5 * (1 + math.Erf(x/math.Sqrt2)) }
	mean = sigma*math.Sqrt(2/math.Pi)*math.Exp(-mu*mu/(2*sigma*sigma)) + mu*(1-2*phi(-mu/sigma))
	return mean, math.Sqrt(mu*mu + sigma*sigma - mean*mean)
}

func TestStreamAbsNormal(t *testing.T) {
	const n = 1_000_000
	tests := []struct{ mean, sd time.Duration }{
		{10 * time.Millisecond, 2 * time.Millisecond}, // the contention study's hop
		{time.Millisecond, 2 * time.Millisecond},      // folding moves the mean a lot
		{5 * time.Millisecond, 0},
	}
	for _, tt := range tests {
		s := NewStream(3, uint64(tt.mean), uint64(tt.sd))
		var sum, sq float64
		for range n {
			d := s.AbsNormal(tt.mean, tt.sd)
			if d < 0 {
				t.Fatalf("absNormal(%v, %v) = %v, want ≥ 0", tt.mean, tt.sd, d)
			}
			sum += float64(d)
			sq += float64(d) * float64(d)
		}
		mean := sum / n
		sd := math.Sqrt(sq/n - mean*mean)
		wantMean, wantSD := foldedNormal(float64(tt.mean), float64(tt.sd))
		// The sample mean has sd wantSD/1000; allow 5 sd, plus the rounding to 1ns.
		if math.Abs(mean-wantMean) > 5*wantSD/1000+1 {
			t.Errorf("mean of %d absNormal(%v, %v) = %v, want %v", n, tt.mean, tt.sd, time.Duration(mean), time.Duration(wantMean))
		}
		if math.Abs(sd-wantSD) > 0.01*wantSD+1 {
			t.Errorf("sd of %d absNormal(%v, %v) = %v, want %v", n, tt.mean, tt.sd, time.Duration(sd), time.Duration(wantSD))
		}
	}
}

func TestStreamDuration(t *testing.T) {
	s := NewStream(4)
	const d = 3
	var counts [d + 1]int
	for range 40000 {
		x := s.Duration(d)
		if x < 0 || x > d {
			t.Fatalf("duration(%d) = %d, want [0, %d]", d, x, d)
		}
		counts[x]++
	}
	for x, c := range counts {
		if c < 9000 || c > 11000 {
			t.Errorf("duration(%d) = %d drawn %d times in 40000, want about 10000: the range is [0, d], both ends included", d, x, c)
		}
	}
	for _, d := range []time.Duration{0, -1, math.MinInt64} {
		if x := s.Duration(d); x != 0 {
			t.Errorf("duration(%v) = %v, want 0", d, x)
		}
	}
	for _, d := range []time.Duration{1, time.Second, math.MaxInt64} {
		for range 1000 {
			if x := s.Duration(d); x < 0 || x > d {
				t.Fatalf("duration(%v) = %v, want [0, %v]", d, x, d)
			}
		}
	}
}

func TestStreamBetween(t *testing.T) {
	s := NewStream(5)
	tests := []struct{ lo, hi time.Duration }{
		{5, 7}, {-2, 1}, {time.Millisecond, time.Second}, {0, 0}, {9, 9},
	}
	for _, tt := range tests {
		hitLo, hitHi := false, false
		for range 10000 {
			x := s.Between(tt.lo, tt.hi)
			if x < tt.lo || x > tt.hi {
				t.Fatalf("between(%v, %v) = %v, out of range", tt.lo, tt.hi, x)
			}
			hitLo = hitLo || x == tt.lo
			hitHi = hitHi || x == tt.hi
		}
		if tt.hi-tt.lo < 10 && !(hitLo && hitHi) {
			t.Errorf("between(%v, %v) in 10000 draws: drew lo %v, drew hi %v; want both ends", tt.lo, tt.hi, hitLo, hitHi)
		}
	}
	if x := s.Between(10, 3); x != 10 {
		t.Errorf("between(10, 3) = %v, want lo (10)", x)
	}
}

func BenchmarkStream(b *testing.B) {
	s := NewStream(6)
	b.Run("float", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			s.Float64()
		}
	})
	b.Run("absNormal", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			s.AbsNormal(10*time.Millisecond, 2*time.Millisecond)
		}
	})
}

// TestRoundNs holds roundNs equal to saturate(math.Round(ns)) on halves, the
// edges of float precision, the largest Durations and random values.
func TestRoundNs(t *testing.T) {
	values := []float64{0, 0.25, 0.5, 0.49999999999999994, 0.5000000000000001, 1, 1.5, 2.5, 1e6 + 0.5,
		1 << 52, 1<<52 + 1, 1<<53 - 1, 1 << 53, 1<<62 + 0.5, math.MaxInt64, math.Nextafter(math.MaxInt64, 0), math.Inf(1)}
	rnd := NewStream(3, 14)
	for range 100_000 {
		values = append(values, rnd.Exp1()*1e6, rnd.Float64()*float64(int64(1)<<(rnd.Uint64()%63)))
	}
	for _, v := range values {
		if got, want := RoundNs(v), saturate(math.Round(v)); got != want {
			t.Fatalf("RoundNs(%v) = %d, want %d", v, got, want)
		}
	}
}
