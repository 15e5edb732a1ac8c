package sweep

import (
	"strings"
	"testing"
)

// Shard's doc: a shard i/n owns the points whose index leaves i when divided
// by n; the zero value (and 0/1) owns every point.
func TestShardOwnsByRemainder(t *testing.T) {
	for _, tc := range []struct {
		sh   Shard
		want []int // the points of 0..9 owned
	}{
		{Shard{}, []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}},
		{Shard{0, 1}, []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}},
		{Shard{0, 4}, []int{0, 4, 8}},
		{Shard{3, 4}, []int{3, 7}},
		{Shard{1, 3}, []int{1, 4, 7}},
		{Shard{9, 10}, []int{9}},
		{Shard{5, 20}, []int{5}},
	} {
		var got []int
		for p := range 10 {
			if tc.sh.owns(p) {
				got = append(got, p)
			}
		}
		if !equalInts(got, tc.want) {
			t.Errorf("shard %+v owns %v of 0..9, want %v", tc.sh, got, tc.want)
		}
	}
}

func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// String is the shard as --shard writes it, "" for every point; ParseShard
// reads it back.
func TestShardString(t *testing.T) {
	for _, tc := range []struct {
		sh   Shard
		want string
	}{{Shard{}, ""}, {Shard{0, 4}, "0/4"}, {Shard{3, 4}, "3/4"}, {Shard{0, 1}, "0/1"}} {
		if got := tc.sh.String(); got != tc.want {
			t.Errorf("%+v.String() = %q, want %q", tc.sh, got, tc.want)
		}
		if tc.want == "" {
			continue
		}
		if back, err := ParseShard(tc.want); err != nil || back != tc.sh {
			t.Errorf("ParseShard(%q) = %+v, %v; want %+v", tc.want, back, err, tc.sh)
		}
	}
}

// check refuses a count past MaxPoints (at MaxPoints it is fine) and an index
// outside 0 to n-1, naming the flag.
func TestShardCheck(t *testing.T) {
	for _, tc := range []struct {
		sh   Shard
		want string // "" for no error
	}{
		{Shard{}, ""},
		{Shard{MaxPoints - 1, MaxPoints}, ""},
		{Shard{0, MaxPoints + 1}, "--shard 0/10001: 10001 shards, more than the 10000 points a sweep may have"},
		{Shard{4, 4}, "--shard 4/4: want i/n with 0 <= i < n"},
		{Shard{-1, 4}, "--shard -1/4: want i/n with 0 <= i < n"},
		{Shard{1, 0}, "--shard"},
	} {
		err := tc.sh.check()
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%+v.check() = %v, want nil", tc.sh, err)
		case tc.want != "" && (err == nil || !strings.HasPrefix(err.Error(), tc.want)):
			t.Errorf("%+v.check() = %v, want %q", tc.sh, err, tc.want)
		}
	}
}

// counted writes 1 thing but n things otherwise, 0 included.
func TestCounted(t *testing.T) {
	for _, tc := range []struct {
		n    int
		want string
	}{{0, "0 seeds"}, {1, "1 seed"}, {2, "2 seeds"}, {1000, "1000 seeds"}} {
		if got := counted(tc.n, "seed"); got != tc.want {
			t.Errorf("counted(%d, seed) = %q, want %q", tc.n, got, tc.want)
		}
	}
}

// checkVaries refuses, all at once, a path varied twice or also set, the
// seed and the lane list; a lane's own settings may vary.
func TestCheckVaries(t *testing.T) {
	v := func(path string) Vary { return Vary{Path: path, Values: []string{"1"}} }
	for _, tc := range []struct {
		name   string
		varies []Vary
		sets   []string
		want   []string // substrings, in order; none for no error
	}{
		{"distinct paths", []Vary{v("a"), v("b")}, []string{"c=1"}, nil},
		{"a lane's setting", []Vary{v("lanes[1].burst")}, nil, nil},
		{"a path like lanes but longer", []Vary{v("lanesx")}, nil, nil},
		{"twice", []Vary{v("a"), v("a")}, nil, []string{"--vary a: the path is varied twice, or also given by --set or --duration"}},
		{"also set", []Vary{v("a")}, []string{"a=3"}, []string{"--vary a: the path is varied twice"}},
		{"the seed", []Vary{v("seed")}, nil, []string{"--vary seed: every point runs the same seeds; give --seeds N"}},
		{"the lanes", []Vary{v("lanes")}, nil, []string{"--vary lanes: every point runs the same lanes; choose them with --lanes"}},
		{"one lane", []Vary{v("lanes[0]")}, nil, []string{"--vary lanes[0]: every point runs the same lanes"}},
		{"every problem at once, in flag order", []Vary{v("seed"), v("lanes"), v("a"), v("a")}, nil,
			[]string{"--vary seed", "--vary lanes", "--vary a: the path is varied twice"}},
	} {
		err := checkVaries(tc.varies, tc.sets)
		if len(tc.want) == 0 {
			if err != nil {
				t.Errorf("%s: checkVaries = %v, want nil", tc.name, err)
			}
			continue
		}
		if err == nil {
			t.Errorf("%s: checkVaries = nil, want %q", tc.name, tc.want)
			continue
		}
		msg, at := err.Error(), 0
		for _, w := range tc.want {
			i := strings.Index(msg[at:], w)
			if i < 0 {
				t.Errorf("%s: checkVaries = %q, want %q (in order)", tc.name, msg, tc.want)
				break
			}
			at += i + len(w)
		}
		if got := strings.Count(msg, "\n") + 1; got != len(tc.want) {
			t.Errorf("%s: checkVaries gave %d problems, want %d: %q", tc.name, got, len(tc.want), msg)
		}
	}
}

// Flag is the vary as written: --vary path=v1,v2.
func TestVaryFlag(t *testing.T) {
	if got, want := (Vary{Path: "limits[0].limit", Values: []string{"10", "20"}}).Flag(), "--vary limits[0].limit=10,20"; got != want {
		t.Errorf("Flag() = %q, want %q", got, want)
	}
}
