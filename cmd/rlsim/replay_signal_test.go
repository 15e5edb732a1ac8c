package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"
)

// TestReplayInterrupted sends SIGINT to the built binary while it replays an
// endless log from stdin: it stops within a fraction of a second, exits 130,
// says so, prints nothing and leaves no --out folder or staging directory.
func TestReplayInterrupted(t *testing.T) {
	bin := binary(t)
	parent := t.TempDir()
	var stdout, stderr bytes.Buffer
	cmd := exec.Command(bin, "replay", "-", "--limit", "key=ip limit=10/1s", "--out", "rep")
	cmd.Dir = parent
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	var written atomic.Int64
	go feedLog(stdin, &written) // ends when the process closes its end
	// Once megabytes have gone into the pipe (far more than its buffer), the
	// replay is reading them.
	waitFor(t, "the replay to read", func() bool { return written.Load() > 4<<20 })
	sent := time.Now()
	cmd.Process.Signal(syscall.SIGINT)
	// A replay that ignored the signal would read the endless log forever.
	killer := time.AfterFunc(10*time.Second, func() { cmd.Process.Kill() })
	defer killer.Stop()
	err = cmd.Wait()
	took := time.Since(sent)
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != 130 {
		t.Errorf("exit: %v, want status 130; stderr %q", err, stderr.String())
	}
	if !strings.Contains(stderr.String(), "interrupted; nothing was written") {
		t.Errorf("stderr %q, want it to say the replay was interrupted", stderr.String())
	}
	if stdout.Len() != 0 {
		t.Errorf("stdout %q, want nothing", stdout.String())
	}
	if took > 2*time.Second {
		t.Errorf("the replay took %v to stop after SIGINT, want a fraction of a second", took)
	}
	if entries, _ := os.ReadDir(parent); len(entries) != 0 {
		t.Errorf("left behind: %v", entries)
	}
	if _, err := os.Stat(filepath.Join(parent, "rep")); !os.IsNotExist(err) {
		t.Errorf("--out rep: %v, want it not to exist", err)
	}
}

// feedLog writes combined-format lines, a second apart every 1000, to w until
// a write fails, counting the bytes written.
func feedLog(w io.WriteCloser, written *atomic.Int64) {
	defer w.Close()
	start := time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)
	var chunk bytes.Buffer
	for i := 0; ; i++ {
		chunk.Reset()
		at := start.Add(time.Duration(i) * time.Second).Format("02/Jan/2006:15:04:05 -0700")
		for j := range 1000 {
			fmt.Fprintf(&chunk, "198.51.100.%d - - [%s] \"GET /api/users/%d HTTP/1.1\" 200 730 \"-\" \"curl/8.5\"\n", j%256, at, j)
		}
		n, err := w.Write(chunk.Bytes())
		written.Add(int64(n))
		if err != nil {
			return
		}
	}
}
