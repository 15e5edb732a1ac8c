package conform

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"
)

// seen is one request as the test server received it.
type seen struct {
	uri, key, id string
	hasKey       bool
	at           time.Time
}

func TestHTTPDriverSend(t *testing.T) {
	var mu sync.Mutex
	got := map[string]seen{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		_, hasKey := r.Header["X-Key"]
		got[r.Header.Get("X-Request-Id")] = seen{r.URL.RequestURI(), r.Header.Get("X-Key"), r.Header.Get("X-Request-Id"), hasKey, time.Now()}
		mu.Unlock()
		switch r.URL.Path {
		case "/limited":
			w.Header().Set("Retry-After", "3")
			w.WriteHeader(http.StatusTooManyRequests)
		case "/slow":
			<-r.Context().Done() // until the driver's per-request timeout gives up
		default:
			w.Write([]byte("ok"))
		}
	}))
	defer srv.Close()

	reqs := []HTTPRequest{
		{At: 0, Key: "a", Path: "/ok?x=1", ID: "1"},
		{At: 30 * time.Millisecond, Path: "/limited", ID: "2"},
		{At: 60 * time.Millisecond, Key: "b", Path: "/slow", ID: "3"},
		{At: 60 * time.Millisecond, Key: "b", Path: "/ok", ID: "4"},
	}
	before := time.Now()
	res, err := HTTPDriver{Timeout: 300 * time.Millisecond}.Send(context.Background(), srv.URL, reqs)
	if err != nil {
		t.Fatal(err)
	}
	if len(res) != len(reqs) {
		t.Fatalf("%d results for %d requests", len(res), len(reqs))
	}
	want := []struct {
		status int
		retry  string
	}{{200, ""}, {429, "3"}, {0, ""}, {200, ""}}
	for i, w := range want {
		r := res[i]
		if r.Status != w.status || r.RetryAfter != w.retry {
			t.Errorf("request %s: status %d Retry-After %q, want %d %q (err %v)", reqs[i].ID, r.Status, r.RetryAfter, w.status, w.retry, r.Err)
		}
		if (r.Err != nil) != (w.status == 0) {
			t.Errorf("request %s: err %v", reqs[i].ID, r.Err)
		}
		// Timers never fire early: each request leaves at or after its instant.
		if r.Sent.Before(before.Add(reqs[i].At)) {
			t.Errorf("request %s sent %v after the start, before its instant %v", reqs[i].ID, r.Sent.Sub(before), reqs[i].At)
		}
		if r.Answered.Before(r.Sent) {
			t.Errorf("request %s answered before it was sent", reqs[i].ID)
		}
	}
	if !errors.Is(res[2].Err, context.DeadlineExceeded) {
		t.Errorf("slow request: err %v, want the per-request deadline", res[2].Err)
	}
	if d := res[2].Answered.Sub(res[2].Sent); d < 300*time.Millisecond {
		t.Errorf("slow request gave up after %v, before its 300ms timeout", d)
	}
	// The slow request held up nothing: request 4 of the same instant came back at once.
	if res[3].Answered.After(res[2].Answered) {
		t.Errorf("request 4 answered after the slow request 3")
	}
	mu.Lock()
	defer mu.Unlock()
	for _, c := range []seen{{"/ok?x=1", "a", "1", true, time.Time{}}, {"/limited", "", "2", false, time.Time{}}, {"/slow", "b", "3", true, time.Time{}}} {
		s, ok := got[c.id]
		if !ok {
			t.Errorf("request %s never reached the server", c.id)
			continue
		}
		if s.uri != c.uri || s.key != c.key || s.hasKey != c.hasKey {
			t.Errorf("request %s arrived as %s X-Key %q (present %v), want %s %q (present %v)", c.id, s.uri, s.key, s.hasKey, c.uri, c.key, c.hasKey)
		}
		if s.at.Before(before.Add(reqs[0].At)) {
			t.Errorf("request %s arrived before the schedule started", c.id)
		}
	}
	if gap := got["2"].at.Sub(got["1"].at); gap <= 0 {
		t.Errorf("request 2 (at 30ms) arrived %v after request 1 (at 0)", gap)
	}
}

func TestHTTPDriverCancelled(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		t.Errorf("a request of a cancelled schedule reached the server: %s", r.URL)
	}))
	defer srv.Close()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	res, err := HTTPDriver{}.Send(ctx, srv.URL, []HTTPRequest{{At: 0, Path: "/"}, {At: time.Hour, Path: "/"}})
	if err != nil {
		t.Fatal(err)
	}
	for i, r := range res {
		if r.Status != 0 || !errors.Is(r.Err, context.Canceled) {
			t.Errorf("request %d: status %d err %v, want 0 and context.Canceled", i, r.Status, r.Err)
		}
	}
}

func TestHTTPDriverBadBase(t *testing.T) {
	for _, base := range []string{"", "127.0.0.1:80", "ftp://host/", "http://"} {
		if _, err := (HTTPDriver{}).Send(context.Background(), base, nil); err == nil {
			t.Errorf("Send(%q) = nil error, want one", base)
		}
	}
}
