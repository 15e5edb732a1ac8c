package replay

import (
	"errors"
	"fmt"
	"github.com/rlsim/rlsim/run/sweep"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/rlsim/rlsim/run"
)

// Flags are the flags of rlsim replay that say what to replay, as given.
type Flags struct {
	Limits     []string
	Lanes      []string
	LogFormat  string
	Fields     string
	TZ         string
	Late       time.Duration
	Strict     bool
	LegitBelow float64
	Top        int
	Format     string
	Vary       string
	Find       string
	Where      []string
	Scenario   string

	// NginxFormat and EnvoyFormat are a log_format string and an Envoy
	// text_format string (--nginx-format, --envoy-format): either one implies
	// its --log-format.
	NginxFormat, EnvoyFormat string
	// Product lanes and the fleet (fleetflags.go).
	Config   string // a product's config: its limits and lanes, as --scenario takes a scenario's
	From     string // the config's product, auto by default
	Replicas int
	Routing  string
	HashKey  string
	State    string
	Seed     uint64

	// ToScenario, when set, derives a scenario from the log instead of
	// replaying it (--to-scenario): "-" prints it, another value is the file
	// written. Key, Groups and MaxEvents shape it (--key, --groups, --max-events).
	ToScenario string
	Key        string
	Groups     int
	MaxEvents  int64
	// Shard is --shard i/n: replay shard i of n of the keys (ParseShard) and
	// print a partial result for rlsim replay merge.
	Shard string
}

