package sim

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/rlsim/rlsim/algorithms"
)

// A rule push or an override that gives a concurrency limit a rate is refused
// at whatever index the limit has, the first and the last included, naming
// the push or the override; one naming a rate limit, or no limit, is not.
func TestConcurrencyLimitAtEveryIndexHasNoRate(t *testing.T) {
	rate := Limit{Key: KeyUser, Policy: algorithms.Policy{Limit: 5, Window: time.Second}}
	conc := Limit{Key: KeyUser, Concurrency: 2}
	p := algorithms.Policy{Limit: 9, Window: time.Second}
	for _, limits := range [][]Limit{{conc, rate}, {rate, conc}, {rate, rate, conc}} {
		for at := range limits {
			c := Config{Limits: limits, Rules: []RuleChange{{Limit: at, Policy: p}}, Overrides: []LaneOverride{{Limit: at, Policy: p}}}
			var ck checker
			checkConcurrencyChain(&ck, &c)
			fields := func() (fs []string) {
				for _, e := range ck.errs {
					fs = append(fs, e.Field)
				}
				return fs
			}()
			isConc := limits[at].Concurrency != 0
			for _, f := range []string{"rules[0]", "overrides[0].limit_index"} {
				if slices.Contains(fields, f) != isConc {
					t.Errorf("limits %v, push and override of limit %d: errors at %v; want %s: %v", kinds(limits), at, fields, f, isConc)
				}
			}
			for _, e := range ck.errs {
				if e.Field == "overrides[0].limit_index" && e.Problem != fmt.Sprintf("limits[%d] is a concurrency limit, the same in every lane: it has no policy to override", at) {
					t.Errorf("override error %q names another limit than %d", e.Problem, at)
				}
			}
		}
	}
}

func kinds(ls []Limit) (out []string) {
	for _, l := range ls {
		out = append(out, map[bool]string{true: "conc", false: "rate"}[l.Concurrency != 0])
	}
	return out
}
