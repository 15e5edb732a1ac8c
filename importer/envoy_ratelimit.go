package importer

// An envoyproxy/ratelimit service config: a domain and its descriptors,
// nested key/value entries whose leaves carry a rate_limit. The rules, from
// envoyproxy/ratelimit at commit f2fb157 (README.md "Configuration" and
// src/config/config_impl.go loadDescriptors):
//
//   - Each descriptor needs a key; its value is optional. A request
//     descriptor matches a configured one of the same depth whose keys are
//     the request's in order and whose values are equal, or absent (then
//     every value gets its own counter), or a pattern with * (a counter per
//     value, one shared with share_threshold).
//   - rate_limit {unit, requests_per_unit}: unit second, minute, hour, day
//     (and week, month, year, as go-control-plane's RateLimitResponse
//     enum has them; a month is 30 days, a year 365, as the service
//     divides); unlimited: true is never counted nor refused, and must have
//     no unit. shadow_mode counts and never refuses. replaces drops another
//     named limit when both match. Unknown keys are rejected.
//   - Every matched descriptor's counter is incremented before any is
//     compared (src/redis/fixed_cache_impl.go: the INCRBYs of one request
//     go out in one pipeline), so one descriptor's refusal is counted by the
//     others too: nearest is chain: charge_until_refused.
//   - The counters live in the service's Redis, which every Envoy calling
//     it shares: each limit is state: shared in a topology.

import (
	"fmt"
	"strings"

	"gopkg.in/yaml.v3"
)

// envoyServiceUnits are rate_limit.unit's values as windows (scenarios' envoyUnits
// has the same table for the lane's section).
var envoyServiceUnits = map[string]int64{
	"second": 1, "minute": 60, "hour": 3600, "day": 86400, "week": 7 * 86400, "month": 30 * 86400, "year": 365 * 86400,
}

type rlsEntry struct{ key, value string }

func readRateLimitService(f *nodeFile, root *yaml.Node) {
	m := f.m
	domain := f.str(f.get(root, "domain"))
	if domain == "" {
		m.problemf(f.at(root), "domain is empty: the service rejects a config without one")
	}
	f.unknownKeys(root, "ratelimit config", "domain", "descriptors")
	rlsDescriptors(f, f.get(root, "descriptors"), domain, nil)
	if len(m.Limits) == 0 {
		return
	}
	if len(m.Limits) > 1 {
		m.Chain = "charge_until_refused"
		m.problemf(f.at(root), "the service increments every descriptor a request matches before it decides, so a request one limit refuses is counted by all of them; rlsim's chain (charge_until_refused) does not count it in the limits after the refusing one")
	}
	first := m.Limits[0]
	unit := "second"
	for u, s := range envoyServiceUnits {
		if int64(first.Window.Seconds()) == s {
			unit = u
		}
	}
	m.Lanes = append(m.Lanes, Lane{Name: "ratelimit", Algorithm: "envoy_ratelimit", At: first.At[:1],
		Note:    "the envoyproxy/ratelimit service: fixed windows aligned to the clock, every hit counted (refused ones too)",
		Section: Fields{{"unit", unit}, {"requests_per_unit", first.Limit}}})
	m.Notes = append(m.Notes,
		fmt.Sprintf("envoyproxy/ratelimit service config, domain %q, as the service at commit f2fb157 decides: one count per descriptor in its Redis, shared by every Envoy that asks it (state: shared).", domain),
		"What Envoy does when the service cannot answer is its ratelimit filter's failure_mode_deny, in the Envoy config, not here: false (its default) lets the request through, on_store_error: open (the default); true is on_store_error: closed.",
		"Which requests carry which descriptor is the Envoy routes' rate_limits actions, also not in this file: the limits here count every request unless an endpoint says otherwise.")
}

// rlsDescriptors reads one descriptor list under path.
func rlsDescriptors(f *nodeFile, list *yaml.Node, domain string, path []rlsEntry) {
	m := f.m
	if list != nil && list.Kind != yaml.SequenceNode {
		m.problemf(f.at(list), "descriptors must be a list")
		return
	}
	if len(path) > 32 {
		m.problemf(f.at(list), "descriptors nested more than 32 deep: not read further")
		return
	}
	seen := map[string]int{}
	for _, d := range f.items(list) {
		f.unknownKeys(d, "descriptor", "key", "value", "rate_limit", "descriptors", "shadow_mode", "quota_mode",
			"detailed_metric", "value_to_metric", "share_threshold", "metadata")
		key, value := f.str(f.get(d, "key")), f.str(f.get(d, "value"))
		if key == "" {
			m.problemf(f.at(d), "descriptor has empty key: the service rejects the config")
			continue
		}
		composite := key
		if value != "" {
			composite += "_" + value
		}
		if line, dup := seen[composite]; dup {
			m.problemf(f.at(d), "duplicate descriptor composite key %q (also line %d): the service rejects the config", composite, line)
			continue
		}
		seen[composite] = d.Line
		here := append(append([]rlsEntry(nil), path...), rlsEntry{key, value})
		if rl := f.get(d, "rate_limit"); rl != nil {
			rlsLimit(f, d, rl, domain, here)
		}
		rlsDescriptors(f, f.get(d, "descriptors"), domain, here)
	}
}

