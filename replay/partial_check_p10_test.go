package replay

import (
	"bytes"
	"strings"
	"testing"
)

// Each figure a partial file's check bounds, edited out of range in a real
// partial: the check names it (and the unedited partial passes). The counts of
// a lane (refused, delayed), its series and its kept keys are each checked on
// their own: an edit of one is refused whatever the others hold.
func TestPartialCheckNamesEachFigureOutOfRange(t *testing.T) {
	var log bytes.Buffer
	writeShardLog(&log, 2000, 11, false)
	paths := shardParts(t, t.TempDir(), log.Bytes(), shardFlags(false), 2)
	read := func() (*partialFile, Options) {
		p, o, err := readPartial(paths[0])
		if err != nil {
			t.Fatal(err)
		}
		return p, o
	}
	p, o := read()
	if err := p.check(o); err != nil {
		t.Fatalf("the partial as written: %v", err)
	}
	// the first lane of a limit that refused, with a kept key and an hour series
	li, ni := -1, -1
	for j, ls := range p.State.Limits {
		for i, l := range ls.Lanes {
			if li < 0 && l.Refused > 0 && len(l.Kept) > 0 && len(l.ByHour) > 0 && len(ls.Peaks) > 0 {
				li, ni = j, i
			}
		}
	}
	if li < 0 {
		t.Fatal("no lane of the partial refused a kept key: the test edits nothing")
	}
	for _, tc := range []struct {
		name string
		edit func(p *partialFile)
		want string
	}{
		{"negative delayed", func(p *partialFile) { p.State.Limits[li].Lanes[ni].Delayed = -1 }, "negative counts"},
		{"negative refused", func(p *partialFile) { p.State.Limits[li].Lanes[ni].Refused = -1 }, "negative counts"},
		{"lane renamed", func(p *partialFile) { p.State.Limits[li].Lanes[ni].Lane = "nope" }, `lane "nope", want`},
		{"hour count 0", func(p *partialFile) { p.State.Limits[li].Lanes[ni].ByHour[0][1] = 0 }, "refused_by_hour[0]"},
		{"hour index negative", func(p *partialFile) { p.State.Limits[li].Lanes[ni].ByHour[0][0] = -1 }, "refused_by_hour[0]"},
		{"minute count more", func(p *partialFile) { p.State.Limits[li].Lanes[ni].ByMinute[0][1]++ }, "refused_by_minute: "},
		{"key refused 0", func(p *partialFile) { p.State.Limits[li].Lanes[ni].Kept[0].Refused = 0 }, "keys_refused[0]: figures out of range"},
		{"key below over active", func(p *partialFile) {
			k := &p.State.Limits[li].Lanes[ni].Kept[0]
			k.Below = k.Active + 1
		}, "keys_refused[0]: figures out of range"},
		{"key peak negative", func(p *partialFile) { p.State.Limits[li].Lanes[ni].Kept[0].Peak = -1 }, "keys_refused[0]: figures out of range"},
		{"peak 0", func(p *partialFile) { p.State.Limits[li].Peaks[0][0] = 0 }, ".peaks[0]"},
		{"lanes dropped", func(p *partialFile) { p.State.Limits[li].Lanes = p.State.Limits[li].Lanes[:0] }, ".lanes: 0, but the definition replays"},
		{"limits dropped", func(p *partialFile) { p.State.Limits = p.State.Limits[:0] }, "state.limits: 0, but the definition replays"},
	} {
		p, o := read()
		tc.edit(p)
		err := p.check(o)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: check = %v, want %q", tc.name, err, tc.want)
		}
	}
}
