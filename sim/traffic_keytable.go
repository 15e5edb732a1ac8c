package sim

import (
	"strconv"
	"strings"
)

// keyTable names the keys of one limit by id. Most names are interned strings;
// the keys of one group whose template holds "{i}" once (user: user-{i}) form a
// run of consecutive ids that is named on demand, so that a million clients with
// a key each cost no string and no map entry at setup.
type keyTable struct {
	names []string // the interned keys: ids before run.first, then those after the run
	run   keyRun
}

// keyRun is ids first … first+count−1: the key of client id−first of grp.
type keyRun struct {
	first, count int32
	grp          *ClientGroup
	kind         KeyKind
	prefix       string // before the client's index in every key of the run
	suffix       string // after it
}

// len is how many keys the limit has.
func (t *keyTable) len() int { return len(t.names) + int(t.run.count) }

// name is key id's name, e.g. "user:users-17".
func (t *keyTable) name(id int32) string {
	switch {
	case id < t.run.first:
		return t.names[id]
	case id < t.run.first+t.run.count:
		return clientKey(t.run.grp, int(id-t.run.first), t.run.kind)
	default:
		return t.names[id-t.run.count]
	}
}

// newKeyRun is the run of grp's keys of kind, or false when its template does not
// hold "{i}" exactly once: then two clients may share a key.
func newKeyRun(grp *ClientGroup, kind KeyKind) (keyRun, bool) {
	if kind == KeyGlobal {
		return keyRun{}, false
	}
	tmpl := identityTemplate(&grp.Identity, kind)
	if tmpl == "" {
		tmpl = "{g}-{i}"
	}
	before, after, ok := strings.Cut(tmpl, "{i}")
	if !ok || strings.Contains(after, "{i}") {
		return keyRun{}, false
	}
	// A "{g}" never spans the index, so filling each side alone is filling the whole.
	return keyRun{count: int32(grp.Count), grp: grp, kind: kind,
		prefix: kind.String() + ":" + strings.ReplaceAll(before, "{g}", grp.Name),
		suffix: strings.ReplaceAll(after, "{g}", grp.Name)}, true
}

// index is the client of the run whose key is key, or false when none is.
func (r *keyRun) index(key string) (int, bool) {
	if len(key) <= len(r.prefix)+len(r.suffix) || !strings.HasPrefix(key, r.prefix) || !strings.HasSuffix(key, r.suffix) {
		return 0, false
	}
	digits := key[len(r.prefix) : len(key)-len(r.suffix)]
	if digits[0] < '0' || digits[0] > '9' || (digits[0] == '0' && len(digits) > 1) {
		return 0, false // strconv.Itoa writes no sign and no leading zero
	}
	i, err := strconv.Atoi(digits)
	if err != nil || i >= int(r.count) {
		return 0, false
	}
	return i, true
}
