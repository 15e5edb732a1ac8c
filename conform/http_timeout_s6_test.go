package conform

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"
)

// The zero HTTPDriver's timeout is 10 s a request: an answer that takes 50 ms
// arrives, with its status and body read.
func TestHTTPDriverZeroTimeoutWaitsForASlowAnswer(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		time.Sleep(50 * time.Millisecond)
		w.WriteHeader(http.StatusTeapot)
		w.Write([]byte("slow"))
	}))
	defer srv.Close()
	res, err := HTTPDriver{}.Send(context.Background(), srv.URL, []HTTPRequest{{Path: "/slow"}, {At: 10 * time.Millisecond, Path: "/slow"}})
	if err != nil {
		t.Fatal(err)
	}
	for i, r := range res {
		if r.Err != nil || r.Status != http.StatusTeapot {
			t.Errorf("request %d: status %d, err %v, want %d and no error: the zero driver waits 10 s", i, r.Status, r.Err, http.StatusTeapot)
		}
	}
}
