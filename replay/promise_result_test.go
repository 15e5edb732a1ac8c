package replay

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"
)

// promiseT0 is the crafted log's first hour: its origin.
var promiseT0 = time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)

// promiseLog is a log whose figures under "key=ip limit=4/1m burst=4" in the
// fixed window lane are known by hand (windows of 1m aligned to 09:00):
//
//	.1 sends 6 in minute 0: 2 refused, peak 6, not legit-looking (0 of 1 windows ≤ 2)
//	.2 sends 6 in minute 0: 2 refused, peak 6
//	.3 sends 2 a minute in minutes 0..9, 5 in minute 10: 1 refused, peak 5,
//	   legit-looking (10 of 11 windows at most 2, and 10 ≥ 0.9×11)
//	.4 sends 1: peak 1
//	.5 sends 4 in minute 0: none refused, peak 4
//
// Peaks 1, 4, 5, 6, 6: nearest-rank p50 5 (rank 3), p90 6 (rank 5), p99 6, max 6.
func promiseLog() []string {
	var lines []string
	at := func(min, sec int, ip string) {
		lines = append(lines, lineAt("json", promiseT0.Add(time.Duration(min)*time.Minute+time.Duration(sec)*time.Second), "192.0.2."+ip))
	}
	for i := range 6 {
		at(0, 10+i, "1")
		at(0, 10+i, "2")
	}
	at(0, 20, "4")
	for i := range 4 {
		at(0, 30+i, "5")
	}
	for m := range 10 {
		at(m, 40, "3")
		at(m, 41, "3")
	}
	for i := range 5 {
		at(10, 10+i, "3")
	}
	return lines
}

const promiseLimit = "key=ip limit=4/1m burst=4"

func promiseResult(t *testing.T) *Result {
	t.Helper()
	return replayLines(t, "json", promiseLog(), Options{Format: "json", Limits: []Limit{mustLimit(t, promiseLimit)}, Lanes: []string{"fixed_window"}})
}

// The figures of Result, LimitResult and LaneResult, against the hand count.
func TestPromiseResultFigures(t *testing.T) {
	res := promiseResult(t)
	if res.Lines != 42 || res.Requests != 42 || res.Bad != 0 || res.TooLate != 0 || res.Keys != 5 {
		t.Errorf("lines %d requests %d bad %d too late %d keys %d; want 42, 42, 0, 0, 5", res.Lines, res.Requests, res.Bad, res.TooLate, res.Keys)
	}
	if !res.Origin.Equal(promiseT0) || !res.First.Equal(promiseT0.Add(10*time.Second)) || !res.Last.Equal(promiseT0.Add(10*time.Minute+14*time.Second)) {
		t.Errorf("origin %v first %v last %v; want 09:00, 09:00:10 and 09:10:14 (the text's \"from\" is the first request, not its hour)", res.Origin, res.First, res.Last)
	}
	l := res.Limits[0]
	if l.Limit != "name=ip key=ip limit=4/1m burst=4" || l.Keys != 5 || l.PeakP50 != 5 || l.PeakP90 != 6 || l.PeakP99 != 6 || l.PeakMax != 6 ||
		l.LegitBelow != 2 || l.LegitShare != 0.9 {
		t.Errorf("limit %+v; want 5 keys, peaks 5/6/6/6, legit below 2 at 0.9", l)
	}
	lane := l.Lanes[0]
	wantTop := []KeyCount{{"192.0.2.1", 2, 6, false}, {"192.0.2.2", 2, 6, false}, {"192.0.2.3", 1, 5, true}}
	if lane.Lane != "fixed_window" || lane.Refused != 5 || lane.Delayed != 0 || lane.KeysRefused != 3 || lane.LegitCaught != 1 ||
		lane.BelowP99Refused != 3 || !reflect.DeepEqual(lane.Top, wantTop) {
		t.Errorf("lane %+v; want 5 refused, 3 keys, 1 legit caught, 3 at or below p99, top %v", lane, wantTop)
	}
	wantMin := make([]int64, 11)
	wantMin[0], wantMin[10] = 4, 1
	if !reflect.DeepEqual(lane.ByMinute, wantMin) || !reflect.DeepEqual(lane.ByHour, []int64{5}) || lane.ByMinuteSparse != nil || lane.ByHourSparse != nil {
		t.Errorf("by minute %v by hour %v (sparse %v %v); want %v and [5]", lane.ByMinute, lane.ByHour, lane.ByMinuteSparse, lane.ByHourSparse, wantMin)
	}
	// Top keeps the first Top keys of that order.
	res = replayLines(t, "json", promiseLog(), Options{Format: "json", Limits: []Limit{mustLimit(t, promiseLimit)}, Lanes: []string{"fixed_window"}, Top: 2})
	if got := res.Limits[0].Lanes[0].Top; !reflect.DeepEqual(got, wantTop[:2]) || res.Limits[0].Lanes[0].KeysRefused != 3 {
		t.Errorf("Top 2: %v, want %v", got, wantTop[:2])
	}
}

