package replay

import (
	"cmp"
	"slices"
	"time"

	"github.com/rlsim/rlsim/algorithms"
)

// Result is what a replay found, per limit and lane.
type Result struct {
	Lines    int64 `json:"lines"`     // lines read, blank ones included
	Requests int64 `json:"requests"`  // lines replayed
	Bad      int64 `json:"bad_lines"` // lines that did not parse or lacked a key's part
	TooLate  int64 `json:"too_late"`  // lines more than Late behind the latest (not replayed)
	// BehindFull counts lines behind one the full reorder buffer let go early
	// (more than MaxReorder lines within Late): not replayed.
	BehindFull int64     `json:"behind_full_buffer,omitempty"`
	Late       string    `json:"late"`      // the reorder bound
	Shown      []BadLine `json:"bad_shown"` // the first MaxShown bad lines
	// Format is the log format read: that of the first line parsed, as given or
	// sniffed (an input whose lines are all bad does not set it).
	Format string `json:"format"`
	// Warnings say what a reader should check before trusting the tables:
	// more than BadShareWarn of the lines did not parse.
	Warnings []string      `json:"warnings,omitempty"`
	Keys     int           `json:"distinct_keys"` // key episodes: a key back after the retirement time counts again
	Origin   time.Time     `json:"origin"`        // the hour the first request fell in: hour 0, and windows align to it
	First    time.Time     `json:"first"`         // the first request's time
	Last     time.Time     `json:"last"`
	Limits   []LimitResult `json:"limits"`
	// Replicas and Routing are the fleet replayed through (omitted for one limiter).
	Replicas int    `json:"replicas,omitempty"`
	Routing  string `json:"routing,omitempty"`
	// Sweep is every --vary value's lanes; Smallest each lane's smallest value
	// meeting Options.Where (by default: refusing no key at or below the p99 of
	// per-key peaks; 0: none).
	Sweep    []SweepPoint     `json:"sweep,omitempty"`
	Smallest map[string]int64 `json:"smallest,omitempty"`

	first    int64
	names    []string // key strings by id
	lanes    []*laneWork
	deciders [][]decider // [lane][limit]
	// retired is how many key episodes ended retireAfter after their last request.
	retired     int64
	retireAfter time.Duration
	traffic     *trafficWork
	reorderHigh int  // the most lines the reorder buffer held at once
	products    bool // some lane is a product's: the text shows delays
}

// LimitResult is one limit's traffic and each lane's would-be refusals.
type LimitResult struct {
	Limit string `json:"limit"`
	Keys  int    `json:"keys"` // key episodes under this limit
	// Peaks: per-key peak requests in one window of the limit (windows aligned to
	// Origin), as exact nearest-rank percentiles over key episodes.
	PeakP50 int64 `json:"peak_p50"`
	PeakP90 int64 `json:"peak_p90"`
	PeakP99 int64 `json:"peak_p99"`
	PeakMax int64 `json:"peak_max"`
	// LegitBelow: a key looks legitimate when at most this many requests per
	// window in at least LegitShare of the windows it sent anything.
	LegitBelow int64        `json:"legit_below_per_window"`
	LegitShare float64      `json:"legit_share"`
	Lanes      []LaneResult `json:"lanes"`
	peaks      []peakCount  // sorted by peak
}

// LaneResult is one lane's would-be refusals under one limit.
type LaneResult struct {
	Lane        string `json:"lane"`
	Refused     int64  `json:"refused"`
	Delayed     int64  `json:"delayed"`
	KeysRefused int    `json:"keys_refused"`
	LegitCaught int    `json:"legit_keys_caught"`
	// BelowP99Refused counts refused keys whose peak is at most the limit's PeakP99.
	BelowP99Refused int        `json:"keys_below_p99_refused"`
	Top             []KeyCount `json:"top"`
	ByHour          []int64    `json:"refused_by_hour"`   // hour 0 starts at Origin
	ByMinute        []int64    `json:"refused_by_minute"` // minute 0 starts at Origin
	// When the last refusal is MaxSeries minutes (728 days) or more after
	// Origin (a log jumping by years), both series are given instead as
	// [index, count] pairs of the hours and minutes with a refusal, the dense
	// forms left empty.
	ByHourSparse   [][2]int64 `json:"refused_by_hour_sparse,omitempty"`
	ByMinuteSparse [][2]int64 `json:"refused_by_minute_sparse,omitempty"`
	Verdicts       []uint8    `json:"-"`
	// Fleet is what the lane admitted across the fleet, with more than one replica.
	Fleet *LaneFleet `json:"fleet,omitempty"`
}

