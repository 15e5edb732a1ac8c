package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"

	"github.com/rlsim/rlsim/scenarios"
)

// This file holds the promise "validate accepting a file means run will start
// it" for every number a scenario file can hold: each numeric field of the
// format, found by walking the JSON Schema that the format's own table
// generates (so a new field is covered the day it is added), is given NaN,
// infinities, huge, zero and negative values, in the file and through --set.

// numericKind is how a field's number is written.
type numericKind string

const (
	integerField   numericKind = "integer"   // a whole number
	floatField     numericKind = "number"    // any number
	durationField  numericKind = "duration"  // 250ms
	rateField      numericKind = "rate"      // 10/s
	thresholdField numericKind = "threshold" // a check's value: 99%, 2/s, 250ms, 1.2
)

// hostileValues are the values each kind of field is given: not numbers at all
// (NaN and the infinities as YAML and Go spell them), numbers past float64 and
// int64, the largest a field may hold, zero and negative values.
var hostileValues = map[numericKind][]string{
	// NaN and the infinities take one path through an integer's decoding: a
	// YAML float is not a whole number.
	integerField:   {"NaN", "9223372036854775807", "9223372036854775808", "0", "-1"},
	floatField:     {"NaN", ".nan", ".inf", "-.Inf", "1e400", "1.7976931348623157e308", "0", "-1"},
	durationField:  {"NaN", "876000h", "2562047h47m16.854775807s", "0", "-1s"},
	rateField:      {"NaN/s", "9223372036854775807/1ns", "1/876001h", "0/s", "-1/s"},
	thresholdField: {"NaN", ".inf", "-.Inf", "+Inf/s", "NaN%", "1e400", "1e308", "0", "-1"},
}

// numericBudget bounds the work of every run here: the base files need a few
// thousand events, and a huge value either is refused by its estimate or is
// stopped by the budget, not a timer.
const numericBudget = "200000"

// numbersDir holds the base files: scenarios' fuzz target FuzzEveryNumber
// reads them too.
var numbersDir = filepath.Join("..", "..", "scenarios", "testdata", "numbers")

// knownGaps are fields whose hostile values still break the promise, each
// with the fix it waits for outside this package; a case listed here is
// skipped, naming it, so that the rest hold. Remove an entry with its fix.
var knownGaps = map[string]string{}

// numericField is one field of the format that holds a number, written as its
// path with [] for any list index, e.g. clients[].arrivals[].rate.
type numericField struct {
	pattern string
	kind    numericKind
}

// numericFields walks the JSON Schema and returns every field holding a number,
// in a stable order.
func numericFields(t *testing.T) []numericField {
	t.Helper()
	var schema map[string]any
	if err := json.Unmarshal(scenarios.JSONSchema(), &schema); err != nil {
		t.Fatal(err)
	}
	var fields []numericField
	var walk func(n map[string]any, path string)
	walk = func(n map[string]any, path string) {
		if alts, ok := n["anyOf"].([]any); ok {
			for _, a := range alts {
				walk(a.(map[string]any), path)
			}
			return
		}
		pattern, _ := n["pattern"].(string)
		switch typ := n["type"].(type) {
		case []any:
			fields = append(fields, numericField{path, thresholdField})
		case string:
			switch {
			case typ == "object":
				props, _ := n["properties"].(map[string]any)
				for name, p := range props {
					sub := name
					if path != "" {
						sub = path + "." + name
					}
					walk(p.(map[string]any), sub)
				}
			case typ == "array":
				walk(n["items"].(map[string]any), path+"[]")
			case typ == "integer":
				fields = append(fields, numericField{path, integerField})
			case typ == "number":
				fields = append(fields, numericField{path, floatField})
			case typ == "string" && pattern != "" && strings.Contains(pattern, "per"):
				fields = append(fields, numericField{path, rateField})
			case typ == "string" && pattern != "" && strings.Contains(pattern, "ms|s|m|h"):
				fields = append(fields, numericField{path, durationField})
			case typ == "string" && pattern != "":
				t.Errorf("%s: a pattern this test does not know (%s): teach it the field's kind", path, pattern)
			}
		}
	}
	walk(schema, "")
	slices.SortFunc(fields, func(a, b numericField) int { return strings.Compare(a.pattern, b.pattern) })
	if len(fields) < 50 {
		t.Fatalf("only %d numeric fields found in the schema: the walk is broken", len(fields))
	}
	return fields
}

