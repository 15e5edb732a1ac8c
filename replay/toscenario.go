package replay

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/rlsim/rlsim/scenarios"
	"github.com/rlsim/rlsim/sim"
)

// DeriveOptions say how Derive reads a log and shapes the scenario it derives.
type DeriveOptions struct {
	Key       KeySpec // what a client is (default ip)
	Groups    int     // at most this many client groups (default 5, at most MaxGroups)
	MaxEvents int64   // the derived scenario's event budget; 0: none
	Format    string  // one of Formats (default auto)
	Fields    Fields
	LogFormat *LogFormat
	Location  *time.Location
	Names     []string // the logs' names, for the comments
}

// MaxGroups is the most client groups Derive makes.
const MaxGroups = 50

// ScenarioMarker is the first line of every scenario Derive writes: a file
// that does not start with it was not written by rlsim and is never replaced.
const ScenarioMarker = "# written by rlsim replay --to-scenario"

// MaxDerivedDuration is the longest duration a derived scenario runs: a longer
// log is cut to its first MaxDerivedDuration (said in the scenario's comments).
const MaxDerivedDuration = 24 * time.Hour

// The constants of the fit, each a judgement stated in docs/replay.md.
const (
	// retryWithin is how soon after a refusal (429 or 503) a request of the
	// same key, method and path (query included) counts as its retry.
	retryWithin = 60 * time.Second
	// offFactor: a gap longer than offFactor × the key's median gap ends an on
	// period (a Poisson key has such a gap once in about 1000: e^-6.9).
	offFactor = 10
	// onOffShare: a key is on/off when it has at least two off gaps and they
	// cover at least this share of its span.
	onOffShare = 0.3
	// regularCV: a key whose gaps' coefficient of variation is below it is
	// regular (constant arrivals); above it Poisson (≈1 for a Poisson process).
	regularCV = 0.3
	// splitRatio: a group is split (at its widest gap in log rate) while its
	// fastest key sends more than splitRatio times its slowest's rate.
	splitRatio = 2.0
	// fitLimit is the shadow limit's rate per second in the derived scenario.
	fitLimit = 1_000_000
)

// KeyStat is what Derive measured of one key. Rates are per second; Rate is
// of first attempts (requests not counted as retries), RateAll of every
// request: both (n−1)/(last−first), or 1/span of the log for a key with one request.
type KeyStat struct {
	Key             string
	Requests, First int // every request, first attempts
	RateAll, Rate   float64
	CV              float64 // of first attempts' gaps; NaN with fewer than 2 gaps
	Kind            string  // constant, poisson or on_off
	OnRate          float64 // on_off: the rate while on
	On, Off         time.Duration
	Refused         int // 429 and 503 answers
	Repeated        int // of them, repeated within retryWithin
	Retries         bool
	delays          []time.Duration // every retry's delay
	first2          [][2]time.Duration
	longest         int // the longest chain's attempts
	statuses        [2]bool
}

// Group is one derived client group.
type Group struct {
	Name          string
	Kind          string // constant, poisson or on_off
	Keys          []*KeyStat
	Rate          sim.Rate // the group's median first-attempt rate (on_off: while on)
	RateSec       float64
	On, Off       time.Duration
	CV            float64 // median
	Retry         string  // none, immediate, fixed or exponential
	Delay         time.Duration
	Cap           time.Duration
	MaxAttempts   int
	On429, On503  bool
	RepeatedShare float64 // of the group's refusals, the share repeated
}

// Fit compares the per-key rates of the log with those of the derived
// scenario simulated in shadow: the nearest-rank quantiles FitQuantiles of
// each, and |sim − log| / log of each quantile; Error is the largest.
type Fit struct {
	Log, Sim, RelErr [4]float64
	Error            float64
	LogRates         []float64 // every key's RateAll, sorted
	SimRates         []float64 // every simulated client's, sorted, measured as RateAll is
}

