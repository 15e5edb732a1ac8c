package sim

import (
	"context"
	"strconv"
	"strings"
)

// setupCheckEvery is how many clients population and lane setup build between
// two looks at the context: a few milliseconds of work, so that Ctrl-C during the
// setup of millions of clients is honoured at once.
const setupCheckEvery = 1 << 10

// population is the static part of a world, shared by every lane: who the clients
// are and which key of each limit they count against. Keys are dense ids so a lane
// indexes its limiter states instead of hashing strings per request.
type population struct {
	groups    []ClientGroup // with defaults applied
	groupOf   []int32       // client → group
	indexOf   []int32       // client → index within its group
	extraComp []int32       // client → index of its second arrival component among the extras; nil when no group has one
	extras    int           // arrival components beyond each client's first
	// superposed is true of a group whose clients share one arrival stream
	// (superposable), held by its first client: group → superposed.
	superposed []bool
	keyOf      [][]int32  // limit → client → key id
	keys       []keyTable // limit → key id → key
	// skip, for a limit that applies to one endpoint only (Limit.Endpoint), is
	// true of the clients it does not count: limit → client; nil for the others.
	skip   [][]bool
	scoped bool // some limit applies to one endpoint only
}

// skips reports whether limit i does not count client c's requests.
func (p *population) skips(i int, c int32) bool { return p.scoped && p.skip[i] != nil && p.skip[i][c] }

// newPopulation builds the population, or stops with ctx's error when ctx is
// cancelled. Key ids are given in order of first appearance, client by client.
func newPopulation(ctx context.Context, groups []ClientGroup, limits []Limit) (*population, error) {
	clients := 0
	for _, g := range groups {
		clients += g.Count
	}
	p := &population{groups: groups, keyOf: make([][]int32, len(limits)), keys: make([]keyTable, len(limits)), skip: make([][]bool, len(limits)),
		groupOf: make([]int32, 0, clients), indexOf: make([]int32, 0, clients)}
	for _, g := range groups {
		if len(g.Arrivals) > 1 {
			p.extraComp = make([]int32, 0, clients)
			break
		}
	}
	keyers, scopes := make([]keyer, len(limits)), make([]scope, len(limits))
	for l, lim := range limits {
		p.keyOf[l] = make([]int32, 0, clients)
		keyers[l] = newKeyer(groups, lim.Key, &p.keys[l])
		scopes[l].endpoint = KeyEndpoint.String() + ":" + lim.Endpoint
	}
	for g := range groups {
		p.superposed = append(p.superposed, superposable(&groups[g]))
		for l := range limits {
			keyers[l].startGroup(g, &groups[g])
			scopes[l].startGroup(&groups[g])
		}
		if err := p.addGroup(ctx, g, limits, keyers, scopes); err != nil {
			return nil, err
		}
	}
	return p, nil
}

// scope tells the clients a limit for one endpoint (Limit.Endpoint) does not
// count: those whose endpoint key is not its.
type scope struct {
	endpoint   string // the limit's endpoint key
	same, skip bool   // the current group's clients share one endpoint (sameKeyInGroup), skipped or not
}

// startGroup begins the clients of grp.
func (s *scope) startGroup(grp *ClientGroup) {
	if s.same = sameKeyInGroup(grp, KeyEndpoint); s.same {
		s.skip = clientKey(grp, 0, KeyEndpoint) != s.endpoint
	}
}

// skips reports whether the limit does not count client i of grp.
func (s *scope) skips(grp *ClientGroup, i int) bool {
	if s.same {
		return s.skip
	}
	return clientKey(grp, i, KeyEndpoint) != s.endpoint
}

// addGroup adds the clients of group g, a column at a time, setupCheckEvery
// clients at a time.
func (p *population) addGroup(ctx context.Context, g int, limits []Limit, keyers []keyer, scopes []scope) error {
	grp := &p.groups[g]
	extra := max(len(grp.Arrivals)-1, 0)
	for start := 0; start < grp.Count; start += setupCheckEvery {
		if err := ctx.Err(); err != nil {
			return err
		}
		end := min(start+setupCheckEvery, grp.Count)
		for i := start; i < end; i++ {
			p.groupOf = append(p.groupOf, int32(g))
			p.indexOf = append(p.indexOf, int32(i))
		}
		for i := start; p.extraComp != nil && i < end; i++ {
			p.extraComp = append(p.extraComp, int32(p.extras))
			p.extras += extra
		}
		for l, lim := range limits {
			for i := start; i < end; i++ {
				p.keyOf[l] = append(p.keyOf[l], keyers[l].id(grp, i))
			}
			for i := start; lim.Endpoint != "" && i < end; i++ {
				p.scoped = true
				p.skip[l] = append(p.skip[l], scopes[l].skips(grp, i))
			}
		}
	}
	return nil
}

