package replay

import (
	"fmt"
	"strings"
	"testing"
)

func deriveFlags() Flags {
	return Flags{Key: "ip", Groups: 5, LogFormat: "auto", TZ: "UTC"}
}

func noFlagGiven(string) bool { return false }

// TestDeriveOptionsCarriesEachFlag: the key, groups, budget, log format,
// fields, a custom format and the zone reach the derivation.
func TestDeriveOptionsCarriesEachFlag(t *testing.T) {
	f := deriveFlags()
	f.Key, f.Groups, f.MaxEvents, f.LogFormat, f.Fields, f.TZ = "ip/24+path", MaxGroups, 1234, "json", "time=ts", "Europe/Paris"
	o, err := f.DeriveOptions(noFlagGiven)
	if err != nil {
		t.Fatal(err)
	}
	key, _ := ParseKey("ip/24+path")
	fields, _ := ParseFields("time=ts")
	if fmt.Sprint(o.Key) != fmt.Sprint(key) || o.Groups != MaxGroups || o.MaxEvents != 1234 || o.Format != "json" ||
		fmt.Sprint(o.Fields) != fmt.Sprint(fields) || o.Location.String() != "Europe/Paris" || o.LogFormat != nil {
		t.Errorf("DeriveOptions = %+v", o)
	}
	f = deriveFlags()
	f.NginxFormat = `$remote_addr [$time_local] "$request" $status`
	o, err = f.DeriveOptions(noFlagGiven)
	if err != nil || o.LogFormat == nil || o.Format != "nginx" {
		t.Errorf("--nginx-format: %+v, %v; want its format compiled, read as nginx", o, err)
	}
	f.Groups = 1
	if o, err := f.DeriveOptions(noFlagGiven); err != nil || o.Groups != 1 {
		t.Errorf("--groups 1: %+v, %v", o, err)
	}
}

// TestDeriveOptionsRefusesEachAndAllAtOnce: each bad flag alone, naming its
// flag, then all of them in one error; every replay flag given beside
// --to-scenario is refused by name.
func TestDeriveOptionsRefusesEachAndAllAtOnce(t *testing.T) {
	refusals := []struct {
		edit func(*Flags)
		want string
	}{
		{func(f *Flags) { f.Key = "nose" }, "--key: "},
		{func(f *Flags) { f.Groups = 0 }, fmt.Sprintf("--groups: want 1 to %d, got 0", MaxGroups)},
		{func(f *Flags) { f.Groups = MaxGroups + 1 }, fmt.Sprintf("--groups: want 1 to %d, got %d", MaxGroups, MaxGroups+1)},
		{func(f *Flags) { f.MaxEvents = -1 }, "--max-events: must not be negative, got -1"},
		{func(f *Flags) { f.Fields = "nonsense" }, "--fields: "},
		{func(f *Flags) { f.TZ = "Mars/Olympus" }, `--tz: unknown zone "Mars/Olympus"`},
		{func(f *Flags) { f.LogFormat = "xml" }, `--log-format: unknown "xml" (want ` + strings.Join(Formats, ", ") + ")"},
		{func(f *Flags) { f.NginxFormat, f.EnvoyFormat = "$remote_addr", "%START_TIME%" }, "--nginx-format, --envoy-format: give one"},
	}
	all := deriveFlags()
	for _, r := range refusals {
		f := deriveFlags()
		r.edit(&f)
		if _, err := f.DeriveOptions(noFlagGiven); err == nil || !strings.Contains(err.Error(), r.want) {
			t.Errorf("DeriveOptions: %v, want %q", err, r.want)
		}
		r.edit(&all)
	}
	_, err := all.DeriveOptions(noFlagGiven)
	for i, r := range refusals {
		if i == 1 {
			continue // groups 0, which groups MaxGroups+1 then replaced
		}
		if err == nil || !strings.Contains(err.Error(), r.want) {
			t.Errorf("all at once: %v, want %q too", err, r.want)
		}
	}
	replayFlags := []string{"limit", "scenario", "lane", "vary", "find", "where", "out", "format", "late", "strict", "legit-below", "top"}
	for _, flag := range replayFlags {
		_, err := deriveFlags().DeriveOptions(func(f string) bool { return f == flag })
		want := fmt.Sprintf("--%s: replays the log; --to-scenario derives a scenario instead", flag)
		if err == nil || !strings.Contains(err.Error(), want) || strings.Count(err.Error(), "replays the log") != 1 {
			t.Errorf("--%s given: %v, want %q alone", flag, err, want)
		}
	}
	for _, flag := range []string{"key", "groups", "tz", "fields", "log-format", "max-events"} {
		if _, err := deriveFlags().DeriveOptions(func(f string) bool { return f == flag }); err != nil {
			t.Errorf("--%s given: %v, want it taken", flag, err)
		}
	}
}
