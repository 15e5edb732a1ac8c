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
var errUnsniffed = errors.New("not JSON, combined or a CSV header (--log-format auto reads the format from the first line that shows one)")

// Formats are the log formats Read understands.
var Formats = []string{"auto", "combined", "json", "csv"}

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
	fmt.Fprintf(&b, "no line of the log parsed (%d bad lines); format detected: %s; formats read: combined (nginx/Apache), json (one object a line), csv (with a header line); --log-format and --fields say which", e.Bad, cmp.Or(e.Format, "none"))
	for _, s := range e.Shown {
		fmt.Fprintf(&b, "\n  %s", s)
	}
	return b.String()
}

// formatOf names p's format.
func formatOf(p parser) string {
	switch p.(type) {
	case *combined:
		return "combined"
	case *jsonLines:
		return "json"
	case *csvLines:
		return "csv"
	}
	return ""
}

// envoyDefault is how Envoy's default access-log format starts a line.
var envoyDefault = regexp.MustCompile(`^\[\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z\] "`)

// unsniffed names the format of a line sniff does not read, when it is a known one.
func unsniffed(line []byte) string {
	if envoyDefault.Match(line) {
		return "Envoy's default access-log format (not read: write JSON with json_format, or CSV)"
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

func newParser(format string, fields Fields, loc *time.Location, first []byte) (parser, error) {
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
	}
	return nil, fmt.Errorf("unknown format %q (want auto, combined, json, csv)", format)
}

// sniff guesses a log's format from a line: "{" starts JSON lines, " [" and
// "] \"" make combined, a comma a CSV header; "" when none of these.
func sniff(line []byte) string {
	line = bytes.TrimSpace(line)
	switch {
	case len(line) > 0 && line[0] == '{':
		return "json"
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
