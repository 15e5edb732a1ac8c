package conform

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"time"
)

// maxLogLine is the longest access log line read; longer lines are an error.
const maxLogLine = 1 << 20

// logSize is the size of the access log at path: CheckGateway reads what is
// written after it.
func logSize(path string) (int64, error) {
	st, err := os.Stat(path)
	switch {
	case err != nil:
		return 0, fmt.Errorf("--access-log: %w", err)
	case !st.Mode().IsRegular():
		return 0, fmt.Errorf("--access-log: %s is not a file", path)
	}
	return st.Size(), nil
}

// ReadAccessLog reads the access log at path from byte offset from and returns
// the arrival of every request whose id starts with idPrefix, on the Unix
// clock. A line names a request with the field rid=<X-Request-Id> and its
// arrival with t=<Unix seconds>, optionally less rt=<seconds> (nginx logs
// $msec, when the request ended, and $request_time, how long it took, and
// cannot subtract); seconds are digits with up to 9 decimals, as nginx's
// "1764644562.123". Fields are separated by spaces and may come in any order,
// among others; lines without rid=, or with another request's id, are skipped.
// The first line of an id counts.
func ReadAccessLog(path string, from int64, idPrefix string) (map[string]time.Time, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("--access-log: %w", err)
	}
	defer f.Close()
	if _, err := f.Seek(from, io.SeekStart); err != nil {
		return nil, fmt.Errorf("--access-log: %w", err)
	}
	out := map[string]time.Time{}
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64<<10), maxLogLine)
	for n := 1; sc.Scan(); n++ {
		id, at, ok, err := accessLine(sc.Text(), idPrefix)
		if err != nil {
			return nil, fmt.Errorf("--access-log: %s: line %d after the run's start: %w", path, n, err)
		}
		if _, seen := out[id]; ok && !seen {
			out[id] = at
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("--access-log: %s: %w", path, err)
	}
	return out, nil
}

// accessLine reads one line: ok is false for a line of no request of ours.
func accessLine(line, idPrefix string) (id string, at time.Time, ok bool, err error) {
	var t, rt string
	for _, f := range strings.Fields(line) {
		switch {
		case strings.HasPrefix(f, "rid="):
			id = strings.TrimPrefix(f, "rid=")
		case strings.HasPrefix(f, "t="):
			t = strings.TrimPrefix(f, "t=")
		case strings.HasPrefix(f, "rt="):
			rt = strings.TrimPrefix(f, "rt=")
		}
	}
	if id == "" || !strings.HasPrefix(id, idPrefix) {
		return "", time.Time{}, false, nil
	}
	end, err := unixSeconds(t)
	if err != nil {
		return "", time.Time{}, false, fmt.Errorf("rid=%s: t=%q: %w", id, t, err)
	}
	if rt != "" {
		took, err := unixSeconds(rt)
		if err != nil {
			return "", time.Time{}, false, fmt.Errorf("rid=%s: rt=%q: %w", id, rt, err)
		}
		end -= took
	}
	return id, time.Unix(0, end), true, nil
}

// unixSeconds reads digits with up to 9 decimals as nanoseconds, exactly.
func unixSeconds(s string) (int64, error) {
	whole, frac, _ := strings.Cut(s, ".")
	if whole == "" || len(whole) > 11 || len(frac) > 9 || strings.HasPrefix(s, ".") || strings.HasSuffix(s, ".") {
		return 0, fmt.Errorf("want seconds as digits with up to 9 decimals")
	}
	w, err := strconv.ParseUint(whole, 10, 64)
	if err != nil {
		return 0, fmt.Errorf("want seconds as digits with up to 9 decimals")
	}
	var ns uint64
	if frac != "" {
		if ns, err = strconv.ParseUint(frac+strings.Repeat("0", 9-len(frac)), 10, 64); err != nil {
			return 0, fmt.Errorf("want seconds as digits with up to 9 decimals")
		}
	}
	return int64(w)*int64(time.Second) + int64(ns), nil
}
