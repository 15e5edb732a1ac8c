package sim

import (
	"fmt"
	"strings"
	"time"
)

// FieldError is one problem with a Config, at a field path written as in scenario
// files: "clients[2].retry.cap".
type FieldError struct {
	Field   string
	Problem string
}

func (e FieldError) Error() string { return e.Field + ": " + e.Problem }

// FieldErrors are all the problems found in a Config, in field order.
type FieldErrors []FieldError

func (e FieldErrors) Error() string {
	lines := make([]string, len(e))
	for i, fe := range e {
		lines[i] = fe.Error()
	}
	return strings.Join(lines, "\n")
}

type checker struct {
	errs FieldErrors
	// scenario adds the checks a scenario file is held to (ValidateScenario).
	scenario bool
}

// within is the duration the instants a Config states are held to: its own
// for a scenario file (ValidateScenario), none (0) otherwise.
func (c *checker) within(duration time.Duration) time.Duration {
	if c.scenario {
		return duration
	}
	return 0
}

func (c *checker) add(field, format string, args ...any) {
	c.errs = append(c.errs, FieldError{Field: field, Problem: fmt.Sprintf(format, args...)})
}

func (c *checker) positive(field string, v time.Duration) {
	if v <= 0 {
		c.add(field, "must be positive, got %v", v)
	}
}

func (c *checker) atMostTime(field string, v time.Duration) {
	if v > MaxTime {
		c.add(field, "must be at most 100 years (876000h), got %v", v)
	}
}

// Caps on the numbers a scenario states. Validate checks them before anything is
// built, so no memory or work proportional to a number a user typed is spent
// before that number is known to be sane, and no time arithmetic can overflow:
// every instant a run computes stays below 3×MaxTime, under int64's 292 years.
const (
	// MaxTime bounds every duration of a Config and the whole run (duration + drain).
	MaxTime = 100 * 365 * 24 * time.Hour
	// MaxClients bounds the clients of all groups together (memory per lane and
	// client); setting them up is work the event budget counts too (EstimateEvents).
	MaxClients = 10_000_000
	// MaxBuckets bounds the time-series buckets of one lane: (duration + drain) / bucket.
	MaxBuckets = 1_000_000
	// MaxQueue bounds a backend's queue (memory per lane).
	MaxQueue = 10_000_000
	// MaxConcurrency bounds a concurrency limit (Limit.Concurrency): more in
	// flight at once than any run could hold.
	MaxConcurrency = 1_000_000_000
	// MaxChanges bounds a backend's scheduled changes.
	MaxChanges = 100_000
)
