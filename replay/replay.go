package replay

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"sync"
	"time"

	"github.com/rlsim/rlsim/sim"
)

// Options say what to replay and how to read it.
type Options struct {
	Limits []Limit
	Lanes  []string // default DefaultLanes
	Format string   // one of Formats
	Fields Fields   // for json and csv; renames the parts of the other formats
	// LogFormat is the compiled --nginx-format or --envoy-format, for Format
	// nginx or envoy (or auto, which it then means).
	LogFormat *LogFormat
	// Location is the zone of times written without an offset (default UTC).
	Location *time.Location
	// Late is the reorder bound: a line up to Late behind the latest line read
	// is replayed in its place (while the buffer holds fewer than MaxReorder
	// lines and MaxReorderBytes); a later one is counted as too late. Default 5s; NoLate (any
	// negative Late) places none behind; any positive Duration, up to the
	// largest, means what it says.
	Late time.Duration
	// Strict makes the first unparsable line an error.
	Strict bool
	// LegitBelow is the rate, as a share of each limit (requests per window),
	// at or below which a key looks legitimate; LegitShare the share of its
	// active windows it must stay there. Defaults 0.5 and 0.9.
	LegitBelow, LegitShare float64
	// Top is how many keys to list per lane and limit (default 10).
	Top int
	// Progress, when not nil, is called from the reading goroutine every
	// ProgressEvery lines (default 2^18) with the lines read so far and the
	// bytes of the inputs consumed, as given (compressed bytes for gzip, so they
	// compare to the files' sizes; ahead of the lines by up to 1 MiB of buffer).
	Progress      func(lines, bytes int64)
	ProgressEvery int64
	// Verdicts keeps every request's verdict (tests: memory grows with lines).
	Verdicts bool
	// Sweep, when set, replays each of its values as one more limit in the same
	// pass; Result.Sweep holds them and Result.Limits only the limits given.
	Sweep *Sweep
	// Where is what Result.Smallest picks by (default DefaultWhere).
	Where []Where
	// Config, when set, is the scenario whose lanes Lanes names (by lane
	// name, variants too): each decides as that lane of a run, with its
	// product settings and lane options.
	Config *sim.Config
	// Fleet is the replicas the lines are routed over and where each limit's
	// state lives (zero: one limiter).
	Fleet Fleet
	// ConfigWarnings are the parts of --config's product config the scenario
	// it imports as cannot say (importer.Model.Problems), and what of a
	// scenario replay takes otherwise (ScenarioWarnings): Command writes them
	// to its Warn before replaying.
	ConfigWarnings []string
	// configFormats are the --config's nginx log_formats by name, which
	// --nginx-format may name instead of spelling one out.
	configFormats map[string]string
	// Shard, when set, replays only the keys it owns (shard.go); see WritePartial.
	Shard Shard

	reorderMax int  // the reorder buffer's bound in lines (tests; default reorderLines)
	batchMax   int  // the events per batch (tests; default batchLen)
	parks      bool // some lane parks keys (placed): the reader says which keys get ids
	noRetire   bool // keep every key to the end (tests: retirement changes no verdict)
	products   bool // some lane is a product's
	boxed      bool // plain lanes keep a boxed state per key in a map (tests: the path tabled is held to)
}

func (o *Options) defaults() {
	if len(o.Lanes) == 0 {
		o.Lanes = DefaultLanes
	}
	if o.Format == "" {
		o.Format = "auto"
	}
	if o.Fields == (Fields{}) {
		o.Fields = DefaultFields
	}
	if o.Location == nil {
		o.Location = time.UTC
	}
	if o.Late == 0 {
		o.Late = 5 * time.Second
	}
	o.Late = max(o.Late, 0) // NoLate
	if o.LegitBelow == 0 {
		o.LegitBelow = 0.5
	}
	if o.LegitShare == 0 {
		o.LegitShare = 0.9
	}
	if o.Top == 0 {
		o.Top = 10
	}
	if o.ProgressEvery <= 0 {
		o.ProgressEvery = 1 << 18
	}
}

