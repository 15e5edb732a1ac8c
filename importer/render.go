package importer

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// Render writes m as a whole scenario file: a header naming the config and
// every problem, the limits and lanes each under a comment naming the lines
// they came from, and example clients (the config says nothing of traffic:
// the header says so) that send above each limit, so that the run shows
// the limits at work. Parse of the result gives a scenario rlsim runs.
func Render(m *Model) []byte {
	var e emitter
	e.header(m)
	e.line(0, "description: "+scalar(describe(m)))
	e.line(0, "duration: "+formatDuration(exampleDuration(m)))
	if m.Chain != "" {
		e.line(0, "chain: "+m.Chain)
	}
	e.limits(m)
	e.lanes(m)
	e.topology(m)
	e.clients(m)
	return []byte(e.b.String())
}

// Parts writes m's limits, lanes, chain and topology as YAML values, by the
// top-level field each replaces in a scenario (limits, lanes, chain,
// topology): what `run --config` writes into a scenario in place of its own.
// Chain and topology are present only when the config says them.
func Parts(m *Model) map[string]string {
	parts := map[string]string{}
	var e emitter
	e.limitItems(m, 0)
	parts["limits"] = e.b.String()
	e = emitter{}
	e.laneItems(m, 0)
	parts["lanes"] = e.b.String()
	if m.Chain != "" {
		parts["chain"] = m.Chain
	}
	if needsTopology(m) {
		e = emitter{}
		e.topologyFields(0)
		parts["topology"] = e.b.String()
	}
	return parts
}

