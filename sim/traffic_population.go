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
	keyers := make([]keyer, len(limits))
	for l, lim := range limits {
		p.keyOf[l] = make([]int32, 0, clients)
		keyers[l] = newKeyer(groups, lim.Key, &p.keys[l])
	}
	for g := range groups {
		grp := &groups[g]
		p.superposed = append(p.superposed, superposable(grp))
		for l := range keyers {
			keyers[l].startGroup(g)
		}
		for i := range grp.Count {
			if len(p.groupOf)%setupCheckEvery == 0 {
				if err := ctx.Err(); err != nil {
					return nil, err
				}
			}
			p.groupOf = append(p.groupOf, int32(g))
			p.indexOf = append(p.indexOf, int32(i))
			if p.extraComp != nil {
				p.extraComp = append(p.extraComp, int32(p.extras))
			}
			p.extras += max(len(grp.Arrivals)-1, 0)
			for l, lim := range limits {
				p.keyOf[l] = append(p.keyOf[l], keyers[l].id(grp, i))
				if lim.Endpoint != "" {
					p.scoped = true
					p.skip[l] = append(p.skip[l], clientKey(grp, i, KeyEndpoint) != KeyEndpoint.String()+":"+lim.Endpoint)
				}
			}
		}
	}
	return p, nil
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
func (k *keyer) startGroup(g int) {
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
	key := clientKey(grp, i, k.kind)
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
