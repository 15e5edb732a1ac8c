package importer

// The YAML reading the Envoy and Kong importers share: a document as
// gopkg.in/yaml.v3 Nodes (which carry line numbers), looked up by key with
// aliases followed under a budget, and the few scalar shapes the two
// products' schemas use. Errors are Problems at the node's line.

import (
	"errors"
	"math"
	"regexp"
	"strconv"
	"strings"
	"time"

	"gopkg.in/yaml.v3"
)

// nodeAliasBudget is the most aliases one import follows: an alias bomb
// (nested anchors repeated) would otherwise be walked exponentially.
const nodeAliasBudget = 100000

// nodeFile is one YAML config being read: its name, for Origins, and the
// aliases followed so far.
type nodeFile struct {
	name    string
	aliases int
	m       *Model
}

// readYAMLNode reads data as one YAML document; an error is a SyntaxError at
// the line yaml.v3 names.
func readYAMLNode(product, path string, data []byte) (*yaml.Node, error) {
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, &SyntaxError{Product: product, Problems: nodeProblems(path, err)}
	}
	if doc.Kind != yaml.DocumentNode || len(doc.Content) == 0 {
		return nil, &SyntaxError{Product: product, Problems: []Problem{{At: Origin{File: path, Line: 1}, Message: "empty YAML document"}}}
	}
	return doc.Content[0], nil
}

var nodeErrLine = regexp.MustCompile(`^(?:yaml: )?line (\d+): (.*)$`)

// nodeProblems turns a yaml.v3 error (one message, or a TypeError's list)
// into Problems at their lines.
func nodeProblems(path string, err error) []Problem {
	var msgs []string
	if te, ok := err.(*yaml.TypeError); ok {
		msgs = te.Errors
	} else {
		msgs = []string{err.Error()}
	}
	ps := make([]Problem, 0, len(msgs))
	for _, msg := range msgs {
		line := 1
		if m := nodeErrLine.FindStringSubmatch(msg); m != nil {
			line, _ = strconv.Atoi(m[1])
			msg = m[2]
		}
		ps = append(ps, Problem{At: Origin{File: path, Line: line}, Message: "not YAML: " + strings.TrimPrefix(msg, "yaml: ")})
	}
	return ps
}

func (f *nodeFile) at(n *yaml.Node) Origin {
	if n == nil {
		return Origin{File: f.name}
	}
	return Origin{File: f.name, Line: n.Line}
}

// deref follows an alias to its anchor's node, within the budget.
func (f *nodeFile) deref(n *yaml.Node) *yaml.Node {
	for n != nil && n.Kind == yaml.AliasNode {
		f.aliases++
		if f.aliases > nodeAliasBudget {
			if f.aliases == nodeAliasBudget+1 {
				f.m.problemf(f.at(n), "more than %d YAML aliases: the rest are not followed", nodeAliasBudget)
			}
			return nil
		}
		n = n.Alias
	}
	return n
}

// get is mapping n's value at key, or nil (n not a mapping, or no such key).
// A merge key (<<) is followed.
func (f *nodeFile) get(n *yaml.Node, key string) *yaml.Node {
	n = f.deref(n)
	if n == nil || n.Kind != yaml.MappingNode {
		return nil
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == key && n.Content[i].Kind == yaml.ScalarNode {
			return f.deref(n.Content[i+1])
		}
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Tag == "!!merge" {
			if v := f.get(n.Content[i+1], key); v != nil {
				return v
			}
		}
	}
	return nil
}

// pairs is mapping n's keys and values, in order (nil if n is no mapping).
func (f *nodeFile) pairs(n *yaml.Node) [][2]*yaml.Node {
	n = f.deref(n)
	if n == nil || n.Kind != yaml.MappingNode {
		return nil
	}
	out := make([][2]*yaml.Node, 0, len(n.Content)/2)
	for i := 0; i+1 < len(n.Content); i += 2 {
		out = append(out, [2]*yaml.Node{n.Content[i], f.deref(n.Content[i+1])})
	}
	return out
}

