// Package scenarios reads, checks and writes rlsim scenario files (YAML) and holds
// the built-in library of scenarios.
//
// A file describes either a world to run through every limiting lane (a
// sim.Config) or, with a contention section, the optimistic-concurrency backoff
// study (a contention.Config). Parse reports every problem at once, each as
// "file:line: field.path: what is wrong". docs/scenarios.md is the user's guide
// to the format; JSONSchema describes it for editors.
package scenarios

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"time"

	"gopkg.in/yaml.v3"

	"github.com/rlsim/rlsim/algorithms"
	"github.com/rlsim/rlsim/contention"
	"github.com/rlsim/rlsim/sim"
)

// Scenario is one loaded scenario file. Exactly one of Config and Contention is set.
type Scenario struct {
	Name        string // the file's base name without extension, or the built-in's name
	File        string // where it was read from, as error messages name it
	Description string
	Config      *sim.Config
	Contention  *contention.Config
	Checks      []Check  // thresholds on a comparison's results; none for a contention study
	Source      []byte   // the YAML as written
	Sets        []string // the --set flags written into Source before it was decoded, as given
}

// MaxFileSize is the largest scenario file Load and Parse read, in bytes: far
// above any hand-written scenario, far below what would take long to parse.
const MaxFileSize = 10 << 20

// Load reads and parses the scenario file at path, with sets written into it. A file over MaxFileSize is
// refused without being read whole.
func Load(path string, sets ...Set) (*Scenario, error) {
	data, err := readCapped(path)
	if err != nil {
		return nil, err
	}
	return Parse(path, data, sets...)
}

func readCapped(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, &FieldError{File: path, Msg: readProblem(err)}
	}
	defer f.Close()
	if info, err := f.Stat(); err == nil && info.Mode().IsRegular() && info.Size() > MaxFileSize {
		return nil, tooBig(path)
	}
	// A pipe or device has no size to check: read one byte past the cap at most.
	data, err := io.ReadAll(io.LimitReader(f, MaxFileSize+1))
	if err != nil {
		return nil, &FieldError{File: path, Msg: readProblem(err)}
	}
	if len(data) > MaxFileSize {
		return nil, tooBig(path)
	}
	return data, nil
}

func tooBig(file string) error {
	return &FieldError{File: file, Msg: fmt.Sprintf("larger than %d MB, the most a scenario file may hold", MaxFileSize>>20)}
}

func readProblem(err error) string {
	switch {
	case os.IsNotExist(err):
		return "no such file"
	case os.IsPermission(err):
		return "permission denied"
	}
	if pe, ok := err.(*os.PathError); ok {
		return pe.Err.Error()
	}
	return err.Error()
}

var yamlLine = regexp.MustCompile(`^yaml: line (\d+): (.*)$`)

// Parse reads a scenario from data, with sets written into it before it is
// decoded; file names it in error messages, and a set's flag names a problem
// with what it wrote. The error, if any, is an Errors listing every problem found.
func Parse(file string, data []byte, sets ...Set) (s *Scenario, err error) {
	errs := &errorList{file: file}
	if len(data) > MaxFileSize {
		return nil, tooBig(file)
	}
	var root yaml.Node
	dec := yaml.NewDecoder(bytes.NewReader(data))
	err = dec.Decode(&root)
	if err == io.EOF {
		err = nil
	}
	if err == nil {
		var next yaml.Node
		if dec.Decode(&next) != io.EOF {
			errs.add(next.Line, "", "a second YAML document (after ---): a scenario file holds one")
			return nil, errs.err()
		}
	}
	if err != nil {
		msg := strings.TrimPrefix(err.Error(), "yaml: ")
		line := 0
		if m := yamlLine.FindStringSubmatch(err.Error()); m != nil {
			line, _ = strconv.Atoi(m[1])
			msg = m[2]
		} else {
			line = yamlErrorLine(data, err.Error())
		}
		errs.add(line, "", "not valid YAML: "+msg)
		return nil, errs.err()
	}
	if len(root.Content) == 0 {
		errs.add(0, "", "the file is empty: a scenario needs at least clients (see rlsim scenarios show demo)")
		return nil, errs.err()
	}
	owned := applySets(file, root.Content[0], sets, errs)
	var f fileSpec
	d := &decoder{errs: errs, lines: map[string]int{}}
	d.decode(root.Content[0], reflect.ValueOf(&f).Elem(), "", "")
	s = &Scenario{Name: strings.TrimSuffix(filepath.Base(file), filepath.Ext(file)), File: file, Source: data}
	for _, set := range sets {
		if set.label == "" { // a ConfigSet is its config's, named by the command
			s.Sets = append(s.Sets, set.Path+"="+set.Value)
		}
	}
	// Check what was decoded even when some fields were in error, so that every
	// problem is reported at once; problems under a field already in error are
	// consequences, not news, and are left out.
	b := &builder{errs: errs, lines: d.lines, bad: map[string]bool{}}
	for _, e := range errs.errs {
		b.bad[e.Path] = true
	}
	b.build(&f, s)
	switch c := s.checked(); {
	case s.Config != nil:
		b.simValidate(s.Config.ValidateScenario())
	case errs.err() == nil && c != nil:
		b.simValidate(c.Validate())
	}
	blame(file, errs.errs, owned)
	if err := errs.err(); err != nil {
		return nil, err
	}
	return s, nil
}

