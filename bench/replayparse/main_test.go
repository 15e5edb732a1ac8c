package main

import (
	"bytes"
	"reflect"
	"testing"
	"time"

	"github.com/rlsim/rlsim/internal/accesslog"
)

// TestAdmitIsATokenBucket walks one key through a bucket of 2 tokens refilled
// one a second: two at once pass, the third waits for the refill, exactly.
func TestAdmitIsATokenBucket(t *testing.T) {
	p, err := newPolicy(1, time.Second, 2)
	if err != nil {
		t.Fatal(err)
	}
	s := int64(time.Second)
	steps := []struct {
		at   int64
		want bool
	}{{0, true}, {0, true}, {0, false}, {s - 1, false}, {s, true}, {s, false}, {3 * s, true}, {3 * s, true}, {3 * s, false}}
	var tat int64
	for _, st := range steps {
		var ok bool
		tat, ok = p.admit(tat, st.at)
		if ok != st.want {
			t.Fatalf("admit(t0+%v) = %v, want %v", time.Duration(st.at), ok, st.want)
		}
	}
}

// TestPlainAndReuseAgree: both floors count the same on a generated log, and
// the heavy address is refused while the others are not.
func TestPlainAndReuseAgree(t *testing.T) {
	var log bytes.Buffer
	accesslog.Write(&log, 20_000, 7)
	log.WriteString("garbage line\n")
	p, _ := newPolicy(100, time.Minute, 20)
	a, err := plain(bytes.NewReader(log.Bytes()), p, 3)
	if err != nil {
		t.Fatal(err)
	}
	b, err := reuse(bytes.NewReader(log.Bytes()), p, 3)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(a, b) {
		t.Fatalf("plain %+v, reuse %+v", a, b)
	}
	if a.lines != 20_001 || a.bad != 1 {
		t.Errorf("lines %d bad %d, want 20001 and 1", a.lines, a.bad)
	}
	if a.refused[0] == 0 || a.refused[0] > a.lines/3+1 {
		t.Errorf("refused %d of %d: want some, at most the heavy address's third", a.refused[0], a.lines)
	}
}
