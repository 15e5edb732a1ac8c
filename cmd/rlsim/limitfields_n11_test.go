package main

import (
	"fmt"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
)

// TestLimitFieldsEachWordAndRefusal: limit=N/WINDOW is a limit and a window (a
// bare unit takes 1), any other NAME=VALUE is written as given, in order; a
// word without a value, a name given twice, a limit with no window and a
// missing limit are each told, all at once.
func TestLimitFieldsEachWordAndRefusal(t *testing.T) {
	for _, c := range []struct {
		spec string
		want string // key=value,...
	}{
		{"key=ip limit=100/1m", "key=ip,limit=100,window=1m"},
		{"limit=5/s burst=20 name=login endpoint=/login", "limit=5,window=1s,burst=20,name=login,endpoint=/login"},
		{"limit=5/10s", "limit=5,window=10s"},
		{"limit=5/9s", "limit=5,window=9s"},
		{"limit=5/0.5s", "limit=5,window=0.5s"},
		{"limit=5/", "limit=5,window=\"\""},
		{"limit=5/1m key=a:b", "limit=5,window=1m,key=a:b"},
		{"limit=5/1m name=two words", ""},
	} {
		fields, err := limitFields(c.spec)
		if c.want == "" {
			if err == nil {
				t.Errorf("limitFields(%q) = %v, want an error", c.spec, fields)
			}
			continue
		}
		var got []string
		for _, f := range fields {
			got = append(got, f.key+"="+f.value)
		}
		if err != nil || strings.Join(got, ",") != c.want {
			t.Errorf("limitFields(%q) = %s, %v; want %s", c.spec, strings.Join(got, ","), err, c.want)
		}
	}
	_, err := limitFields("key limit=100 key=ip key=user =x")
	for _, want := range []string{`"key": want NAME=VALUE`, `limit "100": want N/WINDOW, e.g. 100/1m`, "key: given twice", `"=x": want NAME=VALUE`} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("limitFields of five bad words: %v, want %q among them", err, want)
		}
	}
	if _, err := limitFields("key=ip"); err == nil || err.Error() != "limit: missing (e.g. limit=100/1m)" {
		t.Errorf("no limit: %v", err)
	}
}

// TestYAMLValueReadsBackAsWritten: a plain value is left plain only when YAML
// reads it back as the same text; anything else is quoted, and reads back.
func TestYAMLValueReadsBackAsWritten(t *testing.T) {
	for _, s := range []string{"ip", "100", "1m", "/login", "a:b", "a.b_c-d", "-1", "-x", "two words", "#x", "a#b", "\"q\"", "é", "", "x: y", "[1]"} {
		v := yamlValue(s)
		var back string
		if err := yaml.Unmarshal([]byte(fmt.Sprintf("v: %s\n", v)), &struct{ V *string }{&back}); err != nil {
			t.Errorf("yamlValue(%q) = %s: does not read back: %v", s, v, err)
			continue
		}
		if back != s {
			t.Errorf("yamlValue(%q) = %s, reads back as %q", s, v, back)
		}
		if plain := v == s; plain != (strings.Trim(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_./:-") == "" && s != "" && !strings.HasPrefix(s, "-")) {
			t.Errorf("yamlValue(%q) = %s: plain %v", s, v, plain)
		}
	}
}
