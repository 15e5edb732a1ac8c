package sim

import (
	"context"
	"testing"
)

// naiveKeys is the population's key ids and names as a map of every client's
// expanded key gives them: ids in order of first appearance.
func naiveKeys(groups []ClientGroup, kind KeyKind) (keyOf []int32, names []string) {
	ids := map[string]int32{}
	for g := range groups {
		for i := range groups[g].Count {
			key := clientKey(&groups[g], i, kind)
			id, ok := ids[key]
			if !ok {
				id = int32(len(names))
				ids[key] = id
				names = append(names, key)
			}
			keyOf = append(keyOf, id)
		}
	}
	return keyOf, names
}

func TestKeyIDsAreThoseOfAMapOfEveryClientsKey(t *testing.T) {
	user := func(name, tmpl string, count int) ClientGroup {
		return ClientGroup{Name: name, Count: count, Identity: Identity{User: tmpl, IP: "10.0.0.{i}"}}
	}
	for _, tc := range []struct {
		name   string
		groups []ClientGroup
	}{
		{"one group, default template", []ClientGroup{user("users", "", 12)}},
		{"two default templates", []ClientGroup{user("users", "", 12), user("abuser", "", 1)}},
		{"a constant before the run is one of its keys", []ClientGroup{user("a", "u3", 2), user("b", "u{i}", 12)}},
		{"a constant after the run is one of its keys", []ClientGroup{user("b", "u{i}", 12), user("a", "u3", 2), user("c", "u11", 1)}},
		{"a smaller run before overlaps the larger", []ClientGroup{user("a", "u{i}", 5), user("b", "u{i}", 12)}},
		{"a smaller run after overlaps the larger", []ClientGroup{user("b", "u{i}", 12), user("a", "u{i}", 30)}},
		{"leading zeros are other keys", []ClientGroup{user("b", "u{i}", 12), user("a", "u0{i}", 5), user("c", "u00", 1)}},
		{"a prefix that is a digit", []ClientGroup{user("b", "1{i}", 30), user("a", "{i}", 30)}},
		{"an index twice", []ClientGroup{user("b", "{i}-{i}", 12), user("a", "1-1", 1)}},
		{"a group named with {i}", []ClientGroup{user("g{i}", "{g}/{i}", 12), user("h", "g{i}/3", 1)}},
		{"a suffix", []ClientGroup{user("s", "{i}@{g}", 12), user("t", "3@s", 2), user("u", "33@s", 2)}},
		{"no template at all", []ClientGroup{user("x", "same", 4), user("y", "same", 4)}},
	} {
		for _, kind := range []KeyKind{KeyUser, KeyIP, KeyGlobal, KeyTenant} {
			t.Run(tc.name+"/"+kind.String(), func(t *testing.T) {
				pop, err := newPopulation(context.Background(), tc.groups, []Limit{{Key: kind}})
				if err != nil {
					t.Fatal(err)
				}
				wantOf, wantNames := naiveKeys(tc.groups, kind)
				if got := pop.keys[0].len(); got != len(wantNames) {
					t.Fatalf("%d keys, want %d", got, len(wantNames))
				}
				for c, want := range wantOf {
					if got := pop.keyOf[0][c]; got != want {
						t.Errorf("client %d: key id %d, want %d (%q)", c, got, want, wantNames[want])
					}
				}
				for id, want := range wantNames {
					if got := pop.keys[0].name(int32(id)); got != want {
						t.Errorf("key %d is named %q, want %q", id, got, want)
					}
				}
			})
		}
	}
}

func TestAGroupOfPerClientKeysInternsNoName(t *testing.T) {
	groups := []ClientGroup{{Name: "users", Count: 1000}, {Name: "abuser", Count: 1, Identity: Identity{User: "mallory"}}}
	pop, err := newPopulation(context.Background(), groups, []Limit{{Key: KeyUser}})
	if err != nil {
		t.Fatal(err)
	}
	if n := len(pop.keys[0].names); n != 1 {
		t.Errorf("%d names interned for 1001 keys, want 1 (the abuser's): the users' keys are not a run", n)
	}
}

// FuzzKeyIDs checks the key ids of three groups, each with a name, a user
// template and a count, against a map of every client's expanded key.
func FuzzKeyIDs(f *testing.F) {
	f.Add("a", "u{i}", uint8(12), "b", "u3", uint8(2), "c", "{g}{i}", uint8(30))
	f.Add("1", "{g}{i}", uint8(20), "", "1{i}", uint8(20), "x", "10", uint8(1))
	f.Add("g{i}", "{i}{g}", uint8(9), "h", "{i}-{i}", uint8(9), "g", "0{i}", uint8(11))
	f.Fuzz(func(t *testing.T, n1, t1 string, c1 uint8, n2, t2 string, c2 uint8, n3, t3 string, c3 uint8) {
		groups := []ClientGroup{
			{Name: n1, Count: int(c1%40) + 1, Identity: Identity{User: t1}},
			{Name: n2, Count: int(c2%40) + 1, Identity: Identity{User: t2}},
			{Name: n3, Count: int(c3%40) + 1, Identity: Identity{User: t3}},
		}
		pop, err := newPopulation(context.Background(), groups, []Limit{{Key: KeyUser}})
		if err != nil {
			t.Fatal(err)
		}
		wantOf, wantNames := naiveKeys(groups, KeyUser)
		if got := pop.keys[0].len(); got != len(wantNames) {
			t.Fatalf("%d keys, want %d", got, len(wantNames))
		}
		for c, want := range wantOf {
			if got := pop.keyOf[0][c]; got != want {
				t.Fatalf("client %d: key id %d, want %d (%q)", c, got, want, wantNames[want])
			}
		}
		for id, want := range wantNames {
			if got := pop.keys[0].name(int32(id)); got != want {
				t.Fatalf("key %d is named %q, want %q", id, got, want)
			}
		}
	})
}
