package run

import (
	"bufio"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/rlsim/rlsim/sim"
)

// TraceFile streams trace records to a temporary file beside the target and
// renames it into place only when the whole run succeeded, so that an error or
// Ctrl-C leaves no partial trace behind.
type TraceFile struct {
	path  string
	to    io.Writer // StdoutTrace: where Commit copies the trace, in place of path
	tmp   *os.File
	w     *bufio.Writer
	jsonl bool
	line  []byte
	done  bool
}

// traceColumns are the CSV header and the JSON lines' keys. Times are integer
// nanoseconds of virtual time, so that every figure can be recomputed exactly.
var traceColumns = []string{"scenario", "at_ns", "lane", "event", "client", "class", "key",
	"request", "attempt", "cost", "delay_ns", "retry_after_ns", "limit", "remaining", "reset_ns", "latency_ns", "shadow",
	"replica", "concurrency_limit", "in_flight", "drop_probability", "shedder", "shard", "store", "store_ns"}

// TraceIsJSONL reports whether the trace's name asks for JSON lines rather than CSV.
func TraceIsJSONL(path string) (bool, error) {
	if path == StdoutTrace {
		return true, nil
	}
	switch strings.ToLower(filepath.Ext(path)) {
	case ".csv":
		return false, nil
	case ".jsonl", ".ndjson", ".json":
		return true, nil
	}
	return false, BadInputf("--trace %s: want a file name ending in .csv or .jsonl", path)
}

// StdoutTrace is the --trace that writes the trace, JSON lines, to standard
// output (which then carries nothing else).
const StdoutTrace = "-"

// CreateTraceTo starts a trace, JSON lines, that Commit copies to w whole:
// a trace to standard output, kept aside until the run is done, so that an
// error or Ctrl-C writes none of it.
func CreateTraceTo(w io.Writer) (*TraceFile, error) {
	tmp, err := os.CreateTemp("", ".rlsim-trace.*.tmp")
	if err != nil {
		return nil, err
	}
	return &TraceFile{to: w, tmp: tmp, w: bufio.NewWriterSize(tmp, 1<<16), jsonl: true}, nil
}

// CreateTrace starts a trace that Commit puts at path: CSV, or JSON lines when
// the name ends in .jsonl (TraceIsJSONL).
func CreateTrace(path string) (*TraceFile, error) {
	jsonl, err := TraceIsJSONL(path)
	if err != nil {
		return nil, err
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return nil, err
	}
	t := &TraceFile{path: path, tmp: tmp, w: bufio.NewWriterSize(tmp, 1<<16), jsonl: jsonl}
	if !jsonl {
		t.w.WriteString(strings.Join(traceColumns, ",") + "\n")
	}
	return t, nil
}

// Sink returns the sink for one scenario's records.
func (t *TraceFile) Sink(scenario string) sim.TraceSink {
	return &traceSink{t: t, scenario: scenario}
}

// Commit flushes the trace and moves it into place.
func (t *TraceFile) Commit() error {
	if err := t.w.Flush(); err != nil {
		t.Abort()
		return err
	}
	if t.to != nil {
		defer t.Abort() // the copy made, the file goes
		if _, err := t.tmp.Seek(0, io.SeekStart); err != nil {
			return err
		}
		_, err := io.Copy(t.to, t.tmp)
		return err
	}
	// CreateTemp makes the file private; a trace is an ordinary output file.
	if err := t.tmp.Chmod(0o644); err != nil {
		t.Abort()
		return err
	}
	if err := t.tmp.Close(); err != nil {
		t.Abort()
		return err
	}
	if err := os.Rename(t.tmp.Name(), t.path); err != nil {
		t.Abort()
		return err
	}
	t.done = true
	return nil
}

// Abort removes the temporary file, unless Commit has already moved it into place.
func (t *TraceFile) Abort() {
	if t.done {
		return
	}
	t.done = true
	t.tmp.Close()
	os.Remove(t.tmp.Name())
}

type traceSink struct {
	t        *TraceFile
	scenario string
}

