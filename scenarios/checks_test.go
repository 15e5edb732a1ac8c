package scenarios

import (
	"fmt"
	"math"
	"strings"
	"testing"
	"time"
)

const checksBase = `lanes: [token_bucket, gcra]
clients:
  - name: users
    arrivals:
      - kind: constant
        rate: 5/s
  - name: abuser
    arrivals:
      - kind: constant
        rate: 50/s
checks:
`

func TestChecksParse(t *testing.T) {
	s, err := Parse("f.yaml", []byte(checksBase+`  - {class: users, metric: success_rate, op: ">=", value: 99%}
  - {lane: gcra, class: abuser, metric: admitted_rate, op: "<=", value: 2/s}
  - {metric: p99_time_to_success, op: "<", value: 250ms}
  - {lane: token_bucket, metric: peak_ratio, op: "<=", value: 1.2}
  - {metric: refused_rate, op: ">", value: "0.5"}
`))
	if err != nil {
		t.Fatal(err)
	}
	want := []Check{
		{Class: "users", Metric: SuccessRate, Op: ">=", Want: 0.99, Text: "99%", Line: 12},
		{Lane: "gcra", Class: "abuser", Metric: AdmittedRate, Op: "<=", Want: 2, Text: "2/s", Line: 13},
		{Metric: P99TimeToSuccess, Op: "<", Want: float64(250 * time.Millisecond), Text: "250ms", Line: 14},
		{Lane: "token_bucket", Metric: PeakRatio, Op: "<=", Want: 1.2, Text: "1.2", Line: 15},
		{Metric: RefusedRate, Op: ">", Want: 0.5, Text: "0.5", Line: 16},
	}
	if len(s.Checks) != len(want) {
		t.Fatalf("checks %+v, want %+v", s.Checks, want)
	}
	for i := range want {
		if s.Checks[i] != want[i] {
			t.Errorf("check %d = %+v, want %+v", i, s.Checks[i], want[i])
		}
	}
	assertRoundTrip(t, s)
}

func TestChecksErrors(t *testing.T) {
	tests := []struct {
		name, check string
		want        string // the whole error
	}{
		{"unknown lane", `{lane: token_buckt, metric: success_rate, op: ">=", value: 99%}`,
			`f.yaml:12: checks[0].lane: unknown value "token_buckt" (want token_bucket, gcra); did you mean "token_bucket"?`},
		{"a lane not run", `{lane: sliding_log, metric: success_rate, op: ">=", value: 99%}`,
			"f.yaml:12: checks[0].lane: sliding_log is not a lane this scenario runs (token_bucket, gcra)"},
		{"unknown class", `{class: user, metric: success_rate, op: ">=", value: 99%}`,
			`f.yaml:12: checks[0].class: unknown class "user" (the clients' names: users, abuser); did you mean "users"?`},
		{"unknown metric", `{metric: sucess_rate, op: ">=", value: 99%}`,
			`f.yaml:12: checks[0].metric: unknown value "sucess_rate" (want success_rate, refused_rate, shed_rate, admitted_rate, p99_time_to_success, peak_ratio); did you mean "success_rate"?`},
		{"unknown op", `{metric: success_rate, op: "==", value: 99%}`,
			`f.yaml:12: checks[0].op: unknown value "==" (want >=, <=, >, <); did you mean ">="?`},
		{"a rate over 100%", `{metric: success_rate, op: ">=", value: 101%}`,
			`f.yaml:12: checks[0].value: "101%" is not a rate: want a share from 0% to 100%, like 99% or 0.99`},
		{"a time without unit", `{metric: p99_time_to_success, op: "<", value: 5}`,
			`f.yaml:12: checks[0].value: "5" is not a time: want a duration like 250ms or 2s`},
		{"an admitted rate per minute", `{metric: admitted_rate, op: "<", value: 5/m}`,
			`f.yaml:12: checks[0].value: "5/m" is not an admitted rate: want requests per second, like 2/s`},
		{"a negative ratio", `{metric: peak_ratio, op: "<", value: -1}`,
			`f.yaml:12: checks[0].value: "-1" is not a ratio: want a number like 1.2`},
		{"peak ratio of a class", `{class: users, metric: peak_ratio, op: "<", value: 1}`,
			"f.yaml:12: checks[0].class: peak_ratio is a lane's, not a class's: leave class out"},
		{"missing value", `{metric: peak_ratio, op: "<"}`,
			"f.yaml:12: checks[0]: missing field value (the threshold: a rate as 99% or 0.99, an admitted rate as 2/s, a time as 250ms, a ratio as 1.2)"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse("f.yaml", []byte(checksBase+"  - "+tc.check+"\n"))
			if err == nil || err.Error() != tc.want {
				t.Errorf("error:\n%v\nwant:\n%s", err, tc.want)
			}
		})
	}
}

func TestChecksInAContentionStudyAreRefused(t *testing.T) {
	src, _ := BuiltinSource("backoff-contention")
	_, err := Parse("c.yaml", append(src, []byte("checks:\n  - {metric: peak_ratio, op: \"<\", value: 1}\n")...))
	if err == nil || !strings.Contains(err.Error(), "checks: not used by a contention study") {
		t.Errorf("error %v, want checks refused", err)
	}
}

