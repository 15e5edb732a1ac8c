package run

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/rlsim/rlsim/scenarios"
)

func TestCommandWritesWhatRanAgain(t *testing.T) {
	ov := Overrides{Duration: 90e9, Lanes: "token_bucket,gcra", Sets: []string{"clients[0].count=3", "a b=c"},
		Config: &Config{Path: "my nginx.conf", From: "nginx"}, MaxEvents: 7}
	want := "rlsim run demo --seed 4 --duration 1m30s --lanes token_bucket,gcra --set 'clients[0].count=3' --set 'a b=c'" +
		" --config 'my nginx.conf' --from nginx --max-events 7"
	if got := ov.Command("demo", 4); got != want {
		t.Errorf("Command:\n got %s\nwant %s", got, want)
	}
	for _, ov := range []Overrides{{MaxEvents: DefaultMaxEvents}, {MaxEvents: 0}, {MaxEvents: -1}, {Config: &Config{Path: "x.conf", From: "auto"}}} {
		got := ov.Command("demo", 1)
		if strings.Contains(got, "--max-events") || strings.Contains(got, "--from") || strings.Contains(got, "--duration") {
			t.Errorf("Command of %+v = %q: a default is left out", ov, got)
		}
	}
	if got := (Overrides{Config: &Config{Path: "x.conf"}}).Command("demo", 1); got != "rlsim run demo --seed 1 --config x.conf" {
		t.Errorf("Command with a detected config = %q", got)
	}
}

func TestShellQuote(t *testing.T) {
	for in, want := range map[string]string{
		"":                "''",
		"demo":            "demo",
		"a/b-c_d.e,f:g=h": "a/b-c_d.e,f:g=h",
		"+@Z9":            "+@Z9",
		"a b":             "'a b'",
		"it's":            `'it'\''s'`,
		"$HOME":           "'$HOME'",
	} {
		if got := ShellQuote(in); got != want {
			t.Errorf("ShellQuote(%q) = %s, want %s", in, got, want)
		}
	}
}

// Load's choice between a file and a built-in, each way the doc comment states.
func TestLoadChoosesFileOrBuiltin(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	src, _ := scenarios.BuiltinSource("demo")
	if err := os.WriteFile("demo", src, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Load("demo"); err == nil || !strings.Contains(err.Error(), "./demo") || !strings.Contains(err.Error(), "builtin:demo") {
		t.Errorf("a name both a built-in and a file: %v", err)
	}
	for _, arg := range []string{"builtin:demo", "./demo"} {
		if s, err := Load(arg); err != nil || s == nil {
			t.Errorf("Load(%q): %v", arg, err)
		}
	}
	if _, err := Load("builtin:nope"); err == nil || !strings.HasPrefix(err.Error(), "builtin:nope") {
		t.Errorf("an unknown builtin: %v", err)
	}
	if err := os.Mkdir("nat-per-ip", 0o755); err != nil {
		t.Fatal(err)
	}
	if s, err := Load("nat-per-ip"); err != nil || s.Name != "nat-per-ip" {
		t.Errorf("a folder does not hide a built-in: %v", err)
	}
	if err := os.WriteFile("mine", src, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Load("mine"); err != nil {
		t.Errorf("a bare name that is only a file is the file: %v", err)
	}
	if _, err := Load("absent"); err == nil || !strings.Contains(err.Error(), "no such file") {
		t.Errorf("neither: %v", err)
	}
	if _, err := Load(filepath.Join("sub", "x")); err == nil {
		t.Errorf("a path that is missing is an error")
	}
	if !looksLikePath(`a\b`) || !looksLikePath("x.yml") || !looksLikePath("x.yaml") || looksLikePath("demo") {
		t.Errorf("looksLikePath")
	}
}

func TestLoadAllAndParseSetsReportEveryProblem(t *testing.T) {
	_, err := LoadAll([]string{"nope1", "demo", "nope2"})
	if err == nil || !strings.Contains(err.Error(), "nope1") || !strings.Contains(err.Error(), "nope2") {
		t.Errorf("LoadAll: %v", err)
	}
	var ie *InputError
	if !errors.As(err, &ie) {
		t.Errorf("LoadAll's problems are bad input: %T", err)
	}
	_, err = ParseSets([]string{"nopath", "a=1", "alsonopath"})
	if err == nil || !strings.Contains(err.Error(), "nopath") || !strings.Contains(err.Error(), "alsonopath") || !errors.As(err, &ie) {
		t.Errorf("ParseSets: %v", err)
	}
	if sets, err := ParseSets([]string{"a=1", "b=2"}); err != nil || len(sets) != 2 {
		t.Errorf("ParseSets of two: %v, %v", sets, err)
	}
}

func TestStdinIsReadOnceAndBounded(t *testing.T) {
	defer SetStdin(nil)
	src, _ := scenarios.BuiltinSource("demo")
	r := strings.NewReader(string(src))
	SetStdin(r)
	for i := 0; i < 2; i++ {
		s, err := Load(StdinArg)
		if err != nil || s == nil {
			t.Fatalf("load %d of stdin: %v", i, err)
		}
	}
	SetStdin(strings.NewReader(strings.Repeat("#", scenarios.MaxFileSize)))
	if _, err := Load(StdinArg); err != nil && strings.Contains(err.Error(), "larger than") {
		t.Errorf("a file of exactly the most is not too large: %v", err)
	}
	SetStdin(strings.NewReader(strings.Repeat("#", scenarios.MaxFileSize+1)))
	if _, err := Load(StdinArg); err == nil || !strings.HasPrefix(err.Error(), StdinFile) || !strings.Contains(err.Error(), "larger than") {
		t.Errorf("a byte over the most: %v", err)
	}
}

// The playlist starts with the scenario asked for, then the built-ins after
// it in their order, round the list, with no contention study.
func TestPlaylistMovesOnFromTheFirst(t *testing.T) {
	names := scenarios.BuiltinNames()
	first, err := scenarios.LoadBuiltin(names[len(names)-2])
	if err != nil {
		t.Fatal(err)
	}
	list, err := Playlist(first, Overrides{})
	if err != nil {
		t.Fatal(err)
	}
	var want []string
	for i := range names {
		n := names[(len(names)-2+i)%len(names)]
		if s, _ := scenarios.LoadBuiltin(n); s.Contention == nil {
			want = append(want, n)
		}
	}
	var got []string
	for _, s := range list {
		got = append(got, s.Name)
	}
	if !slices.Equal(got, want) {
		t.Errorf("playlist\n got %v\nwant %v", got, want)
	}
	if list[0] != first {
		t.Errorf("the first is the scenario given")
	}
	study, _ := scenarios.LoadBuiltin("backoff-contention")
	if _, err := Playlist(study, Overrides{}); err == nil {
		t.Errorf("a contention study has no playlist")
	}
	if _, err := Playlist(first, Overrides{MaxEvents: 1}); err == nil {
		t.Errorf("the first is checked against the budget")
	}
}
