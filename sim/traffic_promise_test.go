package sim

import (
	"math"
	"testing"
	"time"
)

// TestQueuePromise: events come out in time order, ties in the order they were
// scheduled; Pop advances Now; Reset empties and sets the clock back to 0.
func TestQueuePromise(t *testing.T) {
	var q Queue
	if q.Now() != 0 || q.Pending() != 0 {
		t.Fatalf("zero Queue: Now %v Pending %d, want 0 and 0", q.Now(), q.Pending())
	}
	sched := []struct {
		at   time.Duration
		a, b int32
	}{{30, 1, 0}, {10, 2, 0}, {30, 3, 0}, {10, 4, 0}, {20, 5, 0}, {30, 6, 7}}
	for _, s := range sched {
		q.Schedule(s.at, s.a, s.b)
	}
	if q.Pending() != len(sched) {
		t.Fatalf("Pending = %d, want %d", q.Pending(), len(sched))
	}
	want := []struct {
		at   time.Duration
		a, b int32
	}{{10, 2, 0}, {10, 4, 0}, {20, 5, 0}, {30, 1, 0}, {30, 3, 0}, {30, 6, 7}}
	for i, w := range want {
		a, b := q.Pop()
		if a != w.a || b != w.b || q.Now() != w.at {
			t.Errorf("pop %d = (%d, %d) at %v, want (%d, %d) at %v", i, a, b, q.Now(), w.a, w.b, w.at)
		}
		if q.Pending() != len(want)-i-1 {
			t.Errorf("after pop %d Pending = %d, want %d", i, q.Pending(), len(want)-i-1)
		}
	}
	// Scheduling at exactly Now is allowed and comes out at Now.
	q.Schedule(q.Now(), 9, 9)
	if a, _ := q.Pop(); a != 9 || q.Now() != 30 {
		t.Errorf("event at Now popped %d at %v, want 9 at 30", a, q.Now())
	}
	q.Schedule(50, 1, 1)
	q.Reset()
	if q.Now() != 0 || q.Pending() != 0 {
		t.Errorf("after Reset: Now %v Pending %d, want 0 and 0", q.Now(), q.Pending())
	}
	q.Schedule(5, 8, 8)
	if a, _ := q.Pop(); a != 8 || q.Now() != 5 {
		t.Errorf("after Reset, pop %d at %v, want 8 at 5", a, q.Now())
	}
}

// TestLaterSaturatesPromise: now+d, saturated at the largest Duration.
func TestLaterSaturatesPromise(t *testing.T) {
	const maxD = time.Duration(math.MaxInt64)
	tests := []struct{ now, d, want time.Duration }{
		{0, 0, 0}, {5, 7, 12}, {maxD - 7, 7, maxD}, {maxD - 7, 8, maxD}, {maxD - 8, 7, maxD - 1},
		{maxD, 1, maxD}, {1, maxD, maxD}, {10, -3, 7}, {maxD, -1, maxD - 1},
	}
	for _, tt := range tests {
		if got := Later(tt.now, tt.d); got != tt.want {
			t.Errorf("Later(%d, %d) = %d, want %d", tt.now, tt.d, got, tt.want)
		}
	}
}

// TestKeyRunIndexPromise: index finds the client whose key is key, and no other
// string: Itoa writes no sign or leading zero, and the run holds count clients.
func TestKeyRunIndexPromise(t *testing.T) {
	grp := &ClientGroup{Name: "web", Count: 12, Identity: Identity{User: "u{i}-{g}"}}
	r, ok := newKeyRun(grp, KeyUser)
	if !ok {
		t.Fatal("newKeyRun(u{i}-{g}) = false, want a run")
	}
	for i := range 12 {
		key := clientKey(grp, i, KeyUser)
		if got, ok := r.index(key); !ok || got != i {
			t.Errorf("index(%q) = %d, %v; want %d, true", key, got, ok, i)
		}
	}
	for _, key := range []string{
		"user:u12-web", "user:u-1-web", "user:u+1-web", "user:u01-web", "user:u00-web", "user:u-web",
		"user:u1-we", "ip:u1-web", "user:u1x-web", "user:u1-webx", "", "user:u99999999999999999999-web",
	} {
		if got, ok := r.index(key); ok {
			t.Errorf("index(%q) = %d, true; want no client", key, got)
		}
	}
	if got, ok := r.index("user:u0-web"); !ok || got != 0 {
		t.Errorf("index(user:u0-web) = %d, %v; want 0, true", got, ok)
	}
	// Templates that do not name each client once form no run.
	for _, tmpl := range []string{"shared", "{i}-{i}", "{g}"} {
		g := &ClientGroup{Name: "web", Count: 3, Identity: Identity{User: tmpl}}
		if _, ok := newKeyRun(g, KeyUser); ok {
			t.Errorf("newKeyRun(%q) = true, want false", tmpl)
		}
	}
	if _, ok := newKeyRun(grp, KeyGlobal); ok {
		t.Error("newKeyRun(global) = true, want false")
	}
	// The empty template is "{g}-{i}".
	g := &ClientGroup{Name: "api", Count: 3}
	r, ok = newKeyRun(g, KeyIP)
	if !ok {
		t.Fatal("newKeyRun(empty template) = false, want a run")
	}
	if got, ok := r.index("ip:api-2"); !ok || got != 2 {
		t.Errorf("index(ip:api-2) = %d, %v; want 2, true", got, ok)
	}
	if _, ok := r.index("ip:api-3"); ok {
		t.Error("index(ip:api-3) = true with 3 clients, want false")
	}
}
