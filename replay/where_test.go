package replay

import (
	"os"
	"strings"
	"testing"
)

func TestParseWhere(t *testing.T) {
	lanes := []string{"gcra", "token_bucket"}
	tests := []struct {
		in      string
		want    Where
		wantErr []string
	}{
		{in: "keys_refused <= 0", want: Where{Metric: "keys_refused", Op: "<=", Want: 0}},
		{in: "lane gcra refused_share<1%", want: Where{Lane: "gcra", Metric: "refused_share", Op: "<", Want: 0.01}},
		{in: "refused_share <= 0.02", want: Where{Metric: "refused_share", Op: "<=", Want: 0.02}},
		{in: "legit_keys_caught >= 5", want: Where{Metric: "legit_keys_caught", Op: ">=", Want: 5}},
		{in: "keys_refused = 0", wantErr: []string{"want '[lane LANE] METRIC OP VALUE'"}},
		{in: "lane aimd keys_refus <= x", wantErr: []string{"aimd is not a lane replayed (gcra, token_bucket)",
			`unknown metric "keys_refus"`, `"x" is not a number`}},
		{in: "keys_refused <= 5%", wantErr: []string{"keys_refused is a count, not a share"}},
		{in: "refused <= -1", wantErr: []string{`"-1" is not a number at least 0`}},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, err := ParseWhere(tt.in, lanes)
			if len(tt.wantErr) > 0 {
				if err == nil {
					t.Fatalf("ParseWhere(%q) = %+v, want an error", tt.in, got)
				}
				for _, w := range tt.wantErr {
					if !strings.Contains(err.Error(), w) || !strings.Contains(err.Error(), "--where "+tt.in) {
						t.Errorf("error %q lacks %q or the flag", err, w)
					}
				}
				return
			}
			tt.want.Text = strings.TrimSpace(tt.in)
			if err != nil || got != tt.want {
				t.Errorf("ParseWhere(%q) = %+v, %v; want %+v", tt.in, got, err, tt.want)
			}
		})
	}
}

// TestSmallestWhere: per lane, the smallest value whose row meets every where
// that applies to the lane.
func TestSmallestWhere(t *testing.T) {
	pts := []SweepPoint{
		{Value: 10, Lane: "a", KeysRefused: 3, LegitCaught: 2, RefusedShare: 0.05},
		{Value: 20, Lane: "a", KeysRefused: 1, LegitCaught: 0, RefusedShare: 0.02},
		{Value: 30, Lane: "a", KeysRefused: 0, LegitCaught: 0, RefusedShare: 0},
		{Value: 10, Lane: "b", KeysRefused: 1, LegitCaught: 1, RefusedShare: 0.005},
		{Value: 20, Lane: "b", KeysRefused: 1, LegitCaught: 0, RefusedShare: 0.001},
	}
	lanes := []string{"a", "b"}
	tests := []struct {
		where []string
		want  map[string]int64
	}{
		{[]string{"keys_refused <= 0"}, map[string]int64{"a": 30, "b": 0}},
		{[]string{"legit_keys_caught <= 0"}, map[string]int64{"a": 20, "b": 20}},
		{[]string{"refused_share <= 1%"}, map[string]int64{"a": 30, "b": 10}},
		{[]string{"refused_share <= 2%", "legit_keys_caught < 1"}, map[string]int64{"a": 20, "b": 20}},
		{[]string{"lane a keys_refused <= 1"}, map[string]int64{"a": 20, "b": 10}},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.where, " and "), func(t *testing.T) {
			var where []Where
			for _, s := range tt.where {
				w, err := ParseWhere(s, lanes)
				if err != nil {
					t.Fatal(err)
				}
				where = append(where, w)
			}
			got := Smallest(pts, where)
			if len(got) != len(tt.want) || got["a"] != tt.want["a"] || got["b"] != tt.want["b"] {
				t.Errorf("Smallest(%v) = %v, want %v", tt.where, got, tt.want)
			}
		})
	}
}

// TestWhereMetricsDocumented: docs/replay.md's --where table lists every metric.
func TestWhereMetricsDocumented(t *testing.T) {
	data, err := os.ReadFile("../docs/replay.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range WhereMetrics {
		if !strings.Contains(string(data), "| `"+m.Name+"` |") {
			t.Errorf("docs/replay.md does not document the --where metric %s", m.Name)
		}
	}
}
