package algorithms

import (
	"math"
	"strings"
	"testing"
)

// NearLimitThreshold is ⌊float32(requests_per_unit)×NEAR_LIMIT_RATIO⌋ with the
// product taken in float32, as the doc comment says the service computes it:
// for every ratio from 0.01 to 1 in hundredths and every requests_per_unit up
// to 300, and at the hand-worked edges where a float32 product rounds up to a
// whole number a float64 one stays below (10 × 0.7f = 6.99999988 in float64,
// 7 in float32).
func TestNearLimitThresholdIsTheFloat32Product(t *testing.T) {
	for _, c := range []struct {
		rpu   int64
		ratio float32
		want  int64
	}{{10, 0.7, 7}, {10, 0.9, 9}, {10, 0.8, 8}, {100, 0.7, 70}, {0, 0.7, 0}, {1, 1, 1}} {
		r := must(NewEnvoyRLS(EnvoyRLSParams{Unit: EnvoyRLSSecond, RequestsPerUnit: c.rpu, NearLimitRatio: c.ratio}))
		if got := r.NearLimitThreshold(); got != c.want {
			t.Errorf("NearLimitThreshold(requests_per_unit %d, ratio %v) = %d, want %d", c.rpu, c.ratio, got, c.want)
		}
	}
	differs := 0
	for h := 1; h <= 100; h++ {
		ratio := float32(h) / 100
		for rpu := int64(0); rpu <= 300; rpu++ {
			var product float32 = float32(rpu) // two float32 operands: the product rounds to float32
			product *= ratio
			want := int64(math.Floor(float64(product)))
			if wide := int64(math.Floor(float64(rpu) * float64(ratio))); wide != want {
				differs++
			}
			r := must(NewEnvoyRLS(EnvoyRLSParams{Unit: EnvoyRLSMinute, RequestsPerUnit: rpu, NearLimitRatio: ratio}))
			if got := r.NearLimitThreshold(); got != want {
				t.Fatalf("NearLimitThreshold(requests_per_unit %d, ratio %v) = %d, want %d", rpu, ratio, got, want)
			}
		}
	}
	if differs == 0 {
		t.Fatal("no case where the float32 product differs from the float64 one: the test shows nothing")
	}
	// The default ratio is 0.8 (NearLimitRatio zero).
	for rpu := int64(0); rpu <= 300; rpu++ {
		def := must(NewEnvoyRLS(EnvoyRLSParams{Unit: EnvoyRLSSecond, RequestsPerUnit: rpu}))
		set := must(NewEnvoyRLS(EnvoyRLSParams{Unit: EnvoyRLSSecond, RequestsPerUnit: rpu, NearLimitRatio: 0.8}))
		if def.NearLimitThreshold() != set.NearLimitThreshold() {
			t.Fatalf("requests_per_unit %d: default ratio's threshold %d, 0.8's %d", rpu, def.NearLimitThreshold(), set.NearLimitThreshold())
		}
	}
}

// NewEnvoyRLS refuses a near-limit ratio that is not a finite non-negative
// number (its error's words), zero meaning the default 0.8; every other
// finite non-negative ratio is taken as given.
func TestNearLimitRatioRefusedUnlessFiniteAndNonNegative(t *testing.T) {
	inf := float32(math.Inf(1))
	for _, ratio := range []float32{-0.5, -1e-30, -inf, inf, float32(math.NaN())} {
		if _, err := NewEnvoyRLS(EnvoyRLSParams{Unit: EnvoyRLSSecond, RequestsPerUnit: 10, NearLimitRatio: ratio}); err == nil || !strings.Contains(err.Error(), "not a finite non-negative number") {
			t.Errorf("ratio %v: error %v, want it refused as not a finite non-negative number", ratio, err)
		}
	}
	for _, ratio := range []float32{1e-30, 0.5, 1, 2.5} {
		r, err := NewEnvoyRLS(EnvoyRLSParams{Unit: EnvoyRLSSecond, RequestsPerUnit: 100, NearLimitRatio: ratio})
		if err != nil {
			t.Fatalf("ratio %v: %v", ratio, err)
		}
		var product float32 = 100
		product *= ratio
		if want := int64(math.Floor(float64(product))); r.NearLimitThreshold() != want {
			t.Errorf("ratio %v: threshold %d, want %d", ratio, r.NearLimitThreshold(), want)
		}
	}
}
