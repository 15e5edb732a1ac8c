package replay

import (
	"fmt"
	"strings"
	"testing"
)

// flagRefusals are refusals of Flags.Options, each by one edit of
// promiseFlags, with words of its error; TestPromiseFlagsRefused holds the
// others.
var flagRefusals = []struct {
	name  string
	edit  func(*Flags)
	want  string
	fleet int // 1: the edit makes a fleet (--replicas above 1); -1: the refusal needs none
}{
	{"from without config", func(f *Flags) { f.From = "nginx" }, "--from: needs --config", 0},
	{"replicas -1", func(f *Flags) { f.Replicas = -1 }, fmt.Sprintf("--replicas: want a whole number from 1 to %d", MaxReplicas), 0},
	{"replicas past the most", func(f *Flags) { f.Replicas = MaxReplicas + 1 }, "--replicas: want a whole number from 1", 1},
	{"routing unknown", func(f *Flags) { f.Replicas, f.Routing = 3, "bogus" }, `--routing: unknown "bogus" (want `, 1},
	{"hash-key unknown", func(f *Flags) { f.Replicas, f.Routing, f.HashKey = 3, "hash", "nose" }, "--hash-key: ", 1},
	{"state unknown", func(f *Flags) { f.Replicas, f.State = 3, "bogus" }, `--state: unknown "bogus" (want ` + strings.Join(StateNames, ", "), 1},
	{"routing without a fleet", func(f *Flags) { f.Routing = "hash" }, "--routing: needs --replicas above 1", -1},
	{"state without a fleet", func(f *Flags) { f.State = "shared" }, "--state: needs --replicas above 1", -1},
	{"one replica is no fleet", func(f *Flags) { f.Replicas, f.State = 1, "shared" }, "--state: needs --replicas above 1", -1},
	{"hash-key without hash routing", func(f *Flags) { f.Replicas, f.Routing, f.HashKey = 3, "round_robin", "ip" }, "--hash-key: needs --routing hash", 1},
	{"shard of a fleet", func(f *Flags) { f.Replicas, f.Shard = 3, "0/2" }, "--shard: a fleet's figures", 1},
	{"bad zone", func(f *Flags) { f.TZ = "Mars/Olympus" }, `--tz: unknown zone "Mars/Olympus"`, 0},
	{"negative late", func(f *Flags) { f.Late = -1 }, "--late: must not be negative", 0},
	{"format", func(f *Flags) { f.Format = "xml" }, `--format: unknown "xml"`, 0},
	{"log format", func(f *Flags) { f.LogFormat = "xml" }, `--log-format: unknown "xml"`, 0},
	{"top 0", func(f *Flags) { f.Top = 0 }, "--top: must be positive", 0},
	{"where without find", func(f *Flags) { f.Where = []string{"refused <= 1"} }, "--where: needs --vary and --find", 0},
	{"bad limit", func(f *Flags) { f.Limits = []string{"key=ip"} }, `--limit "key=ip": limit: missing`, 0},
	{"missing scenario", func(f *Flags) { f.Scenario = "no-such-scenario-p10" }, "--scenario: ", 0},
}

// Each refusal alone, and every refusal given with any other (on other flags):
// both errors are told at once, whatever the order Options checks them in.
func TestEveryFlagErrorAtOnce(t *testing.T) {
	for _, tc := range flagRefusals {
		f := promiseFlags()
		tc.edit(&f)
		if _, err := f.Options(); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want %q", tc.name, err, tc.want)
		}
	}
	for i, a := range flagRefusals {
		for j, b := range flagRefusals {
			if i == j || a.fleet*b.fleet < 0 {
				continue // the same refusal, or one needs the fleet the other makes
			}
			f := promiseFlags()
			a.edit(&f)
			b.edit(&f)
			if !stillHolds(f, a.edit) {
				continue // b edits a flag a set
			}
			_, err := f.Options()
			if err == nil || !strings.Contains(err.Error(), a.want) || !strings.Contains(err.Error(), b.want) {
				t.Errorf("%s with %s: %v\nwant both %q and %q", a.name, b.name, err, a.want, b.want)
			}
		}
	}
}

// stillHolds reports whether the flags, after another edit, still hold a's
// edit: applying a again changes nothing.
func stillHolds(after Flags, a func(*Flags)) bool {
	again := after
	a(&again)
	return fmt.Sprint(again) == fmt.Sprint(after)
}