// keyer gives the clients of a limit their key ids, interning names in a map
// except for the largest group whose keys can form a run (see keyTable).
type keyer struct {
	kind    KeyKind
	table   *keyTable
	ids     map[string]int32
	runOf   int  // the group whose keys may form the run, or -1
	inRun   bool // the current group is the run
	matched bool // a key interned before the run is one of the run's keys: no run
	run     keyRun
	// same is true when every client of the current group has one key
	// (sameKeyInGroup), its id known once its first client's is (sameID, or -1).
	same   bool
	sameID int32
}

func newKeyer(groups []ClientGroup, kind KeyKind, table *keyTable) keyer {
	k := keyer{kind: kind, table: table, ids: map[string]int32{}, runOf: -1}
	for g := range groups {
		if r, ok := newKeyRun(&groups[g], kind); ok && (k.runOf < 0 || r.count > k.run.count) {
			k.runOf, k.run = g, r
		}
	}
	return k
}

// startGroup begins group g's clients.
func (k *keyer) startGroup(g int, grp *ClientGroup) {
	k.same, k.sameID = sameKeyInGroup(grp, k.kind), -1
	k.inRun = g == k.runOf && !k.matched
	if k.inRun {
		k.run.first = int32(len(k.table.names))
		k.table.run = k.run
	}
}

// id is the key id of client i of grp.
func (k *keyer) id(grp *ClientGroup, i int) int32 {
	if k.inRun {
		return k.table.run.first + int32(i)
	}
	if k.same {
		if k.sameID < 0 {
			k.sameID = k.intern(clientKey(grp, i, k.kind))
		}
		return k.sameID
	}
	return k.intern(clientKey(grp, i, k.kind))
}

// intern is key's id, given when it is first seen.
func (k *keyer) intern(key string) int32 {
	if id, ok := k.ids[key]; ok {
		return id
	}
	if k.runOf >= 0 && !k.matched {
		if j, ok := k.run.index(key); ok {
			if k.table.run.count == 0 {
				k.matched = true // seen before the run: the run's keys go through the map
			} else {
				return k.table.run.first + int32(j)
			}
		}
	}
	id := int32(k.table.len())
	k.ids[key] = id
	k.table.names = append(k.table.names, key)
	return id
}

func (p *population) clients() int { return len(p.groupOf) }

// IdentityOf is the identity of client i of the group, its templates filled in.
func (g *ClientGroup) IdentityOf(i int) Identity {
	id := g.Identity
	for _, f := range []*string{&id.User, &id.IP, &id.APIKey, &id.Tenant, &id.Endpoint} {
		*f = expandIdentity(*f, g.Name, i)
	}
	return id
}

// clientKey is the key a limit counting by kind sees for client i of grp.
func clientKey(grp *ClientGroup, i int, kind KeyKind) string {
	if kind == KeyGlobal {
		return "global"
	}
	return kind.String() + ":" + expandIdentity(identityTemplate(&grp.Identity, kind), grp.Name, i)
}

// sameKeyInGroup reports whether every client of grp has the same key of
// kind: the global key, or an identity template without "{i}".
func sameKeyInGroup(grp *ClientGroup, kind KeyKind) bool {
	if kind == KeyGlobal {
		return true
	}
	tmpl := identityTemplate(&grp.Identity, kind)
	return tmpl != "" && !strings.Contains(tmpl, "{i}")
}

// identityTemplate is id's template for keys of kind; "" for KeyGlobal.
func identityTemplate(id *Identity, kind KeyKind) string {
	switch kind {
	case KeyIP:
		return id.IP
	case KeyUser:
		return id.User
	case KeyAPIKey:
		return id.APIKey
	case KeyTenant:
		return id.Tenant
	case KeyEndpoint:
		return id.Endpoint
	}
	return ""
}

// expandIdentity fills an identity template; empty means "{g}-{i}".
func expandIdentity(tmpl, group string, i int) string {
	if tmpl == "" {
		tmpl = "{g}-{i}"
	}
	if !strings.Contains(tmpl, "{") {
		return tmpl
	}
	// {i} first, so a group name holding "{i}" stays as written, as in one pass.
	return strings.ReplaceAll(strings.ReplaceAll(tmpl, "{i}", strconv.Itoa(i)), "{g}", group)
}
