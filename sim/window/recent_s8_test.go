package window

import (
	"testing"
	"time"
)

// growRecent moves the latest admissions to a ring of any larger size, not
// only twice the old one: a ring of 4 at the slab's end grown to 16 in one
// step keeps each of its four latest admissions at its own index, and reads
// the dropped ones as long gone, and has room for sixteen.
func TestARingGrowsFourfoldAtTheSlabsEnd(t *testing.T) {
	p := NewChecked(10*time.Millisecond, 20, 1, 1, FastPaths{})
	r := &recentLog{}
	p.growRecent(r, 4)
	for i := range int64(6) { // seqs 0 and 1 overwritten by 4 and 5
		p.recordRecent(r, time.Duration(i+1)*time.Millisecond)
	}
	p.growRecent(r, 16)
	if r.size != 16 {
		t.Fatalf("size %d, want 16", r.size)
	}
	for i := range int64(6) {
		want := time.Duration(i+1) * time.Millisecond
		if i < 2 {
			want = longGone
		}
		if got := *p.recentAt(r, i); got != want {
			t.Errorf("admission %d reads %v, want %v", i, got, want)
		}
	}
	// The ring holds 16 of its own: another ring allocated after it, then ten
	// more admissions, leave both as written.
	other := &recentLog{}
	p.growRecent(other, 4)
	for i := range int64(4) {
		p.recordRecent(other, time.Hour+time.Duration(i))
	}
	for i := int64(6); i < 16; i++ {
		p.recordRecent(r, time.Duration(i+1)*time.Millisecond)
	}
	for i := int64(2); i < 16; i++ {
		if got, want := *p.recentAt(r, i), time.Duration(i+1)*time.Millisecond; got != want {
			t.Errorf("admission %d reads %v, want %v", i, got, want)
		}
	}
	for i := range int64(4) {
		if got, want := *p.recentAt(other, i), time.Hour+time.Duration(i); got != want {
			t.Errorf("the other ring's admission %d reads %v, want %v", i, got, want)
		}
	}
}