// KeyCount is a key's would-be refusals and its peak requests in one window.
type KeyCount struct {
	Key     string `json:"key"`
	Refused int64  `json:"refused"`
	Peak    int64  `json:"peak_per_window"`
	Legit   bool   `json:"legit_looking"`
}

func newResult(opts Options) *Result {
	r := &Result{Late: opts.Late.String(), traffic: newTrafficWork(opts.Limits, opts.LegitBelow)}
	for _, lane := range opts.Lanes {
		lw := &laneWork{lane: lane, keep: opts.Verdicts}
		for j, l := range opts.Limits {
			lw.limits = append(lw.limits, &laneLimit{refused: map[int32]int64{}, kept: map[string]*keptKey{},
				window: l.Policy.Window, below: r.traffic.below[j]})
		}
		r.lanes = append(r.lanes, lw)
	}
	return r
}

// laneWork is one lane's worker: every limit's refusals.
type laneWork struct {
	lane   string
	keep   bool
	limits []*laneLimit
	route  *int32 // the replica of the event being decided, read by placed deciders
}

type laneLimit struct {
	refused  map[int32]int64     // live keys' refusals this episode
	kept     map[string]*keptKey // retired keys this lane refused, by name
	total    int64
	delayed  int64
	byHour   series
	byMinute series
	window   time.Duration
	below    int64 // the legitimate-looking rate per window
	verdicts []uint8
}

// keptKey is a refused key's figures from the start of the episode in which
// this lane first refused it.
type keptKey struct {
	refused int64
	rate    keyRate
}

func (k *keptKey) add(refused int64, r keyRate) {
	k.refused += refused
	k.rate.peak = max(k.rate.peak, r.peak)
	k.rate.active += r.active
	k.rate.below += r.below
}

func (w *laneWork) consume(in <-chan *batch, ds []decider) {
	nl := len(ds)
	started := false
	for b := range in {
		if !started {
			started = true
			startPlaced(ds, b.origin)
		}
		ri, bi := 0, 0
		for i, now := range b.at {
			for ; ri < len(b.retired) && b.retired[ri].before == i; ri++ {
				for j, d := range ds {
					w.limits[j].retire(d, b.retired[ri])
				}
			}
			for ; bi < len(b.born) && b.born[bi].before == i; bi++ {
				bornPlaced(ds, b.born[bi])
			}
			if b.replica != nil {
				*w.route = b.replica[i]
			}
			for j, d := range ds {
				ll := w.limits[j]
				key := b.keys[i*nl+j]
				if key == outOfScope {
					if w.keep {
						ll.verdicts = append(ll.verdicts, uint8(algorithms.Admit))
					}
					continue
				}
				v, rate := d.decide(key, now)
				rate.add(now, ll.window, ll.below)
				if w.keep {
					ll.verdicts = append(ll.verdicts, uint8(v))
				}
				switch v {
				case algorithms.Refuse:
					ll.total++
					ll.refused[key]++
					ll.byHour.add(int64(now / time.Hour))
					ll.byMinute.add(int64(now / time.Minute))
				case algorithms.Delay:
					ll.delayed++
				}
			}
		}
	}
}

// retire forgets a retired key's state; its figures are kept, by name, if this
// lane ever refused it.
func (ll *laneLimit) retire(d decider, r retiree) {
	var rate keyRate
	var ok bool
	if p, isPlaced := d.(*placedLimit); isPlaced {
		rate, ok = p.retireNamed(r)
	} else {
		rate, ok = d.retire(r.id, r.at)
	}
	if !ok {
		return
	}
	rate.close(ll.below)
	ll.keep(r.name, ll.refused[r.id], rate)
	delete(ll.refused, r.id)
}

