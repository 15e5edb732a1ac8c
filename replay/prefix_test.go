package replay

import (
	"math/rand/v2"
	"net/netip"
	"strconv"
	"strings"
	"testing"
)

// TestPrefixKeysProperty: for random IPv4, IPv6 and IPv4-mapped IPv6
// addresses, every prefix key (ip/24 and its alias ip/64) is the address's
// IPv4 /24 (a mapped address's too, so that ::ffff:a.b.c.d and a.b.c.d share a
// key) or its IPv6 /64; two addresses share a key exactly when they share that
// prefix. An IPv4-mapped /24 once became ::/24, one key for every such client.
func TestPrefixKeysProperty(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	random := func(kind int) netip.Addr {
		var b [16]byte
		for i := range b {
			b[i] = byte(rng.IntN(256))
		}
		if rng.IntN(2) == 0 { // neighbours: share the upper bytes often
			b[12], b[13], b[14] = 10, 0, 0
			b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7] = 0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 0
		}
		switch kind {
		case 0:
			return netip.AddrFrom4([4]byte(b[12:]))
		case 1:
			if b[0] == 0 {
				b[0] = 0x20 // not ::ffff:0:0/96
			}
			return netip.AddrFrom16(b)
		}
		return netip.AddrFrom16(netip.AddrFrom4([4]byte(b[12:])).As16()) // ::ffff:a.b.c.d
	}
	want := func(a netip.Addr) netip.Prefix {
		a = a.Unmap()
		bits := 24
		if a.Is6() {
			bits = 64
		}
		p, _ := a.Prefix(bits)
		return p
	}
	for _, keyName := range []string{"ip/24", "ip/64"} {
		spec, err := ParseKey(keyName)
		if err != nil {
			t.Fatal(err)
		}
		key := func(a netip.Addr) string {
			k, ok := spec.appendKey(nil, &Record{IP: []byte(a.String())})
			if !ok {
				t.Fatalf("%s of %s: no key", keyName, a)
			}
			return string(k)
		}
		var addrs []netip.Addr
		for range 3000 {
			addrs = append(addrs, random(rng.IntN(3)))
		}
		for i, a := range addrs {
			if got, w := key(a), want(a).String(); got != w {
				t.Fatalf("%s of %s = %q, want %q", keyName, a, got, w)
			}
			if a.Is4() {
				mapped := netip.AddrFrom16(a.As16())
				if km, k4 := key(mapped), key(a); km != k4 {
					t.Fatalf("%s of %s = %q, of %s = %q: want the same key", keyName, mapped, km, a, k4)
				}
			}
			b := addrs[(i+1)%len(addrs)]
			if same := want(a) == want(b); same != (key(a) == key(b)) {
				t.Fatalf("%s: %s (%q) and %s (%q): same prefix %v, same key %v", keyName, a, key(a), b, key(b), same, !same)
			}
		}
		// 980 mapped clients in 4 /24s are 4 keys, not 1.
		keys := map[string]bool{}
		for i := range 980 {
			ip := netip.AddrFrom16(netip.AddrFrom4([4]byte{198, 51, byte(100 + i%4), byte(i / 4)}).As16())
			keys[key(ip)] = true
		}
		if len(keys) != 4 {
			t.Errorf("%s: 980 IPv4-mapped clients in 4 /24s made %d keys, want 4", keyName, len(keys))
		}
		// A zone does not split a key.
		if a, b := key(netip.MustParseAddr("fe80::1%eth0")), key(netip.MustParseAddr("fe80::2")); a != b || strings.Contains(a, "%") {
			t.Errorf("%s: fe80::1%%eth0 is %q, fe80::2 is %q: want one key without the zone", keyName, a, b)
		}
	}
}

// TestBurstZeroNeverAnotherBurst: burst=0 in a --limit or a --vary value is an
// error naming burst, never silently the limit or 1; a scenario's burst 0 (its
// documented default, the limit) replays with the limit as its burst.
func TestBurstZeroNeverAnotherBurst(t *testing.T) {
	if _, err := ParseLimit("key=ip limit=10/1s burst=0"); err == nil || !strings.Contains(err.Error(), "burst") {
		t.Errorf("ParseLimit burst=0: err %v, want an error naming burst", err)
	}
	base := []Limit{mustLimit(t, "key=ip limit=10/1s")}
	if _, err := NewSweep("limits[0].burst", []string{"5", "0"}, base); err == nil || !strings.Contains(err.Error(), `"0"`) {
		t.Errorf("--vary limits[0].burst=5,0: err %v, want an error naming 0", err)
	}
	for _, tc := range []struct {
		limit string
		want  int64
	}{{"key=ip limit=10/1s", 10}, {"key=ip limit=10/1s burst=3", 3}, {"key=ip limit=10/1s burst=1", 1}} {
		l := mustLimit(t, tc.limit)
		if got := l.Policy.EffectiveBurst(); got != tc.want {
			t.Errorf("%s: burst %d, want %d", tc.limit, got, tc.want)
		}
		if !strings.Contains(l.String(), "burst="+strconv.FormatInt(tc.want, 10)) {
			t.Errorf("%s: String() = %q, want burst=%d", tc.limit, l.String(), tc.want)
		}
	}
	s, err := NewSweep("limits[0].limit", []string{"4", "20"}, base)
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range s.Expand(base)[1:] {
		if l.Policy.EffectiveBurst() != l.Policy.Limit {
			t.Errorf("--vary limit of a limit without a burst: %s has burst %d, want its limit", l.Name, l.Policy.EffectiveBurst())
		}
	}
}
