package replay

import (
	"bytes"
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"regexp"
	"runtime/debug"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/rlsim/rlsim/algorithms"
	"github.com/rlsim/rlsim/run"
	"github.com/rlsim/rlsim/run/sweep"
)

// PartialVersion is the version of a replay's partial result file
// ("rlsim_replay_partial").
const PartialVersion = 1

// partialFile is one shard's part of a replay, as written: one line of JSON,
// sealed with two SHA-256 digests in hex. Definition is the digest of what
// makes two shards parts of one replay (the rlsim that ran it, the logs by
// name and size, the flags and the limits they resolved to); Content the
// checksum of the shard and its state.
type partialFile struct {
	Partial    int          `json:"rlsim_replay_partial"`
	Rlsim      string       `json:"rlsim"`
	Definition string       `json:"definition_sha256"`
	Content    string       `json:"content_sha256"`
	Def        partialDef   `json:"definition"`
	Shard      string       `json:"shard"`
	State      partialState `json:"state"`
}

// PartialInput is a log as a shard read it: its name as given and its size
// in bytes (-1 for stdin).
type PartialInput struct {
	Name exact `json:"name"`
	Size int64 `json:"size"`
}

// partialDef is what every shard of one replay shares.
type partialDef struct {
	Inputs []PartialInput `json:"inputs"`
	// Flags are the replay's flags as given, but --shard and the output's
	// (--format, --out): the merge takes those.
	Flags  Flags          `json:"flags"`
	Limits []partialLimit `json:"limits"` // the limits replayed, before --vary (a --scenario's too)
	Lanes  []string       `json:"lanes"`
}

// partialLimit is a Limit as the merge rebuilds it.
type partialLimit struct {
	Name     exact             `json:"name"`
	Key      exact             `json:"key"`
	Policy   algorithms.Policy `json:"policy"`
	Endpoint exact             `json:"endpoint"`
}

// partialState is one shard's figures before they are summed up: the
// reading's, which every shard has whole, and the keys it owns.
type partialState struct {
	Lines       int64               `json:"lines"`
	Requests    int64               `json:"requests"`
	Bad         int64               `json:"bad_lines"`
	TooLate     int64               `json:"too_late"`
	BehindFull  int64               `json:"behind_full_buffer"`
	Late        string              `json:"late"`
	Shown       []partialBad        `json:"bad_shown"`
	Format      string              `json:"format"`
	Warnings    []string            `json:"warnings"`
	Origin      time.Time           `json:"origin"`
	First       time.Time           `json:"first"`
	Last        time.Time           `json:"last"`
	RetireAfter time.Duration       `json:"retire_after_ns"`
	Keys        int                 `json:"key_episodes"` // this shard's
	Retired     int64               `json:"retired"`      // this shard's key episodes that ended idle
	Limits      []partialLimitState `json:"limits"`       // every limit replayed, --vary's after the given
}

type partialBad struct {
	File    exact `json:"file"`
	Line    int64 `json:"line"`
	Problem exact `json:"problem"`
}

// partialLimitState is one limit's share: its keys' peak histogram and each lane's.
type partialLimitState struct {
	Peaks [][2]int64         `json:"peaks"` // [peak, key episodes], by peak
	Lanes []partialLaneState `json:"lanes"`
}

type partialLaneState struct {
	Lane     string       `json:"lane"`
	Refused  int64        `json:"refused"`
	Delayed  int64        `json:"delayed"`
	ByHour   [][2]int64   `json:"refused_by_hour"`   // [hour, refusals] of the hours with one
	ByMinute [][2]int64   `json:"refused_by_minute"` // [minute, refusals]
	Kept     []partialKey `json:"keys_refused"`      // every key this lane refused, by key
}

// partialKey is a refused key's figures (keptKey).
type partialKey struct {
	Key     exact `json:"key"`
	Refused int64 `json:"refused"`
	Peak    int64 `json:"peak"`
	Active  int64 `json:"active_windows"`
	Below   int64 `json:"legit_windows"`
}

// exact is a string written to JSON as itself when it is UTF-8, else as
// {"bytes": base64}: a key or a file name may be any bytes, and the merge
// prints them as one pass does.
type exact string