// CheckBudget refuses the scenario with a *BudgetError when its simulation is
// estimated to process more than budget events.
func (s *Scenario) CheckBudget(budget int64) error {
	var n int64
	if c := s.checked(); c != nil {
		n = c.EstimateEvents()
	}
	if n > budget {
		return &BudgetError{File: s.File, Estimate: n, Budget: budget}
	}
	return nil
}

// Marshal writes s as a scenario file with every default made explicit, such that
// Parse gives back the same configuration.
func Marshal(s *Scenario) ([]byte, error) {
	f, err := toFile(s)
	if err != nil {
		return nil, err
	}
	return yaml.Marshal(f)
}

func toFile(s *Scenario) (*fileSpec, error) {
	f := &fileSpec{Description: s.Description}
	switch {
	case s.Contention != nil:
		f.Seed, f.Contention = &s.Contention.Seed, contentionFile(s.Contention)
	case s.Config != nil:
		c := s.Config
		f.Duration, f.Drain, f.Seed, f.Bucket = dur(c.Duration), optDur(c.Drain), &c.Seed, optDur(c.Bucket)
		if !c.Start.IsZero() {
			f.Start = WallTime(c.Start.Format(time.RFC3339Nano))
		}
		for _, l := range c.Limits {
			ls := limitSpec{Name: l.Name, Key: l.Key.String(), Limit: l.Policy.Limit,
				Window: dur(l.Policy.Window), Burst: l.Policy.Burst, Endpoint: l.Endpoint, Concurrency: l.Concurrency}
			if l.Concurrency != 0 {
				ls.Window = nil
			}
			if l.NoHeaders && l.Concurrency == 0 {
				ls.Headers = "none"
			}
			if l.Shadow {
				ls.Enforce = new(bool)
			}
			placementToFile(l, &ls, c.Topology != nil)
			f.Limits = append(f.Limits, ls)
		}
		for _, ch := range c.Rules {
			f.Limits[ch.Limit].Changes = append(f.Limits[ch.Limit].Changes, ruleToFile(ch))
		}
		if c.HeaderStyle != sim.HeadersDraft {
			f.HeaderStyle = c.HeaderStyle.String()
		}
		if c.Chain != sim.ChainAllOrNothing {
			f.Chain = c.Chain.String()
		}
		f.Lanes = lanesToFile(c)
		absorbed := absorbPolicies(c, f.Lanes)
		for j, o := range c.Overrides {
			if absorbed[j] {
				continue // its lane's product section says it
			}
			lane := o.Name
			if lane == "" {
				lane = o.Lane.String()
			}
			f.Overrides = append(f.Overrides, overrideSpec{Lane: lane, LimitIndex: o.Limit,
				Limit: o.Policy.Limit, Window: dur(o.Policy.Window), Burst: o.Policy.Burst})
		}
		laneSettingsToFile(c, f)
		f.Checks = checksToFile(s.Checks)
		for _, g := range c.Clients {
			f.Clients = append(f.Clients, clientToFile(g))
		}
		if be := c.Backend; be != nil {
			bs := &backendSpec{Capacity: &be.Capacity, Queue: be.QueueSize, Service: serviceToFile(be.Service),
				RetryAfter: optDur(be.RetryAfter), Shedding: sheddingToFile(be.Shedding)}
			if be.Discipline != sim.QueueFIFO {
				bs.Discipline = be.Discipline.String()
			}
			if q := be.CoDel; q != nil {
				bs.CoDel = &codelSpec{Target: optDur(q.Target), Interval: optDur(q.Interval)}
			}
			for _, ch := range be.Changes {
				cs := changeSpec{At: dur(ch.At), Capacity: &ch.Capacity}
				if ch.Service.Mean > 0 {
					cs.Service = serviceToFile(ch.Service)
				}
				bs.Changes = append(bs.Changes, cs)
			}
			f.Backend = bs
		}
		f.Topology = topologyToFile(c.Topology)
	default:
		return nil, errNoConfig
	}
	return f, nil
}