// NoLate is an Options.Late that places no line behind the latest (the zero
// Late is the default, 5s).
const NoLate time.Duration = -1

// outOfScope is the key id of a line under a limit whose endpoint it is not
// to: the limit does not count it, and it is admitted.
const outOfScope int32 = -1

const batchSize = 8192

// batchLen is how many events a batch holds with limits limits: batchSize,
// fewer past 256 limits (a --vary of thousands of values), so that a batch's
// key ids stay within 8 MiB.
func batchLen(limits int) int { return max(1, min(batchSize, (2<<20)/limits)) }

// batch is a run of events in time order, shared read-only by every worker.
type batch struct {
	at   []time.Duration // since the replay's origin
	keys []int32         // key ids (Result.names), len(at) × limits, limit-major per event
	// retired are keys retired, in order, each before the event at its index:
	// their ids may then be given to other keys.
	retired []retiree
	// born are the keys given an id, each before the event at its index (after
	// the retirements there), when a lane parks keys (placed).
	born []retiree
	// replica is each event's replica, with a fleet.
	replica []int32
	origin  time.Time // the replay's origin, the wall-clock instant of t=0
}

// retiree is a key retired: sent nothing for retireAfter, so every lane decides
// it as a never-seen key and its last rate window has closed.
type retiree struct {
	id   int32
	name string
	at   time.Duration // since the replay's origin: retireAfter past its last request
	// before is the index in its batch of the first event after it.
	before int
}

// Replay reads every input once, in order, and replays its requests through
// every lane and limit in shadow. It returns an error for bad options, an input
// that cannot be read, ctx's error when cancelled, (Strict) the first bad line,
// or a *NoneParsedError when lines were read and none of them parsed.
func Replay(ctx context.Context, inputs []Input, opts Options) (*Result, error) {
	opts.defaults()
	if len(opts.Limits) == 0 {
		return nil, errors.New("no limit to replay (--limit)")
	}
	given := len(opts.Limits)
	if opts.Sweep != nil {
		opts.Limits = opts.Sweep.Expand(slices.Clone(opts.Limits))
	}
	if err := opts.Fleet.check(); err != nil {
		return nil, err
	}
	var deciders [][]decider // [lane][limit]
	routes := make([]*int32, len(opts.Lanes))
	every := time.Duration(newKeyTable(opts.Limits, opts.Late).after)
	for i, lane := range opts.Lanes {
		s, err := opts.spec(lane)
		if err != nil {
			return nil, err
		}
		var row []decider
		routes[i] = new(int32)
		for j, l := range opts.Limits {
			d, err := opts.laneDecider(s, j, l, routes[i], every)
			if err != nil {
				return nil, fmt.Errorf("limit %s: %w", l.Name, err)
			}
			if _, ok := d.(*placedLimit); ok {
				opts.parks = true
			}
			row = append(row, d)
		}
		if s.product() {
			opts.products = true
		}
		deciders = append(deciders, row)
	}
	res := newResult(opts)
	res.deciders = deciders
	res.products = opts.products
	if opts.Fleet.on() {
		res.Replicas, res.Routing = opts.Fleet.Replicas, opts.Fleet.Routing.String()
	}
	for i, lw := range res.lanes {
		lw.route = routes[i]
	}
	workers := make([]chan *batch, len(opts.Lanes)+1)
	var wg sync.WaitGroup
	for i := range workers {
		workers[i] = make(chan *batch, 4)
		wg.Add(1)
		go func() {
			defer wg.Done()
			if i == len(opts.Lanes) {
				res.traffic.consume(workers[i])
				return
			}
			res.lanes[i].consume(workers[i], deciders[i])
		}()
	}
	send := func(b *batch) {
		for _, w := range workers {
			w <- b
		}
	}
	err := read(ctx, inputs, opts, res, send)
	for _, w := range workers {
		close(w)
	}
	wg.Wait()
	if err != nil {
		return nil, err
	}
	if res.Requests == 0 && res.Bad > 0 {
		return nil, &NoneParsedError{Format: res.Format, Bad: res.Bad, Shown: res.Shown}
	}
	if read := res.Requests + res.Bad + res.TooLate + res.BehindFull; float64(res.Bad) > BadShareWarn*float64(read) {
		res.Warnings = append(res.Warnings, fmt.Sprintf("%d of %d lines (%.1f%%) did not parse, more than %.0f%%: check --log-format and --fields",
			res.Bad, read, 100*float64(res.Bad)/float64(read), 100*BadShareWarn))
	}
	res.finish(opts)
	if opts.Sweep != nil {
		res.Sweep = opts.Sweep.Points(res)
		res.Smallest = Smallest(res.Sweep, opts.Where)
		res.Limits = res.Limits[:given]
	}
	return res, nil
}

