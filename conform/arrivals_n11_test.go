package conform

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestReadArrivalsWaitsForEveryAnsweredRequest: the log is read again until
// each answered request is in it (a gateway logs after it answers), not
// waiting for one that got no answer; lines before the offset are not read,
// and a cancelled context ends the wait.
func TestReadArrivalsWaitsForEveryAnsweredRequest(t *testing.T) {
	path := filepath.Join(t.TempDir(), "access.log")
	old := "rid=p-1 t=1700000000.5\n"
	if err := os.WriteFile(path, []byte(old+"rid=p-1 t=1764644562.25\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	opts := GatewayOptions{AccessLog: path, IDPrefix: "p-"}
	reqs := []HTTPRequest{{ID: "p-1"}, {ID: "p-2"}, {ID: "p-3"}}
	results := []HTTPResult{{Status: 200}, {Status: 429}, {Status: 0}}
	late := make(chan error, 1)
	go func() {
		time.Sleep(150 * time.Millisecond) // the gateway's late line, for the reader to wait on
		f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
		if err == nil {
			_, err = f.WriteString("rid=p-2 t=1764644562.5\n")
			err = errors.Join(err, f.Close())
		}
		late <- err
	}()
	start := time.Now()
	arrivals, err := readArrivals(context.Background(), opts, int64(len(old)), reqs, results)
	if err := <-late; err != nil {
		t.Fatal(err)
	}
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]time.Time{"p-1": time.Unix(1764644562, 250e6), "p-2": time.Unix(1764644562, 500e6)}
	if len(arrivals) != len(want) || !arrivals["p-1"].Equal(want["p-1"]) || !arrivals["p-2"].Equal(want["p-2"]) {
		t.Errorf("arrivals = %v, want %v (p-3 got no answer, so was not waited for)", arrivals, want)
	}
	if took := time.Since(start); took >= logWait {
		t.Errorf("readArrivals took %v, want it back once p-2 was logged, before logWait %v", took, logWait)
	}

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	results[2].Status = 200 // p-3 now awaited, never logged
	if _, err := readArrivals(ctx, opts, 0, reqs, results); !errors.Is(err, context.Canceled) {
		t.Errorf("a cancelled wait: %v, want context.Canceled", err)
	}
	results[2].Status = 0
	if a, err := readArrivals(context.Background(), opts, 0, reqs[:1], results[:1]); err != nil || !a["p-1"].Equal(time.Unix(1700000000, 5e8)) {
		t.Errorf("from 0: %v, %v; want p-1's first line, at 1700000000.5", a, err)
	}
	if _, err := readArrivals(context.Background(), GatewayOptions{AccessLog: path + ".none"}, 0, reqs, results); err == nil {
		t.Error("a missing log: no error")
	}
}