// items is sequence n's elements (nil if n is no sequence).
func (f *nodeFile) items(n *yaml.Node) []*yaml.Node {
	n = f.deref(n)
	if n == nil || n.Kind != yaml.SequenceNode {
		return nil
	}
	out := make([]*yaml.Node, 0, len(n.Content))
	for _, c := range n.Content {
		if c = f.deref(c); c != nil {
			out = append(out, c)
		}
	}
	return out
}

// str is scalar n's value, "" for nil or a non-scalar.
func (f *nodeFile) str(n *yaml.Node) string {
	n = f.deref(n)
	if n == nil || n.Kind != yaml.ScalarNode || n.Tag == "!!null" {
		return ""
	}
	return n.Value
}

// strs is a sequence of strings, or one string, as n holds it.
func (f *nodeFile) strs(n *yaml.Node) []string {
	if n = f.deref(n); n == nil {
		return nil
	}
	if n.Kind == yaml.ScalarNode {
		if s := f.str(n); s != "" {
			return []string{s}
		}
		return nil
	}
	var out []string
	for _, it := range f.items(n) {
		out = append(out, f.str(it))
	}
	return out
}

// boolean reads n as a YAML boolean, def when absent; a value of another
// type is a problem (and def).
func (f *nodeFile) boolean(n *yaml.Node, field string, def bool) bool {
	n = f.deref(n)
	if n == nil || n.Tag == "!!null" {
		return def
	}
	switch strings.ToLower(n.Value) {
	case "true":
		return true
	case "false":
		return false
	}
	f.m.problemf(f.at(n), "%s: %q is not a boolean", field, n.Value)
	return def
}

// maxNumber is the largest magnitude number reads: beyond it a float64
// no longer holds every whole number, and no limit, rate or count of a real
// product's config comes near it.
const maxNumber = 1e15

// number reads n as a number (an integer or a decimal, as Kong's schema
// "number" and protobuf's integers in YAML are) of magnitude at most
// maxNumber; ok false when absent, not a number or out of that range (a
// problem then).
func (f *nodeFile) number(n *yaml.Node, field string) (float64, bool) {
	n = f.deref(n)
	if n == nil || n.Tag == "!!null" {
		return 0, false
	}
	v, err := strconv.ParseFloat(strings.TrimSpace(n.Value), 64)
	switch {
	case err != nil && !errors.Is(err, strconv.ErrRange) || n.Kind != yaml.ScalarNode || math.IsNaN(v):
		f.m.problemf(f.at(n), "%s: %q is not a number", field, n.Value)
		return 0, false
	case math.Abs(v) > maxNumber:
		f.m.problemf(f.at(n), "%s: %s is out of range (at most 1e15 in size)", field, n.Value)
		return 0, false
	}
	return v, true
}

// count reads n as a positive whole number (at most maxNumber, number's
// bound); ok false when absent or not one (a problem then, naming field).
func (f *nodeFile) count(n *yaml.Node, field string) (int64, bool) {
	v, ok := f.number(n, field)
	if !ok {
		return 0, false
	}
	if v != float64(int64(v)) || v < 1 {
		f.m.problemf(f.at(n), "%s: %v is not a whole number from 1: rlsim counts whole requests", field, n.Value)
		return 0, false
	}
	return int64(v), true
}