// laneName is a lane's name as a scenario may give it.
var laneName = regexp.MustCompile(`^[a-z][a-z0-9_-]{0,31}$`)

func (s exact) MarshalJSON() ([]byte, error) {
	if utf8.ValidString(string(s)) {
		return json.Marshal(string(s))
	}
	return json.Marshal(struct {
		Bytes []byte `json:"bytes"`
	}{[]byte(s)})
}

func (s *exact) UnmarshalJSON(b []byte) error {
	if len(b) > 0 && b[0] == '{' {
		var v struct {
			Bytes []byte `json:"bytes"`
		}
		err := json.Unmarshal(b, &v)
		*s = exact(v.Bytes)
		return err
	}
	var str string
	err := json.Unmarshal(b, &str)
	*s = exact(str)
	return err
}

// buildVersion is this rlsim's version as its build records it, as the
// sweep's partials name it.
func buildVersion() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return "(devel)"
	}
	v := cmp.Or(bi.Main.Version, "(devel)")
	for _, s := range bi.Settings {
		if s.Key == "vcs.revision" {
			v += " " + s.Value
		}
	}
	return v
}

// newPartialDef is the definition of a replay of inputs with the flags f,
// which resolved to o (before Replay).
func newPartialDef(inputs []PartialInput, f Flags, o Options) partialDef {
	f.Format, f.Shard = "", ""
	d := partialDef{Inputs: inputs, Flags: f, Lanes: o.Lanes}
	if len(d.Lanes) == 0 {
		d.Lanes = DefaultLanes
	}
	for _, l := range o.Limits {
		d.Limits = append(d.Limits, partialLimit{Name: exact(l.Name), Key: exact(l.Key.String()), Policy: l.Policy, Endpoint: exact(l.Endpoint)})
	}
	return d
}

// options are the options the merge sums up by: the limits, lanes and
// what finish and the sweep read.
func (d partialDef) options() (Options, error) {
	o := Options{Lanes: d.Lanes, LegitBelow: d.Flags.LegitBelow, Top: d.Flags.Top}
	var errs []error
	for i, pl := range d.Limits {
		k, err := ParseKey(string(pl.Key))
		if err != nil {
			errs = append(errs, fmt.Errorf("definition.limits[%d]: %w", i, err))
		}
		o.Limits = append(o.Limits, Limit{Name: string(pl.Name), Key: k, Policy: pl.Policy, Endpoint: string(pl.Endpoint)})
	}
	if len(o.Limits) == 0 {
		errs = append(errs, errors.New("definition.limits: none"))
	}
	if len(o.Lanes) == 0 {
		errs = append(errs, errors.New("definition.lanes: none"))
	}
	for _, lane := range o.Lanes {
		// A lane replayed by its name: an algorithm's, or a --scenario's or
		// --config's variant (whose settings decided in the shards; the
		// merge only adds up what they decided).
		if !laneName.MatchString(lane) {
			errs = append(errs, fmt.Errorf("definition.lanes: %q is not a lane's name", lane))
		}
	}
	if !(o.LegitBelow > 0 && o.LegitBelow <= 1) || o.Top <= 0 {
		errs = append(errs, fmt.Errorf("definition.flags: legit-below %v, top %d", o.LegitBelow, o.Top))
	}
	if d.Flags.Vary != "" && len(errs) == 0 {
		v, err := sweep.ParseVary(d.Flags.Vary)
		if err == nil {
			o.Sweep, err = NewSweep(v.Path, v.Values, o.Limits)
		}
		if err != nil {
			errs = append(errs, fmt.Errorf("definition.flags.Vary: %w", err))
		}
	}
	for _, s := range d.Flags.Where {
		w, err := ParseWhere(s, o.Lanes)
		if err != nil {
			errs = append(errs, fmt.Errorf("definition.flags.Where: %w", err))
		}
		o.Where = append(o.Where, w)
	}
	o.defaults()
	return o, errors.Join(errs...)
}

// expanded is o's limits with the sweep's values after them, as Replay replays them.
func (o Options) expanded() []Limit {
	if o.Sweep == nil {
		return o.Limits
	}
	return o.Sweep.Expand(slices.Clone(o.Limits))
}

