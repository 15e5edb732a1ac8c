package importer

import (
	"fmt"
	"slices"
	"strconv"
	"time"
)

// The example clients: one group per endpoint the limits name (and one for
// every other request when some limit counts every request), each client
// sending half again its tightest limit, so that every limit refuses some.

// exampleClients is how many clients each example group has.
const exampleClients = 4

// exampleDuration is three of the longest window, within [10s, 24h].
func exampleDuration(m *Model) time.Duration {
	d := 10 * time.Second
	for _, l := range m.Limits {
		d = max(d, 3*l.Window)
	}
	return min(d, 24*time.Hour)
}

func (e *emitter) clients(m *Model) {
	e.comment(0, "Example traffic: each client sends half again the tightest limit it meets. Replace with yours.")
	e.line(0, "clients:")
	for _, ep := range endpoints(m) {
		rate, why := exampleRate(m, ep)
		name := "all"
		f := Fields{{"name", "example-" + groupName(ep)}, {"count", exampleClients}}
		if ep != "" {
			name = ep
			f = append(f, Field{"identity", Fields{{"endpoint", ep}}})
		}
		f = append(f, Field{"arrivals", []Fields{{{"kind", "poisson"}, {"rate", rate}}}})
		e.comment(2, fmt.Sprintf("requests to %s: %s", name, why))
		e.item(2, f)
	}
}

// endpoints lists the endpoints the limits name, in order, with "" (every
// other endpoint) first when a limit counts every request or none names one.
func endpoints(m *Model) []string {
	var eps []string
	all := len(m.Limits) == 0
	for _, l := range m.Limits {
		if l.Endpoint == "" {
			all = true
		} else if !slices.Contains(eps, l.Endpoint) {
			eps = append(eps, l.Endpoint)
		}
	}
	if all {
		eps = append([]string{""}, eps...)
	}
	return eps
}

// exampleRate is a client's rate toward ep: 1.5 times the tightest limit it
// meets, that limit shared by the group when global.
func exampleRate(m *Model, ep string) (string, string) {
	best, found := 0.0, false
	var tight Limit
	for _, l := range m.Limits {
		if l.Endpoint != "" && l.Endpoint != ep {
			continue
		}
		per := float64(l.Limit) / l.Window.Seconds()
		if l.Key == "global" {
			per /= exampleClients
		}
		if !found || per < best {
			best, tight, found = per, l, true
		}
	}
	if !found {
		return "1/1s", "no limit counts them"
	}
	per := tight.Window
	n := int64(float64(tight.Limit) * 1.5)
	if tight.Key == "global" {
		n /= exampleClients
	}
	for n < 2 && per < 24*time.Hour {
		per *= 2
		n = int64(float64(tight.Limit)*1.5*float64(per)/float64(tight.Window)) / max(1, keyShare(tight))
	}
	n = max(n, 1)
	if float64(n)/per.Seconds() > maxExampleRate {
		return strconv.Itoa(maxExampleRate) + "/1s", fmt.Sprintf("%d a second, the most an example client sends (1.5x %s would be more)", maxExampleRate, tight.Name)
	}
	return strconv.FormatInt(n, 10) + "/" + formatDuration(per), "1.5x " + tight.Name
}

// maxExampleRate is the most requests a second an example client sends.
const maxExampleRate = 100_000

func keyShare(l Limit) int64 {
	if l.Key == "global" {
		return exampleClients
	}
	return 1
}

// groupName makes an endpoint a client group's name.
func groupName(ep string) string {
	if ep == "" {
		return "all"
	}
	b := make([]byte, 0, len(ep))
	for i := 0; i < len(ep); i++ {
		c := ep[i]
		switch {
		case c >= 'a' && c <= 'z', c >= '0' && c <= '9', c == '-', c == '_':
			b = append(b, c)
		case c >= 'A' && c <= 'Z':
			b = append(b, c+'a'-'A')
		case len(b) > 0 && b[len(b)-1] != '-':
			b = append(b, '-')
		}
	}
	for len(b) > 0 && b[len(b)-1] == '-' {
		b = b[:len(b)-1]
	}
	if len(b) == 0 {
		return "root"
	}
	return string(b)
}
