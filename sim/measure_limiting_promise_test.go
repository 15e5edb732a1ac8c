package sim

import "testing"

// TestOverPromise: over means a peak strictly above a positive limit, on a
// rate lane that limited something; never on a concurrency lane.
func TestOverPromise(t *testing.T) {
	limiting := func(kind LaneKind, count, limit int64) LaneResult {
		return LaneResult{Lane: kind, Attempts: 10, Admitted: 9, Refused: 1, Peak: WindowPeak{Count: count, Limit: limit}}
	}
	tests := []struct {
		name string
		l    LaneResult
		want bool
	}{
		{"one over", limiting(LaneFixedWindow, 11, 10), true},
		{"exactly at the limit", limiting(LaneFixedWindow, 10, 10), false},
		{"under", limiting(LaneTokenBucket, 9, 10), false},
		{"no limit", limiting(LaneGCRA, 11, 0), false},
		{"concurrency lane over", limiting(LaneAIMD, 11, 10), false},
		{"vegas over", limiting(LaneVegas, 11, 10), false},
		{"client gate over", limiting(LaneClientThrottle, 11, 10), true},
		{"rate lane that limited nothing is still judged", LaneResult{Lane: LaneSlidingLog, Attempts: 5, Admitted: 5,
			Peak: WindowPeak{Count: 11, Limit: 10}}, true},
	}
	for _, tt := range tests {
		if got := tt.l.Over(); got != tt.want {
			t.Errorf("%s: Over() = %v, want %v", tt.name, got, tt.want)
		}
	}
}

// TestNotLimitingPromise: a concurrency lane that let every attempt through at
// once; any refusal, shed, delay or drop, or no attempt at all, limits.
func TestNotLimitingPromise(t *testing.T) {
	tests := []struct {
		name string
		l    LaneResult
		want bool
	}{
		{"aimd let all through", LaneResult{Lane: LaneAIMD, Attempts: 4, Admitted: 4}, true},
		{"rate lane let all through", LaneResult{Lane: LaneFixedWindow, Attempts: 4, Admitted: 4}, false},
		{"aimd, no attempts", LaneResult{Lane: LaneAIMD}, false},
		{"aimd shed one", LaneResult{Lane: LaneAIMD, Attempts: 4, Admitted: 4, Shed: 1}, false},
		{"aimd admitted one fewer", LaneResult{Lane: LaneAIMD, Attempts: 4, Admitted: 3}, false},
		{"vegas delayed one", LaneResult{Lane: LaneVegas, Attempts: 4, Admitted: 4, Delayed: 1}, false},
		{"vegas dropped one", LaneResult{Lane: LaneVegas, Attempts: 4, Admitted: 4, Dropped: 1}, false},
		{"vegas refused one", LaneResult{Lane: LaneVegas, Attempts: 4, Admitted: 4, Refused: 1}, false},
	}
	for _, tt := range tests {
		if got := tt.l.NotLimiting(); got != tt.want {
			t.Errorf("%s: NotLimiting() = %v, want %v", tt.name, got, tt.want)
		}
		l := tt.l
		s := LaneSnapshot{Lane: l.Lane, Attempts: l.Attempts, Admitted: l.Admitted, Refused: l.Refused, Shed: l.Shed, Delayed: l.Delayed, Dropped: l.Dropped}
		if got := s.NotLimiting(); got != tt.want {
			t.Errorf("%s: snapshot NotLimiting() = %v, want %v", tt.name, got, tt.want)
		}
	}
}
