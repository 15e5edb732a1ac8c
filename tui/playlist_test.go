package tui

import (
	"errors"
	"strings"
	"testing"

	"github.com/rlsim/rlsim/run"
	"github.com/rlsim/rlsim/scenarios"
)

func TestPlaylist(t *testing.T) {
	list, err := Playlist("nat-per-ip", run.Overrides{Lanes: "gcra"})
	if err != nil {
		t.Fatal(err)
	}
	if len(list) < 2 || list[0].Name != "nat-per-ip" {
		t.Fatalf("Playlist starts %v, want nat-per-ip then the others", list)
	}
	for _, s := range list {
		if len(s.Config.Lanes) != 1 {
			t.Errorf("%s plays %d lanes, want --lanes gcra's one", s.Name, len(s.Config.Lanes))
		}
		if s.Name == "backoff-contention" {
			t.Errorf("the playlist holds a contention study, which has no lanes")
		}
	}
	_, err = Playlist("demoo", run.Overrides{})
	var ie *run.InputError
	if !errors.As(err, &ie) || !strings.Contains(err.Error(), scenarios.UnknownBuiltin("demoo")) {
		t.Errorf("Playlist(demoo) = %v, want an *run.InputError naming the built-ins", err)
	}
}
