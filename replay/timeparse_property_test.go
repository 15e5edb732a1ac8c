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
