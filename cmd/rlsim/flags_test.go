package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// This file holds every number flag of every command, found by walking the
// command tree (so a new flag is covered the day it is added), to one rule:
// NaN, infinities, huge and negative values are refused with exit 2 and the
// flag named, before any work, or mean something documented here.

// flagValues are the hostile values each kind of number flag is given.
var flagValues = map[string][]string{
	"int":      {"NaN", "Inf", "9223372036854775807", "-1", "-9223372036854775808"},
	"uint":     {"NaN", "-1", "18446744073709551615"},
	"float":    {"NaN", "+Inf", "-Inf", "1e308", "-1"},
	"duration": {"NaN", "2562047h", "-1s"},
}

// flagKind is the kind of number a flag holds, by its pflag type ("int64",
// "float64Slice", ...); "" for a flag that holds no number.
func flagKind(f *pflag.Flag) string {
	typ := strings.TrimSuffix(f.Value.Type(), "Slice")
	for _, k := range []string{"uint", "int", "float", "duration"} {
		if strings.HasPrefix(typ, k) {
			return k
		}
	}
	if typ == "count" {
		return "int"
	}
	return ""
}

// flagMeanings are the hostile values a command accepts, each with what it
// means there; any other accepted value fails the test.
var flagMeanings = map[string]string{
	"run --seed=18446744073709551615":           "a seed like any other",
	"sweep --seed=18446744073709551615":         "a seed like any other",
	"tui --seed=18446744073709551615":           "a seed like any other",
	"serve --seed=18446744073709551615":         "a seed like any other",
	"run --max-events=9223372036854775807":      "a budget no run reaches",
	"validate --max-events=9223372036854775807": "a budget no run reaches",
	"tui --max-events=9223372036854775807":      "a budget no run reaches",
	"serve --max-events=9223372036854775807":    "a budget no run reaches",
	"sweep --max-events=9223372036854775807":    "a budget no sweep reaches",
	"conform --max-events=9223372036854775807":  "a budget no run reaches",
	"run --width=9223372036854775807":           "a terminal that wide: the full layout",
	"sweep --width=9223372036854775807":         "a terminal that wide: the full layout",
	"sweep merge --width=9223372036854775807":   "a terminal that wide: the full layout",
	"conform --max-wall=2562047h":               "no check is refused for its length",
	"replay --late=2562047h":                    "no line is too late to replay in its place",
	"replay --top=9223372036854775807":          "every key listed",
	"replay --seed=18446744073709551615":        "a seed like any other",
}

// flagGaps are hostile values a command of another owner mishandles, each with
// the fix it waits for; they are skipped, naming it, so the rest hold.
var flagGaps = map[string]string{}

// commandBase is what each command is given besides the flag under test, so
// that the flag is all there is to refuse.
func commandBase(t *testing.T) map[string][]string {
	tiny := filepath.Join("testdata", "numbers", "tiny.yaml")
	partial := filepath.Join(t.TempDir(), "part.json")
	code, out, errOut := execute(t, "sweep", tiny, "--vary", "limits[0].limit=4,6", "--shard", "0/1")
	if code != 0 {
		t.Fatalf("a partial to merge: exit %d, %s", code, errOut)
	}
	if err := os.WriteFile(partial, []byte(out), 0o644); err != nil {
		t.Fatal(err)
	}
	return map[string][]string{
		"run":         {tiny},
		"validate":    {tiny},
		"tui":         {tiny},
		"serve":       {tiny, "--addr", "127.0.0.1:0"},
		"conform":     {tiny, "--redis", "127.0.0.1:1"},
		"sweep":       {tiny, "--vary", "limits[0].limit=4,6"},
		"sweep merge": {partial},
		"replay":      {filepath.Join("testdata", "numbers", "access.log"), "--limit", "key=ip limit=10/1s"},
		"diff":        {diffCurrent, diffProposed, "--log", filepath.Join("testdata", "numbers", "access.log")},
	}
}

// executeCancelled runs args as mainRun does but with its context already
// cancelled: a command that accepts its flags stops at its first look at the
// context (exit 130) instead of working, listening or waiting for a server.
func executeCancelled(args ...string) (int, string, string) {
	var out, errOut bytes.Buffer
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	root := NewCmdRoot(&out, nil)
	root.SetArgs(append([]string{}, args...))
	root.SetErr(&errOut)
	err := root.ExecuteContext(ctx)
	if err == nil {
		return 0, out.String(), errOut.String()
	}
	fmt.Fprintln(&errOut, message(err))
	return exitStatus(err), out.String(), errOut.String()
}

// walkCommands calls fn with every command of the tree and its path below the
// root ("sweep merge").
func walkCommands(c *cobra.Command, fn func(path string, c *cobra.Command)) {
	for _, sub := range c.Commands() {
		path := strings.TrimPrefix(sub.CommandPath(), c.Root().Name()+" ")
		fn(path, sub)
		walkCommands(sub, fn)
	}
}