// The text output: its header line, each limit's two lines and the lane row.
func TestPromiseTextFields(t *testing.T) {
	res := promiseResult(t)
	var b bytes.Buffer
	if err := WriteText(&b, res); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	after := retireAfter(mustLimit(t, promiseLimit).Policy) // 2m + 6×15s
	if after != 3*time.Minute+30*time.Second {
		t.Fatalf("retireAfter = %v, want 3m30s", after)
	}
	for _, want := range []string{
		"replayed 42 requests (42 lines; 0 bad, 0 more than 5s late) from 2026-03-01 09:00:10 to 2026-03-01 09:10:14 UTC\n",
		"\nlimit name=ip key=ip limit=4/1m burst=4: 5 keys (a key back after 3m30s idle counts again); per-key peak per window p50 5, p90 6, p99 6, max 6\n",
		"legit-looking: at most 2 requests per window in 90% of the windows a key was active\n",
		"192.0.2.1 (2, 6)",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("text lacks %q:\n%s", want, out)
		}
	}
	var row string
	for _, line := range strings.Split(out, "\n") {
		if strings.HasPrefix(line, "fixed_window") {
			row = line
		}
	}
	if f := strings.Fields(row); len(f) != 7 || f[1] != "5" || f[2] != "3" || f[3] != "1" {
		t.Errorf("row %q; want fixed_window 5 3 1 192.0.2.1 (2, 6)", row)
	}
	if strings.Contains(out, "behind a full reorder buffer") {
		t.Errorf("no line behind a full buffer, but the text says some")
	}
	res.Lines, res.Bad, res.TooLate, res.BehindFull = 50, 2, 4, 3
	b.Reset()
	_ = WriteText(&b, res)
	if !strings.HasPrefix(b.String(), "replayed 42 requests (50 lines; 2 bad, 4 more than 5s late, 3 behind a full reorder buffer) from") {
		t.Errorf("behind full 3: %s", strings.SplitN(b.String(), "\n", 2)[0])
	}
	empty := &Result{Late: "5s"}
	b.Reset()
	_ = WriteText(&b, empty)
	if b.String() != "replayed 0 requests (0 lines; 0 bad, 0 more than 5s late)\n" {
		t.Errorf("an empty result: %q", b.String())
	}
}

// The CSV: a header and one row per limit and lane, every column its figure.
func TestPromiseCSVFields(t *testing.T) {
	res := promiseResult(t)
	var b bytes.Buffer
	if err := WriteCSV(&b, res); err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(&b).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	want := [][]string{
		{"limit", "lane", "refused", "delayed", "keys_refused", "legit_keys_caught", "top_key", "top_key_refused", "top_key_peak_per_window"},
		{"name=ip key=ip limit=4/1m burst=4", "fixed_window", "5", "0", "3", "1", "192.0.2.1", "2", "6"},
	}
	if !reflect.DeepEqual(rows, want) {
		t.Errorf("CSV = %q, want %q", rows, want)
	}
	// A lane with no refusal has an empty top key and zeros.
	res = replayLines(t, "json", promiseLog()[:1], Options{Format: "json", Limits: []Limit{mustLimit(t, promiseLimit), mustLimit(t, "key=global limit=1/1s name=g")},
		Lanes: []string{"gcra", "token_bucket"}})
	b.Reset()
	_ = WriteCSV(&b, res)
	rows, _ = csv.NewReader(&b).ReadAll()
	if len(rows) != 5 || !reflect.DeepEqual(rows[4], []string{"name=g key=global limit=1/1s burst=1", "token_bucket", "0", "0", "0", "0", "", "0", "0"}) ||
		rows[1][1] != "gcra" || rows[2][1] != "token_bucket" || rows[3][0] != rows[4][0] {
		t.Errorf("2 limits × 2 lanes: %q", rows)
	}
}