// Options are the replay f asks for, or every bad flag's error at once, each
// naming its flag.
func (opts Flags) Options() (Options, error) {
	var errs []error
	ro := Options{Lanes: opts.Lanes, Format: opts.LogFormat, Late: opts.Late, Strict: opts.Strict,
		LegitBelow: opts.LegitBelow, Top: opts.Top}
	if opts.Scenario != "" || opts.Config != "" {
		sc, err := opts.scenario(&ro)
		switch {
		case err != nil && opts.Config != "":
			errs = append(errs, err) // it names --config
		case err != nil:
			errs = append(errs, fmt.Errorf("--scenario: %w", err))
		case sc.Config == nil:
			errs = append(errs, fmt.Errorf("%s: a contention study has no limits to replay", opts.source()))
		default:
			limits, lanes, err := FromScenario(sc.Config)
			if err != nil {
				errs = append(errs, fmt.Errorf("%s: %v", opts.source(), err))
			}
			ro.Limits = limits
			if len(ro.Lanes) == 0 {
				ro.Lanes = lanes
			}
			ro.Config = sc.Config
			ro.Fleet, _ = ScenarioFleet(sc.Config)
			ro.ConfigWarnings = append(ro.ConfigWarnings, ScenarioWarnings(sc.Config)...)
		}
	}
	errs = append(errs, opts.fleet(&ro)...)
	// The lanes' own checks on each limit (a limit or burst whose exact
	// arithmetic would overflow), on the lanes that will replay it.
	var lanesKnown []string
	for _, lane := range ro.Lanes {
		if slices.Contains(LaneNames, lane) {
			lanesKnown = append(lanesKnown, lane)
		}
	}
	limitsOK := len(errs) == 0
	for _, l := range ro.Limits {
		if err := l.Check(lanesKnown); err != nil {
			limitsOK = false
			errs = append(errs, fmt.Errorf("%s: limit %s: %v", opts.source(), l.Name, err))
		}
	}
	for _, s := range opts.Limits {
		l, err := ParseLimit(s)
		if err == nil {
			err = l.Check(lanesKnown)
		}
		if err != nil {
			limitsOK = false
			errs = append(errs, fmt.Errorf("--limit %q: %v", s, err))
		}
		ro.Limits = append(ro.Limits, l)
	}
	if len(opts.Limits) == 0 && opts.Scenario == "" && opts.Config == "" {
		errs = append(errs, errors.New("--limit: at least one is needed (or --scenario), e.g. --limit 'key=ip limit=100/1m burst=20'"))
	}
	fields, err := ParseFields(opts.Fields)
	if err != nil {
		errs = append(errs, fmt.Errorf("--fields: %v", err))
	}
	ro.Fields = fields
	errs = append(errs, opts.customFormat(&ro, err == nil)...)
	if ro.Location, err = time.LoadLocation(opts.TZ); err != nil {
		errs = append(errs, fmt.Errorf("--tz: unknown zone %q", opts.TZ))
	}
	if opts.Late < 0 {
		errs = append(errs, fmt.Errorf("--late: must not be negative, got %v", opts.Late))
	}
	if opts.Late == 0 {
		ro.Late = NoLate // not the default
	}
	if !(opts.LegitBelow > 0 && opts.LegitBelow <= 1) { // NaN too
		errs = append(errs, fmt.Errorf("--legit-below: want a share in (0, 1], got %v", opts.LegitBelow))
	}
	if opts.Top <= 0 {
		errs = append(errs, fmt.Errorf("--top: must be positive, got %d", opts.Top))
	}
	for _, lane := range opts.Lanes {
		if _, err := ro.spec(lane); err != nil {
			errs = append(errs, fmt.Errorf("--lane: %q is not a lane a log can replay (want %s)", lane, strings.Join(ro.laneChoices(), ", ")))
		}
	}
	if opts.Vary != "" {
		v, err := sweep.ParseVary(opts.Vary)
		if err == nil {
			ro.Sweep, err = NewSweep(v.Path, v.Values, ro.Limits)
		}
		if err == nil && limitsOK {
			err = ro.Sweep.Check(ro.Limits, lanesKnown)
		}
		if err != nil {
			errs = append(errs, err)
		}
	}
	if opts.Find != "" {
		path, ok := strings.CutPrefix(opts.Find, "min ")
		if ro.Sweep == nil || !ok || strings.TrimSpace(path) != ro.Sweep.Path {
			errs = append(errs, fmt.Errorf("--find %s: want 'min PATH', PATH the --vary path", oneLine(opts.Find)))
		}
	}
	if opts.Find == "" && len(opts.Where) > 0 {
		errs = append(errs, errors.New("--where: needs --vary and --find 'min PATH' to say what to pick"))
	}
	lanes := ro.Lanes
	if len(lanes) == 0 {
		lanes = DefaultLanes
	}
	for _, s := range opts.Where {
		w, err := ParseWhere(s, lanes)
		if err != nil {
			errs = append(errs, err)
		}
		ro.Where = append(ro.Where, w)
	}
	if opts.Shard != "" {
		sh, err := ParseShard(opts.Shard)
		ro.Shard = sh
		errs = append(errs, err, CheckShardable(ro.Limits))
		for _, lane := range ro.Lanes {
			if !slices.Contains(LaneNames, lane) && !slices.Contains(ProductLanes, lane) {
				errs = append(errs, fmt.Errorf("--shard: lane %s is a --scenario's or --config's own: lanes by their own names are not merged yet; replay it without --shard", lane))
			}
		}
		if ro.Fleet.on() {
			errs = append(errs, fmt.Errorf("--shard: a fleet's figures (the busiest replica, the fleet's peak) are not merged yet: replay through %d replicas without --shard", ro.Fleet.Replicas))
		}
	}
	switch opts.Format {
	case "text", "json", "csv":
	default:
		errs = append(errs, fmt.Errorf("--format: unknown %q (want text, json, csv)", opts.Format))
	}
	if !slices.Contains(Formats, opts.LogFormat) {
		errs = append(errs, fmt.Errorf("--log-format: unknown %q (want %s)", opts.LogFormat, strings.Join(Formats, ", ")))
	}
	return ro, errors.Join(errs...)
}

