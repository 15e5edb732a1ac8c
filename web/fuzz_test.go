package web

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

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
// input is a 4xx with a message, never a 500 or a crash. It may be called from
// any goroutine.
func checkAnswer(t *testing.T, body string, rec *httptest.ResponseRecorder, allowed ...int) {
	t.Helper()
	ok := false
	for _, code := range allowed {
		ok = ok || rec.Code == code
	}
	if !ok {
		t.Errorf("%q: status %d %s", body, rec.Code, rec.Body)
		return
	}
	var reply map[string]any
	if err := json.Unmarshal(rec.Body.Bytes(), &reply); err != nil {
		t.Errorf("%q: answer %q is not JSON: %v", body, rec.Body, err)
		return
	}
	if rec.Code != http.StatusOK {
		if msg, _ := reply["error"].(string); msg == "" {
			t.Errorf("%q: status %d without a message: %s", body, rec.Code, rec.Body)
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
			checkAnswer(t, body, post(srv, "/api/sessions/"+rep.ID+"/control", body), http.StatusOK, http.StatusBadRequest, http.StatusConflict)
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

// apiControl is the control that six fuzzed bytes stand for: any op with any
// numbers, a burst of any size up to twice the largest, now and then no JSON.
func apiControl(b []byte) string {
	u := func(i int) int64 { return int64(b[i])<<8 | int64(b[i+1]) }
	switch b[0] % 10 {
	case 0:
		return `{"op":"play"}`
	case 1:
		return `{"op":"pause"}`
	case 2:
		return fmt.Sprintf(`{"op":"step","count":%d}`, u(2)%1200-50)
	case 3:
		return fmt.Sprintf(`{"op":"speed","index":%d}`, int(b[2])%16-1)
	case 4, 5:
		return fmt.Sprintf(`{"op":"burst","count":%d,"spread":%d}`, u(2)*u(4)%(2*maxBurst)-2, u(4)*int64(time.Millisecond))
	case 6:
		return fmt.Sprintf(`{"op":"rule","limit":%d,"window":%d,"burst":%d}`, u(2)-3, u(4)*int64(time.Millisecond)*int64(b[1]), int(b[1])-5)
	case 7:
		return fmt.Sprintf(`{"op":"rate","index":%d,"count":%d}`, int(b[1])%4-1, u(2)*int64(b[4])-3)
	case 8:
		return fmt.Sprintf(`{"op":"sample","lane":%d,"column":%d,"mark":%d}`, int(b[1])%10-1, u(2)-10, int(b[4])%7-1)
	}
	return string(b[1:])
}

// FuzzAPI drives the HTTP API with clients at once, each sending the controls
// its share of the input stands for to a session of its own (and asking for
// more sessions than the cap): every answer is JSON with a message when it is
// a refusal, never a 500 or a crash, and the heap stays under the worst case
// the server states.
func FuzzAPI(f *testing.F) {
	f.Add([]byte{4, 0, 255, 255, 255, 255, 4, 1, 1, 0, 0, 100, 7, 0, 255, 255, 1, 9, 6, 2, 255, 255, 255, 255})
	f.Add([]byte{0, 0, 0, 0, 0, 0, 5, 1, 0, 100, 0, 100, 2, 2, 3, 232, 0, 0, 9, 0, '{', '"', 'o', 'p'})
	f.Add([]byte{6, 255, 0, 5, 255, 255, 7, 1, 0, 20, 9, 0, 8, 2, 0, 12, 3, 0, 3, 0, 12, 0, 0, 0})
	f.Add([]byte("burst after burst after burst after burst"))
	f.Fuzz(func(t *testing.T, data []byte) {
		const clients = 3
		opt := Options{Addr: "127.0.0.1:8080", MaxSessions: clients - 1, MaxSessionBytes: 32 << 20, Overrides: run.Overrides{MaxEvents: 2_000_000}}
		before := heapInUse()
		srv := New(opt)
		defer srv.Close()
		var wg sync.WaitGroup
		for c := range clients {
			wg.Add(1)
			go func() {
				defer wg.Done()
				rec := post(srv, "/api/sessions", `{"builtin":"demo"}`)
				checkAnswer(t, "create", rec, http.StatusOK, http.StatusServiceUnavailable)
				var rep sessionReply
				if rec.Code != http.StatusOK || json.Unmarshal(rec.Body.Bytes(), &rep) != nil {
					return
				}
				for i := 6 * c; i+6 <= len(data); i += 6 * clients {
					body := apiControl(data[i : i+6])
					checkAnswer(t, body, post(srv, "/api/sessions/"+rep.ID+"/control", body), http.StatusOK, http.StatusBadRequest, http.StatusConflict)
				}
			}()
		}
		wg.Wait()
		if held := heapInUse() - before; held > opt.WorstCase() {
			t.Fatalf("the heap holds %d MB, over the worst case of %d MB", held>>20, opt.WorstCase()>>20)
		}
	})
}
