// Package contention is the optimistic-concurrency backoff study of the AWS
// Architecture Blog's "Exponential Backoff And Jitter": n clients race to update
// one versioned row; a client whose write finds the version changed backs off,
// reads again and writes again. Run sweeps client counts and backoff kinds
// (the four jitters and no backoff at all) and reports, per cell, the mean write
// calls until every client succeeded and the time until the last one did, each
// with a 95% interval over the runs.
//
// It runs on sim's pieces, so that the study and the limiter lanes share one
// convention: sim.Retry.Backoff for the sleeps, sim.Stream for the seeded draws
// (common random numbers across the kinds compared), sim.Queue for the events
// (ties in insertion order) and sim.BudgetError for the event budget. Virtual
// time is integer nanoseconds. Nothing here prints; Run checks ctx between runs
// and every 65536 events.
package contention
