package replay

import (
	"bufio"
	"bytes"
	"cmp"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
	"regexp"
	"strings"
	"time"
)

// errHeader is a CSV header line: not a request, not a bad line.
var errHeader = errors.New("header")

// errUnsniffed is a line before the format is known that shows no format.
var errUnsniffed = errors.New("not JSON, Envoy's default, HAProxy's httplog, AWS ALB or ELB, combined or a CSV header (--log-format auto reads the format from the first line that shows one)")

// Formats are the log formats Read understands.
var Formats = []string{"auto", "combined", "json", "csv", "nginx", "envoy", "envoy-json", "haproxy", "alb", "elb"}

// formatsRead says what each format of Formats (but auto) is, in order.
var formatsRead = []string{"combined (nginx/Apache)", "json (one object a line)", "csv (with a header line)",
	"nginx (any log_format, given by --nginx-format)", "envoy (Envoy's default access-log format, or --envoy-format)",
	"envoy-json (Envoy's json_format)", "haproxy (HAProxy's option httplog)",
	"alb (AWS Application Load Balancer)", "elb (AWS Classic Load Balancer)"}

// describe is a format's name with what it is: "haproxy (HAProxy's option httplog)".
func describe(format string) string {
	for _, d := range formatsRead {
		if name, _, _ := strings.Cut(d, " "); name == format {
			return d
		}
	}
	return format
}

// MaxShown is how many unparsable lines a replay keeps to show.
const MaxShown = 5

// BadShareWarn is the share of bad lines (of the lines read that are not blank
// or a header) above which a replay warns, in its output and on stderr.
const BadShareWarn = 0.10

// NoneParsedError is a replay in which no line parsed, though some were read.
type NoneParsedError struct {
	Format string    // the format given or detected ("" none)
	Bad    int64     // the bad lines
	Shown  []BadLine // the first of them
}

func (e *NoneParsedError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "no line of the log parsed (%d bad lines); format detected: %s; formats read: %s; --log-format and --fields say which", e.Bad, describe(cmp.Or(e.Format, "none")), strings.Join(formatsRead, ", "))
	for _, s := range e.Shown {
		fmt.Fprintf(&b, "\n  %s", s)
	}
	return b.String()
}

// formatOf names p's format.
func formatOf(p parser) string {
	switch p := p.(type) {
	case *combined:
		return "combined"
	case *jsonLines:
		return "json"
	case *csvLines:
		return "csv"
	case *logFormatParser:
		return p.f.product
	case *envoyJSON:
		return "envoy-json"
	case *haproxyLog:
		return "haproxy"
	case *awsLog:
		return p.product
	}
	return ""
}

// The first lines of the formats sniff tells apart by their shape.
var (
	// envoyLine is how Envoy's default access-log format starts a line.
	envoyLine = regexp.MustCompile(`^\[\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z\] "`)
	// haproxyLine: an optional syslog prefix up to "]: ", then client_ip:client_port [request_date].
	haproxyLine = regexp.MustCompile(`^(?:[^\[]*\[\d+\]: )?\S+:\d+ \[\d\d/[A-Z][a-z]{2}/\d{4}:\d\d:\d\d:\d\d\.\d{3}\] \S+ \S+/\S+ `)
	// albLine: type, time, elb, client:port.
	albLine = regexp.MustCompile(`^(?:http|https|h2|grpcs|ws|wss) \d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?Z \S+ \S+:\d+ `)
	// elbLine: time, elb, client:port, backend:port.
	elbLine = regexp.MustCompile(`^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?Z \S+ \S+:\d+ \S+ `)
)

// unsniffed names the format of a line sniff does not read, when it is a known one.
func unsniffed(line []byte) string {
	if envoyLine.Match(line) {
		return "Envoy's default access-log format (read with --log-format envoy)"
	}
	return "none"
}

// BadLine is a line that did not parse (or lacked a part of a key).
type BadLine struct {
	File    string `json:"file"`
	Line    int64  `json:"line"`
	Problem string `json:"problem"`
}

func (b BadLine) String() string { return fmt.Sprintf("%s:%d: %s", b.File, b.Line, b.Problem) }

// Input is one log to read: Name is shown in messages ("-" for stdin).
type Input struct {
	Name string
	R    io.Reader
}

// parser parses one line into r.
type parser interface {
	parse(line []byte, r *Record) error
}