// occurrence is one place a base file writes a field's value.
type occurrence struct {
	path      string // the concrete path, e.g. clients[0].arrivals[2].rate
	line, col int    // of the value, 1-based
	value     string
}

// occurrences maps each field pattern to where src, a YAML file of plain
// scalars, writes it.
func occurrences(t *testing.T, src []byte) map[string][]occurrence {
	t.Helper()
	var doc yaml.Node
	if err := yaml.Unmarshal(src, &doc); err != nil {
		t.Fatal(err)
	}
	found := map[string][]occurrence{}
	var walk func(n *yaml.Node, path, pattern string)
	walk = func(n *yaml.Node, path, pattern string) {
		switch n.Kind {
		case yaml.MappingNode:
			for i := 0; i+1 < len(n.Content); i += 2 {
				k := n.Content[i].Value
				if path == "" {
					walk(n.Content[i+1], k, k)
				} else {
					walk(n.Content[i+1], path+"."+k, pattern+"."+k)
				}
			}
		case yaml.SequenceNode:
			for i, c := range n.Content {
				walk(c, fmt.Sprintf("%s[%d]", path, i), pattern+"[]")
			}
		case yaml.ScalarNode:
			if n.Style != 0 {
				return // a quoted string, like an op: not a number
			}
			found[pattern] = append(found[pattern], occurrence{path, n.Line, n.Column, n.Value})
		}
	}
	walk(doc.Content[0], "", "")
	return found
}

// substitute writes value in place of the value at o in src.
func substitute(src []byte, o occurrence, value string) []byte {
	lines := strings.SplitAfter(string(src), "\n")
	l := lines[o.line-1]
	if l[o.col-1:o.col-1+len(o.value)] != o.value {
		panic(fmt.Sprintf("substitute: %q is not at line %d column %d", o.value, o.line, o.col))
	}
	lines[o.line-1] = l[:o.col-1] + value + l[o.col-1+len(o.value):]
	return []byte(strings.Join(lines, ""))
}

// problemLine is one line of validate's stderr: where, the line, the field, what.
var problemLine = regexp.MustCompile(`^(.*?)(?::(\d+))?: ([a-z_][a-z0-9_]*(?:\[\d+\])*(?:\.[a-z_][a-z0-9_]*(?:\[\d+\])*)*): (.*)$`)

// namesField reports whether a line of errOut, a problem at where (a file, or a
// file and a --set flag), points the user at the field at path: on path itself
// at line (0: any), on a field holding it (a limit as a whole: "limits[1]:
// token bucket: burst 20 at 9223372036854775807 per 1s overflows"), or on a
// field its value is compared with, naming it ("cap: 400ms is below base 876000h").
func namesField(errOut, where string, line int, path string) bool {
	name := path[strings.LastIndexByte(path, '.')+1:]
	if i := strings.IndexByte(name, '['); i >= 0 {
		name = name[:i]
	}
	mentions := regexp.MustCompile(`\b` + regexp.QuoteMeta(name) + `\b`)
	for _, l := range strings.Split(errOut, "\n") {
		m := problemLine.FindStringSubmatch(l)
		if m == nil || m[1] != where {
			continue
		}
		p, msg := m[3], m[4]
		switch {
		case p == path && (line == 0 || m[2] == strconv.Itoa(line)),
			strings.HasPrefix(path, p+".") || strings.HasPrefix(path, p+"["),
			mentions.MatchString(msg):
			return true
		}
	}
	return false
}

// overBudget is the refusal of a scenario whose estimate a huge value raised.
const overBudget = "events estimated, over the budget of"

// started reports whether a run's outcome is that of a run that started: it
// finished (its checks passed or failed), or the budget stopped it.
func started(code int, out, errOut string) bool {
	switch code {
	case 0:
		return out != ""
	case exitCheckFailed:
		return out != "" && strings.Contains(errOut, "checks failed")
	case exitBadInput:
		return out == "" && strings.Contains(errOut, "the run stopped after the budget")
	}
	return false
}

