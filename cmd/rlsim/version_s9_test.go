package main

import (
	"runtime/debug"
	"testing"
)

// TestStampedReadsTheVCSStamp: the version is read from go build's stamp,
// modified only when it says "true", and the module version only when given.
func TestStampedReadsTheVCSStamp(t *testing.T) {
	base := buildVersion{Version: "(devel)", Go: "go0"}
	for _, tc := range []struct {
		modified string
		want     bool
	}{{"true", true}, {"false", false}, {"", false}} {
		bi := &debug.BuildInfo{GoVersion: "go1.99", Settings: []debug.BuildSetting{
			{Key: "vcs.revision", Value: "abc123"}, {Key: "vcs.time", Value: "2026-12-02T10:00:00Z"},
			{Key: "vcs.modified", Value: tc.modified}, {Key: "GOOS", Value: "linux"}}}
		v := stamped(base, bi)
		if v.Commit != "abc123" || v.Date != "2026-12-02T10:00:00Z" || v.Modified != tc.want || v.Go != "go1.99" || v.Version != "(devel)" {
			t.Errorf("vcs.modified=%q: %+v; want commit abc123, its date, modified %v, go1.99, (devel)", tc.modified, v, tc.want)
		}
	}
	bi := &debug.BuildInfo{Main: debug.Module{Version: "v1.2.3"}}
	if v := stamped(base, bi); v.Version != "v1.2.3" || v.Commit != "" || v.Modified {
		t.Errorf("a module version without a stamp: %+v", v)
	}
}
