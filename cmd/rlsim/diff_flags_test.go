package main

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/rlsim/rlsim/replay"
	"github.com/rlsim/rlsim/run"
)

// Every flag problem of rlsim diff at once, as bad input, before a side is
// read (the sides named do not exist).
func TestDiffFlagProblemsAllAtOnce(t *testing.T) {
	seed := uint64(3)
	for _, c := range []struct {
		name string
		opts diffOptions
		want []string
	}{
		{"both traffics", diffOptions{Scenario: "s.yaml", Logs: []string{"a.log"}, Format: "text", MaxEvents: 1, Top: 1},
			[]string{"--scenario, --log: give one"}},
		{"bounds", diffOptions{Scenario: "s.yaml", Format: "xml", MaxEvents: 0, Top: 0},
			[]string{`--format: unknown "xml" (want text, json)`, "--max-events: must be positive, got 0", "--top: must be positive, got 0"}},
		{"negative", diffOptions{Scenario: "s.yaml", Format: "json", MaxEvents: -1, Top: -2},
			[]string{"--max-events: must be positive, got -1", "--top: must be positive, got -2"}},
		{"seed with a log", diffOptions{Logs: []string{"a.log"}, Format: "text", MaxEvents: 1, Top: 1, Seed: &seed,
			Read: defaultReadFlags()}, []string{"--seed: a log has no random streams"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			o := c.opts
			o.Args = []string{"/nonexistent/a.conf", "/nonexistent/b.conf"}
			o.Out, o.Err = &bytes.Buffer{}, &bytes.Buffer{}
			err := diffRun(&o)
			var in *run.InputError
			if !errors.As(err, &in) {
				t.Fatalf("err %v, want bad input", err)
			}
			for _, w := range c.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q lacks %q", err, w)
				}
			}
			if strings.Contains(err.Error(), "nonexistent") {
				t.Errorf("the sides were read before the flags were checked: %v", err)
			}
		})
	}
	// Flags fine: the sides are read, both missing ones named.
	o := diffOptions{Args: []string{"/nonexistent/a.conf", "/nonexistent/b.conf"}, Scenario: "s.yaml", Format: "text", MaxEvents: 1, Top: 1,
		Out: &bytes.Buffer{}, Err: &bytes.Buffer{}}
	if err := diffRun(&o); err == nil || !strings.Contains(err.Error(), "a.conf") || !strings.Contains(err.Error(), "b.conf") {
		t.Errorf("two missing sides: %v, want both named", err)
	}
}

func defaultReadFlags() (f replay.Flags) {
	var got *diffOptions
	cmd := NewCmdDiff(&bytes.Buffer{}, func(o *diffOptions) error { got = o; return nil })
	cmd.SetArgs([]string{"a", "b", "--log", "x"})
	cmd.Execute()
	return got.Read
}