func clientToFile(g sim.ClientGroup) clientSpec {
	cs := clientSpec{Name: g.Name, Count: &g.Count, Cost: g.Cost, Pace: g.Pace, Deadline: optDur(g.Deadline), Timeout: optDur(g.Timeout)}
	if g.Criticality != sim.Critical {
		cs.Criticality = g.Criticality.String()
	}
	if g.ServiceFactor != 0 {
		cs.ServiceFactor = &g.ServiceFactor
	}
	if g.RTT != 0 || g.RTTKind != sim.ServiceConstant {
		cs.RTT = &rttSpec{Mean: dur(g.RTT)}
		if g.RTTKind != sim.ServiceConstant {
			cs.RTT.Distribution = g.RTTKind.String()
		}
	}
	if id := g.Identity; id != (sim.Identity{}) {
		cs.Identity = &identitySpec{User: id.User, IP: id.IP, APIKey: id.APIKey, Tenant: id.Tenant, Endpoint: id.Endpoint}
	}
	for _, a := range g.Arrivals {
		as := arrivalSpec{Kind: a.Kind.String(), Start: optDur(a.Start), Stop: optDur(a.Stop), Count: a.Count,
			Spread: optDur(a.Spread), On: optDur(a.On), Off: optDur(a.Off), Idle: optDur(a.Idle)}
		if a.Kind == sim.ArrivalBurst {
			as.At = optDur(a.At)
		}
		if a.Rate != (sim.Rate{}) {
			r := Rate(a.Rate)
			as.Rate = &r
		}
		cs.Arrivals = append(cs.Arrivals, as)
	}
	if r := g.Retry; !reflect.ValueOf(r).IsZero() {
		rs := &retrySpec{Kind: r.Kind.String(), Delay: optDur(r.Delay), MaxAttempts: r.MaxAttempts,
			HonorRetryAfter: r.HonorRetryAfter, RetryAfterJitter: optDur(r.RetryAfterJitter), On: r.On}
		if r.RetryAfter != sim.RetryAfterHeader {
			rs.RetryAfter = r.RetryAfter.String()
		}
		if r.Kind == sim.RetryExponential {
			rs.Base, rs.Cap, rs.Jitter = dur(r.Base), dur(r.Cap), r.Jitter.String()
		}
		if b := r.Budget; b != nil {
			rs.Budget = &budgetSpec{Ratio: &b.Ratio, MinPerSecond: &b.MinPerSecond, TTL: optDur(b.TTL)}
		}
		cs.Retry = rs
	}
	return cs
}

func serviceToFile(s sim.Service) *serviceSpec {
	return &serviceSpec{Mean: dur(s.Mean), Distribution: s.Kind.String()}
}

func dur(d time.Duration) *Duration { v := Duration(d); return &v }

// optDur is nil for zero, so that an absent field stays absent.
func optDur(d time.Duration) *Duration {
	if d == 0 {
		return nil
	}
	return dur(d)
}

// ruleToFile writes a rule push as a change of its limit, stating every field
// it sets so that reading it back gives the same push.
func ruleToFile(ch sim.RuleChange) ruleSpec {
	enforce := !ch.Shadow
	rs := ruleSpec{At: dur(ch.At), Enforce: &enforce}
	if ch.Policy != (algorithms.Policy{}) {
		burst := ch.Policy.Burst
		rs.Limit, rs.Window, rs.Burst = ch.Policy.Limit, dur(ch.Policy.Window), &burst
	}
	return rs
}

// yamlErrorLine finds the line of a YAML error that yaml.v3 printed without
// one (it leaves the line out when its mark is on the first line, and for
// errors of its reader): the shortest prefix of whole lines of data that fails
// with the same message ends at it. 0 when none does.
func yamlErrorLine(data []byte, message string) int {
	lines := bytes.SplitAfter(data, []byte("\n"))
	fails := func(k int) bool {
		var n yaml.Node
		err := yaml.NewDecoder(bytes.NewReader(bytes.Join(lines[:k], nil))).Decode(&n)
		return err != nil && err != io.EOF && err.Error() == message
	}
	if !fails(len(lines)) {
		return 0
	}
	lo, hi := 1, len(lines) // the first prefix that fails lies in [lo, hi]
	for lo < hi {
		mid := (lo + hi) / 2
		if fails(mid) {
			hi = mid
		} else {
			lo = mid + 1
		}
	}
	return lo
}