func TestEveryNumberFlagRefusesOrMeans(t *testing.T) {
	base := commandBase(t)
	seen := 0
	walkCommands(NewCmdRoot(&bytes.Buffer{}, nil), func(path string, c *cobra.Command) {
		var flags []*pflag.Flag
		c.Flags().VisitAll(func(f *pflag.Flag) {
			if flagKind(f) != "" {
				flags = append(flags, f)
			}
		})
		if len(flags) == 0 {
			return
		}
		args, ok := base[path]
		if !ok {
			t.Errorf("rlsim %s has number flags and no base invocation in commandBase: add one", path)
			return
		}
		for _, f := range flags {
			for _, v := range flagValues[flagKind(f)] {
				seen++
				name := path + " --" + f.Name + "=" + v
				t.Run(name, func(t *testing.T) {
					if why, ok := flagGaps[name]; ok {
						t.Skip(why)
					}
					line := append(append(strings.Fields(path), args...), "--"+f.Name+"="+v)
					code, out, errOut := executeCancelled(line...)
					if strings.Contains(errOut, "goroutine ") {
						t.Fatalf("a stack trace:\n%s", errOut)
					}
					meaning, documented := flagMeanings[name]
					switch {
					case code == exitBadInput && strings.Contains(errOut, "--"+f.Name) && out == "":
						if documented {
							t.Errorf("refused (%s), yet flagMeanings says it means %q: remove the entry", strings.TrimSpace(errOut), meaning)
						}
					case code == exitBadInput:
						t.Errorf("exit 2 without naming --%s, or after output: stdout %q, stderr %q", f.Name, out, errOut)
					case !documented:
						t.Errorf("accepted (exit %d, stdout %.100q, stderr %q) with no meaning documented in flagMeanings: refuse it or document it", code, out, errOut)
					case code != 0 && code != exitInterrupted:
						t.Errorf("accepted, then exit %d: stdout %.100q, stderr %q", code, out, errOut)
					}
				})
			}
		}
	})
	if seen < 20 {
		t.Errorf("only %d flag values tried: the walk of the command tree is broken", seen)
	}
}

// TestNoCommandHidesTheRootHook: cobra runs only the nearest PersistentPreRun,
// so a command with its own would skip the root's check of number flags.
func TestNoCommandHidesTheRootHook(t *testing.T) {
	walkCommands(NewCmdRoot(&bytes.Buffer{}, nil), func(path string, c *cobra.Command) {
		if c.PersistentPreRun != nil || c.PersistentPreRunE != nil {
			t.Errorf("rlsim %s has a PersistentPreRun of its own, which hides the root's finiteFlags: call finiteFlags in it", path)
		}
	})
}

// TestFiniteFlags: NaN and the infinities are refused in every float flag,
// slices too, all at once; finite values and other kinds pass.
func TestFiniteFlags(t *testing.T) {
	fs := pflag.NewFlagSet("t", pflag.ContinueOnError)
	fs.Float64("a", 1, "")
	fs.Float32("b", 1, "")
	fs.Float64Slice("c", nil, "")
	fs.Int("d", 1, "")
	fs.String("e", "", "")
	if err := fs.Parse([]string{"--a=NaN", "--b=-Inf", "--c=1,+Inf,2", "--d=3", "--e=NaN"}); err != nil {
		t.Fatal(err)
	}
	err := finiteFlags(fs)
	want := "--a: want a finite number, got NaN\n--b: want a finite number, got -Inf\n--c: want a finite number, got +Inf"
	if err == nil || err.Error() != want || exitStatus(err) != exitBadInput {
		t.Errorf("finiteFlags = %v (exit %d), want exit 2 and:\n%s", err, exitStatus(err), want)
	}
	ok := pflag.NewFlagSet("t", pflag.ContinueOnError)
	ok.Float64("a", 1, "")
	if err := ok.Parse([]string{"--a=1e308"}); err != nil {
		t.Fatal(err)
	}
	if err := finiteFlags(ok); err != nil {
		t.Errorf("finiteFlags(1e308) = %v", err)
	}
}

// TestANewFloatFlagCannotMissTheGuard adds a command with a float flag that
// checks nothing: the root refuses NaN and the infinities in it all the same.
func TestANewFloatFlagCannotMissTheGuard(t *testing.T) {
	for _, v := range []string{"NaN", "+Inf", "-Inf", "inf"} {
		root := NewCmdRoot(&bytes.Buffer{}, nil)
		ran := false
		probe := &cobra.Command{Use: "probe", RunE: func(*cobra.Command, []string) error { ran = true; return nil }}
		probe.Flags().Float64("x", 1, "")
		root.AddCommand(probe)
		root.SetArgs([]string{"probe", "--x=" + v})
		root.SetErr(&bytes.Buffer{})
		err := root.Execute()
		if err == nil || exitStatus(err) != exitBadInput || !strings.HasPrefix(err.Error(), "--x: want a finite number, got ") || ran {
			t.Errorf("probe --x=%s: error %v, ran %v; want exit 2 naming --x, not run", v, err, ran)
		}
	}
}