// keep adds a key's episode to its kept figures if it was refused in it or before.
func (ll *laneLimit) keep(name string, refused int64, rate keyRate) {
	k, ok := ll.kept[name]
	if !ok && refused == 0 {
		return
	}
	if !ok {
		k = &keptKey{}
		ll.kept[name] = k
	}
	k.add(refused, rate)
}

// trafficWork measures each key's peak per limit, independent of any lane,
// folding a key's peak into an exact histogram when the key retires.
type trafficWork struct {
	windows []time.Duration
	below   []int64           // the legitimate-looking rate per window, per limit
	keys    [][]keyRate       // per limit, by live key id; a zero keyRate is a key not seen under it
	peaks   []map[int64]int64 // per limit: peak → key episodes
}

// keyRate is a key's requests in aligned windows of the limit: the current
// window, the peak, and how many windows it was active in, and in how many of
// those it sent at most the legitimate-looking rate. A fixed size per key.
type keyRate struct {
	win, count, peak int64
	active, below    int64
}

func newTrafficWork(limits []Limit, legitBelow float64) *trafficWork {
	t := &trafficWork{}
	for _, l := range limits {
		t.windows = append(t.windows, l.Policy.Window)
		t.below = append(t.below, legitRate(l, legitBelow))
		t.keys = append(t.keys, nil)
		t.peaks = append(t.peaks, map[int64]int64{})
	}
	return t
}

func (t *trafficWork) consume(in <-chan *batch) {
	nl := len(t.windows)
	for b := range in {
		ri := 0
		for i, now := range b.at {
			for ; ri < len(b.retired) && b.retired[ri].before == i; ri++ {
				t.retire(b.retired[ri].id)
			}
			for j, w := range t.windows {
				key := b.keys[i*nl+j]
				if key == outOfScope {
					continue
				}
				for int(key) >= len(t.keys[j]) {
					t.keys[j] = append(t.keys[j], keyRate{})
				}
				t.keys[j][key].add(now, w, t.below[j])
			}
		}
	}
	for j, ks := range t.keys {
		for i := range ks {
			t.fold(j, &ks[i])
		}
	}
}

// retire folds a retired key's episode under every limit.
func (t *trafficWork) retire(id int32) {
	for j := range t.keys {
		if int(id) < len(t.keys[j]) {
			t.fold(j, &t.keys[j][id])
		}
	}
}

// fold closes a key's episode under limit j into the peak histogram and zeroes it.
func (t *trafficWork) fold(j int, k *keyRate) {
	k.close(t.below[j])
	if k.active > 0 {
		t.peaks[j][k.peak]++
	}
	*k = keyRate{}
}

// add counts a request at now in windows of w.
func (k *keyRate) add(now, w time.Duration, below int64) {
	win := int64(now / w)
	if k.count == 0 && k.active == 0 {
		k.win = win
	}
	if win != k.win {
		k.close(below)
		k.win = win
	}
	k.count++
}

func (k *keyRate) close(below int64) {
	if k.count == 0 {
		return
	}
	k.peak = max(k.peak, k.count)
	k.active++
	if k.count <= below {
		k.below++
	}
	k.count = 0
}

// legit reports whether k sent at most the legitimate-looking rate in at least
// share of its active windows.
func (k *keyRate) legit(share float64) bool {
	return float64(k.below) >= share*float64(k.active)
}

// legitRate is the legitimate-looking rate, whole requests per window.
func legitRate(l Limit, share float64) int64 { return int64(share * float64(l.Policy.Limit)) }

