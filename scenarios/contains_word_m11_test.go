package scenarios

import (
	"math/rand/v2"
	"regexp"
	"testing"
)

// containsWord against a regular expression of its doc comment, on random
// strings of letters, digits, _ and punctuation, words at the start, the end
// and inside.
func TestContainsWordIsTheRegexp(t *testing.T) {
	const alphabet = "ab_1 .[]"
	rng := rand.New(rand.NewPCG(23, 9))
	for _, word := range []string{"a", "ab", "b_1", "limit"} {
		re := regexp.MustCompile(`(^|[^A-Za-z0-9_])` + regexp.QuoteMeta(word) + `($|[^A-Za-z0-9_])`)
		for range 2000 {
			b := make([]byte, rng.IntN(9))
			for i := range b {
				b[i] = alphabet[rng.IntN(len(alphabet))]
			}
			s := string(b)
			if rng.IntN(3) == 0 {
				s = word + s
			}
			if got, want := containsWord(s, word), re.MatchString(s); got != want {
				t.Fatalf("containsWord(%q, %q) = %v, want %v", s, word, got, want)
			}
		}
	}
}
