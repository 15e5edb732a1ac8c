package replay

import (
	"cmp"
	"slices"
	"time"

	"github.com/rlsim/rlsim/algorithms"
)

// Result is what a replay found, per limit and lane.
type Result struct {
	Lines    int64         `json:"lines"`     // lines read, blank ones included
	Requests int64         `json:"requests"`  // lines replayed
	Bad      int64         `json:"bad_lines"` // lines that did not parse or lacked a key's part
	TooLate  int64         `json:"too_late"`  // lines more than Late behind the latest (not replayed)
	Late     string        `json:"late"`      // the reorder bound
	Shown    []BadLine     `json:"bad_shown"` // the first MaxShown bad lines
	Keys     int           `json:"distinct_keys"`
	Origin   time.Time     `json:"origin"` // the hour the first request fell in: hour 0, and windows align to it
	Last     time.Time     `json:"last"`
	Limits   []LimitResult `json:"limits"`
	// Sweep is every --vary value's lanes; Smallest each lane's smallest value
	// meeting Options.Where (by default: refusing no key at or below the p99 of
	// per-key peaks; 0: none).
	Sweep    []SweepPoint     `json:"sweep,omitempty"`
	Smallest map[string]int64 `json:"smallest,omitempty"`

	first   int64
	names   []string // key strings by id
	lanes   []*laneWork
	traffic *trafficWork
}

// LimitResult is one limit's traffic and each lane's would-be refusals.
type LimitResult struct {
	Limit string `json:"limit"`
	Keys  int    `json:"keys"`
	// Peaks: per-key peak requests in one window of the limit (windows aligned to
	// Origin), as percentiles over keys.
	PeakP50 int64 `json:"peak_p50"`
	PeakP90 int64 `json:"peak_p90"`
	PeakP99 int64 `json:"peak_p99"`
	PeakMax int64 `json:"peak_max"`
	// LegitBelow: a key looks legitimate when at most this many requests per
	// window in at least LegitShare of the windows it sent anything.
	LegitBelow int64        `json:"legit_below_per_window"`
	LegitShare float64      `json:"legit_share"`
	Lanes      []LaneResult `json:"lanes"`
	peaks      []int64      // sorted, one per key
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
	Verdicts        []uint8    `json:"-"`
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
		for _, l := range opts.Limits {
			lw.limits = append(lw.limits, &laneLimit{refused: map[int32]int64{}, every: max(l.Policy.Window, time.Second)})
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
}

type laneLimit struct {
	refused   map[int32]int64
	total     int64
	delayed   int64
	byHour    []int64
	byMinute  []int64
	every     time.Duration // eviction period
	nextEvict time.Duration
	verdicts  []uint8
}

func (w *laneWork) consume(in <-chan *batch, ds []decider) {
	nl := len(ds)
	for b := range in {
		for i, now := range b.at {
			for j, d := range ds {
				ll := w.limits[j]
				if now >= ll.nextEvict {
					d.evict(now)
					ll.nextEvict = now + ll.every
				}
				key := b.keys[i*nl+j]
				v := d.decide(key, now)
				if w.keep {
					ll.verdicts = append(ll.verdicts, uint8(v))
				}
				switch v {
				case algorithms.Refuse:
					ll.total++
					ll.refused[key]++
					h := int(now / time.Hour)
					for len(ll.byHour) <= h {
						ll.byHour = append(ll.byHour, 0)
					}
					ll.byHour[h]++
					m := int(now / time.Minute)
					for len(ll.byMinute) <= m {
						ll.byMinute = append(ll.byMinute, 0)
					}
					ll.byMinute[m]++
				case algorithms.Delay:
					ll.delayed++
				}
			}
		}
	}
}

// trafficWork measures each key's rate per limit, independent of any lane.
type trafficWork struct {
	windows []time.Duration
	below   []int64     // the legitimate-looking rate per window, per limit
	keys    [][]keyRate // per limit, by key id; a zero keyRate is a key not seen under it
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
	}
	return t
}

func (t *trafficWork) consume(in <-chan *batch) {
	nl := len(t.windows)
	for b := range in {
		for i, now := range b.at {
			for j, w := range t.windows {
				key := b.keys[i*nl+j]
				for int(key) >= len(t.keys[j]) {
					t.keys[j] = append(t.keys[j], keyRate{})
				}
				k := &t.keys[j][key]
				win := int64(now / w)
				if k.count == 0 && k.active == 0 {
					k.win = win
				}
				if win != k.win {
					k.close(t.below[j])
					k.win = win
				}
				k.count++
			}
		}
	}
	for j, ks := range t.keys {
		for i := range ks {
			ks[i].close(t.below[j])
		}
	}
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
		for _, k := range r.traffic.keys[j] {
			if k.active > 0 {
				lr.peaks = append(lr.peaks, k.peak)
			}
		}
		lr.Keys = len(lr.peaks)
		slices.Sort(lr.peaks)
		lr.PeakP50, lr.PeakP90, lr.PeakP99 = quantile(lr.peaks, 0.5), quantile(lr.peaks, 0.9), quantile(lr.peaks, 0.99)
		lr.PeakMax = quantile(lr.peaks, 1)
		for _, lw := range r.lanes {
			ll := lw.limits[j]
			lane := LaneResult{Lane: lw.lane, Refused: ll.total, Delayed: ll.delayed, KeysRefused: len(ll.refused),
				ByHour: ll.byHour, ByMinute: ll.byMinute, Verdicts: ll.verdicts}
			var all []KeyCount
			for key, n := range ll.refused {
				kr := r.traffic.keys[j][key]
				kc := KeyCount{Key: r.names[key], Refused: n, Peak: kr.peak, Legit: kr.legit(opts.LegitShare)}
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
			if lane.ByHour == nil {
				lane.ByHour, lane.ByMinute = []int64{}, []int64{}
			}
			if lane.Top == nil {
				lane.Top = []KeyCount{}
			}
			lr.Lanes = append(lr.Lanes, lane)
		}
		r.Limits = append(r.Limits, lr)
	}
}

// quantile is the nearest-rank q-quantile of sorted (0 if empty).
func quantile(sorted []int64, q float64) int64 {
	if len(sorted) == 0 {
		return 0
	}
	i := int(q*float64(len(sorted))+0.999999999) - 1
	return sorted[max(0, min(i, len(sorted)-1))]
}
