package report

import (
	"bytes"
	"strings"
	"testing"

	"github.com/rlsim/rlsim/sim"
)

func TestRetryAfterTableOnlyWhenARetryCameBackWhenTold(t *testing.T) {
	lanes := []sim.LaneResult{
		{Lane: sim.LaneGCRA, RetryAfter: sim.RetryAfterStats{Given: 7, RetriedAt: 5, SucceededAt: 4}},
		{Lane: sim.LaneTokenBucket, RetryAfter: sim.RetryAfterStats{Given: 3}},
	}
	var b bytes.Buffer
	writeRetryAfter(&b, sim.Result{Lanes: lanes})
	out := b.String()
	for _, want := range []string{"retries that came back when told", "GCRA", "7", "5", "4", "token bucket"} {
		if !strings.Contains(out, want) {
			t.Errorf("Retry-After table lacks %q:\n%s", want, out)
		}
	}
	gcra := strings.Fields(strings.Split(out, "\n")[3])
	if strings.Join(gcra, " ") != "GCRA 7 5 4" {
		t.Errorf("GCRA row = %q, want given 7, retried then 5, admitted then 4", gcra)
	}
	b.Reset()
	lanes[0].RetryAfter.RetriedAt, lanes[0].RetryAfter.SucceededAt = 0, 0
	writeRetryAfter(&b, sim.Result{Lanes: lanes})
	if b.Len() != 0 {
		t.Errorf("no retry came back when told, yet:\n%s", b.String())
	}
}