// The JSON: every field of the result under its documented name.
func TestPromiseJSONFields(t *testing.T) {
	res := promiseResult(t)
	var b bytes.Buffer
	if err := WriteJSON(&b, res); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(b.String(), "{\n  \"lines\": 42,\n") {
		t.Errorf("not indented by two spaces: %.40q", b.String())
	}
	var got map[string]any
	if err := json.Unmarshal(b.Bytes(), &got); err != nil {
		t.Fatal(err)
	}
	top := map[string]any{"lines": 42.0, "requests": 42.0, "bad_lines": 0.0, "too_late": 0.0, "late": "5s", "format": "json",
		"distinct_keys": 5.0, "origin": "2026-03-01T09:00:00Z", "last": "2026-03-01T09:10:14Z", "bad_shown": nil}
	for k, v := range top {
		if !reflect.DeepEqual(got[k], v) {
			t.Errorf("JSON %s = %v, want %v", k, got[k], v)
		}
	}
	for _, k := range []string{"behind_full_buffer", "warnings", "sweep", "smallest"} {
		if _, ok := got[k]; ok {
			t.Errorf("JSON has %s, want it left out when empty", k)
		}
	}
	l := got["limits"].([]any)[0].(map[string]any)
	for k, v := range map[string]any{"limit": "name=ip key=ip limit=4/1m burst=4", "keys": 5.0, "peak_p50": 5.0, "peak_p90": 6.0,
		"peak_p99": 6.0, "peak_max": 6.0, "legit_below_per_window": 2.0, "legit_share": 0.9} {
		if !reflect.DeepEqual(l[k], v) {
			t.Errorf("JSON limits[0].%s = %v, want %v", k, l[k], v)
		}
	}
	lane := l["lanes"].([]any)[0].(map[string]any)
	for k, v := range map[string]any{"lane": "fixed_window", "refused": 5.0, "delayed": 0.0, "keys_refused": 3.0, "legit_keys_caught": 1.0,
		"keys_below_p99_refused": 3.0, "refused_by_hour": []any{5.0},
		"refused_by_minute": []any{4.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0}} {
		if !reflect.DeepEqual(lane[k], v) {
			t.Errorf("JSON lanes[0].%s = %v, want %v", k, lane[k], v)
		}
	}
	if len(lane) != 9 {
		t.Errorf("JSON lane has %d fields, want 9 (no sparse series, no verdicts): %v", len(lane), lane)
	}
	top0 := lane["top"].([]any)[2].(map[string]any)
	if !reflect.DeepEqual(top0, map[string]any{"key": "192.0.2.3", "refused": 1.0, "peak_per_window": 5.0, "legit_looking": true}) {
		t.Errorf("JSON top[2] = %v", top0)
	}
}

// series.out: counts from index 0 to the last with a refusal; sparse: none
// dense, the pairs as added.
func TestPromiseSeriesOut(t *testing.T) {
	var s series
	for _, i := range []int64{0, 0, 3, 3, 3, 5} {
		s.add(i)
	}
	dense, pairs := s.out(false)
	if !reflect.DeepEqual(dense, []int64{2, 0, 0, 3, 0, 1}) || pairs != nil {
		t.Errorf("out(false) = %v, %v; want [2 0 0 3 0 1]", dense, pairs)
	}
	dense, pairs = s.out(true)
	if !reflect.DeepEqual(pairs, [][2]int64{{0, 2}, {3, 3}, {5, 1}}) || dense == nil || len(dense) != 0 {
		t.Errorf("out(true) = %v, %v", dense, pairs)
	}
	var empty series
	if dense, _ := empty.out(false); dense == nil || len(dense) != 0 {
		t.Errorf("empty out(false) = %#v, want an empty list (JSON [])", dense)
	}
}

