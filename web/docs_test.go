package web

import (
	"fmt"
	"os"
	"reflect"
	"strings"
	"testing"
)

// docs/playground.md names every field the API sends and reads.
func TestDocsNameEveryField(t *testing.T) {
	data, err := os.ReadFile("../docs/playground.md")
	if err != nil {
		t.Fatal(err)
	}
	doc := string(data)
	for _, v := range []any{frame{}, laneFrame{}, peak{}, column{}, ruleMark{}, burstMark{}, sample{}, sessionReply{},
		laneInfo{}, limitInfo{}, groupInfo{}, command{}, createRequest{}, controlReply{}, errorReply{}, fieldError{}} {
		typ := reflect.TypeOf(v)
		for i := range typ.NumField() {
			name, _, _ := strings.Cut(typ.Field(i).Tag.Get("json"), ",")
			if name != "" && !strings.Contains(doc, "`"+name+"`") {
				t.Errorf("docs/playground.md does not name %s's field `%s`", typ.Name(), name)
			}
		}
	}
}

// docs/playground.md states the memory bound and the per-control limits as
// the code has them.
func TestDocsStateTheMemoryBound(t *testing.T) {
	data, err := os.ReadFile("../docs/playground.md")
	if err != nil {
		t.Fatal(err)
	}
	doc := strings.Join(strings.Fields(string(data)), " ")
	mb := func(n int64) string { return fmt.Sprintf("%d MB", n>>20) }
	worst := Options{}.WorstCase()
	for _, claim := range []string{
		fmt.Sprintf("At most %d sessions are open or being built at once", DefaultMaxSessions),
		fmt.Sprintf("408 when the request takes over %v seconds to send", Options{}.withDefaults().BodyWithin.Seconds()),
		fmt.Sprintf("or its request takes over %v seconds to send", Options{}.withDefaults().BodyWithin.Seconds()),
		fmt.Sprintf("Each session may hold at most %s, so the sessions together hold at most %s (%d × %s)",
			mb(DefaultMaxSessionBytes), mb(worst), DefaultMaxSessions, mb(DefaultMaxSessionBytes)),
		fmt.Sprintf("%d B per client and lane, %d B per key", clientBytes, keyBytes),
		fmt.Sprintf("%d B per time-series bucket and lane, %d B per request the backend may queue", bucketBytes, queuedBytes),
		fmt.Sprintf("(%d B per attempt in it) and %s per lane and %s per session", loggedBytes, mb(laneBytes), mb(sessionBytes)),
		fmt.Sprintf("A scenario over %s is refused with 413", mb(DefaultMaxSessionBytes)),
		fmt.Sprintf("`burst`: %d B per request and lane; at most %d requests injected in all", injectedBytes, maxInjected),
		fmt.Sprintf("%d B per request and lane that the group's clients may keep", injectedBytes),
		fmt.Sprintf("at most %d under way, all groups together", maxLive),
		fmt.Sprintf("at most %d of them in all, each %d KB", maxMarks, markBytes>>10),
		fmt.Sprintf("`count` (1 to %d)", maxBurst),
		fmt.Sprintf("`count` (1 when 0, at most %d)", maxSteps),
	} {
		if !strings.Contains(doc, claim) {
			t.Errorf("docs/playground.md does not say %q", claim)
		}
	}
	if worst != DefaultMaxSessions*DefaultMaxSessionBytes {
		t.Errorf("WorstCase() = %d, want %d sessions × %d B", worst, DefaultMaxSessions, DefaultMaxSessionBytes)
	}
}
