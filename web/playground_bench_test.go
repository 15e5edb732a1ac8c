package web

import (
	"context"
	"encoding/json"
	"os"
	"testing"
	"time"

	"github.com/rlsim/rlsim/scenarios"
	"github.com/rlsim/rlsim/sim"
)

// benchScenario is testdata/bench/100m.yaml cut to RLSIM_PLAY_DURATION of
// virtual time (5s unless set; 100s is the whole 100 M requests).
func benchScenario(b *testing.B) *scenarios.Scenario {
	b.Helper()
	d := os.Getenv("RLSIM_PLAY_DURATION")
	if d == "" {
		d = "5s"
	}
	set, err := scenarios.ParseSet("duration=" + d)
	if err != nil {
		b.Fatal(err)
	}
	sc, err := scenarios.Load("../testdata/bench/100m.yaml", set)
	if err != nil {
		b.Fatal(err)
	}
	return sc
}

// BenchmarkPlaygroundVsRun is the CPU per simulated request (each lane's
// attempts, all lanes together) of a playground session against sim.Run on
// the same scenario (benchScenario), each iteration one whole run of each,
// one after the other. The session plays at 1×, as the page does: a frame of
// virtual time (1/30 s) per step, each step's frame built and encoded as the
// stream sends it, with no wait between frames; its virtual time per wall
// time ("x-real-time", ≥ 1 keeps up with real time) says whether it keeps up
// with real time on this machine. ratio is the session's CPU over Run's.
func BenchmarkPlaygroundVsRun(b *testing.B) {
	sc := benchScenario(b)
	b.ReportAllocs()
	var runCPU, playCPU, playWall time.Duration
	var requests int64
	for b.Loop() {
		cpu := cpuTime()
		res, err := sim.Run(context.Background(), *sc.Config, sim.Options{})
		if err != nil {
			b.Fatal(err)
		}
		runCPU += cpuTime() - cpu
		requests += attemptsOf(res)

		cpu, wall := cpuTime(), time.Now()
		sess, err := newSession(context.Background(), sc, 0, "rlsim run")
		if err != nil {
			b.Fatal(err)
		}
		for !sess.finished {
			sess.advance(defaultFrame)
			if _, err := json.Marshal(sess.frame()); err != nil {
				b.Fatal(err)
			}
		}
		playCPU += cpuTime() - cpu
		playWall += time.Since(wall)
		if got := attemptsOf(sess.sim.Result()); got != attemptsOf(res) {
			b.Fatalf("the session made %d attempts, Run %d", got, attemptsOf(res))
		}
	}
	n := float64(requests)
	if runCPU > 0 && playCPU > 0 {
		b.ReportMetric(float64(runCPU.Nanoseconds())/n, "run-cpu-ns/request")
		b.ReportMetric(float64(playCPU.Nanoseconds())/n, "play-cpu-ns/request")
		b.ReportMetric(float64(playCPU)/float64(runCPU), "ratio")
	}
	virtual := time.Duration(b.N) * (sc.Config.Duration + sc.Config.Drain)
	b.ReportMetric(float64(virtual)/float64(playWall), "x-real-time")
}

// attemptsOf is every lane's attempts together.
func attemptsOf(res sim.Result) int64 {
	var n int64
	for _, l := range res.Lanes {
		n += l.Attempts
	}
	return n
}
