package replay

import (
	"bytes"
	"context"
	"encoding/csv"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/rlsim/rlsim/algorithms"
)

// Options.defaults: every lane, auto, the default fields, UTC, 5s late,
// 0.5 and 0.9, top 10, progress every 2^18 lines; NoLate (any negative) is 0.
func TestPromiseOptionDefaults(t *testing.T) {
	var o Options
	o.defaults()
	if !slices.Equal(o.Lanes, LaneNames) || o.Format != "auto" || o.Fields != DefaultFields || o.Location != time.UTC ||
		o.Late != 5*time.Second || o.LegitBelow != 0.5 || o.LegitShare != 0.9 || o.Top != 10 || o.ProgressEvery != 1<<18 {
		t.Errorf("defaults = %+v", o)
	}
	for _, late := range []time.Duration{NoLate, -time.Hour} {
		o := Options{Late: late, ProgressEvery: -3, Top: 2, LegitBelow: 0.1, LegitShare: 0.2, Fields: Fields{Time: "ts"}}
		o.defaults()
		if o.Late != 0 || o.ProgressEvery != 1<<18 || o.Top != 2 || o.LegitBelow != 0.1 || o.LegitShare != 0.2 || o.Fields.Time != "ts" || o.Fields.IP != "" {
			t.Errorf("defaults with Late %v = %+v", late, o)
		}
	}
}

// With NoLate, a line a nanosecond behind the latest is too late; one at the
// same instant is placed.
func TestPromiseNoLate(t *testing.T) {
	t0 := time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)
	lines := []string{lineAt("json", t0.Add(time.Second), "192.0.2.1"), lineAt("json", t0.Add(time.Second), "192.0.2.2"),
		lineAt("json", t0.Add(time.Second-1), "192.0.2.3")}
	res := replayLines(t, "json", lines, Options{Format: "json", Late: NoLate, Lanes: []string{"gcra"}})
	if res.TooLate != 1 || res.Requests != 2 || res.Late != "0s" {
		t.Errorf("NoLate: too late %d, requests %d, late %q; want 1, 2, 0s", res.TooLate, res.Requests, res.Late)
	}
}

// Progress is called every ProgressEvery lines, with the lines so far.
func TestPromiseProgressEvery(t *testing.T) {
	var lines []string
	t0 := time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)
	for i := range 10 {
		lines = append(lines, lineAt("json", t0.Add(time.Duration(i)*time.Second), "192.0.2.1"))
	}
	var calls []int64
	var lastBytes int64
	replayLines(t, "json", lines, Options{Format: "json", Lanes: []string{"gcra"}, ProgressEvery: 3, Progress: func(n, b int64) { calls = append(calls, n); lastBytes = b }})
	if !slices.Equal(calls, []int64{3, 6, 9}) || lastBytes <= 0 {
		t.Errorf("progress calls %v (bytes %d), want at 3, 6 and 9 lines", calls, lastBytes)
	}
}

// Strict makes the first bad line the error, naming its file and line.
func TestPromiseStrict(t *testing.T) {
	log := lineAt("json", time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC), "192.0.2.1") + "\n{oops\n{again\n"
	_, err := replayString(t, "s.log", log, Options{Format: "json", Strict: true, Lanes: []string{"gcra"}})
	if err == nil || !strings.HasPrefix(err.Error(), "s.log:2: not a JSON object") {
		t.Errorf("Strict: %v, want s.log:2 named", err)
	}
	var npe *NoneParsedError
	if errors.As(err, &npe) {
		t.Errorf("Strict: a NoneParsedError")
	}
	if _, err := Replay(context.Background(), nil, Options{}); err == nil || err.Error() != "no limit to replay (--limit)" {
		t.Errorf("no limit: %v", err)
	}
	_, err = replayString(t, "u.log", "???\n", Options{Format: "xml", Lanes: []string{"gcra"}})
	if err == nil || err.Error() != `u.log: unknown format "xml" (want auto, combined, json, csv, nginx, envoy, envoy-json, haproxy, alb, elb)` {
		t.Errorf("an unknown format: %v", err)
	}
}

