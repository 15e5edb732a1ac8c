package sim

// Product lanes: per-key limiters that decide as a product does (nginx's
// limit_req, ...), each a registry row whose algorithm is built from the
// limit's policy, translated into the product's own parameters by a stated
// rule, and the lane's product settings (docs/products.md).

import (
	"github.com/rlsim/rlsim/algorithms"
)

// productOf adapts a product's rule maker to the registry: newRule builds the
// lane's rule for one limit from its policy and the lane's settings (r).
func productOf[S any, A rule[S]](newRule func(p algorithms.Policy, r laneRule) (A, error)) func(algorithms.Policy, laneRule) (func(int) decider, error) {
	return func(p algorithms.Policy, r laneRule) (func(int) decider, error) {
		a, err := newRule(p, r)
		if err != nil {
			return nil, err
		}
		return withOptions[S](a, r.options())
	}
}

// product is the product settings of the lane r's limiter belongs to.
func (r laneRule) product() ProductSettings {
	if r.lane == nil {
		return ProductSettings{}
	}
	return r.lane.product
}