// FitQuantiles are the quantiles Fit compares.
var FitQuantiles = [4]float64{0.10, 0.50, 0.90, 0.99}

// Line is the fit in one line: "per-key rate quantiles within 12.0% (p10 3.1%, ...)".
func (f Fit) Line() string {
	var parts []string
	for i, q := range FitQuantiles {
		parts = append(parts, fmt.Sprintf("p%d %.1f%%", int(q*100), 100*f.RelErr[i]))
	}
	return fmt.Sprintf("per-key rate quantiles within %.1f%% (%s)", 100*f.Error, strings.Join(parts, ", "))
}

// Derived is a scenario derived from a log.
type Derived struct {
	YAML   []byte
	Config *sim.Config
	Groups []Group
	Fit    Fit
	// FirstFit compares the same simulated rates with the log's first
	// attempts' (Rate): how well the arrivals fit, the retries left out.
	FirstFit Fit
	Estimate int64 // the events the scenario is estimated to need
	Requests int64
	Bad      int64
	Lines    int64
	Retries  int64 // requests counted as retries
	Capped   bool  // the log was longer than MaxDerivedDuration
	First    time.Time
	Span     time.Duration
}

// BudgetError is a derived scenario estimated to need more events than its budget.
type BudgetError struct{ Estimate, Budget int64 }

func (e *BudgetError) Error() string {
	return fmt.Sprintf("--max-events: the derived scenario needs about %d events, over the budget of %d; lift it with --max-events %d or give fewer lines",
		e.Estimate, e.Budget, suggested(e.Estimate))
}

func suggested(n int64) int64 {
	p := int64(1)
	for n/p >= 100 {
		p *= 10
	}
	return (n + p - 1) / p * p
}

// obs is one request of a key.
type obs struct {
	at     int64
	req    uint64 // hash of method and raw path
	status int16
	retry  int16 // 0: a first attempt; n: the n-th retry
}

// Derive reads every input and derives a scenario of at most o.Groups client
// groups whose clients send as the log's keys did; it then simulates it in
// shadow (seed 1, one token_bucket lane, nothing refused) and measures the fit.
// The reading keeps every request (16 bytes each): memory grows with lines.
func Derive(ctx context.Context, inputs []Input, o DeriveOptions) (*Derived, error) {
	if len(o.Key) == 0 {
		o.Key = KeySpec{{Kind: "ip"}}
	}
	if o.Groups == 0 {
		o.Groups = 5
	}
	if o.Groups < 1 || o.Groups > MaxGroups {
		return nil, fmt.Errorf("--groups: want 1 to %d, got %d", MaxGroups, o.Groups)
	}
	o.Format = cmp.Or(o.Format, "auto")
	if o.Fields == (Fields{}) {
		o.Fields = DefaultFields
	}
	if o.Location == nil {
		o.Location = time.UTC
	}
	d := &Derived{}
	keys, names, err := readKeys(ctx, inputs, o, d)
	if err != nil {
		return nil, err
	}
	if d.Requests == 0 {
		if d.Bad > 0 {
			return nil, &NoneParsedError{Format: o.Format, Bad: d.Bad}
		}
		return nil, errors.New("no request in the log")
	}
	var first, last int64 = math.MaxInt64, math.MinInt64
	for _, k := range keys {
		slices.SortStableFunc(k, func(a, b obs) int { return cmp.Compare(a.at, b.at) })
		first, last = min(first, k[0].at), max(last, k[len(k)-1].at)
	}
	d.First = time.Unix(0, first).UTC()
	d.Span = time.Duration(last - first)
	span := max(d.Span, time.Second)
	stats := make([]*KeyStat, len(keys))
	for i, k := range keys {
		stats[i] = measure(names[i], k, span)
		d.Retries += int64(stats[i].Requests - stats[i].First)
	}
	d.Groups = cluster(stats, o.Groups)
	dur := span.Round(time.Millisecond)
	if dur < span {
		dur += time.Millisecond
	}
	if dur > MaxDerivedDuration {
		dur, d.Capped = MaxDerivedDuration, true
	}
	body := scenarioBody(d, dur)
	sc, err := scenarios.Parse("derived.yaml", body)
	if err != nil {
		return nil, fmt.Errorf("the derived scenario does not parse (a bug): %w", err)
	}
	d.Config = sc.Config
	d.Estimate = sc.Config.EstimateEvents()
	if o.MaxEvents > 0 && d.Estimate > o.MaxEvents {
		return nil, &BudgetError{Estimate: d.Estimate, Budget: o.MaxEvents}
	}
	simRates, err := SimulatedRates(ctx, *sc.Config, o.MaxEvents)
	if err != nil {
		return nil, err
	}
	logRates, firstRates := make([]float64, len(stats)), make([]float64, len(stats))
	for i, s := range stats {
		logRates[i], firstRates[i] = s.RateAll, s.Rate
	}
	d.Fit = CompareRates(logRates, simRates)
	d.FirstFit = CompareRates(firstRates, simRates)
	d.YAML = append(header(d, o, dur), body...)
	return d, nil
}

