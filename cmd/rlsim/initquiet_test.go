package main

import (
	"os"
	"testing"
)

// TestEnvironmentIsTheUsers checks that package initquiet's CI variable is gone
// once rlsim's commands run: a child process or termenv must see the user's.
func TestEnvironmentIsTheUsers(t *testing.T) {
	if v, ok := os.LookupEnv("CI"); ok && v == "rlsim-init" {
		t.Errorf("CI=%s is still set after initialisation", v)
	}
}