// protoDuration reads a google.protobuf.Duration as Envoy's YAML writes it:
// "1s", "0.25s" (seconds with up to nine decimals and the suffix s), or a
// mapping {seconds, nanos}.
func (f *nodeFile) protoDuration(n *yaml.Node, field string) (time.Duration, bool) {
	n = f.deref(n)
	if n == nil {
		return 0, false
	}
	if n.Kind == yaml.MappingNode {
		secs, _ := strconv.ParseInt(f.str(f.get(n, "seconds")), 10, 64)
		nanos, _ := strconv.ParseInt(f.str(f.get(n, "nanos")), 10, 64)
		if secs < 0 || nanos < 0 || nanos >= 1e9 || secs > int64(240*time.Hour/time.Second) {
			f.m.problemf(f.at(n), "%s: not a duration rlsim can run (0 to 240h)", field)
			return 0, false
		}
		return time.Duration(secs)*time.Second + time.Duration(nanos), true
	}
	s := f.str(n)
	num, ok := strings.CutSuffix(s, "s")
	whole, frac, _ := strings.Cut(num, ".")
	w, err := strconv.ParseInt(whole, 10, 64)
	if !ok || err != nil || w < 0 || w > int64(240*time.Hour/time.Second) || len(frac) > 9 || strings.Trim(frac, "0123456789") != "" || strings.HasPrefix(whole, "+") {
		f.m.problemf(f.at(n), "%s: %q is not a protobuf duration such as 1s or 0.5s (0 to 240h)", field, s)
		return 0, false
	}
	d := time.Duration(w) * time.Second
	if frac != "" {
		ns, _ := strconv.ParseInt((frac + "000000000")[:9], 10, 64)
		d += time.Duration(ns)
	}
	return d, true
}

// unknownKeys records a problem for every key of mapping n not in known,
// the fields the product's schema has and the importer reads or names.
func (f *nodeFile) unknownKeys(n *yaml.Node, what string, known ...string) {
	for _, kv := range f.pairs(n) {
		k := kv[0].Value
		found := false
		for _, w := range known {
			if k == w {
				found = true
				break
			}
		}
		if !found {
			f.m.problemf(f.at(kv[0]), "%s: %s is not read by rlsim (not a rate limit setting it knows)", what, k)
		}
	}
}

// gatewayHeaderKind maps a request header (or a query parameter, or a
// descriptor key named after one) a gateway counts by onto rlsim's key
// kinds: exact says the mapping is the header's usual meaning; false means
// the kind is only the nearest, which the caller reports as a Problem.
func gatewayHeaderKind(name string) (kind string, exact bool) {
	switch n := strings.ToLower(strings.TrimSpace(name)); {
	case n == "x-api-key" || n == "api-key" || n == "apikey" || n == "x-apikey" || n == "api_key" || n == "x-api-token" || n == "key":
		return "api_key", true
	case n == "authorization" || n == "x-user" || n == "x-user-id" || n == "x-userid" || n == "user" || n == "user_id" ||
		n == "x-consumer-id" || n == "x-consumer-username" || n == "x-auth-user" || n == "x-forwarded-user":
		return "user", true
	case strings.HasPrefix(n, "x-tenant") || n == "tenant" || n == "tenant_id" || n == "x-org-id" || n == "x-organization-id":
		return "tenant", true
	case n == "x-forwarded-for" || n == "x-real-ip" || n == "true-client-ip" || n == "cf-connecting-ip" || n == "remote_address":
		return "ip", true
	case n == ":path" || n == "path":
		return "endpoint", true
	}
	return "user", false
}

// wholeSeconds is s whole seconds.
func wholeSeconds(s int64) time.Duration { return time.Duration(s) * time.Second }

// maxImportedRate is the fastest limit an import keeps, in requests per
// second: rlsim simulates every request, and its example traffic sends half
// again each limit, which must stay slower than one per nanosecond.
const maxImportedRate = 100_000_000

// tooFastToRun reports (as a problem at at) a limit of n per window faster than
// maxImportedRate.
func tooFastToRun(m *Model, at Origin, name string, n int64, window time.Duration) bool {
	if window <= 0 || float64(n)/window.Seconds() > maxImportedRate {
		m.problemf(at, "%s: %d per %s is faster than %d a second, more than rlsim simulates: not imported", name, n, formatDuration(window), maxImportedRate)
		return true
	}
	return false
}