func (r *Result) finish(opts Options) {
	for j, l := range opts.Limits {
		lr := LimitResult{Limit: l.String(), LegitShare: opts.LegitShare,
			LegitBelow: legitRate(l, opts.LegitBelow)}
		for p, n := range r.traffic.peaks[j] {
			lr.peaks = append(lr.peaks, peakCount{peak: p, keys: n})
			lr.Keys += int(n)
		}
		slices.SortFunc(lr.peaks, func(a, b peakCount) int { return cmp.Compare(a.peak, b.peak) })
		lr.PeakP50, lr.PeakP90, lr.PeakP99 = quantile(lr.peaks, 0.5), quantile(lr.peaks, 0.9), quantile(lr.peaks, 0.99)
		lr.PeakMax = quantile(lr.peaks, 1)
		for i, lw := range r.lanes {
			ll := lw.limits[j]
			r.keepLive(ll, r.deciders[i][j])
			lane := LaneResult{Lane: lw.lane, Refused: ll.total, Delayed: ll.delayed, KeysRefused: len(ll.kept),
				Verdicts: ll.verdicts}
			if p, ok := r.deciders[i][j].(*placedLimit); ok {
				lane.Fleet = p.fleet(r.names)
			}
			sparse := len(ll.byMinute) > 0 && ll.byMinute[len(ll.byMinute)-1][0] >= MaxSeries
			lane.ByHour, lane.ByHourSparse = ll.byHour.out(sparse)
			lane.ByMinute, lane.ByMinuteSparse = ll.byMinute.out(sparse)
			var all []KeyCount
			for name, k := range ll.kept {
				kc := KeyCount{Key: name, Refused: k.refused, Peak: k.rate.peak, Legit: k.rate.legit(opts.LegitShare)}
				if kc.Legit {
					lane.LegitCaught++
				}
				if kc.Peak <= lr.PeakP99 {
					lane.BelowP99Refused++
				}
				all = append(all, kc)
			}
			slices.SortFunc(all, func(a, b KeyCount) int {
				return cmp.Or(cmp.Compare(b.Refused, a.Refused), cmp.Compare(a.Key, b.Key))
			})
			lane.Top = all[:min(len(all), opts.Top)]
			if lane.Top == nil {
				lane.Top = []KeyCount{}
			}
			lr.Lanes = append(lr.Lanes, lane)
		}
		r.Limits = append(r.Limits, lr)
	}
}

// keepLive ends the episode of every key still live in a lane at the end of
// the log, as a retirement would.
func (r *Result) keepLive(ll *laneLimit, d decider) {
	d.each(func(key int32, rate *keyRate) {
		k := *rate
		k.close(ll.below)
		ll.keep(r.names[key], ll.refused[key], k)
	})
}

// MaxSeries is how many minutes of refusals are given densely, by minute and
// by hour: 2^20 minutes, 728 days.
const MaxSeries = 1 << 20

// series counts refusals per hour or minute since the origin as (index, count)
// pairs of the indices with a refusal, added in time order: its memory grows
// with those, not with the time the log covers (a log jumping by decades).
type series [][2]int64

func (s *series) add(i int64) {
	if n := len(*s); n > 0 && (*s)[n-1][0] == i {
		(*s)[n-1][1]++
		return
	}
	*s = append(*s, [2]int64{i, 1})
}

// out is the series as counts from index 0 to the last with a refusal, or,
// if sparse, empty with the pairs.
func (s series) out(sparse bool) ([]int64, [][2]int64) {
	if sparse {
		return []int64{}, s
	}
	dense := []int64{}
	if len(s) > 0 {
		dense = make([]int64, s[len(s)-1][0]+1)
	}
	for _, p := range s {
		dense[p[0]] = p[1]
	}
	return dense, nil
}

// peakCount is how many key episodes peaked at peak requests in one window.
type peakCount struct{ peak, keys int64 }

// quantile is the nearest-rank q-quantile of the histogram sorted by peak (0 if empty).
func quantile(sorted []peakCount, q float64) int64 {
	var n int64
	for _, p := range sorted {
		n += p.keys
	}
	if n == 0 {
		return 0
	}
	rank := max(1, min(int64(q*float64(n)+0.999999999), n))
	for _, p := range sorted {
		if rank <= p.keys {
			return p.peak
		}
		rank -= p.keys
	}
	return sorted[len(sorted)-1].peak
}
