package importer

import (
	"fmt"
	"strings"
	"testing"
)

// TestNginxEachServerAfterTheFirstIsTold: of n servers that limit requests,
// each but the first is told, at its line, as also limiting (rlsim has no
// host to tell them apart); a server that limits nothing is not.
func TestNginxEachServerAfterTheFirstIsTold(t *testing.T) {
	for n := 1; n <= 3; n++ {
		conf := "http {\n  limit_req_zone $binary_remote_addr zone=z:10m rate=5r/s;\n"
		lines := map[string]int{}
		line := 3
		for i := range n {
			name := fmt.Sprintf("s%d.example", i)
			conf += fmt.Sprintf("  server {\n    server_name %s;\n    location /p%d { limit_req zone=z; }\n  }\n", name, i)
			lines[name] = line
			line += 4
		}
		conf += "  server {\n    server_name quiet.example;\n  }\n}\n"
		m := importText(t, conf)
		var told []Problem
		for _, p := range m.Problems {
			if strings.Contains(p.Message, "also limits requests") {
				told = append(told, p)
			}
		}
		if len(told) != n-1 {
			t.Errorf("%d servers: told %v, want %d", n, told, n-1)
			continue
		}
		for i, p := range told {
			name := fmt.Sprintf("s%d.example", i+1)
			if !strings.HasPrefix(p.Message, "server "+name+" also limits") || p.At.Line != lines[name] {
				t.Errorf("%d servers: %v at line %d, want server %s at line %d", n, p.Message, p.At.Line, name, lines[name])
			}
		}
	}
}
