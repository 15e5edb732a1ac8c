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
	extraComp []int32       // client → index of its second arrival component among the extras
	extras    int           // arrival components beyond each client's first
	keyOf     [][]int32     // limit → client → key id
	keyNames  [][]string    // limit → key id → key
	// skip, for a limit that applies to one endpoint only (Limit.Endpoint), is
	// true of the clients it does not count: limit → client; nil for the others.
	skip   [][]bool
	scoped bool // some limit applies to one endpoint only
}

// skips reports whether limit i does not count client c's requests.
func (p *population) skips(i int, c int32) bool { return p.scoped && p.skip[i] != nil && p.skip[i][c] }

// newPopulation builds the population, or stops with ctx's error when ctx is
// cancelled.
func newPopulation(ctx context.Context, groups []ClientGroup, limits []Limit) (*population, error) {
	p := &population{groups: groups, keyOf: make([][]int32, len(limits)), keyNames: make([][]string, len(limits)), skip: make([][]bool, len(limits))}
	ids := make([]map[string]int32, len(limits))
	for i := range ids {
		ids[i] = map[string]int32{}
	}
	for g, grp := range groups {
		for i := range grp.Count {
			if len(p.groupOf)%setupCheckEvery == 0 {
				if err := ctx.Err(); err != nil {
					return nil, err
				}
			}
			p.groupOf = append(p.groupOf, int32(g))
			p.indexOf = append(p.indexOf, int32(i))
			p.extraComp = append(p.extraComp, int32(p.extras))
			p.extras += max(len(grp.Arrivals)-1, 0)
			for l, lim := range limits {
				key := clientKey(&grp, i, lim.Key)
				id, ok := ids[l][key]
				if !ok {
					id = int32(len(p.keyNames[l]))
					ids[l][key] = id
					p.keyNames[l] = append(p.keyNames[l], key)
				}
				p.keyOf[l] = append(p.keyOf[l], id)
				if lim.Endpoint != "" {
					p.scoped = true
					p.skip[l] = append(p.skip[l], clientKey(&grp, i, KeyEndpoint) != KeyEndpoint.String()+":"+lim.Endpoint)
				}
			}
		}
	}
	return p, nil
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
	id := &grp.Identity
	var tmpl string
	switch kind {
	case KeyGlobal:
		return "global"
	case KeyIP:
		tmpl = id.IP
	case KeyUser:
		tmpl = id.User
	case KeyAPIKey:
		tmpl = id.APIKey
	case KeyTenant:
		tmpl = id.Tenant
	case KeyEndpoint:
		tmpl = id.Endpoint
	}
	return kind.String() + ":" + expandIdentity(tmpl, grp.Name, i)
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
