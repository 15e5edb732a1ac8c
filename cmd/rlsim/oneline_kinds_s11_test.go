package main

import (
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/rlsim/rlsim/sim"
)

// TestTrafficWithNoKindListsTheKinds: --traffic with no arrival kind says
// which kinds there are, and each one it lists, put in, is taken as the kind
// (its group gets an arrival of that kind); every kind sim has is listed.
func TestTrafficWithNoKindListsTheKinds(t *testing.T) {
	_, err := trafficFields("10 5/s", 0)
	if err == nil {
		t.Fatal(`trafficFields("10 5/s") took a group with no arrival kind`)
	}
	m := regexp.MustCompile(`the arrival kind is missing \(([^)]*)\)`).FindStringSubmatch(err.Error())
	if m == nil {
		t.Fatalf("error %q names no missing arrival kind", err)
	}
	listed := strings.Split(m[1], ", ")
	if !slices.Equal(slices.Sorted(slices.Values(listed)), slices.Sorted(slices.Values(sim.ArrivalNames()))) {
		t.Errorf("the missing kind's error lists %v, sim's arrival kinds are %v", listed, sim.ArrivalNames())
	}
	for _, kind := range listed {
		fields, err := trafficFields("10 "+kind+" 5/s", 0)
		if err != nil && strings.Contains(err.Error(), "arrival kind is missing") {
			t.Errorf("kind %q, listed, is not taken as the kind: %v", kind, err)
		}
		if err == nil && !strings.Contains(itemText(fields), "kind: "+kind) {
			t.Errorf("kind %q: the group written is %q, with no arrival of that kind", kind, itemText(fields))
		}
	}
}

// itemText is fields as writeItem writes them.
func itemText(fields []kv) string {
	var b strings.Builder
	writeItem(&b, "", fields)
	return b.String()
}