// rlsLimit imports one descriptor's rate_limit.
func rlsLimit(f *nodeFile, d, rl *yaml.Node, domain string, path []rlsEntry) {
	m := f.m
	parts := make([]string, len(path))
	for i, e := range path {
		parts[i] = e.key
		if e.value != "" {
			parts[i] += "_" + e.value
		}
	}
	name := strings.Join(parts, ".")
	unit := strings.ToLower(f.str(f.get(rl, "unit")))
	secs, validUnit := envoyServiceUnits[unit]
	if f.boolean(f.get(rl, "unlimited"), "unlimited", false) {
		if validUnit {
			m.problemf(f.at(rl), "%s: unlimited with a unit: the service rejects it (should not specify rate limit unit when unlimited)", name)
		}
		m.Notes = append(m.Notes, fmt.Sprintf("%s (%s) is unlimited: never counted nor refused, so no limit.", name, f.at(rl)))
		return
	}
	if !validUnit {
		m.problemf(f.at(rl), "%s: invalid rate limit unit %q (second, minute, hour, day, week, month or year): the service rejects the config", name, f.str(f.get(rl, "unit")))
		return
	}
	rpuNode := f.get(rl, "requests_per_unit")
	v, _ := f.number(rpuNode, "requests_per_unit")
	if v < 1 {
		m.problemf(f.at(rl), "%s: requests_per_unit %v refuses every request it matches (a block list); rlsim's limits admit at least 1: not imported", name, v)
		return
	}
	rpu, ok := f.count(rpuNode, "requests_per_unit")
	if !ok || tooFastToRun(m, f.at(rl), name, rpu, wholeSeconds(secs)) {
		return
	}
	if reps := f.items(f.get(rl, "replaces")); len(reps) > 0 {
		m.problemf(f.at(f.get(rl, "replaces")), "%s replaces %d named limits: when both match the service drops the replaced one; rlsim's chain keeps both", name, len(reps))
	}
	if f.boolean(f.get(d, "quota_mode"), "quota_mode", false) {
		m.problemf(f.at(f.get(d, "quota_mode")), "%s: quota_mode (a quota checked apart from the rate limits) is not modelled: imported as a plain limit", name)
	}
	share := f.boolean(f.get(d, "share_threshold"), "share_threshold", false)
	key, endpoint, problems := rlsKey(path, share)
	for _, p := range problems {
		m.problemf(f.at(d), "%s %s", name, p)
	}
	lim := Limit{Name: name, Key: key, Limit: rpu, Window: wholeSeconds(secs), Endpoint: endpoint,
		DryRun: f.boolean(f.get(d, "shadow_mode"), "shadow_mode", false), State: "shared",
		At:   []Origin{f.at(d), f.at(rl)},
		Note: fmt.Sprintf("domain %s descriptor %s: %d per %s", domain, name, rpu, unit)}
	if lim.DryRun {
		lim.Note += ", shadow_mode"
	}
	m.Limits = append(m.Limits, lim)
}

// rlsKey is what a descriptor path counts by: every entry without a value
// (or with a * pattern) is a counter per value, its kind the entry key's
// meaning; an entry with a value is a condition rlsim cannot say (except a
// path, which is the limit's endpoint).
func rlsKey(path []rlsEntry, share bool) (key, endpoint string, problems []string) {
	var kinds []string
	for _, e := range path {
		wild := e.value == "" || strings.Contains(e.value, "*") && !share
		k, exact := gatewayHeaderKind(e.key)
		switch e.key {
		case "generic_key", "destination_cluster", "source_cluster", "header_match", "query_match":
			k, exact = "endpoint", false
		}
		switch {
		case k == "endpoint" && e.value != "" && !strings.Contains(e.value, "*"):
			if exact {
				endpoint = e.value
			} else {
				problems = append(problems, fmt.Sprintf("counts only requests whose route sends %s=%s (the Envoy route config says which): rlsim counts every request", e.key, e.value))
			}
		case e.value != "" && !wild:
			problems = append(problems, fmt.Sprintf("counts only requests whose descriptor has %s=%s, in one counter: rlsim cannot scope a limit to one value, so it counts every request", e.key, e.value))
		case wild:
			if e.value != "" {
				problems = append(problems, fmt.Sprintf("counts only %s values matching %s, a counter each: rlsim counts every value", e.key, e.value))
			}
			if !exact {
				problems = append(problems, fmt.Sprintf("counts per %s value, which rlsim has no key for: counted by %s", e.key, k))
			}
			kinds = append(kinds, k)
		}
	}
	switch len(kinds) {
	case 0:
		return "global", endpoint, problems
	case 1:
		return kinds[0], endpoint, problems
	}
	problems = append(problems, fmt.Sprintf("counts per combination of %d values; rlsim's key is one kind: counted by %s alone", len(kinds), kinds[len(kinds)-1]))
	return kinds[len(kinds)-1], endpoint, problems
}
