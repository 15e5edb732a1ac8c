package main

import (
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// documentedDefaults is every flag of every command with the default its help
// or the docs state ("" for a flag whose absence means "not given": no file,
// no override, every lane). A flag not listed here fails the test, so a new
// flag's default is stated the day it is added.
var documentedDefaults = map[string]string{
	// docs/conform.md and rlsim conform --help
	"conform --clock": "driver", "conform --format": "text", "conform --lane": "", "conform --max-events": "50000000",
	"conform --max-wall": "10m", "conform --print-script": "", "conform --redis": "", "conform --replicas": "[]",
	"conform --http": "", "conform --key-header": "X-Key", "conform --path": "/", "conform --access-log": "",
	"conform --runs": "3", "conform --script": "", "conform --show": "5", "conform --time-scale": "10",
	"conform --tolerance": "50ms",
	// docs/replay.md
	"replay --fields": "", "replay --find": "", "replay --format": "text", "replay --lane": "[]", "replay --late": "5s",
	"replay --legit-below": "0.5", "replay --limit": "[]", "replay --log-format": "auto", "replay --out": "",
	"replay --scenario": "", "replay --strict": "false", "replay --top": "10", "replay --tz": "UTC", "replay --vary": "",
	"replay --where": "[]", "replay --nginx-format": "", "replay --envoy-format": "",
	// docs/replay.md, "Product lanes and configs" and "Through a fleet"
	"replay --config": "", "replay --from": "auto", "replay --replicas": "1", "replay --routing": "round_robin",
	"replay --hash-key": "ip", "replay --state": "local", "replay --seed": "1",
	"replay --to-scenario": "", "replay --key": "ip", "replay --groups": "5", "replay --max-events": "50000000",
	// docs/distributed.md: every key unless --shard; the merge prints text unless --format
	"replay --shard": "", "replay merge --format": "text", "replay merge --out": "", "replay merge --output": "text",
	// docs/output.md: a table by default; docs/scenarios.md: 50,000,000 events
	"run --duration": "0s", "run --format": "text", "run --lanes": "", "run --max-events": "50000000", "run --out": "",
	"run --seed": "0", "run --seeds": "1", "run --set": "[]", "run --trace": "", "run --wide": "false", "run --width": "0",
	// README.md: rlsim serve [FILE|NAME] [--addr 127.0.0.1:8080], loopback by default
	"serve --addr": "127.0.0.1:8080", "serve --lanes": "", "serve --max-events": "50000000", "serve --seed": "0", "serve --set": "[]",
	"sweep --duration": "0s", "sweep --find": "", "sweep --format": "text", "sweep --jobs": "0", "sweep --lanes": "",
	"sweep --max-events": "50000000", "sweep --out": "", "sweep --seed": "0", "sweep --seeds": "1", "sweep --set": "[]",
	"sweep --shard": "", "sweep --vary": "[]", "sweep --where": "[]", "sweep --wide": "false", "sweep --width": "0",
	"sweep merge --find": "", "sweep merge --format": "text", "sweep merge --out": "", "sweep merge --where": "[]",
	"sweep merge --wide": "false", "sweep merge --width": "0",
	"tui --lanes": "", "tui --max-events": "50000000", "tui --seed": "0", "tui --set": "[]",
	"validate --max-events": "50000000", "validate --set": "[]",
	// docs/import.md: no config, its product detected, problems warned of
	"import --from": "auto", "import --strict": "false",
	// cobra's completion commands
	"completion bash --no-descriptions": "false", "completion fish --no-descriptions": "false",
	"completion powershell --no-descriptions": "false", "completion zsh --no-descriptions": "false",
	// rlsim version --help
	"version --format": "text",
	// --output (-f), hidden, is --format (-o) under its first short form
	"conform --output": "text", "replay --output": "text", "run --output": "text", "sweep --output": "text",
	"sweep merge --output": "text", "version --output": "text",
	"validate --format": "text", "validate --output": "text", "scenarios --format": "text", "scenarios --output": "text",
	// docs/scenarios.md "A scenario in one line"
	"run --limit": "[]", "run --traffic": "[]", "run --print-scenario": "false",
	"run --config": "", "run --from": "auto", "run --strict": "false",
	"sweep --config": "", "sweep --from": "auto", "sweep --strict": "false",
	"validate --config": "", "validate --from": "auto", "validate --strict": "false",
	"tui --config": "", "tui --from": "auto", "tui --strict": "false",
	"serve --config": "", "serve --from": "auto", "serve --strict": "false",
	// docs/diff.md
	"diff --scenario": "", "diff --log": "[]", "diff --lane": "", "diff --from": "auto", "diff --seed": "0",
	"diff --max-events": "50000000", "diff --top": "10", "diff --fail-on": "[]", "diff --junit": "", "diff --format": "text",
	"diff --output": "text", "diff --log-format": "auto", "diff --nginx-format": "", "diff --envoy-format": "", "diff --fields": "",
	"diff --tz": "UTC", "diff --late": "5s", "diff --strict": "false",
}

// sameDefault compares a flag's default with a stated one, as the flag reads
// values: 10m is 10m0s, 0.50 is 0.5.
func sameDefault(f *pflag.Flag, stated string) bool {
	switch f.Value.Type() {
	case "duration":
		want, err := time.ParseDuration(stated)
		got, err2 := time.ParseDuration(f.DefValue)
		return err == nil && err2 == nil && want == got
	case "float64":
		want, err := strconv.ParseFloat(stated, 64)
		got, err2 := strconv.ParseFloat(f.DefValue, 64)
		return err == nil && err2 == nil && want == got
	}
	return f.DefValue == stated
}

// Every flag of the tree has the default stated for it, and the value a
// command is given with no flag is that default (the help prints DefValue,
// which is not the value the options hold if the two are set apart).
func TestEveryFlagHasItsStatedDefault(t *testing.T) {
	seen := map[string]bool{}
	walkCommands(NewCmdRoot(io.Discard, nil), func(path string, c *cobra.Command) {
		c.LocalFlags().VisitAll(func(f *pflag.Flag) {
			key := path + " --" + f.Name
			seen[key] = true
			want, ok := documentedDefaults[key]
			switch {
			case !ok:
				t.Errorf("%s: default %q stated nowhere in this test; add it with its source", key, f.DefValue)
			case !sameDefault(f, want):
				t.Errorf("%s: default %q, the help and docs state %q", key, f.DefValue, want)
			case f.Value.String() != f.DefValue:
				t.Errorf("%s: holds %q before parsing, the help says %q", key, f.Value.String(), f.DefValue)
			}
		})
	})
	for key := range documentedDefaults {
		if !seen[key] {
			t.Errorf("%s: no such flag any more", key)
		}
	}
}

// docDefault is "`--NAME[ ARG]` [word] (default VALUE" in the docs; docTheDefault is
// "`--NAME VALUE` (the default)".
var (
	docDefault    = regexp.MustCompile("`--([a-z-]+)[^`]*`\\s*(?:[a-z]+\\s+)?\\(default ([^,;)\\s]+)")
	docTheDefault = regexp.MustCompile("`--([a-z-]+) ([^`\\s]+)`\\s*\\(the default\\)")
)

// Where docs/*.md or the README state a flag's default, it is the flag's default
// in the command the page is about (docs/conform.md: conform), or, for a page
// about none, in every command that has the flag.
func TestDocsStateTheFlagsDefaults(t *testing.T) {
	flags := map[string]map[string]*pflag.Flag{} // command path → name → flag
	walkCommands(NewCmdRoot(io.Discard, nil), func(path string, c *cobra.Command) {
		flags[path] = map[string]*pflag.Flag{}
		c.LocalFlags().VisitAll(func(f *pflag.Flag) { flags[path][f.Name] = f })
	})
	pages, _ := filepath.Glob(filepath.Join("..", "..", "docs", "*.md"))
	pages = append(pages, filepath.Join("..", "..", "README.md"))
	found := 0
	for _, page := range pages {
		text, err := os.ReadFile(page)
		if err != nil {
			t.Fatal(err)
		}
		about := strings.TrimSuffix(filepath.Base(page), ".md")
		var stated [][]string
		for _, re := range []*regexp.Regexp{docDefault, docTheDefault} {
			stated = append(stated, re.FindAllStringSubmatch(string(text), -1)...)
		}
		for _, m := range stated {
			name, value := m[1], strings.TrimSuffix(m[2], ".")
			var where []string
			if flags[about][name] != nil {
				where = []string{about}
			} else {
				for path, fs := range flags {
					if fs[name] != nil {
						where = append(where, path)
					}
				}
			}
			if len(where) == 0 {
				t.Errorf("%s: %q states the default of --%s, which no command has", page, m[0], name)
			}
			for _, path := range where {
				found++
				if f := flags[path][name]; !sameDefault(f, value) {
					t.Errorf("%s: %q, but rlsim %s --%s defaults to %q", page, m[0], path, name, f.DefValue)
				}
			}
		}
	}
	if found < 8 {
		t.Errorf("found %d stated defaults in the docs, want at least 8 (the patterns stopped matching?)", found)
	}
}

// rlsim conform given no --tolerance runs with 50ms, the documented default
// (docs/conform.md), as seen by its run.
func TestConformGetsItsDefaults(t *testing.T) {
	var got *conformOptions
	cmd := NewCmdConform(io.Discard, func(o *conformOptions) error { got = o; return nil })
	cmd.SetArgs([]string{"--redis", "127.0.0.1:1", "demo"})
	if err := cmd.Execute(); err != nil {
		t.Fatal(err)
	}
	if got == nil {
		t.Fatal("the run was not called")
	}
	f := got.Flags
	if f.Tolerance != 50*time.Millisecond || f.Clock != "driver" || f.Scale != 10 || f.Show != 5 || f.Runs != 3 ||
		f.Format != "text" || f.MaxWall != 10*time.Minute || f.MaxEvents != 50_000_000 || len(f.Replicas) != 0 {
		t.Errorf("conform with no flags: %+v; want tolerance 50ms, clock driver, time scale 10, show 5, runs 3, text, max wall 10m, 50000000 events, no race", f)
	}
}