// keyRate: windows aligned to the origin, the peak the most in one, only
// windows with a request active, a window at most below counted below.
func TestPromiseKeyRate(t *testing.T) {
	var k keyRate
	for _, at := range []time.Duration{0, 59 * time.Second, 60*time.Second - 1, 60 * time.Second, 3*time.Minute + 1} {
		k.add(at, time.Minute, 2)
	}
	k.close(2)
	// windows 0: 3, 1: 1, 3: 1
	if k.peak != 3 || k.active != 3 || k.below != 2 || k.count != 0 {
		t.Errorf("keyRate = %+v; want peak 3, 3 active, 2 below", k)
	}
	k.close(2)
	if k.active != 3 {
		t.Errorf("close of an empty window counted it: %+v", k)
	}
	// A key first seen in a late window starts there.
	var late keyRate
	late.add(10*time.Minute, time.Minute, 0)
	late.add(10*time.Minute+time.Second, time.Minute, 0)
	late.close(0)
	if late.peak != 2 || late.active != 1 || late.below != 0 {
		t.Errorf("two requests in window 10: %+v; want peak 2 in one window", late)
	}
}

// legitRate is whole requests per window, rounded down.
func TestPromiseLegitRate(t *testing.T) {
	for _, tc := range []struct {
		limit int64
		share float64
		want  int64
	}{{5, 0.5, 2}, {4, 0.5, 2}, {10, 0.99, 9}, {1, 0.5, 0}, {7, 1, 7}} {
		l := Limit{}
		l.Policy.Limit = tc.limit
		if got := legitRate(l, tc.share); got != tc.want {
			t.Errorf("legitRate(%d, %v) = %d, want %d", tc.limit, tc.share, got, tc.want)
		}
	}
}

// quantile: nearest rank over key episodes; max at 1; 0 when empty.
func TestPromiseQuantileEdges(t *testing.T) {
	h := []peakCount{{1, 50}, {2, 40}, {7, 9}, {100, 1}} // 100 keys
	for _, tc := range []struct {
		q    float64
		want int64
	}{{0.5, 1}, {0.501, 2}, {0.51, 2}, {0.9, 2}, {0.901, 7}, {0.91, 7}, {0.99, 7}, {0.995, 100}, {1, 100}} {
		if got := quantile(h, tc.q); got != tc.want {
			t.Errorf("quantile(%v) = %d, want %d", tc.q, got, tc.want)
		}
	}
	if got := quantile(nil, 0.5); got != 0 {
		t.Errorf("quantile(empty) = %d", got)
	}
}

// keptKey.add sums refusals and active and below windows, and keeps the larger peak.
func TestPromiseKeptKeyAdd(t *testing.T) {
	k := &keptKey{}
	k.add(2, keyRate{peak: 5, active: 3, below: 1})
	k.add(0, keyRate{peak: 4, active: 2, below: 2})
	k.add(1, keyRate{peak: 9, active: 1, below: 0})
	if k.refused != 3 || k.rate.peak != 9 || k.rate.active != 6 || k.rate.below != 3 {
		t.Errorf("kept = %+v; want 3 refused, peak 9, 6 active, 3 below", *k)
	}
	ll := &laneLimit{kept: map[string]*keptKey{}}
	ll.keep("never", 0, keyRate{peak: 1, active: 1})
	if len(ll.kept) != 0 {
		t.Errorf("an episode never refused was kept")
	}
	ll.keep("x", 1, keyRate{peak: 2, active: 1})
	ll.keep("x", 0, keyRate{peak: 3, active: 1, below: 1}) // refused before: kept
	if k := ll.kept["x"]; k == nil || k.refused != 1 || k.rate.peak != 3 || k.rate.active != 2 {
		t.Errorf("x kept = %+v", ll.kept["x"])
	}
}

