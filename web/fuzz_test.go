package web

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/rlsim/rlsim/run"
)

// fuzzServer is a playground answering in process, with a small budget so
// that a fuzzed scenario stays quick.
func fuzzServer() *Server {
	return New(Options{Addr: "127.0.0.1:8080", Overrides: run.Overrides{MaxEvents: 200_000}, MaxScenarioBytes: 16 << 10})
}

func post(srv *Server, path, body string) *httptest.ResponseRecorder {
	req := httptest.NewRequest("POST", "http://127.0.0.1:8080"+path, strings.NewReader(body))
	rec := httptest.NewRecorder()
	srv.ServeHTTP(rec, req)
	return rec
}

// checkAnswer fails unless rec is a JSON answer with an expected status: bad
// input is a 4xx with a message, never a 500 or a crash.
func checkAnswer(t *testing.T, body string, rec *httptest.ResponseRecorder, allowed ...int) {
	t.Helper()
	ok := false
	for _, code := range allowed {
		ok = ok || rec.Code == code
	}
	if !ok {
		t.Fatalf("%q: status %d %s", body, rec.Code, rec.Body)
	}
	var reply map[string]any
	if err := json.Unmarshal(rec.Body.Bytes(), &reply); err != nil {
		t.Fatalf("%q: answer %q is not JSON: %v", body, rec.Body, err)
	}
	if rec.Code != http.StatusOK {
		if msg, _ := reply["error"].(string); msg == "" {
			t.Fatalf("%q: status %d without a message: %s", body, rec.Code, rec.Body)
		}
	}
}

func FuzzCreate(f *testing.F) {
	f.Add(`{}`)
	f.Add(`{"builtin":"boundary-burst"}`)
	f.Add(`{"builtin":"nope"}`)
	f.Add(`{"builtin":"demo","yaml":"duration: 1s"}`)
	f.Add(`{"yaml":"duration: 3s\nlimits:\n  - key: global\n    limit: 10\n    window: 1s\nclients:\n  - name: a\n    arrivals:\n      - kind: burst\n        at: 1s\n        count: 20\n"}`)
	f.Add(`{"yaml":"duration: 3s\nlimits:\n  - key: global\n    limit: -1\nclients: [{name: a, count: 1000000000, arrivals: [{kind: constant, rate: 1000/1ms}]}]\n"}`)
	f.Add(`{"yaml":"contention: {}"}`)
	f.Add(`{"yaml":"\t\x00"}`)
	f.Add(`[1,2]`)
	f.Fuzz(func(t *testing.T, body string) {
		srv := fuzzServer()
		defer srv.Close()
		rec := post(srv, "/api/sessions", body)
		checkAnswer(t, body, rec, http.StatusOK, http.StatusBadRequest, http.StatusRequestEntityTooLarge)
	})
}

func FuzzControl(f *testing.F) {
	for _, c := range []string{
		`{"op":"play"}`, `{"op":"step"}`, `{"op":"speed","index":12}`, `{"op":"burst","count":10,"spread":100000000}`,
		`{"op":"burst","count":1000000,"spread":-5}`, `{"op":"rule","limit":3,"window":1,"burst":0}`,
		`{"op":"rule","limit":9223372036854775807,"window":9223372036854775807,"burst":9223372036854775807}`,
		`{"op":"rate","index":0,"count":2147483647}`, `{"op":"rate","index":-1,"count":-1}`,
		`{"op":"sample","lane":7,"column":0,"mark":4}`, `{"op":"sample","lane":-1,"column":-9223372036854775808,"mark":9}`,
		`{"op":""}`, `{}`, `null`, `"play"`,
	} {
		f.Add(c)
	}
	f.Fuzz(func(t *testing.T, body string) {
		srv := fuzzServer()
		defer srv.Close()
		rec := post(srv, "/api/sessions", `{"builtin":"demo"}`)
		var rep sessionReply
		if err := json.Unmarshal(rec.Body.Bytes(), &rep); err != nil || rep.ID == "" {
			t.Fatalf("no session: %d %s", rec.Code, rec.Body)
		}
		for range 2 { // twice: a command applied must leave the session sound
			checkAnswer(t, body, post(srv, "/api/sessions/"+rep.ID+"/control", body), http.StatusOK, http.StatusBadRequest)
		}
		checkAnswer(t, `step`, post(srv, "/api/sessions/"+rep.ID+"/control", `{"op":"step"}`), http.StatusOK, http.StatusBadRequest)
		srv.mu.Lock()
		sess := srv.sessions[rep.ID]
		srv.mu.Unlock()
		sess.mu.Lock()
		defer sess.mu.Unlock()
		if _, err := json.Marshal(sess.frame()); err != nil {
			t.Fatalf("after %q the frame is not JSON: %v", body, err)
		}
	})
}
