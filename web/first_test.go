package web

import (
	"errors"
	"strings"
	"testing"

	"github.com/rlsim/rlsim/run"
)

func TestLoadFirst(t *testing.T) {
	seven := uint64(7)
	s, err := LoadFirst("boundary-burst", run.Overrides{Seed: &seven, Lanes: "gcra", Sets: []string{"limits[0].limit=3"}})
	if err != nil {
		t.Fatal(err)
	}
	if s.Config.Seed != 7 || len(s.Config.Lanes) != 1 || s.Config.Limits[0].Policy.Limit != 3 {
		t.Errorf("LoadFirst applied seed %d, %d lanes, limit %d; want 7, 1 and 3", s.Config.Seed, len(s.Config.Lanes), s.Config.Limits[0].Policy.Limit)
	}
	for _, tc := range []struct {
		arg  string
		ov   run.Overrides
		want string
	}{
		{"backoff-contention", run.Overrides{}, "a contention study has no lanes to watch: rlsim run backoff-contention prints its results"},
		{"demo", run.Overrides{Lanes: "gcra,bogus"}, "--lanes:"},
		{"demo", run.Overrides{MaxEvents: 100}, "over the budget of 100"},
	} {
		_, err := LoadFirst(tc.arg, tc.ov)
		var ie *run.InputError
		if !errors.As(err, &ie) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("LoadFirst(%s, %+v) = %v, want an *run.InputError saying %q", tc.arg, tc.ov, err, tc.want)
		}
	}
	if _, err := LoadFirst("no-such-scenario", run.Overrides{}); !run.IsBadInput(err) {
		t.Errorf("LoadFirst of an unknown name = %v, want bad input", err)
	}
}