// readKeys reads every request's key, time, request and status.
func readKeys(ctx context.Context, inputs []Input, o DeriveOptions, d *Derived) ([][]obs, []string, error) {
	index := map[string]int{}
	var keys [][]obs
	var names []string
	var rec Record
	var keyBuf []byte
	h := fnv.New64a()
	for _, in := range inputs {
		r, err := decompressed(in.R)
		if err != nil {
			return nil, nil, fmt.Errorf("%s: %w", in.Name, err)
		}
		var p parser
		var perr error
		err = lines(ctx, r, func(n int64, line []byte, long bool) {
			if perr != nil {
				return
			}
			d.Lines++
			if long {
				d.Bad++
				return
			}
			if len(line) == 0 {
				return
			}
			if p == nil {
				var e error
				if p, e = newParser(o.Format, o.Fields, o.Location, o.LogFormat, line); e == errUnsniffed {
					d.Bad++
					return
				} else if e != nil {
					perr = fmt.Errorf("%s: %w", in.Name, e)
					return
				}
			}
			if err := p.parse(line, &rec); err != nil {
				if err != errHeader {
					d.Bad++
				}
				return
			}
			var ok bool
			if keyBuf, ok = o.Key.appendKey(keyBuf[:0], &rec); !ok {
				d.Bad++
				return
			}
			i, seen := index[string(keyBuf)]
			if !seen {
				i = len(keys)
				index[string(keyBuf)] = i
				keys = append(keys, nil)
				names = append(names, string(keyBuf))
			}
			h.Reset()
			h.Write(rec.Method)
			h.Write([]byte{' '})
			h.Write(rec.Path)
			keys[i] = append(keys[i], obs{at: rec.At, req: h.Sum64(), status: statusOf(&rec, line)})
			d.Requests++
		})
		if err != nil {
			return nil, nil, fmt.Errorf("%s: %w", in.Name, err)
		}
		if perr != nil {
			return nil, nil, perr
		}
	}
	return keys, names, nil
}

// statusFields are the fields that hold a response's status in the formats
// read: nginx's $status and JSON/CSV's status, Envoy's %RESPONSE_CODE% (and
// its json_format's response_code), HAProxy's %ST, ALB's and ELB's elb_status_code.
var statusFields = []string{"status", "response_code", "status_code", "elb_status_code"}

// statusOf is the line's HTTP status, 0 when the format has none: a field of
// statusFields, or in the combined format the number after the request.
func statusOf(rec *Record, line []byte) int16 {
	for _, name := range statusFields {
		if v, ok := rec.field(name); ok {
			return status3(v)
		}
	}
	if len(rec.names) > 0 {
		return 0
	}
	// combined: `... [time] "request" STATUS ...`
	i := bytes.Index(line, []byte(`] "`))
	if i < 0 {
		return 0
	}
	rest := line[i+3:]
	j := bytes.IndexByte(rest, '"')
	if j < 0 || j+2 > len(rest) || rest[j+1] != ' ' {
		return 0
	}
	rest = rest[j+2:]
	if k := bytes.IndexByte(rest, ' '); k >= 0 {
		rest = rest[:k]
	}
	return status3(rest)
}