// partialStateOf is r's state for a partial: r is what Replay returned.
func partialStateOf(r *Result) partialState {
	s := partialState{Lines: r.Lines, Requests: r.Requests, Bad: r.Bad, TooLate: r.TooLate, BehindFull: r.BehindFull,
		Late: r.Late, Format: r.Format, Warnings: r.Warnings, Origin: r.Origin, First: r.First, Last: r.Last,
		RetireAfter: r.retireAfter, Keys: r.Keys, Retired: r.retired}
	for _, b := range r.Shown {
		s.Shown = append(s.Shown, partialBad{File: exact(b.File), Line: b.Line, Problem: exact(b.Problem)})
	}
	for j, peaks := range r.traffic.peaks {
		ls := partialLimitState{Peaks: [][2]int64{}}
		for p, n := range peaks {
			ls.Peaks = append(ls.Peaks, [2]int64{p, n})
		}
		slices.SortFunc(ls.Peaks, func(a, b [2]int64) int { return cmp.Compare(a[0], b[0]) })
		for _, lw := range r.lanes {
			ll := lw.limits[j]
			lane := partialLaneState{Lane: lw.lane, Refused: ll.total, Delayed: ll.delayed,
				ByHour: append([][2]int64{}, ll.byHour...), ByMinute: append([][2]int64{}, ll.byMinute...), Kept: []partialKey{}}
			for name, k := range ll.kept { // finish put the live keys in kept
				lane.Kept = append(lane.Kept, partialKey{Key: exact(name), Refused: k.refused, Peak: k.rate.peak, Active: k.rate.active, Below: k.rate.below})
			}
			slices.SortFunc(lane.Kept, func(a, b partialKey) int { return cmp.Compare(a.Key, b.Key) })
			ls.Lanes = append(ls.Lanes, lane)
		}
		s.Limits = append(s.Limits, ls)
	}
	return s
}

// WritePartial writes r, what Replay returned for shard sh of the logs
// inputs with the flags f resolved to o, as one line of JSON for
// MergePartials.
func WritePartial(w io.Writer, r *Result, sh Shard, inputs []PartialInput, f Flags, o Options) error {
	p := partialFile{Partial: PartialVersion, Rlsim: buildVersion(), Def: newPartialDef(inputs, f, o),
		Shard: sh.String(), State: partialStateOf(r)}
	var err error
	if p.Definition, err = p.definitionDigest(); err != nil {
		return err
	}
	if p.Content, err = p.contentChecksum(); err != nil {
		return err
	}
	b, err := json.Marshal(p)
	if err != nil {
		return err
	}
	_, err = w.Write(append(b, '\n'))
	return err
}

func digestOf(v any) (string, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:]), nil
}

// definitionDigest is the SHA-256 of what every shard of one replay shares.
func (p *partialFile) definitionDigest() (string, error) {
	return digestOf(struct {
		Rlsim string     `json:"rlsim"`
		Def   partialDef `json:"definition"`
	}{p.Rlsim, p.Def})
}

// contentChecksum is the SHA-256 of the shard and its state.
func (p *partialFile) contentChecksum() (string, error) {
	return digestOf(struct {
		Shard string       `json:"shard"`
		State partialState `json:"state"`
	}{p.Shard, p.State})
}

// decodePartial reads and verifies one partial: one JSON value, its version,
// both digests, and that it holds what a replay --shard writes.
func decodePartial(name string, r io.Reader) (*partialFile, Options, error) {
	bad := func(format string, args ...any) (*partialFile, Options, error) {
		return nil, Options{}, run.BadInputf("%s: "+format, append([]any{name}, args...)...)
	}
	var raw json.RawMessage
	dec := json.NewDecoder(r)
	if err := dec.Decode(&raw); err != nil {
		if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
			return bad("not a whole partial result of rlsim replay --shard (empty or truncated)")
		}
		return bad("not a whole partial result of rlsim replay --shard: %v", err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return bad("more after the partial result (two files joined in one?)")
	}
	var version struct {
		Partial int `json:"rlsim_replay_partial"`
	}
	if json.Unmarshal(raw, &version) != nil || version.Partial == 0 {
		return bad("not a partial result of rlsim replay --shard")
	}
	if version.Partial != PartialVersion {
		return bad("partial result version %d; this rlsim reads version %d: run the shards again with this rlsim", version.Partial, PartialVersion)
	}
	var p partialFile
	strict := json.NewDecoder(bytes.NewReader(raw))
	strict.DisallowUnknownFields()
	if err := strict.Decode(&p); err != nil {
		return bad("not a whole partial result of rlsim replay --shard: %v", err)
	}
	if c, err := p.contentChecksum(); err != nil || c != p.Content {
		return bad("the content does not match its checksum (content_sha256): the file was cut short or edited")
	}
	if d, err := p.definitionDigest(); err != nil || d != p.Definition {
		return bad("the replay's definition does not match its digest (definition_sha256): the file was edited")
	}
	o, err := p.Def.options()
	if err == nil {
		err = p.check(o)
	}
	if err != nil {
		return nil, Options{}, run.BadInput(fmt.Errorf("%s: %w", name, err))
	}
	return &p, o, nil
}