// A key back after its retirement is a new episode: two peaks, one kept key
// whose figures sum both episodes.
func TestPromiseEpisodesAcrossRetirement(t *testing.T) {
	var lines []string
	for _, start := range []time.Duration{0, time.Hour} { // an hour apart: retired in between (3m30s)
		for i := range 6 {
			lines = append(lines, lineAt("json", promiseT0.Add(start+time.Duration(i)*time.Second), "192.0.2.1"))
		}
	}
	lines = append(lines, lineAt("json", promiseT0.Add(2*time.Hour), "192.0.2.2")) // moves the clock on
	res := replayLines(t, "json", lines, Options{Format: "json", Limits: []Limit{mustLimit(t, promiseLimit)}, Lanes: []string{"fixed_window"}})
	l := res.Limits[0]
	lane := l.Lanes[0]
	if res.Keys != 3 || l.Keys != 3 || res.retired < 2 {
		t.Errorf("keys %d (limit %d), retired %d; want 3 episodes, at least 2 retired", res.Keys, l.Keys, res.retired)
	}
	if lane.KeysRefused != 1 || lane.Refused != 4 || len(lane.Top) != 1 || lane.Top[0] != (KeyCount{"192.0.2.1", 4, 6, false}) {
		t.Errorf("lane %+v; want one key refused 4 times (2 an episode), peak 6", lane)
	}
	if len(lane.ByHour) != 2 || lane.ByHour[0] != 2 || lane.ByHour[1] != 2 {
		t.Errorf("by hour %v, want [2 2]", lane.ByHour)
	}
	if l.PeakP50 != 6 || l.PeakMax != 6 || l.peaks[0] != (peakCount{1, 1}) || l.peaks[1] != (peakCount{6, 2}) {
		t.Errorf("peaks %v p50 %d; want 1:1 and 6:2", l.peaks, l.PeakP50)
	}
	var b bytes.Buffer
	_ = WriteText(&b, res)
	if !strings.Contains(b.String(), fmt.Sprintf(": 3 keys (a key back after %v idle counts again);", 3*time.Minute+30*time.Second)) {
		t.Errorf("text: %s", b.String())
	}
}

// A refused key's figures start at the episode in which the lane first
// refused it: an earlier, legitimate-looking episode does not make it a
// legitimate-looking key caught.
func TestPromiseKeptFromFirstRefusal(t *testing.T) {
	var lines []string
	for m := range 20 { // episode 1: 1 a minute, never refused, every window at most 2
		lines = append(lines, lineAt("json", promiseT0.Add(time.Duration(m)*time.Minute), "192.0.2.1"))
	}
	for i := range 5 { // episode 2, an hour later: 5 in a minute, 1 refused
		lines = append(lines, lineAt("json", promiseT0.Add(2*time.Hour+time.Duration(i)*time.Second), "192.0.2.1"))
	}
	res := replayLines(t, "json", lines, Options{Format: "json", Limits: []Limit{mustLimit(t, promiseLimit)}, Lanes: []string{"fixed_window"}})
	lane := res.Limits[0].Lanes[0]
	if res.Keys != 2 || lane.Refused != 1 || lane.KeysRefused != 1 || lane.LegitCaught != 0 || len(lane.Top) != 1 ||
		lane.Top[0] != (KeyCount{Key: "192.0.2.1", Refused: 1, Peak: 5, Legit: false}) {
		t.Errorf("episodes %d, lane %+v; want the second episode's figures only (not legit-looking)", res.Keys, lane)
	}
	// Both episodes count among the peaks: 1 and 5.
	if l := res.Limits[0]; l.Keys != 2 || l.PeakP50 != 1 || l.PeakMax != 5 {
		t.Errorf("limit keys %d p50 %d max %d; want 2, 1, 5", l.Keys, l.PeakP50, l.PeakMax)
	}
}

// PeakMax is the largest peak, above the p99.9 of 1001 keys.
func TestPromisePeakMaxIsTheMax(t *testing.T) {
	var lines []string
	for i := range 1001 {
		lines = append(lines, lineAt("json", promiseT0, fmt.Sprintf("10.0.%d.%d", i/256, i%256)))
	}
	lines = append(lines, lineAt("json", promiseT0, "10.0.0.0"))
	res := replayLines(t, "json", lines, Options{Format: "json", Limits: []Limit{mustLimit(t, promiseLimit)}, Lanes: []string{"gcra"}})
	if l := res.Limits[0]; l.Keys != 1001 || l.PeakP99 != 1 || l.PeakMax != 2 {
		t.Errorf("keys %d p99 %d max %d; want 1001, 1, 2", l.Keys, l.PeakP99, l.PeakMax)
	}
}
