package sweep

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/rlsim/rlsim/run"
)

func TestFromFlags(t *testing.T) {
	ov := run.Overrides{Lanes: "gcra", MaxEvents: 1000}
	sw, err := FromFlags("demo", []string{"limits[0].limit=1..3/1", "limits[0].burst=5"}, 4, "1/3", ov)
	if err != nil {
		t.Fatal(err)
	}
	want := []Vary{{Path: "limits[0].limit", Values: []string{"1", "2", "3"}}, {Path: "limits[0].burst", Values: []string{"5"}}}
	if sw.Arg != "demo" || sw.Seeds != 4 || sw.Shard != (Shard{1, 3}) || sw.Overrides.Lanes != "gcra" ||
		len(sw.Varies) != 2 || !slices.Equal(sw.Varies[0].Values, want[0].Values) || sw.Varies[1].Path != want[1].Path {
		t.Errorf("FromFlags = %+v", sw)
	}
	if sw, err := FromFlags("demo", []string{"x=1"}, 1, "", ov); err != nil || sw.Shard != (Shard{}) {
		t.Errorf("no --shard: %+v, %v; want every point", sw.Shard, err)
	}

	// Every bad flag at once, as the input's fault.
	_, err = FromFlags("demo", nil, 1, "3/3", ov)
	var ie *run.InputError
	if !errors.As(err, &ie) {
		t.Fatalf("FromFlags(no vary, bad shard) = %v, want an *run.InputError", err)
	}
	for _, w := range []string{"--vary: give at least one", "--shard 3/3: want i/n"} {
		if !strings.Contains(err.Error(), w) {
			t.Errorf("error %q lacks %q", err, w)
		}
	}
	if _, err := FromFlags("demo", []string{"limits[0].limit=1..5", "limits[0].burst=5..1/x"}, 1, "", ov); err == nil ||
		strings.Count(err.Error(), "\n") != 1 {
		t.Errorf("two bad --vary: %v, want both named", err)
	}
}

func TestParseObjective(t *testing.T) {
	varies := []Vary{{Path: "limits[0].limit", Values: []string{"10", "20"}}}
	lanes, classes := []string{"gcra", "fixed_window"}, []string{"users", "abuser"}
	obj, err := ParseObjective("max limits[0].limit", []string{"lane gcra class users success >= 99%", "peak_ratio <= 1.5"}, varies, lanes, classes)
	if err != nil {
		t.Fatal(err)
	}
	if !obj.Find.Max || obj.Find.Path != "limits[0].limit" || len(obj.Where) != 2 || obj.Where[0].Lane != "gcra" || obj.Where[1].Lane != "" {
		t.Errorf("ParseObjective = %+v", obj)
	}
	_, err = ParseObjective("min limits[0].burst", []string{"class quite success >= 99%", "lane gcra success >= 199%"}, varies, lanes, classes)
	var ie *run.InputError
	if !errors.As(err, &ie) {
		t.Fatalf("ParseObjective(bad) = %v, want an *run.InputError", err)
	}
	for _, w := range []string{"limits[0].burst is not varied", `unknown class "quite"`, `"199%" is not a rate`} {
		if !strings.Contains(err.Error(), w) {
			t.Errorf("error %q lacks %q: every problem at once", err, w)
		}
	}
}

func TestResultCommand(t *testing.T) {
	r := &Result{Header: Header{Varies: []Vary{{Path: "limits[0].limit", Values: []string{"10", "20"}}},
		Seeds: 3, Seed: 7, Duration: "30s", Lanes: "gcra,fixed_window", Sets: []string{"clients[0].count=5", "lanes=[a, b]"}}}
	got := r.Command("my file.yaml", "min limits[0].limit", []string{"class users success >= 99%"})
	want := `rlsim sweep 'my file.yaml' --vary 'limits[0].limit=10,20' --seeds 3 --seed 7 --duration 30s --lanes gcra,fixed_window` +
		` --set 'clients[0].count=5' --set 'lanes=[a, b]' --find 'min limits[0].limit' --where 'class users success >= 99%'`
	if got != want {
		t.Errorf("Command =\n%s\nwant\n%s", got, want)
	}
	r = &Result{Header: Header{Varies: []Vary{{Path: "duration", Values: []string{"1s"}}}, Seeds: 1, Seed: 1}}
	if got, want := r.Command("demo", "", nil), "rlsim sweep demo --vary duration=1s --seeds 1 --seed 1"; got != want {
		t.Errorf("Command without flags = %q, want %q", got, want)
	}
}

func TestResultNames(t *testing.T) {
	if lanes, classes := (&Result{}).Names(); lanes != nil || classes != nil {
		t.Errorf("Names of no runs = %q, %q; want none", lanes, classes)
	}
	r := &Result{Points: []PointResult{{Runs: []SeedRun{{Lanes: []run.LaneFigures{
		{Lane: "gcra", Classes: []run.ClassFigures{{Name: "users"}, {Name: "abuser"}}},
		{Lane: "fixed_window", Classes: []run.ClassFigures{{Name: "ignored"}}},
	}}}}}}
	lanes, classes := r.Names()
	if !slices.Equal(lanes, []string{"gcra", "fixed_window"}) || !slices.Equal(classes, []string{"users", "abuser"}) {
		t.Errorf("Names = %q, %q; want every lane and the first lane's classes", lanes, classes)
	}
}
