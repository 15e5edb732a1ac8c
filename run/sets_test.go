package run

import (
	"errors"
	"strings"
	"testing"
)

func TestOverridesLoadWritesTheSets(t *testing.T) {
	tests := []struct {
		name    string
		args    []string
		sets    []string
		wantErr []string // each in the error, which must then be an *InputError
		limit   int64    // of every scenario's first limit, when no error
	}{
		{name: "a set reaches every scenario", args: []string{"demo", "boundary-burst"}, sets: []string{"limits[0].limit=17"}, limit: 17},
		{name: "a bad value names the flag", args: []string{"demo"}, sets: []string{"limits[0].limit=abc"},
			wantErr: []string{`(--set limits[0].limit=abc): limits[0].limit: want a whole number, got "abc"`}},
		{name: "malformed sets, all at once", args: []string{"demo"}, sets: []string{"limit", "a[x]=1"},
			wantErr: []string{"--set limit: want path=value", `--set a[x]=1: path "a[x]"`}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			list, err := Overrides{Sets: tc.sets}.Load(tc.args)
			if tc.wantErr != nil {
				var ie *InputError
				if !errors.As(err, &ie) {
					t.Fatalf("error %v, want an *InputError", err)
				}
				for _, w := range tc.wantErr {
					if !strings.Contains(err.Error(), w) {
						t.Errorf("error %q lacks %q", err, w)
					}
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			for _, s := range list {
				if got := s.Config.Limits[0].Policy.Limit; got != tc.limit {
					t.Errorf("%s: limit %d, want %d", s.Name, got, tc.limit)
				}
			}
		})
	}
}
