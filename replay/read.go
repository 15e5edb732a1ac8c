package replay

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
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

// lines calls fn for every line of in (without its line ending), numbered from 1,
// checking ctx every few thousand lines. A line longer than 1 MiB is an error.
func lines(ctx context.Context, in io.Reader, fn func(n int64, line []byte)) error {
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 0, 1<<16), 1<<20)
	var n int64
	for sc.Scan() {
		n++
		if n&4095 == 0 && ctx.Err() != nil {
			return ctx.Err()
		}
		line := sc.Bytes()
		if len(line) > 0 && line[len(line)-1] == '\r' {
			line = line[:len(line)-1]
		}
		fn(n, line)
	}
	return sc.Err()
}
