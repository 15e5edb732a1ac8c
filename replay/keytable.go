package replay

import (
	"math"
	"time"
)

// keyTable gives each live key string an id, and retires a key once it has
// sent nothing for retireAfter (the longest of every limit's, and at least the
// reorder bound): its id is then free for another key, and a key that comes
// back is a new episode. Memory grows with the keys live at once, not with the
// keys ever seen. The reading goroutine owns it.
type keyTable struct {
	ids         map[string]int32
	names       []string // by id; "" when free
	seen        []int64  // by id: the latest request's time, ns since the epoch
	queued      []int32  // by id: requests in the reorder buffer, not yet sent; -1 when free
	free        []int32
	after       int64 // retireAfter, ns
	every       int64 // how often to look for keys to retire, ns
	nextScan    int64
	retired     []retiree // retired since the last take, times in ns since the epoch
	episodes    int       // ids given out
	retirements int64     // ids freed
	// track keeps born: the keys given an id since the last takeBorn.
	track bool
	born  []retiree
}

func newKeyTable(limits []Limit, late time.Duration) *keyTable {
	t := &keyTable{ids: map[string]int32{}, every: int64(time.Second), after: int64(late)}
	for _, l := range limits {
		t.after = max(t.after, int64(retireAfter(l.Policy)))
	}
	// Looking every half retirement time holds keys at most 1.5 times it;
	// a key that comes back is retired on its return, however seldom we look.
	t.every = max(t.every, t.after/2)
	return t
}

// id is key's id, a new one if the key is not live; at is the request's time.
func (t *keyTable) id(key []byte, at int64) (int32, bool) {
	if id, ok := t.ids[string(key)]; ok {
		if t.queued[id] != 0 || at-t.seen[id] < t.after {
			t.seen[id] = max(t.seen[id], at)
			return id, true
		}
		t.retired = append(t.retired, t.free1(id))
	}
	var id int32
	switch {
	case len(t.free) > 0:
		id = t.free[len(t.free)-1]
		t.free = t.free[:len(t.free)-1]
	case len(t.names) == math.MaxInt32:
		return 0, false
	default:
		id = int32(len(t.names))
		t.names, t.seen, t.queued = append(t.names, ""), append(t.seen, 0), append(t.queued, 0)
	}
	t.names[id], t.seen[id], t.queued[id] = string(key), at, 0
	t.ids[t.names[id]] = id
	t.episodes++
	if t.track {
		t.born = append(t.born, retiree{id: id, name: t.names[id]})
	}
	return id, true
}

// pending notes an event's keys entering the reorder buffer.
func (t *keyTable) pending(ids []int32) {
	for _, id := range ids {
		if id != outOfScope {
			t.queued[id]++
		}
	}
}

// released notes an event's keys leaving the reorder buffer at at.
func (t *keyTable) released(ids []int32, at int64) {
	for _, id := range ids {
		if id == outOfScope {
			continue
		}
		t.queued[id]--
		t.seen[id] = max(t.seen[id], at)
	}
}

// retire frees, in id order, every live key with nothing in the reorder buffer
// that sent nothing in the retireAfter before now, and schedules the next look.
func (t *keyTable) retire(now int64) {
	t.nextScan = now + t.every
	if now > math.MaxInt64-t.every { // saturated: a --late longer than the log
		t.nextScan = math.MaxInt64
	}
	for id := range t.names {
		if t.queued[id] == 0 && now-t.seen[id] >= t.after {
			t.retired = append(t.retired, t.free1(int32(id)))
		}
	}
}

// free1 frees a live key's id: its retirement is at retireAfter past its last request.
func (t *keyTable) free1(id int32) retiree {
	r := retiree{id: id, name: t.names[id], at: time.Duration(t.seen[id] + t.after)}
	t.retirements++
	delete(t.ids, r.name)
	t.names[id], t.queued[id] = "", -1
	t.free = append(t.free, id)
	return r
}

// take returns the keys retired since the last take, their times made
// relative to origin, to be applied before the batch's event at index before.
func (t *keyTable) take(origin int64, before int) []retiree {
	out := t.retired
	t.retired = nil
	for i := range out {
		out[i].at -= time.Duration(origin)
		out[i].before = before
	}
	return out
}

// takeBorn returns the keys given an id since the last take, to be applied
// before the batch's event at index before.
func (t *keyTable) takeBorn(before int) []retiree {
	out := t.born
	t.born = nil
	for i := range out {
		out[i].before = before
	}
	return out
}