// check lists what in p is not what replay --shard writes with options o.
func (p *partialFile) check(o Options) error {
	sh, err := ParseShard(p.Shard)
	if err != nil {
		return fmt.Errorf("shard: %w", err)
	}
	var errs []error
	add := func(format string, args ...any) bool {
		errs = append(errs, fmt.Errorf(format, args...))
		return len(errs) < maxPartialErrors
	}
	limits := o.expanded()
	if len(p.State.Limits) != len(limits) {
		return fmt.Errorf("state.limits: %d, but the definition replays %d", len(p.State.Limits), len(limits))
	}
	for j, ls := range p.State.Limits {
		at := fmt.Sprintf("state.limits[%d]", j)
		for i, pk := range ls.Peaks {
			if pk[0] < 1 || pk[1] < 1 || (i > 0 && pk[0] <= ls.Peaks[i-1][0]) {
				if !add("%s.peaks[%d]: %v: want [peak, episodes], both positive, by increasing peak", at, i, pk) {
					return errors.Join(errs...)
				}
			}
		}
		if len(ls.Lanes) != len(o.Lanes) {
			add("%s.lanes: %d, but the definition replays %d", at, len(ls.Lanes), len(o.Lanes))
			continue
		}
		for i, lane := range ls.Lanes {
			at := fmt.Sprintf("%s.lanes[%d]", at, i)
			if lane.Lane != o.Lanes[i] {
				add("%s: lane %q, want %q", at, lane.Lane, o.Lanes[i])
			}
			if lane.Refused < 0 || lane.Delayed < 0 {
				add("%s: negative counts", at)
			}
			for _, s := range []struct {
				name   string
				series [][2]int64
			}{{"refused_by_hour", lane.ByHour}, {"refused_by_minute", lane.ByMinute}} {
				var sum int64
				for k, c := range s.series {
					if c[0] < 0 || c[1] < 1 || (k > 0 && c[0] <= s.series[k-1][0]) {
						add("%s.%s[%d]: %v: want [index, count], count positive, by increasing index", at, s.name, k, c)
						break
					}
					sum += c[1]
				}
				if sum != lane.Refused {
					add("%s.%s: %d refusals, but the lane refused %d", at, s.name, sum, lane.Refused)
				}
			}
			var sum int64
			for k, key := range lane.Kept {
				switch {
				case k > 0 && key.Key <= lane.Kept[k-1].Key:
					add("%s.keys_refused[%d]: %q after %q: each key once, in order", at, k, key.Key, lane.Kept[k-1].Key)
				case !sh.owns([]byte(key.Key)):
					add("%s.keys_refused[%d]: key %q is not shard %s's", at, k, key.Key, p.Shard)
				case key.Refused < 1 || key.Peak < 0 || key.Active < 0 || key.Below < 0 || key.Below > key.Active:
					add("%s.keys_refused[%d]: figures out of range", at, k)
				}
				sum += key.Refused
			}
			if sum != lane.Refused {
				add("%s.keys_refused: %d refusals, but the lane refused %d", at, sum, lane.Refused)
			}
			if len(errs) >= maxPartialErrors {
				return errors.Join(errs...)
			}
		}
	}
	return errors.Join(errs...)
}

// maxPartialErrors is how many problems of one partial are listed.
const maxPartialErrors = 10

