package algorithms

import (
	"testing"
	"time"
)

// A usage-plan quota's offset is 0 or more and below its limit: the same
// bound the scenario checks (an offset of the whole limit would leave the
// first period nothing, which sim refuses first).
func TestAWSQuotaOffsetBelowTheLimit(t *testing.T) {
	for offset, ok := range map[int64]bool{-1: false, 0: true, 4: true, 5: false, 6: false} {
		_, err := NewAWSQuota(AWSQuotaParams{Limit: 5, Offset: offset, Period: AWSQuotaDay, Epoch: time.Unix(0, 0)})
		if (err == nil) != ok {
			t.Errorf("offset %d of limit 5: err %v, want ok %v", offset, err, ok)
		}
	}
}
