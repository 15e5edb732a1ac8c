package sweep

import (
	"slices"
	"strings"
	"testing"
)

func TestParseVary(t *testing.T) {
	tests := []struct {
		arg     string
		want    []string
		wantErr string
	}{
		{arg: "limits[0].limit=10,20,40", want: []string{"10", "20", "40"}},
		{arg: "limits[0].limit=10..50/10", want: []string{"10", "20", "30", "40", "50"}},
		{arg: "limits[0].limit=10..45/10", want: []string{"10", "20", "30", "40"}},
		{arg: "x=0.1..0.3/0.1", want: []string{"0.1", "0.2", "0.3"}},
		{arg: "x=1..2/0.25", want: []string{"1.00", "1.25", "1.50", "1.75", "2.00"}},
		{arg: "limits[0].window=500ms..2s/500ms", want: []string{"500ms", "1s", "1.5s", "2s"}},
		{arg: "x=7..7/1", want: []string{"7"}},
		{arg: "x", wantErr: "--vary x: want path=v1,v2,... or path=from..to/step"},
		{arg: "=1,2", wantErr: "--vary =1,2: want path="},
		{arg: "x=1..5", wantErr: "--vary x=1..5: a range needs a step"},
		{arg: "x=5..1/1", wantErr: "--vary x=5..1/1: want from <= to and a positive step"},
		{arg: "x=1..5/0", wantErr: "want from <= to and a positive step"},
		{arg: "x=a..b/1", wantErr: "--vary x=a..b/1: a..b/1 is not a range"},
		{arg: "x=1s..5/1s", wantErr: "a range of durations wants durations at both ends"},
		{arg: "x=1..1000000/1", wantErr: "1000000 values, more than a sweep's 10000 points"},
		{arg: "x=1ns..1h/1ns", wantErr: "more than a sweep's 10000 points"},
		{arg: "x=1,,2", wantErr: "an empty value in the list"},
		{arg: "x=1,2,1", wantErr: "1 is listed twice"},
		// Not numbers a range can count over: each refused naming the flag,
		// before any value is listed (NaN once made an empty sweep, exit 0).
		{arg: "x=NaN..10/1", wantErr: "--vary x=NaN..10/1: NaN..10/1 is not a range: want finite numbers"},
		{arg: "x=1..nan/1", wantErr: "is not a range: want finite numbers"},
		{arg: "x=1..10/NaN", wantErr: "is not a range: want finite numbers"},
		{arg: "x=-Inf..1/1", wantErr: "is not a range: want finite numbers"},
		{arg: "x=1..1e400/1", wantErr: "is not a range: want finite numbers"},
		{arg: "x=-1e308..1e308/1", wantErr: "more than a sweep's 10000 points"},
		{arg: "x=1..10/1e-320", wantErr: "more than a sweep's 10000 points"},
		// Written with fewer digits than the step tells apart: values that read the same.
		{arg: "x=1e-300..1e-299/1e-301", wantErr: "at most 30 decimals, got 301"},
		{arg: "x=1e-99999999999999999999..1/0.5", wantErr: "at most 30 decimals"},
		{arg: "x=1e16..1.0000000000000004e16/1", wantErr: "the range lists"},
		{arg: "x=1e-3..3e-3/1e-3", want: []string{"0.001", "0.002", "0.003"}},
		{arg: "x=1..2/0." + strings.Repeat("0", 40) + "1", wantErr: "more than a sweep's 10000 points"},
		{arg: "x=0..1/0.5" + strings.Repeat("0", 40), wantErr: "at most 30 decimals"},
		// Durations whose ends or steps pass int64: refused, not wrapped round
		// into a list without end (this once ran out of memory).
		{arg: "duration=2562047h..2562047h47m16s/1h", want: []string{"2562047h0m0s"}},
		{arg: "duration=-2562047h..2562047h/1ns", wantErr: "more than a sweep's 10000 points"},
		{arg: "duration=-2562047h47m16.854775808s..2562047h47m16.854775807s/1ns", wantErr: "18446744073709551616 values, more than"},
		{arg: "duration=-2562047h..2562047h/100h", wantErr: "more than a sweep's 10000 points"},
		{arg: "duration=-2562047h..2562047h/2562047h", want: []string{"-2562047h0m0s", "0s", "2562047h0m0s"}},
		{arg: "x=" + strings.Join(countTo(MaxPoints+1), ","), wantErr: "10001 values, more than a sweep's 10000 points"},
	}
	for _, tc := range tests {
		t.Run(tc.arg, func(t *testing.T) {
			v, err := ParseVary(tc.arg)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("ParseVary(%q) error = %v, want %q", tc.arg, err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(v.Values, tc.want) {
				t.Errorf("ParseVary(%q) = %q, want %q", tc.arg, v.Values, tc.want)
			}
		})
	}
}

func TestGridListsEveryPointLastVaryFastest(t *testing.T) {
	grid, err := Grid([]Vary{{Path: "a", Values: []string{"1", "2"}}, {Path: "b", Values: []string{"x", "y", "z"}}})
	if err != nil {
		t.Fatal(err)
	}
	want := [][]string{{"1", "x"}, {"1", "y"}, {"1", "z"}, {"2", "x"}, {"2", "y"}, {"2", "z"}}
	if !slices.EqualFunc(grid, want, slices.Equal) {
		t.Errorf("Grid = %q, want %q", grid, want)
	}
	if grid, _ := Grid(nil); len(grid) != 1 || len(grid[0]) != 0 {
		t.Errorf("Grid(nil) = %q, want one point without values", grid)
	}
	big := Vary{Path: "a", Values: make([]string, 200)}
	if _, err := Grid([]Vary{big, big}); err == nil || !strings.Contains(err.Error(), "more than 10000 points") {
		t.Errorf("a grid of 40000 points: error = %v", err)
	}
}

func TestParseShard(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want Shard
		ok   bool
	}{
		{"0/4", Shard{0, 4}, true}, {"3/4", Shard{3, 4}, true}, {"0/1", Shard{0, 1}, true},
		{"4/4", Shard{}, false}, {"-1/4", Shard{}, false}, {"1/0", Shard{}, false},
		{"1", Shard{}, false}, {"1/4x", Shard{}, false}, {"01/4", Shard{}, false}, {"", Shard{}, false},
		{"9999/10000", Shard{9999, 10000}, true}, {"0/10001", Shard{}, false}, {"0/9223372036854775807", Shard{}, false},
	} {
		got, err := ParseShard(tc.in)
		if (err == nil) != tc.ok || got != tc.want {
			t.Errorf("ParseShard(%q) = %v, %v; want %v, ok %v", tc.in, got, err, tc.want, tc.ok)
		}
	}
}

// A vary without values is no grid at all: refused, not a sweep of no points.
func TestGridRefusesAVaryWithoutValues(t *testing.T) {
	if grid, err := Grid([]Vary{{Path: "a", Values: []string{"1"}}, {Path: "b"}}); err == nil || !strings.Contains(err.Error(), "--vary b: no values") {
		t.Errorf("Grid of a vary without values = %d points, error %v", len(grid), err)
	}
}

func TestParseVaryQuotesAControlCharacter(t *testing.T) {
	_, err := ParseVary("limits[0].limit=10,\n20")
	if err == nil || strings.Contains(err.Error(), "\n") || !strings.Contains(err.Error(), `"limits[0].limit=10,\n20"`) {
		t.Errorf("ParseVary with a line break = %v, want one line quoting it", err)
	}
}