// Merged is what MergePartials gives: the result one pass over the logs
// gives, the options to render it by, and whether --find was given.
type Merged struct {
	Result  *Result
	Options Options
	Find    bool
}

// MergePartials combines the partials of every shard of one replay into
// the result one pass gives. Each file is verified whole first; then the
// partials must be of one replay (rlsim, logs, flags), one n, every shard
// once, and agree on the reading (lines, bad lines, times), which every
// shard does whole and the merge takes once. Every problem is an
// *run.InputError, all at once.
func MergePartials(paths []string) (*Merged, error) {
	if len(paths) == 0 {
		return nil, run.BadInputf("rlsim replay merge: no partial result files given")
	}
	var errs []error
	var parts []*partialFile
	var opts []Options
	for _, path := range paths {
		p, o, err := readPartial(path)
		if err != nil {
			errs = append(errs, err)
		}
		parts, opts = append(parts, p), append(opts, o)
	}
	first := slices.IndexFunc(parts, func(p *partialFile) bool { return p != nil })
	if first < 0 {
		return nil, run.BadInput(errors.Join(errs...))
	}
	ref := parts[first]
	sh0, _ := ParseShard(ref.Shard)
	byShard := map[int]string{}
	for i, p := range parts {
		if p == nil {
			continue
		}
		sh, _ := ParseShard(p.Shard) // checked
		switch {
		case p.Definition != ref.Definition:
			errs = append(errs, fmt.Errorf("%s: a part of another replay than %s (%s)", paths[i], paths[first], defDifferences(ref, p)))
		case sh.Count != sh0.Count:
			errs = append(errs, fmt.Errorf("%s: shard %s of a replay split in %d, not %d like %s", paths[i], p.Shard, sh.Count, sh0.Count, paths[first]))
		case byShard[sh.Index] != "":
			errs = append(errs, fmt.Errorf("%s: shard %s is also in %s", paths[i], p.Shard, byShard[sh.Index]))
		default:
			if d := readingDifferences(&ref.State, &p.State); d != "" {
				errs = append(errs, fmt.Errorf("%s: read the logs otherwise than %s (%s): a log changed between the shards", paths[i], paths[first], d))
				continue
			}
			byShard[sh.Index] = paths[i]
		}
	}
	if err := errors.Join(errs...); err != nil {
		return nil, run.BadInput(err)
	}
	var missing []int
	for i := range sh0.Count {
		if byShard[i] == "" {
			missing = append(missing, i)
		}
	}
	if len(missing) > 0 {
		return nil, run.BadInputf("rlsim replay merge: shards %s are missing (the partials given are %d of the %d shards of %s's replay)",
			shardList(missing, sh0.Count), len(byShard), sh0.Count, paths[first])
	}
	res, err := merge(parts, opts[first])
	if err != nil {
		return nil, err
	}
	return &Merged{Result: res, Options: opts[first], Find: ref.Def.Flags.Find != ""}, nil
}

func readPartial(path string) (*partialFile, Options, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, Options{}, run.BadInputf("%s: %v", path, errors.Unwrap(err))
	}
	defer f.Close()
	return decodePartial(path, f)
}

