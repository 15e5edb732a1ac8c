package scenarios

import "testing"

// A store's queue_limit and a fallback's burst write back at their smallest
// legal values (1), not only at typical ones: Marshal keeps a field that is
// set, whatever its size.
func TestSmallestSettingsRoundTrip(t *testing.T) {
	s, err := Parse("f.yaml", []byte(`limits:
  - limit: 5
    state: shared
    on_store_error: local
    fallback: {limit: 2, window: 1s, burst: 1}
topology:
  replicas: 2
  store:
    capacity: 100
    queue_limit: 1
`+okClient))
	if err != nil {
		t.Fatal(err)
	}
	if q := s.Config.Topology.Store.QueueLimit; q != 1 {
		t.Errorf("queue_limit read as %d, want 1", q)
	}
	if b := s.Config.Limits[0].Fallback.Burst; b != 1 {
		t.Errorf("fallback burst read as %d, want 1", b)
	}
	assertRoundTrip(t, s)
}
