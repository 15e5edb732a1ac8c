package main

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/rlsim/rlsim/run"
	"github.com/rlsim/rlsim/sim"
)

// The one-line form of a scenario: rlsim run --limit '...' --traffic '...'
// builds a scenario file from its flags, which --print-scenario prints.

// oneLine is the flags that build a scenario without a file.
type oneLine struct {
	Limits  []string // --limit 'key=ip limit=100/1m burst=20 name=N endpoint=/login'
	Traffic []string // --traffic '100 poisson 2/s retry=exponential'
	Print   bool     // --print-scenario
}

func (o *oneLine) given() bool { return len(o.Limits) > 0 || len(o.Traffic) > 0 }

// scenario is the YAML the flags say, or every flag's problem at once.
func (o *oneLine) scenario() ([]byte, error) {
	var b strings.Builder
	var errs []string
	fmt.Fprintf(&b, "# Built by rlsim run from the command line:\n")
	for _, l := range o.Limits {
		fmt.Fprintf(&b, "#   --limit %s\n", run.ShellQuote(l))
	}
	for _, t := range o.Traffic {
		fmt.Fprintf(&b, "#   --traffic %s\n", run.ShellQuote(t))
	}
	fmt.Fprintf(&b, "description: %s\n", strconv.Quote("a scenario from the command line: "+o.describe()))
	if len(o.Limits) > 0 {
		b.WriteString("limits:\n")
	}
	for _, l := range o.Limits {
		fields, err := limitFields(l)
		if err != nil {
			errs = append(errs, fmt.Sprintf("--limit %s: %v", run.ShellQuote(l), err))
			continue
		}
		writeItem(&b, "  ", fields)
	}
	if len(o.Traffic) == 0 {
		errs = append(errs, "--traffic: at least one client group is needed, e.g. --traffic '100 poisson 2/s retry=exponential'")
	} else {
		b.WriteString("clients:\n")
	}
	for i, t := range o.Traffic {
		fields, err := trafficFields(t, i)
		if err != nil {
			errs = append(errs, fmt.Sprintf("--traffic %s: %v", run.ShellQuote(t), err))
			continue
		}
		writeItem(&b, "  ", fields)
	}
	if len(errs) > 0 {
		return nil, badInputf("%s", strings.Join(errs, "\n"))
	}
	return []byte(b.String()), nil
}

func (o *oneLine) describe() string {
	var parts []string
	for _, l := range o.Limits {
		parts = append(parts, "limit "+l)
	}
	for _, t := range o.Traffic {
		parts = append(parts, "traffic "+t)
	}
	return strings.Join(parts, "; ")
}

// kv is one field of a YAML mapping, its value written as YAML.
type kv struct{ key, value string }

// writeItem writes fields as one element of a block list; a key holding a
// dot ("arrivals.kind") is written nested.
func writeItem(b *strings.Builder, indent string, fields []kv) {
	groups := map[string][]kv{}
	var order []string
	for _, f := range fields {
		top, sub, nested := strings.Cut(f.key, ".")
		if _, seen := groups[top]; !seen {
			order = append(order, top)
		}
		if nested {
			groups[top] = append(groups[top], kv{sub, f.value})
		} else {
			groups[top] = append(groups[top], kv{"", f.value})
		}
	}
	for i, top := range order {
		prefix := indent + "  "
		if i == 0 {
			prefix = indent + "- "
		}
		g := groups[top]
		if len(g) == 1 && g[0].key == "" {
			fmt.Fprintf(b, "%s%s: %s\n", prefix, top, g[0].value)
			continue
		}
		if top == "arrivals" {
			fmt.Fprintf(b, "%s%s:\n", prefix, top)
			for j, f := range g {
				p := indent + "    - "
				if j > 0 {
					p = indent + "      "
				}
				fmt.Fprintf(b, "%s%s: %s\n", p, f.key, f.value)
			}
			continue
		}
		fmt.Fprintf(b, "%s%s:\n", prefix, top)
		for _, f := range g {
			fmt.Fprintf(b, "%s    %s: %s\n", indent, f.key, f.value)
		}
	}
}

// limitFields reads --limit's 'key=ip limit=100/1m burst=20 name=N
// endpoint=/login' (replay's syntax) as a limit's fields; any other
// field=value of a limit is written as given.
func limitFields(spec string) ([]kv, error) {
	var fields []kv
	var errs []string
	seen := map[string]bool{}
	for _, word := range strings.Fields(spec) {
		k, v, ok := strings.Cut(word, "=")
		if !ok || k == "" || v == "" {
			errs = append(errs, fmt.Sprintf("%q: want NAME=VALUE", word))
			continue
		}
		if seen[k] {
			errs = append(errs, fmt.Sprintf("%s: given twice", k))
			continue
		}
		seen[k] = true
		if k == "limit" {
			n, w, ok := strings.Cut(v, "/")
			if !ok {
				errs = append(errs, fmt.Sprintf("limit %q: want N/WINDOW, e.g. 100/1m", v))
				continue
			}
			if w != "" && (w[0] < '0' || w[0] > '9') {
				w = "1" + w
			}
			fields = append(fields, kv{"limit", yamlValue(n)}, kv{"window", yamlValue(w)})
			continue
		}
		fields = append(fields, kv{k, yamlValue(v)})
	}
	if !seen["limit"] {
		errs = append(errs, "limit: missing (e.g. limit=100/1m)")
	}
	if len(errs) > 0 {
		return nil, fmt.Errorf("%s", strings.Join(errs, "; "))
	}
	return fields, nil
}