func status3(b []byte) int16 {
	if len(b) != 3 {
		return 0
	}
	v := 0
	for _, c := range b {
		if c < '0' || c > '9' {
			return 0
		}
		v = v*10 + int(c-'0')
	}
	return int16(v)
}

func refusal(status int16) bool { return status == 429 || status == 503 }

// rateOf is (n−1)/(last−first) per second of times sorted, or 1/span for one time.
func rateOf(n int, first, last int64, span time.Duration) float64 {
	if n == 0 {
		return 0
	}
	if n == 1 || last == first {
		return float64(n) / span.Seconds()
	}
	return float64(n-1) / (float64(last-first) / 1e9)
}

// measure reads one key's requests, sorted by time.
func measure(name string, k []obs, span time.Duration) *KeyStat {
	s := &KeyStat{Key: name, Requests: len(k)}
	s.RateAll = rateOf(len(k), k[0].at, k[len(k)-1].at, span)
	// Retries: the first later request of the same method and path within
	// retryWithin of a refusal; a retry refused and repeated makes a chain.
	for i := range k {
		if !refusal(k[i].status) {
			continue
		}
		s.Refused++
		for j := i + 1; j < len(k) && k[j].at-k[i].at <= int64(retryWithin); j++ {
			if k[j].req == k[i].req && k[j].retry == 0 {
				k[j].retry = k[i].retry + 1
				s.Repeated++
				delay := time.Duration(k[j].at - k[i].at)
				s.delays = append(s.delays, delay)
				s.longest = max(s.longest, int(k[j].retry)+1)
				if k[i].status == 429 {
					s.statuses[0] = true
				} else {
					s.statuses[1] = true
				}
				if k[j].retry == 2 {
					// the delay before this chain's first retry, found by walking back
					for b := i - 1; b >= 0 && k[i].at-k[b].at <= int64(retryWithin); b-- {
						if k[b].req == k[i].req && k[b].retry == 0 && refusal(k[b].status) {
							s.first2 = append(s.first2, [2]time.Duration{time.Duration(k[i].at - k[b].at), delay})
							break
						}
					}
				}
				break
			}
		}
	}
	s.Retries = s.Refused > 0 && 2*s.Repeated >= s.Refused
	var firsts []int64
	for _, o := range k {
		if o.retry == 0 {
			firsts = append(firsts, o.at)
		}
	}
	s.First = len(firsts)
	s.Rate = rateOf(len(firsts), firsts[0], firsts[len(firsts)-1], span)
	s.CV, s.Kind = math.NaN(), "poisson"
	if len(firsts) < 3 {
		return s
	}
	gaps := make([]float64, len(firsts)-1)
	var sum float64
	for i := range gaps {
		gaps[i] = float64(firsts[i+1] - firsts[i])
		sum += gaps[i]
	}
	mean := sum / float64(len(gaps))
	var ss float64
	for _, g := range gaps {
		ss += (g - mean) * (g - mean)
	}
	if mean > 0 {
		s.CV = math.Sqrt(ss/float64(len(gaps))) / mean
	}
	sorted := slices.Clone(gaps)
	slices.Sort(sorted)
	threshold := max(offFactor*sorted[len(sorted)/2], float64(time.Millisecond))
	var offs []float64
	var offSum, inSum float64
	var inGaps int
	for _, g := range gaps {
		if g > threshold {
			offs = append(offs, g)
			offSum += g
		} else {
			inSum += g
			inGaps++
		}
	}
	total := float64(firsts[len(firsts)-1] - firsts[0])
	switch {
	case len(offs) >= 2 && offSum >= onOffShare*total && inGaps > 0 && inSum > 0:
		s.Kind = "on_off"
		g := inSum / float64(inGaps) // the gap while on
		s.OnRate = 1e9 / g
		periods := len(offs) + 1
		s.On = time.Duration((total - offSum + float64(periods)*g) / float64(periods))
		s.Off = time.Duration(offSum/float64(len(offs)) - g)
	case s.CV < regularCV:
		s.Kind = "constant"
	}
	return s
}