// Each input is read in turn; Format is the first to parse's.
func TestPromiseSeveralInputs(t *testing.T) {
	t0 := time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)
	a := lineAt("combined", t0, "192.0.2.1") + "\n"
	b := lineAt("json", t0.Add(time.Second), "192.0.2.1") + "\n" + lineAt("json", t0.Add(2*time.Second), "192.0.2.2") + "\n"
	res, err := Replay(context.Background(), []Input{{Name: "a", R: strings.NewReader(a)}, {Name: "b", R: strings.NewReader(b)}},
		Options{Limits: []Limit{mustLimit(t, "key=ip limit=1/1m")}, Lanes: []string{"gcra"}})
	if err != nil {
		t.Fatal(err)
	}
	if res.Lines != 3 || res.Requests != 3 || res.Format != "combined" || res.Keys != 2 || res.Limits[0].Lanes[0].Refused != 1 {
		t.Errorf("two inputs: lines %d requests %d format %s keys %d refused %d; want 3, 3, combined, 2, 1",
			res.Lines, res.Requests, res.Format, res.Keys, res.Limits[0].Lanes[0].Refused)
	}
}

// A limit with an endpoint counts only its lines: the others are admitted
// (a verdict each) and make no key under it.
func TestPromiseOutOfScopeVerdicts(t *testing.T) {
	t0 := time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)
	line := func(i int, path string) string {
		return `{"time":"` + t0.Add(time.Duration(i)*time.Millisecond).Format(time.RFC3339Nano) + `","ip":"192.0.2.1","method":"POST","path":"` + path + `"}`
	}
	lines := []string{line(0, "/login"), line(1, "/a"), line(2, "/login"), line(3, "/b"), line(4, "/login")}
	l := mustLimit(t, "key=ip limit=1/1h endpoint=/login")
	all := mustLimit(t, "key=ip limit=1/1h name=all")
	res := replayLines(t, "json", lines, Options{Format: "json", Limits: []Limit{l, all}, Lanes: []string{"fixed_window"}, Verdicts: true})
	a, r := uint8(algorithms.Admit), uint8(algorithms.Refuse)
	if got := res.Limits[0].Lanes[0].Verdicts; !reflect.DeepEqual(got, []uint8{a, a, r, a, r}) {
		t.Errorf("endpoint /login verdicts %v, want admit, (out) admit, refuse, (out) admit, refuse", got)
	}
	if got := res.Limits[1].Lanes[0].Verdicts; !reflect.DeepEqual(got, []uint8{a, r, r, r, r}) {
		t.Errorf("every line verdicts %v", got)
	}
	if res.Limits[0].Keys != 1 || res.Limits[0].Lanes[0].Refused != 2 || res.Limits[1].Lanes[0].Refused != 4 || res.Limits[0].PeakMax != 3 {
		t.Errorf("keys %d, refused %d and %d, peak %d; want 1 key, 2 and 4 refused, peak 3 (the /login lines)",
			res.Limits[0].Keys, res.Limits[0].Lanes[0].Refused, res.Limits[1].Lanes[0].Refused, res.Limits[0].PeakMax)
	}
	if res.Limits[0].Lanes[0].Delayed != 0 {
		t.Errorf("delayed %d", res.Limits[0].Lanes[0].Delayed)
	}
}

// A leaky bucket delays instead of refusing: Delayed counts them.
func TestPromiseDelayedCounted(t *testing.T) {
	t0 := time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)
	var lines []string
	for range 5 {
		lines = append(lines, lineAt("json", t0, "192.0.2.1"))
	}
	res := replayLines(t, "json", lines, Options{Format: "json", Limits: []Limit{mustLimit(t, "key=ip limit=1/1s burst=3")},
		Lanes: []string{"leaky_bucket"}, Verdicts: true})
	lane := res.Limits[0].Lanes[0]
	var delays, refusals int64
	for _, v := range lane.Verdicts {
		switch algorithms.Verdict(v) {
		case algorithms.Delay:
			delays++
		case algorithms.Refuse:
			refusals++
		}
	}
	if lane.Delayed != delays || lane.Refused != refusals || delays == 0 {
		t.Errorf("delayed %d refused %d; verdicts say %d and %d (want some delayed)", lane.Delayed, lane.Refused, delays, refusals)
	}
	var b bytes.Buffer
	_ = WriteCSV(&b, res)
	rows, _ := csv.NewReader(&b).ReadAll()
	if len(rows) != 2 || rows[1][2] != strconv.FormatInt(refusals, 10) || rows[1][3] != strconv.FormatInt(delays, 10) {
		t.Errorf("CSV %q, want refused %d and delayed %d", rows, refusals, delays)
	}
	b.Reset()
	_ = WriteJSON(&b, res)
	if !strings.Contains(b.String(), fmt.Sprintf(`"delayed": %d,`, delays)) {
		t.Errorf("JSON lacks delayed %d", delays)
	}
}