// arrivalFields are a --traffic word's fields that belong to its arrivals.
var arrivalFields = map[string]bool{"start": true, "stop": true, "at": true, "spread": true, "on": true, "off": true, "idle": true, "burst": true}

// retryFields are a --traffic word's fields that belong to its retry.
var retryFields = map[string]bool{"delay": true, "base": true, "cap": true, "jitter": true, "max_attempts": true,
	"honor_retry_after": true, "retry_after": true, "retry_after_jitter": true}

// identityFields are a --traffic word's fields that belong to its identity.
var identityFields = map[string]bool{"user": true, "ip": true, "api_key": true, "tenant": true, "endpoint": true}

var rateWord = regexp.MustCompile(`^[0-9]+/[0-9]*[a-zµ]+$`)

// trafficFields reads --traffic's compact client group: bare words are the
// client count (a whole number), the arrival kind, the rate (N/PERIOD) and
// the retry kind; NAME=VALUE words are the group's other fields (name,
// cost, pace), its arrival's (start, stop, at, spread, on, off, idle, burst:
// a burst's count), its retry's (retry=KIND, delay, base, cap, jitter,
// max_attempts, honor_retry_after) and its identity's (user, ip, api_key,
// tenant, endpoint).
func trafficFields(spec string, index int) ([]kv, error) {
	var top, arrival, retry, identity []kv
	var errs []string
	kind := ""
	for _, word := range strings.Fields(spec) {
		k, v, hasValue := strings.Cut(word, "=")
		switch {
		case !hasValue && isCount(word):
			top = append(top, kv{"count", word})
		case !hasValue && contains(sim.ArrivalNames(), word):
			kind = word
		case !hasValue && rateWord.MatchString(word):
			arrival = append(arrival, kv{"rate", word})
		case !hasValue && contains(sim.RetryNames(), word):
			retry = append(retry, kv{"kind", word})
		case !hasValue || v == "":
			errs = append(errs, fmt.Sprintf("%q: not a count, an arrival kind (%s), a rate (N/PERIOD), a retry kind (%s) or NAME=VALUE",
				word, strings.Join(sim.ArrivalNames(), ", "), strings.Join(sim.RetryNames(), ", ")))
		case k == "retry":
			retry = append(retry, kv{"kind", yamlValue(v)})
		case k == "burst":
			arrival = append(arrival, kv{"count", yamlValue(v)})
		case k == "kind":
			kind = v
		case k == "rate":
			arrival = append(arrival, kv{"rate", yamlValue(v)})
		case arrivalFields[k]:
			arrival = append(arrival, kv{k, yamlValue(v)})
		case retryFields[k]:
			retry = append(retry, kv{k, yamlValue(v)})
		case identityFields[k]:
			identity = append(identity, kv{k, yamlValue(v)})
		default:
			top = append(top, kv{k, yamlValue(v)})
		}
	}
	if kind == "" {
		errs = append(errs, "the arrival kind is missing ("+strings.Join(sim.ArrivalNames(), ", ")+")")
	}
	if len(errs) > 0 {
		return nil, fmt.Errorf("%s", strings.Join(errs, "; "))
	}
	fields := []kv{{"name", "group" + strconv.Itoa(index)}}
	for _, f := range top {
		if f.key == "name" {
			fields[0] = f
		} else {
			fields = append(fields, f)
		}
	}
	fields = append(fields, kv{"arrivals.kind", kind})
	for _, f := range arrival {
		fields = append(fields, kv{"arrivals." + f.key, f.value})
	}
	for _, f := range retry {
		fields = append(fields, kv{"retry." + f.key, f.value})
	}
	for _, f := range identity {
		fields = append(fields, kv{"identity." + f.key, f.value})
	}
	return fields, nil
}

func isCount(s string) bool {
	n, err := strconv.Atoi(s)
	return err == nil && n > 0 && strconv.Itoa(n) == s
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// yamlValue is s as a YAML scalar: plain when YAML reads it back as the
// same text or the number it spells, else quoted.
func yamlValue(s string) string {
	if regexp.MustCompile(`^[A-Za-z0-9_./:-]+$`).MatchString(s) && !strings.HasPrefix(s, "-") {
		return s
	}
	return strconv.Quote(s)
}

// command is the rlsim run command line of o with the rest of a command's
// flags (base: Overrides.Command of an empty argument, which it drops).
func (o *oneLine) command(base string) string {
	parts := []string{"rlsim run"}
	for _, l := range o.Limits {
		parts = append(parts, "--limit "+run.ShellQuote(l))
	}
	for _, t := range o.Traffic {
		parts = append(parts, "--traffic "+run.ShellQuote(t))
	}
	return strings.Join(parts, " ") + strings.TrimPrefix(base, "rlsim run ''")
}