// kinds orders the arrival kinds in groups and their names.
var kinds = []string{"constant", "poisson", "on_off"}

func classOf(s *KeyStat) int {
	c := slices.Index(kinds, s.Kind)
	if s.Retries {
		c += len(kinds)
	}
	return c
}

// cluster puts keys into at most n groups: one per behaviour class (arrival
// kind × retrying or not), each split at its widest gap in log rate while it
// spans more than splitRatio and fewer than n groups exist, then the two
// nearest groups (in log median rate, a class apart costing more) merged
// while more than n exist. Deterministic: ties go to the first in order.
func cluster(stats []*KeyStat, n int) []Group {
	byRate := func(a, b *KeyStat) int {
		return cmp.Or(cmp.Compare(a.Rate, b.Rate), strings.Compare(a.Key, b.Key))
	}
	type bin struct {
		class int
		keys  []*KeyStat
	}
	var bins []bin
	for c := range 2 * len(kinds) {
		var ks []*KeyStat
		for _, s := range stats {
			if classOf(s) == c {
				ks = append(ks, s)
			}
		}
		if len(ks) > 0 {
			slices.SortFunc(ks, byRate)
			bins = append(bins, bin{c, ks})
		}
	}
	for len(bins) < n {
		best, at, widest := -1, 0, math.Log(splitRatio)
		for i, b := range bins {
			if len(b.keys) < 2 || math.Log(b.keys[len(b.keys)-1].Rate/b.keys[0].Rate) <= math.Log(splitRatio) {
				continue
			}
			for j := 1; j < len(b.keys); j++ {
				if w := math.Log(b.keys[j].Rate / b.keys[j-1].Rate); w > 0 && (best < 0 || w > widest) {
					best, at, widest = i, j, w
				}
			}
		}
		if best < 0 {
			break
		}
		b := bins[best]
		bins = slices.Insert(bins, best+1, bin{b.class, b.keys[at:]})
		bins[best].keys = b.keys[:at]
	}
	median := func(b bin) float64 { return b.keys[len(b.keys)/2].Rate }
	for len(bins) > n {
		bi, bj, cost := 0, 1, math.Inf(1)
		for i := range bins {
			for j := i + 1; j < len(bins); j++ {
				c := math.Abs(math.Log(median(bins[i]) / median(bins[j])))
				if bins[i].class%len(kinds) != bins[j].class%len(kinds) {
					c += 10
				}
				if bins[i].class/len(kinds) != bins[j].class/len(kinds) {
					c += 20
				}
				if c < cost {
					bi, bj, cost = i, j, c
				}
			}
		}
		class := bins[bi].class
		if len(bins[bj].keys) > len(bins[bi].keys) {
			class = bins[bj].class
		}
		merged := append(slices.Clone(bins[bi].keys), bins[bj].keys...)
		slices.SortFunc(merged, byRate)
		bins[bi] = bin{class, merged}
		bins = slices.Delete(bins, bj, bj+1)
	}
	var groups []Group
	for i, b := range bins {
		groups = append(groups, newGroup(i+1, kinds[b.class%len(kinds)], b.keys))
	}
	return groups
}

func medianOf(v []float64) float64 {
	v = slices.Clone(v)
	slices.Sort(v)
	return v[len(v)/2]
}

func medianDur(v []time.Duration) time.Duration {
	v = slices.Clone(v)
	slices.Sort(v)
	return v[len(v)/2]
}