// customFormat compiles --nginx-format or --envoy-format into ro.LogFormat
// (its --log-format then being nginx or envoy) and checks that --fields names
// fields it has, when fieldsOK; the errors name their flags.
func (opts Flags) customFormat(ro *Options, fieldsOK bool) []error {
	var errs []error
	if opts.LogFormat == "nginx" && opts.NginxFormat == "" {
		errs = append(errs, errors.New("--log-format nginx: needs the log_format string, --nginx-format '$remote_addr - $remote_user [$time_local] \"$request\" ...'"))
	}
	if opts.NginxFormat != "" && opts.EnvoyFormat != "" {
		return append(errs, errors.New("--nginx-format, --envoy-format: give one"))
	}
	for _, c := range []struct {
		flag, product, text string
		compile             func(string) (*LogFormat, error)
	}{{"--nginx-format", "nginx", opts.NginxFormat, NginxFormat}, {"--envoy-format", "envoy", opts.EnvoyFormat, EnvoyFormat}} {
		if c.text == "" {
			continue
		}
		if named, ok := ro.configFormats[c.text]; ok && c.product == "nginx" && !strings.Contains(c.text, "$") {
			c.text = named // a log_format of the --config, by its name
		}
		if opts.LogFormat != "auto" && opts.LogFormat != c.product {
			errs = append(errs, fmt.Errorf("%s: is an %s format, but --log-format is %s", c.flag, c.product, opts.LogFormat))
			continue
		}
		f, err := c.compile(c.text)
		if err != nil {
			errs = append(errs, fmt.Errorf("%s: %v", c.flag, err))
			continue
		}
		ro.LogFormat, ro.Format = f, c.product
		if _, err := f.resolve(ro.Fields); err != nil && fieldsOK {
			errs = append(errs, fmt.Errorf("%s, --fields: %v", c.flag, err))
		}
	}
	return errs
}

// WhereMetricNames lists the metrics a replay's --where names.
func WhereMetricNames() string {
	var names []string
	for _, m := range WhereMetrics {
		names = append(names, m.Name)
	}
	return strings.Join(names, ", ")
}

// oneLine is a flag's value as an error shows it: quoted when it holds a line
// break or another control character, so that the error stays one line.
func oneLine(s string) string {
	if strings.ContainsFunc(s, unicode.IsControl) {
		return strconv.Quote(s)
	}
	return s
}

// ProgressLine is the progress line after lines lines and bytes bytes of the
// inputs (compressed bytes for gzip) in elapsed seconds: an ETA from the files'
// total size, none when total is unknown (stdin: total < 0).
func ProgressLine(lines, bytes, total int64, elapsed float64) string {
	if elapsed <= 0 {
		return fmt.Sprintf("\r%d lines   ", lines)
	}
	eta := ""
	if total > 0 && bytes > 0 && bytes <= total {
		eta = fmt.Sprintf(", ETA %ds", int64(float64(total-bytes)/(float64(bytes)/elapsed)))
	}
	return fmt.Sprintf("\r%d lines, %.0f lines/s%s   ", lines, float64(lines)/elapsed, eta)
}

// OpenInputs opens the logs names, "-" being stdin, for Replay. Total is their
// size in bytes, -1 when stdin is among them; closeAll closes every file opened,
// also on an error, which is an *run.InputError naming the file.
func OpenInputs(names []string, stdin io.Reader) (inputs []Input, total int64, closeAll func(), err error) {
	var files []*os.File
	closeAll = func() {
		for _, f := range files {
			f.Close()
		}
	}
	for _, name := range names {
		if name == "-" {
			inputs = append(inputs, Input{Name: "-", R: stdin})
			total = -1
			continue
		}
		f, err := os.Open(name)
		if err != nil {
			return nil, 0, closeAll, run.BadInputf("%s: %v", name, err)
		}
		files = append(files, f)
		if st, err := f.Stat(); err == nil && total >= 0 {
			total += st.Size()
		}
		inputs = append(inputs, Input{Name: name, R: f})
	}
	return inputs, total, closeAll, nil
}

// Progress draws ProgressLine on w for inputs of total bytes (-1: unknown),
// timed by clock, the caller's wall clock; clear wipes the line.
func Progress(w io.Writer, total int64, clock func() time.Time) (update func(lines, bytes int64), clear func()) {
	start := clock()
	update = func(lines, bytes int64) {
		fmt.Fprint(w, ProgressLine(lines, bytes, total, clock().Sub(start).Seconds()))
	}
	return update, func() { fmt.Fprint(w, "\r\033[K") }
}