// merge sums up the parts, one per shard, verified and of one replay.
func merge(parts []*partialFile, o Options) (*Result, error) {
	s := &parts[0].State
	r := &Result{Lines: s.Lines, Requests: s.Requests, Bad: s.Bad, TooLate: s.TooLate, BehindFull: s.BehindFull,
		Late: s.Late, Format: s.Format, Warnings: s.Warnings, Origin: s.Origin, First: s.First, Last: s.Last, retireAfter: s.RetireAfter}
	for _, b := range s.Shown {
		r.Shown = append(r.Shown, BadLine{File: string(b.File), Line: b.Line, Problem: string(b.Problem)})
	}
	limits := o.expanded()
	fresh := newResult(Options{Lanes: o.Lanes, Limits: limits, LegitBelow: o.LegitBelow})
	r.lanes, r.traffic = fresh.lanes, fresh.traffic
	for _, lane := range o.Lanes {
		var row []decider
		for _, l := range limits {
			d, err := newDecider(lane, l.Policy)
			if err != nil {
				return nil, run.BadInputf("limit %s: %v", l.Name, err)
			}
			row = append(row, d)
		}
		r.deciders = append(r.deciders, row)
	}
	for _, lane := range o.Lanes {
		if slices.Contains(ProductLanes, lane) {
			r.products = true // as the shards' results: the text shows delays
		}
	}
	for _, p := range parts {
		r.Keys += p.State.Keys
		r.retired += p.State.Retired
		for j, ls := range p.State.Limits {
			for _, pk := range ls.Peaks {
				r.traffic.peaks[j][pk[0]] += pk[1]
			}
			for i, lane := range ls.Lanes {
				ll := r.lanes[i].limits[j]
				ll.total += lane.Refused
				ll.delayed += lane.Delayed
				ll.byHour = addSeries(ll.byHour, lane.ByHour)
				ll.byMinute = addSeries(ll.byMinute, lane.ByMinute)
				for _, k := range lane.Kept {
					// A key is one shard's: the keys of two parts never meet (checked: owns).
					ll.kept[string(k.Key)] = &keptKey{refused: k.Refused, rate: keyRate{peak: k.Peak, active: k.Active, below: k.Below}}
				}
			}
		}
	}
	r.finish(Options{Limits: limits, Lanes: o.Lanes, LegitBelow: o.LegitBelow, LegitShare: o.LegitShare, Top: o.Top})
	if o.Sweep != nil {
		r.Sweep = o.Sweep.Points(r)
		r.Smallest = Smallest(r.Sweep, o.Where)
		r.Limits = r.Limits[:len(o.Limits)]
	}
	return r, nil
}

// addSeries is the sum of two series, each by increasing index.
func addSeries(a series, b [][2]int64) series {
	out := make(series, 0, len(a)+len(b))
	i, k := 0, 0
	for i < len(a) || k < len(b) {
		switch {
		case k == len(b) || (i < len(a) && a[i][0] < b[k][0]):
			out = append(out, a[i])
			i++
		case i == len(a) || b[k][0] < a[i][0]:
			out = append(out, b[k])
			k++
		default:
			out = append(out, [2]int64{a[i][0], a[i][1] + b[k][1]})
			i, k = i+1, k+1
		}
	}
	return out
}

// readingDifferences names what two shards read differently: every shard
// reads every line, so they must agree on everything but their keys.
func readingDifferences(a, b *partialState) string {
	strip := func(s *partialState) partialState {
		c := *s
		c.Keys, c.Retired, c.Limits = 0, 0, nil
		return c
	}
	x, y := strip(a), strip(b)
	ja, _ := json.Marshal(x)
	jb, _ := json.Marshal(y)
	if bytes.Equal(ja, jb) {
		return ""
	}
	var out []string
	diff := func(what string, v, w any) {
		if fmt.Sprint(v) != fmt.Sprint(w) {
			out = append(out, fmt.Sprintf("%s %v, not %v", what, w, v))
		}
	}
	diff("lines", x.Lines, y.Lines)
	diff("requests", x.Requests, y.Requests)
	diff("bad lines", x.Bad, y.Bad)
	diff("too late", x.TooLate, y.TooLate)
	diff("behind a full buffer", x.BehindFull, y.BehindFull)
	diff("first hour", x.Origin, y.Origin)
	diff("first request", x.First, y.First)
	diff("last request", x.Last, y.Last)
	if len(out) == 0 {
		return "bad lines shown, format, warnings or retirement time"
	}
	return strings.Join(out, "; ")
}

// defDifferences names what differs between two partials' definitions.
func defDifferences(a, b *partialFile) string {
	var out []string
	diff := func(what string, x, y any) {
		bx, _ := json.Marshal(x)
		by, _ := json.Marshal(y)
		if !bytes.Equal(bx, by) {
			out = append(out, fmt.Sprintf("%s %s, not %s", what, by, bx))
		}
	}
	diff("rlsim", a.Rlsim, b.Rlsim)
	diff("logs", a.Def.Inputs, b.Def.Inputs)
	diff("flags", a.Def.Flags, b.Def.Flags)
	diff("limits", a.Def.Limits, b.Def.Limits)
	diff("lanes", a.Def.Lanes, b.Def.Lanes)
	if len(out) == 0 {
		return "their definitions differ"
	}
	return strings.Join(out, "; ")
}
