package accesslog

import (
	"bytes"
	"strings"
	"testing"
)

func TestWriteIsDeterministicAndCombined(t *testing.T) {
	var a, b bytes.Buffer
	if err := Write(&a, 500, 3); err != nil {
		t.Fatal(err)
	}
	if err := Write(&b, 500, 3); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(a.Bytes(), b.Bytes()) {
		t.Fatal("Write(500, 3) differs between two calls")
	}
	lines := strings.Split(strings.TrimSuffix(a.String(), "\n"), "\n")
	if len(lines) != 500 {
		t.Fatalf("Write(500, 3) wrote %d lines", len(lines))
	}
	if want := `[01/Mar/2026:09:00:00 -0700] "GET `; !strings.Contains(lines[0], want) {
		t.Errorf("first line %q lacks %q", lines[0], want)
	}
	heavy := 0
	for _, l := range lines {
		if strings.HasPrefix(l, "203.0.113.66 ") {
			heavy++
		}
	}
	if heavy < 120 || heavy > 210 {
		t.Errorf("heavy address sent %d of 500 lines, want about a third", heavy)
	}
	var c bytes.Buffer
	Write(&c, 500, 4)
	if bytes.Equal(a.Bytes(), c.Bytes()) {
		t.Error("seeds 3 and 4 wrote the same log")
	}
}
