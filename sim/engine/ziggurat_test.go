package engine

import (
	"math"
	"testing"
)

// zigguratLayers computes the exponential ziggurat's tables for 53-bit draws
// (Marsaglia and Tsang 2000, efsetup with m = 2^53); ziggurat_tables.go holds them
// printed once.
func zigguratLayers() (ke [256]uint64, we, fe [256]float64) {
	const m = 1 << 53
	const area = 3.949659822581572e-3 // of each layer
	de, te := zigguratTail, zigguratTail
	q := area / math.Exp(-de)
	ke[0], ke[1] = uint64(de/q*m), 0
	we[0], we[255] = q/m, de/m
	fe[0], fe[255] = 1, math.Exp(-de)
	for i := 254; i >= 1; i-- {
		de = -math.Log(area/de + math.Exp(-de))
		ke[i+1] = uint64(de / te * m)
		te = de
		fe[i], we[i] = math.Exp(-de), de/m
	}
	return ke, we, fe
}

// The printed tables are the recipe's, to the last few bits a machine's Exp may differ in.
func TestZigguratTables(t *testing.T) {
	ke, we, fe := zigguratLayers()
	near := func(a, b float64) bool { return math.Abs(a-b) <= 1e-12*math.Max(math.Abs(a), math.Abs(b)) }
	for i := range 256 {
		if !near(float64(ke[i]), float64(zigKE[i])) || !near(we[i], zigWE[i]) || !near(fe[i], zigFE[i]) {
			t.Errorf("layer %d: tables (%#x, %v, %v), recipe (%#x, %v, %v)", i, zigKE[i], zigWE[i], zigFE[i], ke[i], we[i], fe[i])
		}
	}
	// exp1's doc: a draw is accepted by its first compare 97.8% of the time.
	var accepted float64
	for _, k := range zigKE {
		accepted += float64(k) / (1 << 53) / 256
	}
	if math.Abs(accepted-0.978) > 0.0005 {
		t.Errorf("first-compare acceptance %.4f, exp1's doc says 97.8%%", accepted)
	}
}

// exp1 is exponential: the share of draws in each bin of [0, 12) and beyond
// (past the base layer's tail at 7.7) is the CDF's, within 5 sd.
func TestStreamExp1Distribution(t *testing.T) {
	const n = 2_000_000
	edges := []float64{0, 0.05, 0.1, 0.25, 0.5, 1, 1.5, 2, 3, 4, 5, 6, 7, 7.697117470131487, 8, 9, 10, 12, math.Inf(1)}
	counts := make([]int, len(edges)-1)
	s := NewStream(7, 1)
	for range n {
		x := s.Exp1()
		if x < 0 || math.IsNaN(x) {
			t.Fatalf("exp1() = %v, want ≥ 0", x)
		}
		for b := range counts {
			if x < edges[b+1] {
				counts[b]++
				break
			}
		}
	}
	for b, c := range counts {
		p := math.Exp(-edges[b]) - math.Exp(-edges[b+1])
		want := p * n
		if sd := math.Sqrt(n * p * (1 - p)); math.Abs(float64(c)-want) > 5*sd+1 {
			t.Errorf("exp1() in [%v, %v): %d of %d, want %.0f ± %.0f", edges[b], edges[b+1], c, n, want, 5*sd)
		}
	}
}

// BenchmarkStreamExp compares the ziggurat with the inversion −log(1−U) it replaced.
func BenchmarkStreamExp(b *testing.B) {
	b.Run("ziggurat", func(b *testing.B) {
		s := NewStream(1)
		b.ReportAllocs()
		var sum float64
		for range b.N {
			sum += s.Exp1()
		}
		if sum < 0 {
			b.Fatal(sum)
		}
	})
	b.Run("inversion", func(b *testing.B) {
		s := NewStream(1)
		b.ReportAllocs()
		var sum float64
		for range b.N {
			sum += -math.Log1p(-s.Float64())
		}
		if sum < 0 {
			b.Fatal(sum)
		}
	})
}
