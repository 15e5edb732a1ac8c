package sim

import (
	"math/rand/v2"
	"testing"
	"time"
)

// Columns.Record against a count by hand of random records, each lane's in
// time order: per held column and mark, how many and the first; columns before
// the latest held are forgotten; Last and Changed as documented; records of no
// mark, of a lane not counted or at a negative instant are left out.
func TestColumnsRecordCountsEachColumnAndMark(t *testing.T) {
	const width, held, lanes = 10 * time.Millisecond, 4, 2
	events := []TraceEvent{TraceAdmit, TraceDelay, TraceRefuse, TraceDrop, TraceShed, TraceSuccess}
	rng := rand.New(rand.NewPCG(11, 3))
	for round := range 20 {
		c := NewColumns(width, held, lanes)
		type cell struct {
			n     [MarkKinds]int64
			first [MarkKinds]int64 // the first's Request, 0 for none
		}
		want := make([]map[int64]*cell, lanes)
		last, earliest := []int64{-1, -1}, []int64{-1, -1}
		at := make([]time.Duration, lanes)
		for i := range want {
			want[i] = map[int64]*cell{}
		}
		for req := int64(1); req <= 200; req++ {
			lane := rng.IntN(lanes+2) - 1 // -1 and lanes are not counted
			r := &TraceRecord{LaneIndex: lane, Event: events[rng.IntN(len(events))], Request: req}
			if lane < 0 || lane >= lanes {
				r.At = time.Duration(rng.IntN(100)) * time.Millisecond
				c.Record(r)
				continue
			}
			at[lane] += time.Duration(rng.IntN(int(3 * width)))
			r.At = at[lane]
			if rng.IntN(10) == 0 {
				r.At = -1 // left out
			}
			if err := c.Record(r); err != nil {
				t.Fatal(err)
			}
			m, ok := MarkOf(r.Event)
			if !ok || r.At < 0 {
				continue
			}
			k := int64(r.At / width)
			if want[lane][k] == nil {
				want[lane][k] = &cell{}
			}
			w := want[lane][k]
			if w.n[m]++; w.n[m] == 1 {
				w.first[m] = req
			}
			last[lane] = max(last[lane], k)
			if earliest[lane] < 0 {
				earliest[lane] = k
			}
		}
		for lane := range lanes {
			ring := c.Lane(lane)
			if ring.Last() != last[lane] {
				t.Errorf("round %d lane %d: Last %d, want %d", round, lane, ring.Last(), last[lane])
			}
			first := max(0, last[lane]-held+1)
			if last[lane] >= 0 && ring.First() != first {
				t.Errorf("round %d lane %d: First %d, want %d", round, lane, ring.First(), first)
			}
			for k := first - 2; k <= last[lane]+1; k++ {
				col, ok := ring.Held(k)
				if ok != (k >= first && k < first+held) {
					t.Errorf("round %d lane %d: column %d held %v", round, lane, k, ok)
				}
				if !ok || k > last[lane] {
					continue
				}
				w := want[lane][k]
				if w == nil {
					w = &cell{}
				}
				for m := range MarkKinds {
					sample := col.Sample[m]
					if col.N[m] != w.n[m] || w.n[m] == 0 && sample.At != -1 || w.n[m] > 0 && sample.Request != w.first[m] {
						t.Errorf("round %d lane %d column %d mark %d: %d, first %+v; want %d, request %d",
							round, lane, k, m, col.N[m], sample, w.n[m], w.first[m])
					}
				}
			}
			from, to, ok := ring.Changed()
			if ok != (last[lane] >= 0) || ok && (to != last[lane] || from != max(earliest[lane], ring.First())) {
				t.Errorf("round %d lane %d: Changed %d..%d %v, want %d..%d", round, lane, from, to, ok, max(earliest[lane], ring.First()), last[lane])
			}
			if _, _, again := ring.Changed(); again {
				t.Errorf("round %d lane %d: Changed twice with nothing counted between", round, lane)
			}
		}
	}
}

// A record a nanosecond before zero is left out, though its column would be 0.
func TestColumnsRecordLeavesOutNegativeInstants(t *testing.T) {
	c := NewColumns(time.Second, 4, 1)
	c.Record(&TraceRecord{At: -1, Event: TraceAdmit})
	if col, ok := c.Lane(0).Held(0); c.Lane(0).Last() != -1 || !ok || col.N[MarkAdmitted] != 0 {
		t.Errorf("a record at -1ns: last %d, column 0 %+v", c.Lane(0).Last(), col)
	}
	if _, _, ok := c.Lane(0).Changed(); ok {
		t.Error("a record at -1ns changed a column")
	}
}

// LaneTitle and LaneShort name a lane after its kind by the kind's titles,
// and a variant by its name.
func TestLaneTitleAndShort(t *testing.T) {
	for _, k := range []LaneKind{LaneTokenBucket, LaneFixedWindow, LaneAIMD} {
		for _, name := range []string{"", k.String()} {
			if got := LaneTitle(k, name); got != k.Title() {
				t.Errorf("LaneTitle(%v, %q) = %q, want %q", k, name, got, k.Title())
			}
			if got := LaneShort(k, name); got != k.Info().Short {
				t.Errorf("LaneShort(%v, %q) = %q, want %q", k, name, got, k.Info().Short)
			}
		}
		if LaneTitle(k, "tb_20") != "tb_20" || LaneShort(k, "tb_20") != "tb_20" {
			t.Errorf("a variant of %v is not named by its name", k)
		}
	}
}

// IdentityOf fills every field's templates for client i of the group.
func TestIdentityOfFillsEveryField(t *testing.T) {
	g := ClientGroup{Name: "grp", Identity: Identity{User: "u{i}", IP: "10.0.{i}.1", APIKey: "k-{g}-{i}", Tenant: "t{g}", Endpoint: "/e/{i}"}}
	for _, i := range []int{0, 7} {
		got := g.IdentityOf(i)
		for _, f := range []struct{ got, tmpl string }{{got.User, g.Identity.User}, {got.IP, g.Identity.IP},
			{got.APIKey, g.Identity.APIKey}, {got.Tenant, g.Identity.Tenant}, {got.Endpoint, g.Identity.Endpoint}} {
			if want := expandIdentity(f.tmpl, "grp", i); f.got != want || f.got == f.tmpl {
				t.Errorf("IdentityOf(%d): %q from %q, want %q", i, f.got, f.tmpl, want)
			}
		}
	}
	if g.Identity.User != "u{i}" {
		t.Errorf("IdentityOf changed the group's own identity: %+v", g.Identity)
	}
}
