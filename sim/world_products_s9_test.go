package sim

import "testing"

// NginxSettings.of is limit i's listed zone, the Default zone past the list
// (the last listed zone included), and nothing without settings.
func TestNginxZoneOfEachLimit(t *testing.T) {
	s := &NginxSettings{Zones: []NginxDelay{{Delay: 1}, {Delay: 2, NoDelay: true}}, Default: NginxDelay{Delay: 9}}
	for i, want := range []NginxDelay{{Delay: 1}, {Delay: 2, NoDelay: true}, {Delay: 9}, {Delay: 9}} {
		if got := s.of(i); got != want {
			t.Errorf("of(%d) = %+v, want %+v", i, got, want)
		}
	}
	var none *NginxSettings
	if got := none.of(0); got != (NginxDelay{}) {
		t.Errorf("nil settings: of(0) = %+v, want none", got)
	}
}