// read parses, keys and reorders every input's lines, sending batches.
func read(ctx context.Context, inputs []Input, opts Options, res *Result, send func(*batch)) error {
	nl := len(opts.Limits)
	perBatch := cmp.Or(opts.batchMax, batchLen(nl))
	hashes := opts.Fleet.on() && opts.Fleet.Routing == sim.RoutingHash
	stride := nl // the slab's int32s per line: its keys, and with hash routing its replica
	if hashes {
		stride++
	}
	q := reorder{late: int64(opts.Late), max: cmp.Or(opts.reorderMax, reorderLines(stride))}
	defer func() { res.reorderHigh = q.high }()
	keys := newKeyTable(opts.Limits, opts.Late)
	keys.track = opts.parks
	if opts.noRetire {
		keys.after = math.MaxInt64 / 4
	}
	route := newRouter(opts.Fleet)
	hashKey := opts.Fleet.HashKey
	if len(hashKey) == 0 {
		hashKey = KeySpec{{Kind: "ip"}}
	}
	var hashBuf []byte
	var hash int32    // the line's replica by hash routing, kept past its keys in the slab
	var keyBuf []byte // every limit's key, one after another, ending at ends
	var ends []int
	var pathBuf []byte
	var slab []int32
	var rec Record
	var seq, bytesDone int64 // bytesDone: the inputs before this one
	origin, haveOrigin := int64(0), false
	// A batch is sized once: the workers share it read-only, so it is never reused.
	newBatch := func() *batch {
		return &batch{at: make([]time.Duration, 0, perBatch), keys: make([]int32, 0, perBatch*nl)}
	}
	cur := newBatch()
	flush := func() {
		if len(cur.at) > 0 {
			cur.origin = res.Origin
			send(cur)
			cur = newBatch()
		}
	}
	release := func(all bool) {
		for {
			e, ok := q.pop(all)
			if !ok {
				return
			}
			if !haveOrigin {
				origin, haveOrigin = floorHour(e.at), true
				res.Origin, res.First = time.Unix(0, origin).UTC(), time.Unix(0, e.at).UTC()
				keys.nextScan = e.at
			}
			if e.at >= keys.nextScan {
				keys.retire(e.at)
			}
			if len(keys.retired) > 0 {
				cur.retired = append(cur.retired, keys.take(origin, len(cur.at))...)
			}
			if len(keys.born) > 0 {
				cur.born = append(cur.born, keys.takeBorn(len(cur.at))...)
			}
			if opts.Fleet.on() {
				var h int32
				if hashes {
					h = e.keys[:stride][nl]
				}
				cur.replica = append(cur.replica, route.pick(uint64(h)))
			}
			keys.released(e.keys, e.at)
			cur.at = append(cur.at, time.Duration(e.at-origin))
			cur.keys = append(cur.keys, e.keys...)
			res.Last = time.Unix(0, e.at).UTC()
			if len(cur.at) == perBatch {
				flush()
			}
		}
	}
	var strictErr error
	for _, in := range inputs {
		raw := &counted{r: in.R}
		r, err := decompressed(raw)
		if err != nil {
			return fmt.Errorf("%s: %w", in.Name, err)
		}
		var p parser
		err = lines(ctx, r, func(n int64, line []byte, long bool) {
			if strictErr != nil {
				return
			}
			res.Lines++
			if opts.Progress != nil && res.Lines%opts.ProgressEvery == 0 {
				opts.Progress(res.Lines, bytesDone+raw.n)
			}
			bad := func(problem string) {
				res.Bad++
				b := BadLine{File: in.Name, Line: n, Problem: problem}
				if len(res.Shown) < MaxShown {
					res.Shown = append(res.Shown, b)
				}
				if opts.Strict {
					strictErr = errors.New(b.String())
				}
			}
			if long {
				bad(errLong.Error())
				return
			}
			if len(line) == 0 {
				return
			}
			if p == nil {
				var perr error
				if p, perr = newParser(opts.Format, opts.Fields, opts.Location, opts.LogFormat, line); perr == errUnsniffed {
					bad(perr.Error())
					if res.Format == "" {
						res.Format = unsniffed(line)
					}
					return
				} else if perr != nil {
					strictErr = fmt.Errorf("%s: %w", in.Name, perr)
					return
				}
				if res.Requests == 0 { // the format of the first line to parse
					res.Format = formatOf(p)
				}
			}
			if err := p.parse(line, &rec); err != nil {
				if err != errHeader {
					bad(err.Error())
				}
				return
			}
			ends = ends[:0]
			keyBuf = keyBuf[:0]
			for _, l := range opts.Limits {
				var ok bool
				if ok, pathBuf = inScope(l.Endpoint, &rec, pathBuf); !ok {
					ends = append(ends, -1) // not counted by this limit
					continue
				}
				if keyBuf, ok = l.Key.appendKey(keyBuf, &rec); !ok {
					bad(fmt.Sprintf("no %s for key %s", l.Key, l.Name))
					return
				}
				ends = append(ends, len(keyBuf))
			}
			if hashes {
				var ok bool
				if hashBuf, ok = hashKey.appendKey(hashBuf[:0], &rec); !ok {
					bad(fmt.Sprintf("no %s for --hash-key", hashKey))
					return
				}
				hash = int32(hashOf(hashBuf) % uint64(opts.Fleet.Replicas))
			}
			switch q.place(rec.At) {
			case tooLate:
				res.TooLate++
				return
			case behindFull:
				res.BehindFull++
				return
			}
			if problem := q.beyond(rec.At, res.first, res.Requests > 0); problem != "" {
				bad(problem)
				return
			}
			// Release what this line lets go first, so that a key is still
			// waiting in the buffer only if it sent within Late of this line.
			q.advance(rec.At)
			release(false)
			if len(slab) < stride {
				slab = make([]int32, 1024*stride)
			}
			ids := slab[:nl:stride]
			if hashes {
				slab[nl] = hash
			}
			from := 0
			for i, end := range ends {
				if end < 0 {
					ids[i] = outOfScope
					continue
				}
				if !opts.Shard.owns(keyBuf[from:end]) {
					ids[i], from = outOfScope, end // another shard's key
					continue
				}
				id, ok := keys.id(keyBuf[from:end], rec.At)
				if !ok {
					bad("more than 2^31 live keys")
					return
				}
				ids[i], from = id, end
			}
			slab = slab[stride:]
			seq++
			q.push(event{at: rec.At, seq: seq, keys: ids}) // placed: checked above
			keys.pending(ids)
			if res.Requests == 0 || rec.At < res.first {
				res.first = rec.At
			}
			res.Requests++
			release(false)
		})
		bytesDone += raw.n
		if err != nil {
			return fmt.Errorf("%s: %w", in.Name, err)
		}
		if strictErr != nil {
			return strictErr // it names the file and line
		}
	}
	release(true)
	flush()
	res.Keys = keys.episodes
	res.retired, res.retireAfter = keys.retirements, time.Duration(keys.after)
	res.names = keys.names
	return nil
}
