package tui

import "github.com/rlsim/rlsim/sim"

// hasShadow reports whether some limit of cfg is a shadow at some time of the run.
func hasShadow(cfg sim.Config) bool {
	for _, l := range cfg.Limits {
		if l.Shadow {
			return true
		}
	}
	for _, ch := range cfg.Rules {
		if ch.Shadow {
			return true
		}
	}
	return false
}
