package replay

import (
	"slices"
	"strings"
	"testing"
	"time"
)

// TestFormatsOfOneFieldAndNone holds the bound of "has no field" on both
// sides, in each product's format language: no field is an error, one field is
// a format whose Fields name it.
func TestFormatsOfOneFieldAndNone(t *testing.T) {
	for _, tc := range []struct {
		name  string
		parse func(string) (*LogFormat, error)
		none  string
		one   string
		field string
	}{
		{"nginx", NginxFormat, `[time]`, `[$time_local]`, "time_local"},
		{"nginx braces", NginxFormat, `-`, `${remote_addr}`, "remote_addr"},
		{"envoy", EnvoyFormat, `[START_TIME]`, `[%START_TIME%]`, "start_time"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := tc.parse(tc.none); err == nil || !strings.Contains(err.Error(), "has no field") {
				t.Errorf("%q: %v, want an error with \"has no field\"", tc.none, err)
			}
			f, err := tc.parse(tc.one)
			if err != nil {
				t.Fatalf("%q: %v, want a format of one field", tc.one, err)
			}
			if got := f.Fields(); !slices.Equal(got, []string{tc.field}) {
				t.Errorf("%q: Fields() = %q, want [%q]", tc.one, got, tc.field)
			}
		})
	}
}

// TestCustomFormatsReadZonelessTimesInTheZone holds the location a custom
// format's parser is given: a renamed time field without a zone is a time in
// that location (as --timezone promises), in each product's format language.
func TestCustomFormatsReadZonelessTimesInTheZone(t *testing.T) {
	zone := time.FixedZone("UTC+2", 2*3600)
	at := time.Date(2026, 1, 2, 10, 0, 0, 0, zone)
	fields, err := ParseFields("time=stamp")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, format, line string
		parse              func(string) (*LogFormat, error)
	}{
		{"nginx", `[$stamp] $remote_addr`, "[2026-01-02 10:00:00] 10.0.0.1", NginxFormat},
		{"envoy", `[%STAMP%] %DOWNSTREAM_REMOTE_ADDRESS%`, "[2026-01-02 10:00:00] 10.0.0.1", EnvoyFormat},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f, err := tc.parse(tc.format)
			if err != nil {
				t.Fatal(err)
			}
			p, err := newLogFormatParser(f, fields, zone)
			if err != nil {
				t.Fatal(err)
			}
			check(t, p, tc.line, want{at: at, ip: "10.0.0.1"})
		})
	}
}
