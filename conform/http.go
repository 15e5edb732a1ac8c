package conform

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"sync"
	"time"
)

// HTTPRequest is one request of a schedule sent to a real gateway: a GET of
// Path (with its query, if any) under the base URL, sent At after the
// schedule's start, with the headers X-Key: Key (left out when Key is "") and
// X-Request-Id: ID (left out when ID is ""), by which a gateway's limit and
// access log can tell requests apart.
type HTTPRequest struct {
	At   time.Duration
	Key  string
	Path string
	ID   string
}

// HTTPResult is what one HTTPRequest met. Status is the response's status
// code, 0 when there was none (Err says why: the per-request timeout, the
// context, a refused connection). RetryAfter is the Retry-After header as sent,
// "" when absent. Sent and Answered are wall-clock instants: just before the
// request was handed to the client, and when the whole response body had been
// read (or the request failed). Sent may lag start+At on a loaded machine; a
// conformance check that matters to the ms should use the server's own clock
// (its access log), not Sent.
type HTTPResult struct {
	Status     int
	RetryAfter string
	Sent       time.Time
	Answered   time.Time
	Err        error
}

// HTTPDriver sends schedules of HTTPRequests, each request from its own
// goroutine at its instant, so that a slow or delayed answer holds up nothing
// else (open loop, as a population of independent clients).
//
// The zero value is ready to use: a client of its own per schedule, with no
// proxy and as many connections as the schedule has requests, and a 10 s
// timeout per request.
type HTTPDriver struct {
	// Client sends the requests; nil for a fresh client per Send (closed after).
	Client *http.Client
	// Timeout bounds each request, from its send to its last body byte; 0 is 10 s.
	Timeout time.Duration
}

// Send sends reqs to base (an absolute http or https URL; Path is appended to
// it) and returns one result per request, in reqs' order, once every request
// has been answered or has failed. The schedule starts when Send is called.
// The error is for a base that is no URL; a cancelled ctx ends the requests not
// yet answered, each with ctx's error.
func (d HTTPDriver) Send(ctx context.Context, base string, reqs []HTTPRequest) ([]HTTPResult, error) {
	u, err := url.Parse(base)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("conform: http base %q: want an absolute http(s) URL", base)
	}
	client := d.Client
	if client == nil {
		tr := &http.Transport{
			Proxy:               nil, // a gateway under test is reached directly
			DialContext:         (&net.Dialer{Timeout: 5 * time.Second}).DialContext,
			MaxIdleConnsPerHost: max(len(reqs), 2),
			IdleConnTimeout:     30 * time.Second,
			DisableCompression:  true,
		}
		defer tr.CloseIdleConnections()
		client = &http.Client{Transport: tr}
	}
	timeout := d.Timeout
	if timeout <= 0 {
		timeout = 10 * time.Second
	}
	start := time.Now()
	out := make([]HTTPResult, len(reqs))
	var wg sync.WaitGroup
	for i, r := range reqs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			out[i] = send(ctx, client, timeout, base, start.Add(r.At), r)
		}()
	}
	wg.Wait()
	return out, nil
}

// send waits for due and sends r.
func send(ctx context.Context, client *http.Client, timeout time.Duration, base string, due time.Time, r HTTPRequest) HTTPResult {
	if err := waitUntil(ctx, due); err != nil {
		now := time.Now()
		return HTTPResult{Sent: now, Answered: now, Err: err}
	}
	rctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(rctx, http.MethodGet, base+r.Path, nil)
	if err != nil {
		now := time.Now()
		return HTTPResult{Sent: now, Answered: now, Err: err}
	}
	if r.Key != "" {
		req.Header.Set("X-Key", r.Key)
	}
	if r.ID != "" {
		req.Header.Set("X-Request-Id", r.ID)
	}
	res := HTTPResult{Sent: time.Now()}
	resp, err := client.Do(req)
	if err != nil {
		res.Answered, res.Err = time.Now(), err
		return res
	}
	_, err = io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	res.Answered = time.Now()
	res.Status, res.RetryAfter = resp.StatusCode, resp.Header.Get("Retry-After")
	if err != nil && !errors.Is(err, io.EOF) {
		res.Err = fmt.Errorf("reading the body: %w", err)
	}
	return res
}
