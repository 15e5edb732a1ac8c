package sweep

import (
	"errors"
	"fmt"
	"strings"

	"github.com/rlsim/rlsim/run"
)

// FromFlags is the sweep that rlsim sweep's flags ask for: arg with ov at
// every point of the grid of varies (each as --vary gives it), seeds seeds a
// point, and only the points of shard (--shard i/n; "" for every point). Every
// bad flag is reported at once, as an *run.InputError.
func FromFlags(arg string, varies []string, seeds int, shard string, ov run.Overrides) (Sweep, error) {
	sw := Sweep{Arg: arg, Seeds: seeds, Overrides: ov}
	var errs []error
	for _, v := range varies {
		vary, err := ParseVary(v)
		errs = append(errs, err)
		sw.Varies = append(sw.Varies, vary)
	}
	if len(varies) == 0 {
		errs = append(errs, errors.New("--vary: give at least one, e.g. --vary 'limits[0].limit=10..50/10' (rlsim run --seeds runs one point over several seeds)"))
	}
	if shard != "" {
		sh, err := ParseShard(shard)
		errs = append(errs, err)
		sw.Shard = sh
	}
	return sw, run.BadInput(errors.Join(errs...))
}

// ParseObjective reads --find and --where against the sweep's varies, lanes
// and classes, reporting every problem at once as an *run.InputError.
func ParseObjective(find string, where []string, varies []Vary, lanes, classes []string) (*Objective, error) {
	f, err := ParseFind(find, varies)
	errs := []error{err}
	obj := &Objective{Find: f}
	for _, w := range where {
		wh, err := ParseWhere(w, lanes, classes)
		errs = append(errs, err)
		obj.Where = append(obj.Where, wh)
	}
	return obj, run.BadInput(errors.Join(errs...))
}

// Command is the command line that runs the sweep r of arg again from its
// first seed, finding what find and where found. It is written from r's
// header, so that a merge of shards gives the line the whole sweep gives;
// output choices (--format, --out, --jobs, --max-events) are left out.
func (r *Result) Command(arg, find string, where []string) string {
	q := run.ShellQuote
	parts := []string{"rlsim", "sweep", q(arg)}
	for _, v := range r.Varies {
		parts = append(parts, "--vary", q(v.Path+"="+strings.Join(v.Values, ",")))
	}
	parts = append(parts, "--seeds", fmt.Sprint(r.Seeds), "--seed", fmt.Sprint(r.Seed))
	if r.Duration != "" {
		parts = append(parts, "--duration", r.Duration)
	}
	if r.Lanes != "" {
		parts = append(parts, "--lanes", q(r.Lanes))
	}
	for _, set := range r.Sets {
		parts = append(parts, "--set", q(set))
	}
	if find != "" {
		parts = append(parts, "--find", q(find))
	}
	for _, w := range where {
		parts = append(parts, "--where", q(w))
	}
	return strings.Join(parts, " ")
}

// Names are the lanes and classes of the sweep's first run; none without one.
func (r *Result) Names() (lanes, classes []string) {
	if len(r.Points) == 0 || len(r.Points[0].Runs) == 0 {
		return nil, nil
	}
	for i, l := range r.Points[0].Runs[0].Lanes {
		lanes = append(lanes, l.Lane)
		if i == 0 {
			for _, c := range l.Classes {
				classes = append(classes, c.Name)
			}
		}
	}
	return lanes, classes
}
