package sweep

import (
	"strings"
	"testing"
)

// Findings name the best lane first whichever lane it is, and say "every lane
// at" when the means are equal, counting the seeds as 1 seed or n seeds.
func TestFindingsOrderAndTies(t *testing.T) {
	for _, tc := range []struct {
		name string
		a, b []float64 // token bucket's, fixed window's success over the seeds
		want []string  // the success line, then the peak line
	}{
		{"the second lane is best", []float64{0.5}, []float64{0.8}, []string{
			"all clients: success: fixed window kept success at 80.0%, token bucket at 50.0%; one seed measures no spread to weigh the difference against",
			"most admitted in any window vs limit: every lane at 1.00 over 1 seed",
		}},
		{"equal means over two seeds", []float64{0.8, 1}, []float64{1, 0.8}, []string{
			"all clients: success: every lane at 90.0% over 2 seeds",
			"most admitted in any window vs limit: every lane at 1.00 over 2 seeds",
		}},
		{"equal over one seed", []float64{0.25}, []float64{0.25}, []string{
			"all clients: success: every lane at 25.0% over 1 seed",
			"most admitted in any window vs limit: every lane at 1.00 over 1 seed",
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := spreadSweep(tc.a, tc.b).Findings()
			if strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
				t.Errorf("findings =\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(tc.want, "\n"))
			}
		})
	}
}

// With seeds, the claim and its words follow the intervals: apart, the higher
// lane first; overlapping, the lower lane first ("from ... to ...").
func TestFindingsOverSeedsNameLanesInOrder(t *testing.T) {
	apart := strings.Join(spreadSweep([]float64{0.5, 0.5}, []float64{0.9, 0.9}).Findings(), "\n")
	if want := "all clients: success: fixed window kept success at 90.0% ± 0.0%, token bucket at 50.0% ± 0.0%; the difference exceeds the spread over 2 seeds"; !strings.Contains(apart, want) {
		t.Errorf("findings:\n%s\nwant the line:\n%s", apart, want)
	}
	near := strings.Join(spreadSweep([]float64{0.6, 1}, []float64{0.5, 0.9}).Findings(), "\n")
	if !strings.Contains(near, "all clients: success: every lane from fixed window (") || !strings.Contains(near, ") to token bucket (") ||
		!strings.Contains(near, "lies within the spread over 2 seeds; no lane is claimed different") {
		t.Errorf("findings:\n%s\nwant fixed window (lower) from, token bucket (higher) to, within the spread over 2 seeds", near)
	}
}

// seedCount is "1 seed" or "n seeds".
func TestSeedCount(t *testing.T) {
	for _, tc := range []struct {
		n    int
		want string
	}{{0, "0 seeds"}, {1, "1 seed"}, {2, "2 seeds"}, {30, "30 seeds"}} {
		if got := seedCount(tc.n); got != tc.want {
			t.Errorf("seedCount(%d) = %q, want %q", tc.n, got, tc.want)
		}
	}
}
