// Package importer reads a product's rate-limit configuration (nginx,
// Envoy, Kong, Traefik, HAProxy) and writes it as a scenario: the limits with
// their keys and scopes, and the product lanes that decide as the product
// does, each part commented with the file and line it came from. What a
// scenario cannot say is a Problem at its file and line, never dropped.
package importer

import (
	"fmt"
	"time"
)

// Origin is where in a config a part of the scenario came from.
type Origin struct {
	File string
	Line int
}

func (o Origin) String() string {
	if o.Line <= 0 {
		return o.File
	}
	return fmt.Sprintf("%s:%d", o.File, o.Line)
}

// Problem is a part of a config the scenario cannot say (or says only
// approximately), at the place it was read.
type Problem struct {
	At      Origin
	Message string
}

func (p Problem) String() string { return p.At.String() + ": " + p.Message }

// Limit is one limit of the imported chain, in the scenario's terms
// (docs/scenarios.md "limits").
type Limit struct {
	Name     string        // the limit's name (a zone, a plugin, a middleware)
	Key      string        // what it counts by: global, ip, user, api_key, tenant or endpoint
	Limit    int64         // cost units per window
	Window   time.Duration // the window
	Burst    int64         // largest burst; 0 leaves the scenario's default (the limit)
	Endpoint string        // counts only requests to this endpoint; "" every request
	DryRun   bool          // a shadow limit (enforce: false)
	// NoHeaders keeps the limit out of the quota headers (headers: none), as
	// Kong's hide_client_headers.
	NoHeaders bool

	// Where the state lives, with a topology: "" (no topology needed), local,
	// shared or synced (every SyncInterval); OnStoreError "" (the default,
	// open), open, closed.
	State        string
	SyncInterval time.Duration
	OnStoreError string

	At   []Origin // the lines it was read from, the defining one first
	Note string   // what it is in the product's words, for a comment
}

// Field is one key and value of a YAML mapping, kept in order. Value is a
// string, an int64, an int, a float64, a bool, a time.Duration, a Fields or
// a []Fields.
type Field struct {
	Key   string
	Value any
}

// Fields is a YAML mapping in order.
type Fields []Field

// Lane is one product lane.
type Lane struct {
	Name      string // the lane's name in tables (lower case, digits, _ and -)
	Algorithm string // the product lane: nginx, haproxy, envoy_local, …
	Section   Fields // its product section, lanes[i].<Algorithm>, in the product's words
	Options   Fields // its lane options beside the name: status, keys, when_full, penalty, …
	At        []Origin
	Note      string
}

// Model is an imported config: what Render writes as a scenario.
type Model struct {
	Product  string   // nginx, envoy, kong, traefik or haproxy
	Files    []string // the files read, the named one first (includes after)
	Limits   []Limit
	Lanes    []Lane
	Chain    string // "" (all_or_nothing) or charge_until_refused
	Problems []Problem
	Notes    []string // sentences about the whole import, written as comments
	// LogFormats are the access-log formats the config defines, by name
	// (nginx log_format), for replay to read the config's logs with.
	LogFormats map[string]string
}

// problemf records a problem at at.
func (m *Model) problemf(at Origin, format string, args ...any) {
	m.Problems = append(m.Problems, Problem{At: at, Message: fmt.Sprintf(format, args...)})
}
