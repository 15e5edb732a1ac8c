package conform

import (
	"embed"
	"fmt"
	"strings"

	"github.com/rlsim/rlsim/sim"
)

//go:embed scripts/*.lua
var scriptFiles embed.FS

// ScriptKind is the role of a limiter script.
type ScriptKind uint8

const (
	// Atomic reads, decides and writes in one script.
	Atomic ScriptKind = iota
	// RacyRead is the first round trip of a read-then-write check: it returns
	// the state as stored.
	RacyRead
	// RacyWrite is the second: it decides on the state read (ARGV[7]) and
	// writes the new state over whatever is there.
	RacyWrite
)

// Script is one reference limiter script shipped with rlsim.
type Script struct {
	Name   string // "gcra", "gcra_racy_read", ...
	Lane   sim.LaneKind
	Kind   ScriptKind
	Source string // Lua, self-contained
}

// laneScripts is a lane that has reference scripts; racy marks those with
// read-then-write variants (a sliding log's state is a sorted set, which
// nobody reads and writes back whole).
type laneScripts struct {
	lane sim.LaneKind
	racy bool
}

// lanesWithScripts are the registry's rate-limiter lanes that have a reference
// script (scripts/NAME.lua), in the registry's order.
func lanesWithScripts() []laneScripts {
	var list []laneScripts
	for _, l := range sim.Lanes() {
		if _, err := scriptFiles.Open("scripts/" + l.Name + ".lua"); l.Class == sim.RateLimiter && err == nil {
			list = append(list, laneScripts{l.Kind, l.Kind != sim.LaneSlidingLog})
		}
	}
	return list
}

// Scripts lists the reference scripts: per lane the atomic script, then the
// racy read and write where there are.
func Scripts() []Script {
	var list []Script
	for _, l := range lanesWithScripts() {
		name := l.lane.String()
		list = append(list, Script{Name: name, Lane: l.lane, Kind: Atomic, Source: compose(name, "atomic")})
		if l.racy {
			list = append(list,
				Script{Name: name + "_racy_read", Lane: l.lane, Kind: RacyRead, Source: compose(name, "racy_read")},
				Script{Name: name + "_racy_write", Lane: l.lane, Kind: RacyWrite, Source: compose(name, "racy_write")})
		}
	}
	return list
}

// ScriptNames lists the names of Scripts, for flags and error messages.
func ScriptNames() []string {
	var names []string
	for _, s := range Scripts() {
		names = append(names, s.Name)
	}
	return names
}

// ScriptNamed is the reference script called name.
func ScriptNamed(name string) (Script, bool) {
	for _, s := range Scripts() {
		if s.Name == name {
			return s, true
		}
	}
	return Script{}, false
}

// scriptFor is lane's reference script of kind, if it has one.
func scriptFor(lane sim.LaneKind, kind ScriptKind) (Script, bool) {
	for _, s := range Scripts() {
		if s.Lane == lane && s.Kind == kind {
			return s, true
		}
	}
	return Script{}, false
}

// ScriptLanes lists the lanes that have a reference script, in registry order.
func ScriptLanes() []sim.LaneKind {
	var lanes []sim.LaneKind
	for _, l := range lanesWithScripts() {
		lanes = append(lanes, l.lane)
	}
	return lanes
}

// ScriptLaneNames are the names of ScriptLanes.
func ScriptLaneNames() []string { return laneNames(ScriptLanes()) }

// compose joins the prelude, the lane's state and decision, and the tail that
// calls them. The sliding log is one script of its own.
func compose(lane, tail string) string {
	parts := []string{"prelude", lane}
	if lane != sim.LaneSlidingLog.String() {
		parts = append(parts, tail)
	}
	var b strings.Builder
	for _, p := range parts {
		src, err := scriptFiles.ReadFile("scripts/" + p + ".lua")
		if err != nil {
			panic(fmt.Sprintf("conform.compose: %v", err)) // the files are embedded
		}
		b.Write(src)
	}
	return b.String()
}