func (s *traceSink) Record(r *sim.TraceRecord) error {
	t := s.t
	b := t.line[:0]
	str := func(key, v string) {
		if t.jsonl {
			b = append(b, '"')
			b = append(b, key...)
			b = append(b, `":`...)
			b = appendJSONString(b, v)
		} else {
			b = appendCSVField(b, v)
		}
	}
	num := func(key string, v int64) {
		if t.jsonl {
			b = append(b, '"')
			b = append(b, key...)
			b = append(b, `":`...)
		}
		b = strconv.AppendInt(b, v, 10)
	}
	null := func(key string) { // an empty CSV field
		if t.jsonl {
			b = append(b, '"')
			b = append(b, key...)
			b = append(b, `":null`...)
		}
	}
	float := func(key string, v float64) {
		if t.jsonl {
			b = append(b, '"')
			b = append(b, key...)
			b = append(b, `":`...)
		}
		b = strconv.AppendFloat(b, v, 'g', -1, 64)
	}
	if t.jsonl {
		b = append(b, '{')
	}
	for i, col := range traceColumns {
		if i > 0 {
			b = append(b, ',')
		}
		switch col {
		case "scenario":
			str(col, s.scenario)
		case "at_ns":
			num(col, int64(r.At))
		case "lane":
			str(col, r.LaneName)
		case "event":
			str(col, r.Event.String())
		case "client":
			num(col, int64(r.Client))
		case "class":
			str(col, r.Class)
		case "key":
			str(col, r.Key)
		case "request":
			num(col, r.Request)
		case "attempt":
			num(col, int64(r.Attempt))
		case "cost":
			num(col, r.Cost)
		case "delay_ns":
			num(col, int64(r.Delay))
		case "retry_after_ns":
			num(col, int64(r.RetryAfter))
		case "limit":
			str(col, r.Limit)
		case "remaining":
			if r.Answered {
				num(col, r.Remaining)
			} else if t.jsonl {
				b = append(b, `"remaining":null`...) // and an empty CSV field
			}
		case "reset_ns":
			num(col, int64(r.Reset))
		case "latency_ns":
			num(col, int64(r.Latency))
		case "shadow":
			str(col, r.Shadow)
		case "replica":
			if r.Replica >= 0 {
				num(col, int64(r.Replica))
			} else {
				null(col)
			}
		case "concurrency_limit":
			if r.Concurrency {
				float(col, r.ConcurrencyLimit)
			} else {
				null(col)
			}
		case "in_flight":
			if r.Concurrency {
				num(col, int64(r.InFlight))
			} else {
				null(col)
			}
		case "drop_probability":
			if r.Throttled {
				float(col, r.DropProbability)
			} else {
				null(col)
			}
		case "shedder":
			str(col, r.Shedder)
		case "shard":
			if r.Shard >= 0 {
				num(col, int64(r.Shard))
			} else {
				null(col)
			}
		case "store":
			str(col, r.Store.String())
		case "store_ns":
			if r.Store != sim.StoreNoCall {
				num(col, int64(r.StoreLatency))
			} else {
				null(col)
			}
		}
	}
	if t.jsonl {
		b = append(b, '}')
	}
	b = append(b, '\n')
	t.line = b
	_, err := t.w.Write(b)
	return err
}

// appendCSVField appends v, quoted when it holds a comma, a quote or a line break.
func appendCSVField(b []byte, v string) []byte {
	if !strings.ContainsAny(v, ",\"\r\n") {
		return append(b, v...)
	}
	b = append(b, '"')
	b = append(b, strings.ReplaceAll(v, `"`, `""`)...)
	return append(b, '"')
}

// appendJSONString appends v as a JSON string.
func appendJSONString(b []byte, v string) []byte {
	for i := 0; i < len(v); i++ {
		if c := v[i]; c < 0x20 || c >= 0x7f || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' {
			q, _ := json.Marshal(v)
			return append(b, q...)
		}
	}
	b = append(b, '"')
	b = append(b, v...)
	return append(b, '"')
}
