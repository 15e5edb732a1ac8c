package importer

import (
	"fmt"
	"testing"

	"gopkg.in/yaml.v3"
)

// What each rate_limits action produces, action by action.
func TestEnvoyActionEntries(t *testing.T) {
	for _, c := range []struct {
		action string
		want   string // key constant value kind exact what cond; "" not read
	}{
		{"{remote_address: {}}", "remote_address false  ip true remote_address "},
		{"{masked_remote_address: {v4_prefix_mask_len: 24}}", "masked_remote_address false  ip false masked_remote_address (a bucket per masked subnet) "},
		{"{request_headers: {header_name: x-api-key, descriptor_key: k}}", "k false  api_key true request header x-api-key "},
		{"{request_headers: {header_name: x-session, descriptor_key: s}}", "s false  user false request header x-session "},
		{"{query_parameters: {query_parameter_name: tenant, descriptor_key: q}}", "q false  tenant true query parameter tenant "},
		{"{generic_key: {descriptor_value: v}}", "generic_key true v  false generic_key "},
		{"{generic_key: {descriptor_value: v, descriptor_key: g}}", "g true v  false generic_key "},
		{"{header_value_match: {descriptor_value: bot, headers: [{name: a}, {name: b}]}}",
			"header_match true bot  false header_value_match requests whose headers match its 2 header matchers"},
		{"{header_value_match: {descriptor_value: bot, descriptor_key: h, headers: [{name: a}]}}",
			"h true bot  false header_value_match requests whose headers match its 1 header matchers"},
		{"{query_parameter_value_match: {descriptor_value: x}}", "query_match true x  false query_parameter_value_match requests whose query parameters match"},
		{"{destination_cluster: {}}", "destination_cluster true backend  false destination_cluster "},
		{"{source_cluster: {}}", "source_cluster true   false source_cluster "},
		{"{metadata: {descriptor_key: m}}", "m false  user false metadata "},
		{"{dynamic_metadata: {descriptor_key: d}}", "d false  user false dynamic_metadata "},
		{"{remote_address: {}, source_cluster: {}}", ""},
		{"{extension: {}}", ""},
	} {
		var n yaml.Node
		if err := yaml.Unmarshal([]byte("actions: ["+c.action+"]"), &n); err != nil {
			t.Fatal(err)
		}
		r := &envoyReader{f: &nodeFile{name: "e.yaml", m: &Model{}}, m: &Model{}}
		es, ok := r.entries(n.Content[0], &envoyRoute{cluster: "backend"})
		got := ""
		if ok {
			if len(es) != 1 {
				t.Fatalf("%s: %d entries", c.action, len(es))
			}
			e := es[0]
			got = fmt.Sprintf("%s %v %s %s %v %s %s", e.key, e.constant, e.value, e.kind, e.exact, e.what, e.cond)
		}
		if got != c.want {
			t.Errorf("%s:\n got %q\nwant %q", c.action, got, c.want)
		}
	}
	var n yaml.Node
	yaml.Unmarshal([]byte("actions: []"), &n)
	if _, ok := (&envoyReader{f: &nodeFile{m: &Model{}}, m: &Model{}}).entries(n.Content[0], &envoyRoute{}); ok {
		t.Error("no action: not read")
	}
}
