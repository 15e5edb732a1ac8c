package replay

import (
	"errors"
	"fmt"
	"time"
)

// combined parses the nginx/Apache combined (and common) log format:
//
//	203.0.113.7 - alice [10/Oct/2026:13:55:36 -0700] "GET /users/42 HTTP/1.1" 200 2326 "-" "curl/8.5"
//
// The time is read with its own offset; a line's parts point into the line.
type combined struct {
	lastStamp [26]byte // the previous line's time field, to skip reparsing it
	lastAt    int64
	have      bool
}

var errCombined = errors.New("not combined log format")

func (c *combined) parse(line []byte, r *Record) error {
	r.reset()
	i := indexByte(line, ' ')
	if i <= 0 {
		return fmt.Errorf("%w: no client address", errCombined)
	}
	r.IP = line[:i]
	rest := line[i+1:]
	if i = indexByte(rest, ' '); i < 0 { // ident
		return fmt.Errorf("%w: no user", errCombined)
	}
	rest = rest[i+1:]
	if i = indexByte(rest, ' '); i < 0 {
		return fmt.Errorf("%w: no time", errCombined)
	}
	if user := rest[:i]; !(len(user) == 1 && user[0] == '-') {
		r.User = user
	}
	rest = rest[i+1:]
	if len(rest) < 28 || rest[0] != '[' || rest[27] != ']' {
		return fmt.Errorf("%w: time not [02/Jan/2006:15:04:05 -0700]", errCombined)
	}
	at, err := c.stamp(rest[1:27])
	if err != nil {
		return err
	}
	r.At = at
	rest = rest[28:]
	if len(rest) < 2 || rest[0] != ' ' || rest[1] != '"' {
		return fmt.Errorf("%w: no request", errCombined)
	}
	rest = rest[2:]
	end := indexByte(rest, '"')
	if end < 0 {
		return fmt.Errorf("%w: request not closed by \"", errCombined)
	}
	req := rest[:end]
	if i = indexByte(req, ' '); i > 0 {
		r.Method = req[:i]
		req = req[i+1:]
		if j := lastIndexByte(req, ' '); j >= 0 {
			req = req[:j]
		}
		r.Path = req
	} else {
		r.Path = req // "-" or a garbled request: the whole of it as the path
	}
	return nil
}

func (c *combined) stamp(b []byte) (int64, error) {
	if string(b) == string(c.lastStamp[:]) && c.have {
		return c.lastAt, nil
	}
	t, err := time.Parse("02/Jan/2006:15:04:05 -0700", string(b))
	if err != nil {
		return 0, fmt.Errorf("%w: time %q", errCombined, b)
	}
	at, err := unixNano(t, b)
	if err != nil {
		return 0, err
	}
	copy(c.lastStamp[:], b)
	c.lastAt, c.have = at, true
	return c.lastAt, nil
}

func indexByte(b []byte, c byte) int {
	for i, x := range b {
		if x == c {
			return i
		}
	}
	return -1
}

func lastIndexByte(b []byte, c byte) int {
	for i := len(b) - 1; i >= 0; i-- {
		if b[i] == c {
			return i
		}
	}
	return -1
}
