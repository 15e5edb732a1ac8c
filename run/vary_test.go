package run

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
	} {
		got, err := ParseShard(tc.in)
		if (err == nil) != tc.ok || got != tc.want {
			t.Errorf("ParseShard(%q) = %v, %v; want %v, ok %v", tc.in, got, err, tc.want, tc.ok)
		}
	}
}