// newGroup is the client group of keys (sorted by rate), arriving as kind.
func newGroup(i int, kind string, keys []*KeyStat) Group {
	g := Group{Kind: kind, Keys: keys}
	var rates, cvs, onRates []float64
	var ons, offs, delays []time.Duration
	var ratios []float64
	retrying, refused, repeated := 0, 0, 0
	for _, k := range keys {
		rates = append(rates, k.Rate)
		if !math.IsNaN(k.CV) {
			cvs = append(cvs, k.CV)
		}
		if k.Kind == "on_off" {
			onRates = append(onRates, k.OnRate)
			ons, offs = append(ons, k.On), append(offs, k.Off)
		}
		refused += k.Refused
		repeated += k.Repeated
		if k.Retries {
			retrying++
			delays = append(delays, k.delays...)
			for _, p := range k.first2 {
				if p[0] > 0 {
					ratios = append(ratios, float64(p[1])/float64(p[0]))
				}
			}
			g.MaxAttempts = max(g.MaxAttempts, k.longest+1)
			g.On429 = g.On429 || k.statuses[0]
			g.On503 = g.On503 || k.statuses[1]
		}
	}
	g.CV = math.NaN()
	if len(cvs) > 0 {
		g.CV = medianOf(cvs)
	}
	g.RateSec = medianOf(rates)
	if kind == "on_off" && len(onRates) > 0 {
		g.RateSec = medianOf(onRates)
		g.On = max(medianDur(ons).Round(time.Millisecond), time.Millisecond)
		g.Off = max(medianDur(offs).Round(time.Millisecond), time.Millisecond)
	}
	g.Rate = rational(g.RateSec)
	if refused > 0 {
		g.RepeatedShare = float64(repeated) / float64(refused)
	}
	g.Retry = "none"
	if 2*retrying >= len(keys) && len(delays) > 0 {
		d := medianDur(delays)
		switch {
		case d < time.Millisecond:
			g.Retry = "immediate"
		case len(ratios) > 0 && medianOf(ratios) >= 1.6 && medianOf(ratios) <= 2.5:
			g.Retry = "exponential"
			var firsts []time.Duration
			for _, k := range keys {
				for _, p := range k.first2 {
					firsts = append(firsts, p[0])
				}
			}
			g.Delay = max(medianDur(firsts).Round(time.Millisecond), time.Millisecond)
			g.Cap = max(slices.Max(delays).Round(time.Millisecond), g.Delay)
		default:
			g.Retry = "fixed"
			g.Delay = max(d.Round(time.Millisecond), time.Millisecond)
		}
		g.MaxAttempts = max(g.MaxAttempts, 2)
	}
	suffix := ""
	if g.Retry != "none" {
		suffix = "-retry"
	}
	g.Name = fmt.Sprintf("g%d-%s%s", i, kind, suffix)
	return g
}

// rational is r requests per second as a whole count of three significant
// digits per a power of ten of seconds (at least 1ms): 1.234/s is 123/100s.
func rational(r float64) sim.Rate {
	if !(r > 0) {
		return sim.Rate{Count: 1, Per: MaxDerivedDuration}
	}
	per := time.Second
	for r*per.Seconds() < 99.5 && per < 1000*time.Hour {
		per *= 10
	}
	for r*per.Seconds() >= 999.5 && per > time.Millisecond {
		per /= 10
	}
	return sim.Rate{Count: max(1, int64(math.Round(r*per.Seconds()))), Per: per}
}

func rateText(r sim.Rate) string { return fmt.Sprintf("%d/%v", r.Count, r.Per) }

