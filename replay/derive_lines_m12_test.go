package replay

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"
)

// deriveLog is a JSON log of good requests (one a second from two IPs and
// two users) with, before them, unsniffed lines (no format shows yet) and,
// among them, blank lines, a line over MaxLine, lines that are not JSON and
// lines with no IP; it returns the log and what Derive must count of it.
func deriveLog(good, blank, unsniffed, junk, noIP int, long bool) (log []byte, lines, bad int64) {
	var b bytes.Buffer
	for range unsniffed {
		b.WriteString("not a log line at all\n")
		lines++
		bad++
	}
	t0 := time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)
	for i := range good {
		fmt.Fprintf(&b, `{"time":"%s","ip":"192.0.2.%d","user":"u%d","method":"GET","path":"/a","status":200}`+"\n",
			t0.Add(time.Duration(i)*time.Second).Format(time.RFC3339), i%2, i%2)
		lines++
		if i == 0 {
			for range blank {
				b.WriteString("\n")
				lines++
			}
			for range junk {
				b.WriteString("{\"time\": oops\n")
				lines++
				bad++
			}
			for range noIP {
				fmt.Fprintf(&b, `{"time":"%s","user":"u9","status":200}`+"\n", t0.Format(time.RFC3339))
				lines++
			}
			if long {
				b.WriteString(`{"time":"x","ip":"` + strings.Repeat("9", MaxLine) + "\"}\n")
				lines++
				bad++
			}
		}
	}
	return b.Bytes(), lines, bad
}

// TestDeriveCountsEveryKindOfLine: Lines counts every line read, blank ones
// too; Bad the long, unsniffed and unparsed ones, and those that lack the
// key (an IP key); Requests the rest. The figures are counted as the log
// is built, for each kind alone and all together.
func TestDeriveCountsEveryKindOfLine(t *testing.T) {
	for _, c := range []struct {
		name                               string
		good, blank, unsniffed, junk, noIP int
		long                               bool
	}{
		{"good only", 6, 0, 0, 0, 0, false},
		{"blank lines", 6, 3, 0, 0, 0, false},
		{"unsniffed first", 6, 0, 2, 0, 0, false},
		{"not JSON", 6, 0, 0, 2, 0, false},
		{"no IP", 6, 0, 0, 0, 3, false},
		{"a long line", 6, 0, 0, 0, 0, true},
		{"every kind", 8, 2, 1, 3, 2, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			log, lines, bad := deriveLog(c.good, c.blank, c.unsniffed, c.junk, c.noIP, c.long)
			for _, key := range []string{"ip", "user"} {
				spec, err := ParseKey(key)
				if err != nil {
					t.Fatal(err)
				}
				d, err := Derive(context.Background(), []Input{{Name: "l.jsonl", R: bytes.NewReader(log)}}, DeriveOptions{Key: spec})
				if err != nil {
					t.Fatalf("--key %s: %v", key, err)
				}
				wantBad, wantReq := bad+int64(c.noIP), int64(c.good)
				if key == "user" { // a line with no user is the empty user's
					wantBad, wantReq = bad, int64(c.good+c.noIP)
				}
				if d.Lines != lines || d.Bad != wantBad || d.Requests != wantReq {
					t.Errorf("--key %s: lines %d, bad %d, requests %d; want %d, %d, %d", key, d.Lines, d.Bad, d.Requests, lines, wantBad, wantReq)
				}
			}
		})
	}
}

// TestDeriveRefusesAnEmptyOrUnparsedLog: a log of no request is refused, as
// a NoneParsedError counting its bad lines when it had some, else as "no
// request in the log".
func TestDeriveRefusesAnEmptyOrUnparsedLog(t *testing.T) {
	for _, c := range []struct {
		log string
		bad int64
	}{
		{"", 0},
		{"\n\n", 0},
		{"not a log\nnor this\n", 2},
		{`{"time":"2026-03-01T09:00:00Z","user":"u1"}` + "\n{oops\n", 2}, // a JSON line with no IP
	} {
		_, err := Derive(context.Background(), []Input{{Name: "l", R: strings.NewReader(c.log)}}, DeriveOptions{})
		var none *NoneParsedError
		switch {
		case c.bad == 0 && (err == nil || err.Error() != "no request in the log"):
			t.Errorf("log %q: err %v, want no request in the log", c.log, err)
		case c.bad > 0 && !errors.As(err, &none):
			t.Errorf("log %q: err %v, want a NoneParsedError", c.log, err)
		case c.bad > 0 && none.Bad != c.bad:
			t.Errorf("log %q: %d bad lines, want %d", c.log, none.Bad, c.bad)
		}
	}
}

// TestDeriveGroupsBounds: --groups is 1 to MaxGroups, 0 the default 5;
// at most that many groups are derived.
func TestDeriveGroupsBounds(t *testing.T) {
	log, _, _ := deriveLog(6, 0, 0, 0, 0, false)
	for _, n := range []int{-1, 0, 1, 2, MaxGroups, MaxGroups + 1} {
		d, err := Derive(context.Background(), []Input{{Name: "l", R: bytes.NewReader(log)}}, DeriveOptions{Groups: n})
		if n < 0 || n > MaxGroups {
			want := fmt.Sprintf("--groups: want 1 to %d, got %d", MaxGroups, n)
			if err == nil || err.Error() != want {
				t.Errorf("--groups %d: err %v, want %q", n, err, want)
			}
			continue
		}
		if err != nil {
			t.Fatalf("--groups %d: %v", n, err)
		}
		limit := n
		if n == 0 {
			limit = 5
		}
		if len(d.Groups) < 1 || len(d.Groups) > limit {
			t.Errorf("--groups %d: %d groups, want 1 to %d", n, len(d.Groups), limit)
		}
	}
}

// TestDeriveBudgetAtItsEstimate: a budget of exactly the estimate passes, one
// below is refused as a BudgetError naming both figures.
func TestDeriveBudgetAtItsEstimate(t *testing.T) {
	log, _, _ := deriveLog(6, 0, 0, 0, 0, false)
	in := func() []Input { return []Input{{Name: "l", R: bytes.NewReader(log)}} }
	d, err := Derive(context.Background(), in(), DeriveOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Derive(context.Background(), in(), DeriveOptions{MaxEvents: d.Estimate}); err != nil {
		t.Errorf("--max-events %d, the estimate: %v", d.Estimate, err)
	}
	_, err = Derive(context.Background(), in(), DeriveOptions{MaxEvents: d.Estimate - 1})
	var be *BudgetError
	if !errors.As(err, &be) || be.Estimate != d.Estimate || be.Budget != d.Estimate-1 {
		t.Errorf("--max-events %d: err %v, want a BudgetError of estimate %d, budget %d", d.Estimate-1, err, d.Estimate, d.Estimate-1)
	}
}
