package replay

import (
	"fmt"
	"math/rand/v2"
	"testing"
	"time"
)

// parseCLF and parseISO read what time.Parse reads, to the nanosecond: random
// instants over the years replay reads, in random zones.
func TestTimeParsersAgreeWithTimeParse(t *testing.T) {
	rng := rand.New(rand.NewPCG(23, 9))
	lo := time.Date(1678, 1, 2, 0, 0, 0, 0, time.UTC).Unix()
	hi := time.Date(2261, 12, 30, 0, 0, 0, 0, time.UTC).Unix()
	for range 3000 {
		sec := lo + rng.Int64N(hi-lo)
		off := (rng.IntN(26*4) - 12*4) * 15 * 60
		zone := time.FixedZone("z", off)
		at := time.Unix(sec, rng.Int64N(1e9)).In(zone)
		clf := at.Format("02/Jan/2006:15:04:05 -0700")
		if got, err := parseCLF([]byte(clf)); err != nil || got != at.Truncate(time.Second).UnixNano() {
			t.Fatalf("parseCLF(%q) = %d, %v; want %d", clf, got, err, at.Truncate(time.Second).UnixNano())
		}
		iso := at.Format(time.RFC3339Nano)
		if got, ok, err := parseISO([]byte(iso), time.UTC, &stampCache{}, true); !ok || err != nil || got != at.UnixNano() {
			t.Fatalf("parseISO(%q) = %d, %v, %v; want %d", iso, got, ok, err, at.UnixNano())
		}
	}
}

// A day past its month's end is refused as time.Parse refuses it: leap years
// by the Gregorian rule (1700 and 1900 not, 2000 and 2400 yes).
func TestCLFDaysOfEachMonth(t *testing.T) {
	for _, y := range []int{1700, 1900, 1999, 2000, 2023, 2024, 2100, 2200} {
		for m := time.January; m <= time.December; m++ {
			for _, d := range []int{28, 29, 30, 31} {
				clf := fmt.Sprintf("%02d/%s/%04d:12:00:00 +0000", d, m.String()[:3], y)
				want, werr := time.Parse("02/Jan/2006:15:04:05 -0700", clf)
				got, err := parseCLF([]byte(clf))
				if (err == nil) != (werr == nil) || (err == nil && got != want.UnixNano()) {
					t.Errorf("parseCLF(%q) = %d, %v; time.Parse: %d, %v", clf, got, err, want.UnixNano(), werr)
				}
			}
		}
	}
}

// The combined parser reads each stamp of a run of lines as time.Parse reads
// it alone: stamps that repeat, move a second or jump (minutes, hours, zones
// and out of order), with seconds 00 to 59, the same wall clock in another
// zone, and stamps time.Parse refuses (second 60, letters, a day past the
// month's end) between them; a refused
// stamp leaves the next line's reading as it was.
func TestCombinedStampsAgreeWithTimeParseLineByLine(t *testing.T) {
	rng := rand.New(rand.NewPCG(41, 2))
	var c combined
	at := time.Date(2026, 2, 28, 23, 58, 0, 0, time.FixedZone("", -7*3600))
	for i := range 20_000 {
		switch r := rng.IntN(20); {
		case r < 6: // the same second
		case r < 16:
			at = at.Add(time.Duration(rng.IntN(3)) * time.Second)
		case r < 17:
			at = at.Add(-time.Duration(rng.IntN(5)) * time.Second)
		case r < 18:
			at = at.Add(time.Duration(rng.IntN(200)) * time.Minute)
		default:
			at = at.In(time.FixedZone("", (rng.IntN(8)-4)*1800))
		}
		stamp := at.Format("02/Jan/2006:15:04:05 -0700")
		switch rng.IntN(40) {
		case 0:
			stamp = stamp[:18] + "60" + stamp[20:]
		case 1:
			stamp = stamp[:18] + "5x" + stamp[20:]
		case 2:
			stamp = "30/Feb" + stamp[6:]
		case 3: // the same wall clock in another zone: another instant
			stamp = stamp[:20] + " +0130"
		}
		want, werr := time.Parse("02/Jan/2006:15:04:05 -0700", stamp)
		got, err := c.stamp([]byte(stamp))
		if (err == nil) != (werr == nil) || (err == nil && got != want.UnixNano()) {
			t.Fatalf("line %d: stamp(%q) = %d, %v; time.Parse: %d, %v", i, stamp, got, err, want.UnixNano(), werr)
		}
	}
}
