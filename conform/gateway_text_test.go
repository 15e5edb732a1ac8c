package conform

import (
	"bytes"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/rlsim/rlsim/algorithms"
)

func gatewayRunForText() GatewayRun {
	start := time.Date(2026, 12, 2, 10, 0, 0, 250e6, time.UTC).UnixNano()
	return GatewayRun{
		Scenario: "login-storm", Seed: 7, URL: "http://127.0.0.1:8080", Path: "/login", KeyHeader: "X-Key", AccessLog: "/var/log/gw.log",
		Lanes: []GatewayCheck{
			{Lane: "nginx", Product: "nginx 1.22", RefusalStatus: 503, Clock: "access log", StartUnixNS: start, ToleranceNS: 20 * time.Millisecond,
				Sent: 100, Agreed: 90, Within: 6, Differed: 3, NoDecision: 1, LaneAdmitted: 40, GatewayAdmitted: 41, NotLogged: 2,
				MaxSkewNS: 1234567 * time.Nanosecond, LaneDelayed: 5, MaxLaneDelayNS: 300 * time.Millisecond,
				AnswerP50NS: 2100 * time.Microsecond, AnswerMaxNS: 9 * time.Millisecond,
				Diffs: []GatewayDiff{
					{Outcome: "differed", ID: "r12", Key: "k1", AtNS: time.Second, InstantNS: time.Second + time.Millisecond, Status: 429,
						GatewayRetryAfter: "1", LaneAdmitted: true},
					{Outcome: "no decision", ID: "r13", Key: "k2", AtNS: 2 * time.Second, InstantNS: 2 * time.Second, Status: 0,
						Error: "connection reset", LaneRetryAfterNS: algorithms.Never},
					{Outcome: "differed", ID: "r14", Key: "k3", AtNS: 3 * time.Second, InstantNS: 3 * time.Second, Status: 200,
						Error: "slow", LaneRetryAfterNS: 500 * time.Millisecond},
				}},
			{Lane: "gcra", RefusalStatus: 418, Clock: "send", StartUnixNS: start, ToleranceNS: 20 * time.Millisecond,
				Sent: 50, Agreed: 50, LaneAdmitted: 10, GatewayAdmitted: 10, NotLogged: 1},
		},
	}
}

func TestWriteGatewayStatesEachLane(t *testing.T) {
	r := gatewayRunForText()
	var b bytes.Buffer
	if err := WriteGateway(&b, r); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{
		"conform: login-storm (seed 7) against the gateway at http://127.0.0.1:8080, path /login, key in X-Key\n",
		"lane nginx (nginx 1.22): the lane decides at the arrivals the access log /var/log/gw.log gives, t=0 at 2026-12-02T10:00:00.250Z; refused: status 429 or 503 (the lane's: 503);",
		"lane gcra: the lane decides at the instants the requests were sent, t=0 at 2026-12-02T10:00:00.250Z; refused: status 418 (the lane's), 429 or 503;",
		"tolerance 20ms: a differing verdict is within it when the lane gives the gateway's with the request at its instant ± 20ms\n\n",
		"\nnginx: the first 3 requests decided differently or not at all:\n",
		"  request r12 key k1 at t=1s (decided at t=1.001s): gateway 429 (Retry-After 1); lane admit: differed\n",
		"  request r13 key k2 at t=2s (decided at t=2s): gateway no answer (connection reset); lane refuse (Retry-After never): no decision\n",
		"  request r14 key k3 at t=3s (decided at t=3s): gateway 200 (slow); lane refuse (Retry-After 500ms): differed\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the text lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "gcra: the first") {
		t.Errorf("a lane without differences lists none:\n%s", out)
	}
	// The table: each lane's row holds its own figures under their heads.
	lines := strings.Split(out, "\n")
	head := -1
	for i, l := range lines {
		if strings.HasPrefix(l, "lane  ") {
			head = i
		}
	}
	if head < 0 || head+2 >= len(lines) {
		t.Fatalf("no table:\n%s", out)
	}
	cols := regexp.MustCompile(`  +`)
	heads := cols.Split(strings.TrimSpace(lines[head]), -1)
	want := [][]string{
		{"nginx", "100", "90", "6", "3", "1 (2 answered requests not in the access log, taken at their send)", "40/41", "1.235ms", "5 (300ms)", "2.1ms", "9ms"},
		{"gcra", "50", "50", "0", "0", "0 (1 answered requests not in the access log, taken at their send)", "10/10", "0s", "0 (0s)", "0s", "0s"},
	}
	for k, w := range want {
		cells := cols.Split(strings.TrimSpace(lines[head+1+k]), -1)
		if len(cells) != len(heads) || strings.Join(cells, "|") != strings.Join(w, "|") {
			t.Errorf("row %d under %q:\n got %q\nwant %q", k, heads, cells, w)
		}
	}
}

func TestWriteGatewayWithoutLanes(t *testing.T) {
	var b bytes.Buffer
	if err := WriteGateway(&b, GatewayRun{Scenario: "s"}); err != nil || !strings.Contains(b.String(), "tolerance 0s") {
		t.Errorf("no lanes: %q, %v", b.String(), err)
	}
}

func TestGatewayJSONRoundTripKeepsNever(t *testing.T) {
	r := gatewayRunForText()
	var b bytes.Buffer
	if err := WriteGatewayJSON(&b, r); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), `"lane_retry_after_ns": -1`) || r.Lanes[0].Diffs[1].LaneRetryAfterNS != algorithms.Never {
		t.Errorf("never is -1 in the JSON, and the run given is left as it was")
	}
	got, err := ReadGatewayJSON(&b)
	if err != nil {
		t.Fatal(err)
	}
	if got.Lanes[0].Diffs[1].LaneRetryAfterNS != algorithms.Never || got.Lanes[0].Diffs[2].LaneRetryAfterNS != 500*time.Millisecond ||
		got.Lanes[0].NotLogged != 2 || got.AccessLog != r.AccessLog || len(got.Lanes[1].Diffs) != 0 {
		t.Errorf("read back %+v", got)
	}
	if _, err := ReadGatewayJSON(strings.NewReader(`{"lanes": [], "extra": 1}`)); err == nil {
		t.Error("an unknown field is refused")
	}
}