func TestSetReachesChecks(t *testing.T) {
	s, err := Parse("f.yaml", []byte(checksBase+`  - {metric: success_rate, op: ">=", value: 99%}`+"\n"), mustSets(t, "checks[0].value=95%")...)
	if err != nil {
		t.Fatal(err)
	}
	if s.Checks[0].Want != 0.95 {
		t.Errorf("want %v, want 0.95", s.Checks[0].Want)
	}
}

func TestFormatMeasureNeverReadsAsTheThreshold(t *testing.T) {
	tests := []struct {
		metric    Metric
		got, want float64
		shown     string
	}{
		{SuccessRate, 0.28, 0.99, "28.0%"},
		{SuccessRate, 0.9996, 1, "99.96%"},
		{SuccessRate, 0.99, 0.99, "99.0%"},
		{AdmittedRate, 2.0004, 2, "2.0004/s"},
		{AdmittedRate, 9.5, 2, "9.50/s"},
		{PeakRatio, 1.9, 1.5, "1.90"},
		{P99TimeToSuccess, float64(250 * time.Millisecond), float64(time.Second), "250ms"},
	}
	for _, tc := range tests {
		if got := FormatMeasure(Check{Metric: tc.metric, Want: tc.want}, tc.got); got != tc.shown {
			t.Errorf("FormatMeasure(%s, %v against %v) = %q, want %q", tc.metric, tc.got, tc.want, got, tc.shown)
		}
	}
}

// TestChecksRefuseNonFiniteValues: a threshold that is not a finite number (NaN,
// infinities, YAML's .nan and .inf, a number past float64) is refused with its
// line, for every metric; "value: NaN" once passed validate and then failed
// every check of the run.
func TestChecksRefuseNonFiniteValues(t *testing.T) {
	values := []string{"NaN", "nan", "NaN%", "Inf", "+Inf", "-Inf", "infinity", "+Infinity", "Inf/s", "NaN/s",
		".nan", ".inf", "-.Inf", "1e400", "1e400%", "-1e400", "0x1p2000"}
	for _, m := range metricNames {
		for _, v := range values {
			t.Run(m+" "+v, func(t *testing.T) {
				_, err := Parse("f.yaml", []byte(fmt.Sprintf("%s  - {metric: %s, op: \"<=\", value: %q}\n", checksBase, m, v)))
				want := fmt.Sprintf("f.yaml:12: checks[0].value: %q is not a", v)
				if err == nil || !strings.HasPrefix(err.Error(), want) {
					t.Errorf("Parse = %v, want %s...", err, want)
				}
			})
		}
	}
}

// TestChecksReportEveryBadValue: several bad thresholds are all reported at once.
func TestChecksReportEveryBadValue(t *testing.T) {
	_, err := Parse("f.yaml", []byte(checksBase+`  - {metric: success_rate, op: ">=", value: NaN}
  - {metric: peak_ratio, op: "<=", value: Inf}
  - {metric: admitted_rate, op: "<=", value: +Inf/s}
`))
	want := `f.yaml:12: checks[0].value: "NaN" is not a rate: want a share from 0% to 100%, like 99% or 0.99
f.yaml:13: checks[1].value: "Inf" is not a ratio: want a number like 1.2
f.yaml:14: checks[2].value: "+Inf/s" is not an admitted rate: want requests per second, like 2/s`
	if err == nil || err.Error() != want {
		t.Errorf("error:\n%v\nwant:\n%s", err, want)
	}
}

// FuzzParseThreshold holds parseThreshold to its contract on any text: a value
// it accepts is finite and not negative, and a share is at most 1.
func FuzzParseThreshold(f *testing.F) {
	for _, s := range []string{"99%", "0.99", "2/s", "250ms", "1.2", "NaN", "Inf/s", "-0", "1e308", "NaN%", "0x1p-1074", ".5%"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, m := range metricNames {
			v, err := parseThreshold(Metric(m), s)
			if err != nil {
				continue
			}
			if math.IsNaN(v) || math.IsInf(v, 0) || v < 0 || Metric(m).Fraction() && v > 1 {
				t.Errorf("parseThreshold(%s, %q) = %v, accepted", m, s, v)
			}
		}
	})
}

// TestSetOfANonFiniteThresholdNamesTheFlag: --set checks[0].value=NaN is
// refused as the file's NaN is, naming the flag and the path.
func TestSetOfANonFiniteThresholdNamesTheFlag(t *testing.T) {
	_, err := Parse("f.yaml", []byte(checksBase+`  - {metric: success_rate, op: ">=", value: 99%}`+"\n"), mustSets(t, "checks[0].value=NaN")...)
	want := `f.yaml (--set checks[0].value=NaN): checks[0].value: "NaN" is not a rate: want a share from 0% to 100%, like 99% or 0.99`
	if err == nil || err.Error() != want {
		t.Errorf("error:\n%v\nwant:\n%s", err, want)
	}
}
