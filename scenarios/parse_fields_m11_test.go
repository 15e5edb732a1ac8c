package scenarios

import (
	"reflect"
	"strings"
	"testing"
)

// Parse names the scenario by its file's base name without the extension,
// keeps the file, the YAML as written and, in Sets, each --set as given
// (path=value, in order), leaving out the config sets a command writes.
func TestParseKeepsNameFileSourceAndSets(t *testing.T) {
	src := []byte("description: d\nduration: 3s\nlimits:\n  - {key: ip, limit: 10, window: 1s}\nclients:\n  - arrivals: [{kind: constant, rate: 5/s}]\n")
	var sets []Set
	for _, arg := range []string{"limits[0].limit=20", "seed=7", "clients[0].arrivals[0].rate=8/s"} {
		set, err := ParseSet(arg)
		if err != nil {
			t.Fatal(err)
		}
		sets = append(sets, set)
	}
	sets = append(sets, ConfigSet("chain", "charge_until_refused", "--config x.conf"))
	for _, file := range []string{"dir/one.two.yaml", "plain", "a/b/c.yml"} {
		s, err := Parse(file, src, sets...)
		if err != nil {
			t.Fatal(err)
		}
		base := file[strings.LastIndex(file, "/")+1:]
		if i := strings.LastIndex(base, "."); i >= 0 {
			base = base[:i]
		}
		if s.Name != base || s.File != file || string(s.Source) != string(src) {
			t.Errorf("Parse(%q): name %q, file %q, source %q; want %q, the file, the source", file, s.Name, s.File, s.Source, base)
		}
		if want := []string{"limits[0].limit=20", "seed=7", "clients[0].arrivals[0].rate=8/s"}; !reflect.DeepEqual(s.Sets, want) {
			t.Errorf("Parse(%q): sets %q, want %q", file, s.Sets, want)
		}
		if s.Config.Limits[0].Policy.Limit != 20 || s.Config.Seed != 7 || s.Config.Clients[0].Arrivals[0].Rate.Count != 8 {
			t.Errorf("Parse(%q): the sets were not written: %+v", file, s.Config)
		}
		if s.Description != "d" {
			t.Errorf("Parse(%q): description %q, want d", file, s.Description)
		}
	}
	s, err := Parse("none.yaml", src)
	if err != nil || s.Sets != nil {
		t.Errorf("no sets: %q (%v), want none", s.Sets, err)
	}
}
