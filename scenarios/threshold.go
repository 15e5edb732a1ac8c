package scenarios

// ParseThreshold reads a threshold written as a check's value (99%, 2/s,
// 250ms, 1.2) in the unit of metric m: what rlsim sweep's --where compares.
func ParseThreshold(m Metric, s string) (float64, error) { return parseThreshold(m, s) }

// MetricNames are the metrics a check or a --where can measure.
func MetricNames() []string { return append([]string(nil), metricNames...) }