// TestEveryNumberValidateRefusesOrRunStarts gives every numeric field of the
// format, where the base files write it, each hostile value of its kind. Either
// validate refuses the file, exit 2, with a problem on that line and field (or
// one holding it, or one compared with it by name) or the over-budget estimate;
// or validate accepts it and run starts. Through --set, validate decides the
// same and names the flag and the path.
func TestEveryNumberValidateRefusesOrRunStarts(t *testing.T) {
	fields := numericFields(t)
	bases := []string{"comparison.yaml", "contention.yaml", "products.yaml", "health.yaml", "concurrency.yaml", "contract.yaml"}
	srcs := map[string][]byte{}
	found := map[string]map[string][]occurrence{}
	for _, b := range bases {
		src, err := os.ReadFile(filepath.Join(numbersDir, b))
		if err != nil {
			t.Fatal(err)
		}
		srcs[b], found[b] = src, occurrences(t, src)
		if code, out, errOut := execute(t, "validate", filepath.Join(numbersDir, b), "--max-events", numericBudget); code != 0 {
			t.Fatalf("the base %s itself: exit %d, %s%s", b, code, out, errOut)
		}
	}
	cases := 0
	for _, f := range fields {
		written := false
		for _, b := range bases {
			for _, o := range found[b][f.pattern] {
				written = true
				values := hostileValues[f.kind]
				if testing.Short() {
					values = values[:1] // not a number at all: every field still walked
				}
				for _, v := range values {
					cases++
					t.Run(o.path+"="+v, func(t *testing.T) {
						if why, ok := knownGaps[f.pattern+"="+v]; ok {
							t.Skip(why)
						}
						t.Parallel()
						file := filepath.Join(t.TempDir(), "f.yaml")
						checkNumber(t, srcs[b], filepath.Join(numbersDir, b), file, o, v)
					})
				}
			}
		}
		if !written {
			t.Errorf("no base file in scenarios/testdata/numbers writes %s (%s): add it, with a valid value", f.pattern, f.kind)
		}
	}
	t.Logf("%d numeric fields, %d cases", len(fields), cases)
}

func checkNumber(t *testing.T, src []byte, base, file string, o occurrence, v string) {
	if err := os.WriteFile(file, substitute(src, o, v), 0o644); err != nil {
		t.Fatal(err)
	}
	vcode, vout, verr := execute(t, "validate", file, "--max-events", numericBudget)
	switch vcode {
	case 0:
		if code, out, errOut := execute(t, "run", file, "-f", "json", "--max-events", numericBudget); !started(code, out, errOut) {
			t.Errorf("validate calls it ok, run did not start: exit %d, stdout %.200q, stderr %q", code, out, errOut)
		}
	case exitBadInput:
		// run refuses it too: it loads and budgets the file as validate does
		// (TestValidateMeansRunStarts holds that for the files of testdata/bounds).
		if !namesField(verr, file, o.line, o.path) && !strings.Contains(verr, overBudget) {
			t.Errorf("validate refuses it without naming %s:%d: %s:\n%s", file, o.line, o.path, verr)
		}
	default:
		t.Errorf("validate: exit %d, stdout %q, stderr %q; want 0 or 2", vcode, vout, verr)
	}
	set := o.path + "=" + v
	scode, _, serr := execute(t, "validate", base, "--set", set, "--max-events", numericBudget)
	if (scode == 0) != (vcode == 0) {
		t.Errorf("validate --set %s: exit %d (%s); in the file: exit %d (%s)", set, scode, serr, vcode, verr)
	}
	if scode != 0 && !namesField(serr, base+" (--set "+set+")", 0, o.path) && !strings.Contains(serr, overBudget) &&
		!regexp.MustCompile(`(?m)\(with (.*, )?`+regexp.QuoteMeta("--set "+set)+`(, .*)?\)$`).MatchString(serr) {
		t.Errorf("validate --set %s refuses it without naming the flag and %s:\n%s", set, o.path, serr)
	}
}
