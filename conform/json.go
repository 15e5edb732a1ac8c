package conform

import (
	"encoding/json"
	"io"
	"time"

	"github.com/rlsim/rlsim/algorithms"
)

// Run is one conform run, as WriteJSON writes it: durations in nanoseconds,
// a Retry-After of -1 for never.
type Run struct {
	Scenario string
	Seed     uint64
	Redis    string
	Options  CheckOptions
	Checks   []LaneCheck
	Races    []Race // one per replica count measured
}

type runJSON struct {
	Scenario    string     `json:"scenario"`
	Seed        uint64     `json:"seed"`
	Redis       string     `json:"redis"`
	Clock       string     `json:"clock"`
	TimeScale   float64    `json:"time_scale"`
	ToleranceNS int64      `json:"tolerance_ns"`
	Lanes       []laneJSON `json:"lanes"`
	Races       []raceJSON `json:"races"`
}

type laneJSON struct {
	Lane               string     `json:"lane"`
	Script             string     `json:"script"`
	Limit              int64      `json:"limit"`
	WindowNS           int64      `json:"window_ns"`
	Burst              int64      `json:"burst"`
	Attempts           int        `json:"attempts"`
	Agreed             int        `json:"agreed"`
	DifferedWithin     int        `json:"differed_within_tolerance"`
	Differed           int        `json:"differed"`
	RetryAfterDiffered int        `json:"retry_after_differed"`
	Unexplained        int        `json:"unexplained"`
	Invalid            int        `json:"invalid_answers"`
	StoreErrors        int        `json:"store_errors"`
	OnStoreError       string     `json:"on_store_error"`
	FailAdmitted       int        `json:"fail_admitted"`
	Restarts           int        `json:"redis_restarts"`
	ExactAdmitted      int        `json:"exact_admitted"`
	RedisAdmitted      int        `json:"redis_admitted"`
	MaxSkewNS          int64      `json:"max_skew_ns"`
	RoundTripP50NS     int64      `json:"round_trip_p50_ns"`
	RoundTripMaxNS     int64      `json:"round_trip_max_ns"`
	Diffs              []diffJSON `json:"differences"`
}

type diffJSON struct {
	AtNS              int64  `json:"at_ns"`
	Key               string `json:"key"`
	Cost              int64  `json:"cost"`
	Client            int    `json:"client"`
	Request           int64  `json:"request"`
	Attempt           int    `json:"attempt"`
	ExactAdmitted     bool   `json:"exact_admitted"`
	ExactRetryAfterNS int64  `json:"exact_retry_after_ns"`
	RedisAdmitted     bool   `json:"redis_admitted"`
	RedisRetryAfterNS int64  `json:"redis_retry_after_ns"`
	RedisNowNS        int64  `json:"redis_now_ns"`
	StoreError        string `json:"store_error,omitempty"`
	Invalid           string `json:"invalid_answer,omitempty"`
	TwinAdmitted      bool   `json:"algorithm_admitted"`
	TwinRetryAfterNS  int64  `json:"algorithm_retry_after_ns"`
	Explained         bool   `json:"explained_by_clock"`
}

type raceJSON struct {
	Lane     string        `json:"lane"`
	Replicas int           `json:"replicas"`
	Runs     []raceRunJSON `json:"runs"`
}

type raceRunJSON struct {
	Seed            uint64 `json:"seed"`
	RoundTripNS     int64  `json:"round_trip_mean_ns"`
	StoreLatencyNS  int64  `json:"store_latency_ns"`
	MaxLagNS        int64  `json:"sent_late_by_ns"`
	Limit           int64  `json:"limit"`
	MeasuredRacy    int64  `json:"measured_racy_peak"`
	SimulatedRacy   int64  `json:"simulated_racy_peak"`
	MeasuredAtomic  int64  `json:"measured_atomic_peak"`
	SimulatedAtomic int64  `json:"simulated_atomic_peak"`
}

func retryNS(d time.Duration) int64 {
	if d == algorithms.Never {
		return -1
	}
	return int64(d)
}

// WriteJSON writes r as one indented JSON document.
func WriteJSON(w io.Writer, r Run) error {
	out := runJSON{Scenario: r.Scenario, Seed: r.Seed, Redis: r.Redis, Clock: r.Options.Replay.Clock.String(),
		TimeScale: r.Options.Replay.Scale, ToleranceNS: int64(r.Options.Tolerance), Lanes: []laneJSON{}}
	for _, c := range r.Checks {
		l := laneJSON{Lane: c.Lane.String(), Script: c.Script, Limit: c.Policy.Limit, WindowNS: int64(c.Policy.Window),
			Burst: c.Policy.EffectiveBurst(), Attempts: c.Attempts, Agreed: c.Agreed, DifferedWithin: c.DifferedWithin,
			Differed: c.Differed, RetryAfterDiffered: c.RetryAfterDiffered, Unexplained: c.Unexplained, Invalid: c.Invalid,
			StoreErrors: c.StoreErrors, OnStoreError: c.OnStoreError.String(), FailAdmitted: c.FailAdmitted,
			Restarts: c.Restarts, ExactAdmitted: c.ExactAdmitted, RedisAdmitted: c.RealAdmitted,
			MaxSkewNS: int64(c.MaxSkew), RoundTripP50NS: int64(c.RoundTrip), RoundTripMaxNS: int64(c.RoundTripMax),
			Diffs: []diffJSON{}}
		for _, d := range c.Diffs {
			dj := diffJSON{AtNS: int64(d.Attempt.At), Key: d.Attempt.Key, Cost: d.Attempt.Cost, Client: d.Attempt.Client,
				Request: d.Attempt.Request, Attempt: d.Attempt.Try, ExactAdmitted: d.Attempt.Admitted,
				ExactRetryAfterNS: retryNS(d.Attempt.RetryAfter), RedisAdmitted: d.Answer.Admitted,
				RedisRetryAfterNS: retryNS(d.Answer.RetryAfter), RedisNowNS: int64(d.Answer.Now),
				TwinAdmitted: d.Twin.Admitted, TwinRetryAfterNS: retryNS(d.Twin.RetryAfter), Explained: d.Explained,
				Invalid: d.Answer.Invalid}
			if d.Answer.Err != nil {
				dj.StoreError = d.Answer.Err.Error()
			}
			l.Diffs = append(l.Diffs, dj)
		}
		out.Lanes = append(out.Lanes, l)
	}
	out.Races = []raceJSON{}
	for _, race := range r.Races {
		rj := raceJSON{Lane: race.Lane.String(), Replicas: race.Replicas, Runs: []raceRunJSON{}}
		for _, run := range race.Runs {
			rj.Runs = append(rj.Runs, raceRunJSON{Seed: run.Seed, RoundTripNS: int64(run.RoundTrip),
				StoreLatencyNS: int64(run.StoreLatency), MaxLagNS: int64(run.MaxLag), Limit: run.MeasuredAtomic.Limit,
				MeasuredRacy: run.MeasuredRacy.Count, SimulatedRacy: run.SimulatedRacy.Count,
				MeasuredAtomic: run.MeasuredAtomic.Count, SimulatedAtomic: run.SimulatedAtomic.Count})
		}
		out.Races = append(out.Races, rj)
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}