func describe(m *Model) string {
	return fmt.Sprintf("%s's limits imported from %s: %d %s, %d %s", productTitle(m.Product), m.Files[0],
		len(m.Limits), plural(len(m.Limits), "limit", "limits"), len(m.Lanes), plural(len(m.Lanes), "lane", "lanes"))
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

func productTitle(p string) string {
	switch p {
	case "nginx":
		return "nginx"
	case "haproxy":
		return "HAProxy"
	case "envoy":
		return "Envoy"
	case "kong":
		return "Kong"
	case "traefik":
		return "Traefik"
	}
	return p
}

type emitter struct{ b strings.Builder }

func (e *emitter) line(indent int, s string) {
	e.b.WriteString(strings.Repeat(" ", indent))
	e.b.WriteString(s)
	e.b.WriteByte('\n')
}

func (e *emitter) comment(indent int, s string) {
	for _, l := range strings.Split(s, "\n") {
		e.line(indent, strings.TrimRight("# "+uncontrolled(l), " "))
	}
}

func (e *emitter) header(m *Model) {
	e.comment(0, "Imported by rlsim import from "+strings.Join(m.Files, ", ")+" ("+productTitle(m.Product)+").")
	e.comment(0, "The limits and lanes are the config's; the clients are example traffic (the config says none): replace them with yours.")
	for _, n := range m.Notes {
		e.comment(0, n)
	}
	if len(m.Problems) > 0 {
		e.comment(0, fmt.Sprintf("%d %s the scenario cannot say as the config does:", len(m.Problems), plural(len(m.Problems), "part", "parts")))
		for _, p := range m.Problems {
			e.comment(0, "  "+p.String())
		}
	}
}

func (e *emitter) limits(m *Model) {
	e.line(0, "limits:")
	e.limitItems(m, 2)
}

func (e *emitter) limitItems(m *Model, indent int) {
	for _, l := range m.Limits {
		e.comment(indent, origins(l.At)+note(l.Note))
		e.item(indent, limitFields(l))
	}
}

func limitFields(l Limit) Fields {
	f := Fields{{"name", l.Name}, {"key", l.Key}, {"limit", l.Limit}, {"window", l.Window}}
	if l.Burst > 0 {
		f = append(f, Field{"burst", l.Burst})
	}
	if l.Endpoint != "" {
		f = append(f, Field{"endpoint", l.Endpoint})
	}
	if l.NoHeaders {
		f = append(f, Field{"headers", "none"})
	}
	if l.DryRun {
		f = append(f, Field{"enforce", false})
	}
	if l.State != "" {
		f = append(f, Field{"state", l.State})
	}
	if l.SyncInterval > 0 {
		f = append(f, Field{"sync_interval", l.SyncInterval})
	}
	if l.OnStoreError != "" {
		f = append(f, Field{"on_store_error", l.OnStoreError})
	}
	return f
}

func (e *emitter) lanes(m *Model) {
	e.line(0, "lanes:")
	e.laneItems(m, 2)
}

func (e *emitter) laneItems(m *Model, indent int) {
	for _, l := range m.Lanes {
		e.comment(indent, origins(l.At)+note(l.Note))
		f := Fields{{"name", l.Name}, {"algorithm", l.Algorithm}}
		f = append(f, l.Options...)
		if len(l.Section) > 0 {
			f = append(f, Field{l.Algorithm, l.Section})
		}
		e.item(indent, f)
	}
}

func needsTopology(m *Model) bool {
	for _, l := range m.Limits {
		if l.State != "" {
			return true
		}
	}
	return false
}

// exampleReplicas is the fleet an import with per-replica state is shown on.
const exampleReplicas = 3

func (e *emitter) topology(m *Model) {
	if !needsTopology(m) {
		return
	}
	e.comment(0, fmt.Sprintf("An example fleet of %d replicas (the config does not say how many run): set yours.", exampleReplicas))
	e.line(0, "topology:")
	e.topologyFields(2)
}

func (e *emitter) topologyFields(indent int) {
	e.line(indent, "replicas: "+strconv.Itoa(exampleReplicas))
}

func origins(at []Origin) string {
	s := make([]string, len(at))
	for i, o := range at {
		s[i] = o.String()
	}
	return strings.Join(s, ", ")
}

func note(n string) string {
	if n == "" {
		return ""
	}
	return ": " + n
}

// item writes f as one element of a block list.
func (e *emitter) item(indent int, f Fields) {
	for i, kv := range f {
		prefix := strings.Repeat(" ", indent) + "  "
		if i == 0 {
			prefix = strings.Repeat(" ", indent) + "- "
		}
		e.field(prefix, indent+2, kv)
	}
}

// field writes key: value after prefix; a mapping or list value goes below,
// indented from indent.
func (e *emitter) field(prefix string, indent int, kv Field) {
	switch v := kv.Value.(type) {
	case Fields:
		e.b.WriteString(prefix + kv.Key + ":\n")
		for _, sub := range v {
			e.field(strings.Repeat(" ", indent+2), indent+2, sub)
		}
	case []Fields:
		e.b.WriteString(prefix + kv.Key + ":\n")
		for _, it := range v {
			e.item(indent+2, it)
		}
	default:
		e.b.WriteString(prefix + kv.Key + ": " + value(v) + "\n")
	}
}

func value(v any) string {
	switch v := v.(type) {
	case string:
		return scalar(v)
	case int64:
		return strconv.FormatInt(v, 10)
	case int:
		return strconv.Itoa(v)
	case float64:
		return strconv.FormatFloat(v, 'g', -1, 64)
	case bool:
		return strconv.FormatBool(v)
	case time.Duration:
		return formatDuration(v)
	}
	panic(fmt.Sprintf("importer: no YAML for %T", v))
}

var plain = regexp.MustCompile(`^[A-Za-z_/][A-Za-z0-9_./-]*$`)

// scalar is s as a YAML scalar: plain when it cannot be read as anything
// but that string, else double-quoted.
func scalar(s string) string {
	switch strings.ToLower(s) {
	case "true", "false", "yes", "no", "on", "off", "y", "n", "null", "~":
		return strconv.Quote(s)
	}
	if plain.MatchString(s) {
		return s
	}
	return strconv.Quote(s)
}

// uncontrolled replaces control characters, which a config may hold, so that
// a comment stays one line of text.
func uncontrolled(s string) string {
	return strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f {
			return '?'
		}
		return r
	}, s)
}

// formatDuration writes d in the largest unit that divides it.
func formatDuration(d time.Duration) string {
	for _, u := range []struct {
		d    time.Duration
		name string
	}{{time.Hour, "h"}, {time.Minute, "m"}, {time.Second, "s"}, {time.Millisecond, "ms"}, {time.Microsecond, "us"}} {
		if d%u.d == 0 {
			return strconv.FormatInt(int64(d/u.d), 10) + u.name
		}
	}
	return strconv.FormatInt(int64(d), 10) + "ns"
}
