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
	if c.have {
		if string(b) == string(c.lastStamp[:]) {
			return c.lastAt, nil
		}
		if at, ok := c.sameMinute(b); ok {
			copy(c.lastStamp[:], b)
			c.lastAt = at
			return at, nil
		}
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

// stampSecond is where the seconds are in a combined time stamp,
// 02/Jan/2006:15:04:05 -0700.
const stampSecond = 18

// sameMinute is b's time when it differs from the previous line's stamp in
// its seconds alone, two digits 00 to 59 (what time.Parse reads there): the
// previous time moved by the difference, exact since the minute and the
// offset are the same. Lines in one minute then call time.Parse once.
func (c *combined) sameMinute(b []byte) (int64, bool) {
	last := c.lastStamp[:]
	if len(b) != len(last) || string(b[:stampSecond]) != string(last[:stampSecond]) ||
		string(b[stampSecond+2:]) != string(last[stampSecond+2:]) {
		return 0, false
	}
	s, ok := twoDigits(b[stampSecond:])
	if !ok || s > 59 {
		return 0, false
	}
	old, _ := twoDigits(last[stampSecond:])
	return c.lastAt + int64(s-old)*int64(time.Second), true
}

// twoDigits reads b's first two bytes as a number 0 to 99.
func twoDigits(b []byte) (int, bool) {
	if b[0] < '0' || b[0] > '9' || b[1] < '0' || b[1] > '9' {
		return 0, false
	}
	return int(b[0]-'0')*10 + int(b[1]-'0'), true
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
