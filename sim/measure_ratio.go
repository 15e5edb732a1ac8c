package sim

import (
	"strconv"
	"strings"
)

// RatioText writes count/limit so that an excess is never rounded away: with two
// decimals, and more while the rounded figure would read as the limit itself (or
// cross it) although count differs from it, so 10,010 against 10,000 reads
// "1.001", never "1.00". fixed keeps trailing zeros, as an aligned column wants.
// A zero limit reads "-".
func RatioText(count, limit int64, fixed bool) string {
	if limit == 0 {
		return "-"
	}
	f := float64(count) / float64(limit)
	decimals := 2
	for count != limit && decimals < 17 {
		v, _ := strconv.ParseFloat(strconv.FormatFloat(f, 'f', decimals, 64), 64)
		if (v > 1) == (count > limit) && v != 1 {
			break
		}
		decimals++
	}
	s := strconv.FormatFloat(f, 'f', decimals, 64)
	if !fixed && strings.Contains(s, ".") {
		s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	}
	return s
}