// Plots: timeline and peaks for the first limit, the two sweep figures with
// a sweep, none without a limit.
func TestPromisePlotFiles(t *testing.T) {
	res := promiseResult(t)
	files, err := Plots(res, nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for n, b := range files {
		if len(b) < 8 || string(b[1:4]) != "PNG" {
			t.Errorf("%s is not a PNG", n)
		}
		names = append(names, n)
	}
	slices.Sort(names)
	if !slices.Equal(names, []string{"peaks.png", "timeline.png"}) {
		t.Errorf("plots %v", names)
	}
	if files, err := Plots(&Result{}, nil); err != nil || len(files) != 0 {
		t.Errorf("no limit: %d plots, %v", len(files), err)
	}
}

// keyed.retire: a key never seen is no record; a live key's state must be
// idle, else it panics.
func TestPromiseKeyedRetire(t *testing.T) {
	d, err := newDecider("token_bucket", algorithms.Policy{Limit: 1, Window: time.Second, Burst: 1})
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := d.retire(7, 0); ok {
		t.Errorf("retire of a key never seen: a record")
	}
	v, rate := d.decide(3, time.Second)
	rate.add(time.Second, time.Second, 0)
	if v != algorithms.Admit || d.live() != 1 {
		t.Fatalf("first request: %v, live %d", v, d.live())
	}
	func() {
		defer func() {
			if recover() == nil {
				t.Errorf("retire before the state is idle: no panic")
			}
		}()
		d.retire(3, time.Second)
	}()
	r, ok := d.retire(3, 10*time.Second)
	if !ok || r.count != 1 || d.live() != 0 {
		t.Errorf("retire when idle: %+v, %v, live %d", r, ok, d.live())
	}
}

// The series are dense while the last refusal is under MaxSeries minutes
// after the origin, and sparse pairs from exactly MaxSeries on.
func TestPromiseSeriesSparseFromMaxSeries(t *testing.T) {
	t0 := time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		minute int64
		sparse bool
	}{{MaxSeries - 1, false}, {MaxSeries, true}} {
		later := t0.Add(time.Duration(tc.minute) * time.Minute)
		lines := []string{lineAt("json", t0, "192.0.2.1"), lineAt("json", t0, "192.0.2.1"),
			lineAt("json", later, "192.0.2.1"), lineAt("json", later, "192.0.2.1")}
		res := replayLines(t, "json", lines, Options{Format: "json", Limits: []Limit{mustLimit(t, "key=ip limit=1/1m")}, Lanes: []string{"fixed_window"}})
		lane := res.Limits[0].Lanes[0]
		hour := tc.minute / 60
		if tc.sparse {
			if len(lane.ByMinute) != 0 || len(lane.ByHour) != 0 ||
				!reflect.DeepEqual(lane.ByMinuteSparse, [][2]int64{{0, 1}, {tc.minute, 1}}) ||
				!reflect.DeepEqual(lane.ByHourSparse, [][2]int64{{0, 1}, {hour, 1}}) {
				t.Errorf("last refusal at minute %d: dense %d/%d, sparse %v %v; want sparse pairs", tc.minute, len(lane.ByMinute), len(lane.ByHour), lane.ByMinuteSparse, lane.ByHourSparse)
			}
			continue
		}
		if int64(len(lane.ByMinute)) != tc.minute+1 || lane.ByMinute[0] != 1 || lane.ByMinute[tc.minute] != 1 ||
			int64(len(lane.ByHour)) != hour+1 || lane.ByHour[hour] != 1 || lane.ByMinuteSparse != nil {
			t.Errorf("last refusal at minute %d: %d minutes, %d hours, sparse %v; want dense", tc.minute, len(lane.ByMinute), len(lane.ByHour), lane.ByMinuteSparse)
		}
	}
}