// scenarioBody is the derived scenario's YAML, without its header comments.
func scenarioBody(d *Derived, dur time.Duration) []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, "description: clients derived from a log by rlsim replay --to-scenario (an approximation, see the comments above)\n")
	if y := d.First.Year(); y >= 1970 && y <= 2161 {
		fmt.Fprintf(&b, "start: %s\n", d.First.Format(time.RFC3339Nano))
	}
	fmt.Fprintf(&b, "duration: %v\nseed: 1\n", dur)
	fmt.Fprintf(&b, "limits:\n  # a shadow limit far above every key's rate (nothing is refused): put the\n")
	fmt.Fprintf(&b, "  # proposed limit here and drop enforce: false to see the clients react to it\n")
	fmt.Fprintf(&b, "  - key: ip\n    limit: %d\n    window: 1s\n    enforce: false\n", fitLimit)
	fmt.Fprintf(&b, "clients:\n")
	for _, g := range d.Groups {
		fmt.Fprintf(&b, "  - name: %s\n    count: %d\n    identity:\n      ip: \"{g}-{i}\"\n    arrivals:\n", g.Name, len(g.Keys))
		fmt.Fprintf(&b, "      - kind: %s\n        rate: %s\n", g.Kind, rateText(g.Rate))
		if g.Kind == "on_off" {
			fmt.Fprintf(&b, "        on: %v\n        off: %v\n", g.On, g.Off)
		}
		if g.Retry == "none" {
			continue
		}
		fmt.Fprintf(&b, "    retry:\n      kind: %s\n", g.Retry)
		switch g.Retry {
		case "fixed":
			fmt.Fprintf(&b, "      delay: %v\n", g.Delay)
		case "exponential":
			fmt.Fprintf(&b, "      base: %v\n      cap: %v\n", g.Delay, g.Cap)
		}
		fmt.Fprintf(&b, "      max_attempts: %d\n", g.MaxAttempts)
		var on []string
		if g.On429 {
			on = append(on, "429")
		}
		if g.On503 {
			on = append(on, "503")
		}
		fmt.Fprintf(&b, "      on: [%s]\n", strings.Join(on, ", "))
	}
	return b.Bytes()
}

// header is the comments naming the log, the groups and the fit.
func header(d *Derived, o DeriveOptions, dur time.Duration) []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, "%s: a scenario derived from a log, an approximation\n", ScenarioMarker)
	fmt.Fprintf(&b, "# log: %s: %d requests (%d lines, %d bad), %d keys by %s, from %s over %v\n",
		strings.Join(o.Names, " "), d.Requests, d.Lines, d.Bad, len(d.Fit.LogRates), o.Key, d.First.Format(time.RFC3339Nano), d.Span)
	if d.Capped {
		fmt.Fprintf(&b, "# the log covers more than %v: the scenario runs its first %v only\n", MaxDerivedDuration, dur)
	}
	fmt.Fprintf(&b, "# %d requests (%.1f%%) repeat a refused one (429/503, same key, method and path within %v):\n",
		d.Retries, 100*float64(d.Retries)/float64(d.Requests), retryWithin)
	fmt.Fprintf(&b, "#   counted as retries, not arrivals; rates below are of first attempts, per second\n")
	fmt.Fprintf(&b, "# groups (by log rate, gap CV: <%.1f constant, else poisson; on/off: gaps over %dx the median):\n", regularCV, offFactor)
	for _, g := range d.Groups {
		lo, hi := g.Keys[0].Rate, g.Keys[len(g.Keys)-1].Rate
		cv := "-" // fewer than 3 requests a key
		if !math.IsNaN(g.CV) {
			cv = fmt.Sprintf("%.2f", g.CV)
		}
		fmt.Fprintf(&b, "#   %s: %d keys, rate median %.4g (min %.4g, max %.4g), gap CV %s", g.Name, len(g.Keys), medianOf(ratesOf(g.Keys)), lo, hi, cv)
		if g.Kind == "on_off" {
			fmt.Fprintf(&b, ", on %v at %.4g/s, off %v", g.On, g.RateSec, g.Off)
		}
		fmt.Fprintf(&b, "; retry %s", g.Retry)
		if g.Retry != "none" {
			fmt.Fprintf(&b, " after %v (%.0f%% of its refusals repeated)", g.Delay, 100*g.RepeatedShare)
		}
		fmt.Fprintln(&b)
	}
	f := d.Fit
	fmt.Fprintf(&b, "# fit: this scenario simulated as written (shadow limit, seed 1, lane token_bucket) against the log,\n")
	fmt.Fprintf(&b, "#   per-key rate of every request, (n-1)/(last-first), nearest-rank quantiles, log vs simulated:\n#  ")
	for i, q := range FitQuantiles {
		fmt.Fprintf(&b, " p%d %.4g vs %.4g", int(q*100), f.Log[i], f.Sim[i])
		if i < len(FitQuantiles)-1 {
			b.WriteByte(',')
		}
	}
	fmt.Fprintf(&b, "\n# fit: %s\n", f.Line())
	if d.Retries > 0 {
		fmt.Fprintf(&b, "# fit to first attempts only (the log without its %d retries, which a shadow run does not make): %s\n", d.Retries, d.FirstFit.Line())
	}
	return b.Bytes()
}

