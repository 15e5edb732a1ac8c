package conform

import (
	"net/http"
	"net/http/httptest"
	"testing"
)

// TestGatewayClientSendsTheKeyInItsHeader: the key HTTPDriver puts in X-Key
// reaches the gateway in the header asked for (X-Key itself, in any case,
// untouched), the request sent is not changed, and one without a key passes as is.
func TestGatewayClientSendsTheKeyInItsHeader(t *testing.T) {
	var seen http.Header
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { seen = r.Header.Clone() }))
	defer srv.Close()
	for _, c := range []struct {
		header, key string
		wantIn      string // the header the gateway reads the key from
	}{
		{"X-Api-User", "k1", "X-Api-User"},
		{"x-api-user", "k2", "X-Api-User"},
		{"X-Key", "k3", "X-Key"},
		{"x-key", "k4", "X-Key"},
		{"X-Api-User", "", ""},
	} {
		client, done := gatewayClient(c.header, 3)
		req, err := http.NewRequest(http.MethodGet, srv.URL, nil)
		if err != nil {
			t.Fatal(err)
		}
		if c.key != "" {
			req.Header.Set("X-Key", c.key)
		}
		resp, err := client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		done()
		if c.wantIn == "" {
			if seen.Get("X-Key") != "" || seen.Get("X-Api-User") != "" {
				t.Errorf("header %s, no key: the gateway saw %v", c.header, seen)
			}
			continue
		}
		if got := seen.Values(c.wantIn); len(got) != 1 || got[0] != c.key {
			t.Errorf("header %s: the gateway saw %s = %v, want [%s]", c.header, c.wantIn, got, c.key)
		}
		if c.wantIn != "X-Key" && seen.Get("X-Key") != "" {
			t.Errorf("header %s: X-Key still sent (%q)", c.header, seen.Get("X-Key"))
		}
		if req.Header.Get("X-Key") != c.key {
			t.Errorf("header %s: the caller's request lost its X-Key", c.header)
		}
	}
}

// TestTallyBeyondCountsBothKinds: Beyond is the admissions and the
// Retry-Afters that differed past the tolerance, not those within it.
func TestTallyBeyondCountsBothKinds(t *testing.T) {
	tl := Tally{Differed: 3, RetryAfterDiffered: 4, DifferedWithin: 5, Agreed: 6}
	if got := tl.Beyond(); got != 7 {
		t.Errorf("Beyond of %+v = %d, want 3+4", tl, got)
	}
}