// newParser is the parser of format (auto: sniffed from first); custom is
// the compiled --nginx-format or --envoy-format, if one was given (auto then
// means its product).
func newParser(format string, fields Fields, loc *time.Location, custom *LogFormat, first []byte) (parser, error) {
	if format == "auto" && custom != nil {
		format = custom.product
	}
	if format == "auto" {
		if format = sniff(first); format == "" {
			return nil, errUnsniffed
		}
	}
	switch format {
	case "combined":
		return &combined{}, nil
	case "json":
		return &jsonLines{fields: fields, loc: loc}, nil
	case "csv":
		return &csvLines{fields: fields, loc: loc}, nil
	case "nginx":
		if custom == nil || custom.product != "nginx" {
			return nil, errors.New("--log-format nginx needs the log_format string, --nginx-format '$remote_addr ...'")
		}
		return newLogFormatParser(custom, fields, loc)
	case "envoy":
		f := envoyDefault
		if custom != nil && custom.product == "envoy" {
			f = custom
		}
		return newLogFormatParser(f, fields, loc)
	case "envoy-json":
		return newEnvoyJSON(fields, loc), nil
	case "haproxy":
		return newHAProxy(fields, loc), nil
	case "alb", "elb":
		return newAWS(format, fields, loc), nil
	}
	return nil, fmt.Errorf("unknown format %q (want %s)", format, strings.Join(Formats, ", "))
}

// sniff guesses a log's format from a line: "{" starts JSON lines (Envoy's
// json_format when it has a "start_time" key); Envoy's default format, HAProxy's
// httplog and AWS ALB and ELB entries by their first fields (envoyLine,
// haproxyLine, albLine, elbLine); " [" and "] \"" make combined, a comma a CSV
// header; "" when none of these. A custom nginx or Envoy format is not
// sniffed: --nginx-format or --envoy-format says it.
func sniff(line []byte) string {
	line = bytes.TrimSpace(line)
	switch {
	case len(line) > 0 && line[0] == '{':
		if bytes.Contains(line, []byte(`"start_time"`)) {
			return "envoy-json"
		}
		return "json"
	case envoyLine.Match(line):
		return "envoy"
	case haproxyLine.Match(line):
		return "haproxy"
	case albLine.Match(line):
		return "alb"
	case elbLine.Match(line):
		return "elb"
	case bytes.Contains(line, []byte(" [")) && bytes.Contains(line, []byte("] \"")):
		return "combined"
	case bytes.IndexByte(line, ',') >= 0:
		return "csv"
	}
	return ""
}

// counted counts the bytes read through it: for progress, the bytes of the
// input as given (compressed, for gzip), so that they compare to the file's size.
type counted struct {
	r io.Reader
	n int64
}

func (c *counted) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

// decompressed returns r's bytes, gunzipped when they start with gzip's magic bytes.
func decompressed(r io.Reader) (io.Reader, error) {
	br := bufio.NewReaderSize(r, 1<<20)
	magic, _ := br.Peek(2)
	if len(magic) == 2 && magic[0] == 0x1f && magic[1] == 0x8b {
		zr, err := gzip.NewReader(br)
		if err != nil {
			return nil, err
		}
		return bufio.NewReaderSize(zr, 1<<20), nil
	}
	return br, nil
}

// MaxLine is the longest line read, in bytes without its line ending: a
// longer one is a bad line (the lines after it are still read).
const MaxLine = 1 << 20

// errLong is the problem of a line longer than MaxLine.
var errLong = fmt.Errorf("longer than %d bytes (1 MiB)", MaxLine)

// bom is UTF-8's byte-order mark, which some tools write before a CSV header.
var bom = []byte("\xef\xbb\xbf")

// lines calls fn for every line of in (without its line ending, nor a UTF-8
// byte-order mark before the first), numbered from 1, checking ctx every few
// thousand lines. A line longer than MaxLine is passed as long, without its
// bytes, and reading goes on after it.
func lines(ctx context.Context, in io.Reader, fn func(n int64, line []byte, long bool)) error {
	return linesMax(ctx, in, MaxLine, 1<<16, fn)
}

// linesMax is lines with lines longer than maxLine long, read through a
// buffer of bufSize bytes (tests: small ones).
func linesMax(ctx context.Context, in io.Reader, maxLine, bufSize int, fn func(n int64, line []byte, long bool)) error {
	br := bufio.NewReaderSize(in, bufSize)
	var buf []byte
	var n int64
	for {
		buf = buf[:0]
		long := false
		data, err := br.ReadSlice('\n') // most lines: no copy
		for err == bufio.ErrBufferFull {
			if len(buf) == 0 && !long {
				buf = append(buf, data...)
			}
			var chunk []byte
			chunk, err = br.ReadSlice('\n')
			if !long {
				if len(buf)+len(chunk) > maxLine+5 { // room for a BOM and \r\n
					long, buf = true, buf[:0]
				} else {
					buf = append(buf, chunk...)
				}
			}
			data = buf
		}
		if err != nil && err != io.EOF {
			return err
		}
		if err == io.EOF && len(data) == 0 && !long {
			return nil
		}
		n++
		if n&4095 == 0 && ctx.Err() != nil {
			return ctx.Err()
		}
		line := bytes.TrimSuffix(data, []byte("\n"))
		line = bytes.TrimSuffix(line, []byte("\r"))
		if n == 1 {
			line = bytes.TrimPrefix(line, bom)
		}
		if len(line) > maxLine {
			long, line = true, nil
		}
		fn(n, line, long)
		if err == io.EOF {
			return nil
		}
	}
}