func ratesOf(keys []*KeyStat) []float64 {
	var r []float64
	for _, k := range keys {
		r = append(r, k.Rate)
	}
	return r
}

// Quantile is the nearest-rank q-quantile of sorted: its ⌈q×n⌉-th value.
func Quantile(sorted []float64, q float64) float64 {
	if len(sorted) == 0 {
		return math.NaN()
	}
	i := int(math.Ceil(q*float64(len(sorted)))) - 1
	return sorted[min(max(i, 0), len(sorted)-1)]
}

// CompareRates is the fit of sim's per-key rates to log's.
func CompareRates(log, sim []float64) Fit {
	f := Fit{LogRates: slices.Sorted(slices.Values(log)), SimRates: slices.Sorted(slices.Values(sim))}
	for i, q := range FitQuantiles {
		f.Log[i], f.Sim[i] = Quantile(f.LogRates, q), Quantile(f.SimRates, q)
		f.RelErr[i] = math.Abs(f.Sim[i]-f.Log[i]) / f.Log[i]
		f.Error = max(f.Error, f.RelErr[i])
	}
	return f
}

// rateSink keeps each client's attempts: how many, the first and the last.
type rateSink struct {
	n           []int
	first, last []time.Duration
}

func (s *rateSink) Record(r *sim.TraceRecord) error {
	switch r.Event {
	case sim.TraceAdmit, sim.TraceDelay, sim.TraceRefuse, sim.TraceDrop, sim.TraceShed:
	default:
		return nil
	}
	for r.Client >= len(s.n) {
		s.n, s.first, s.last = append(s.n, 0), append(s.first, 0), append(s.last, 0)
	}
	if s.n[r.Client] == 0 {
		s.first[r.Client] = r.At
	}
	s.n[r.Client]++
	s.last[r.Client] = r.At
	return nil
}

// SimulatedRates runs cfg in one token_bucket lane and measures every
// client's rate as the log's are measured (a client that sent nothing: 0).
func SimulatedRates(ctx context.Context, cfg sim.Config, maxEvents int64) ([]float64, error) {
	lane, _ := sim.ParseLane("token_bucket")
	cfg.Lanes, cfg.Variants, cfg.Overrides = []sim.LaneKind{lane}, nil, nil
	s := &rateSink{}
	if _, err := sim.Run(ctx, cfg, sim.Options{Trace: s, MaxEvents: maxEvents}); err != nil {
		return nil, err
	}
	clients := 0
	for _, g := range cfg.Clients {
		clients += max(g.Count, 1)
	}
	span := max(cfg.Duration, time.Second)
	rates := make([]float64, clients)
	for c := range min(clients, len(s.n)) {
		rates[c] = rateOf(s.n[c], int64(s.first[c]), int64(s.last[c]), span)
	}
	return rates, nil
}
