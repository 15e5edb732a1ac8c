package sim

import "github.com/rlsim/rlsim/algorithms"

// bounded is d, limit i's table with policy p, in a key table of the lane's
// size if its options bound it (LaneOptions.Keys). A table replaced by a rule
// push keeps its figures in l.keyTables.
func (l *lane) bounded(d decider, i int, p algorithms.Policy) decider {
	o := l.cfg.options
	if o.Keys <= 0 {
		return d
	}
	if i < len(l.chain) {
		if old, ok := l.chain[i].(*boundedKeys); ok {
			l.keyTables = append(l.keyTables, old.stats)
		}
	}
	b := newBoundedKeys(d.(forgettable), p, o, l.pop.keys[i].len())
	b.stats.Limit = l.cfg.Limits[i].Name
	return b
}

// keyTablesNow are the figures of the lane's key tables in place now.
func (l *lane) keyTablesNow() []KeyTableStats {
	var out []KeyTableStats
	for _, d := range l.chain {
		if b, ok := d.(*boundedKeys); ok {
			out = append(out, b.stats)
		}
	}
	return out
}
