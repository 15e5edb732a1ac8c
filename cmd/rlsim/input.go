package main

import (
	"errors"
	"os"
	"strings"

	"github.com/rlsim/rlsim/scenarios"
)

// loadAll loads every argument, a file path or a built-in scenario's name, and
// reports the problems of all of them at once.
func loadAll(args []string) ([]*scenarios.Scenario, error) {
	var list []*scenarios.Scenario
	var errs []error
	for _, arg := range args {
		s, err := load(arg)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		list = append(list, s)
	}
	if len(errs) > 0 {
		return nil, badInput(errors.Join(errs...))
	}
	return list, nil
}

// load reads arg as a file if one exists by that name, else as a built-in name.
func load(arg string) (*scenarios.Scenario, error) {
	if _, err := os.Stat(arg); err == nil || looksLikePath(arg) {
		return scenarios.Load(arg)
	}
	if _, ok := scenarios.BuiltinSource(arg); ok {
		return scenarios.LoadBuiltin(arg)
	}
	return nil, &scenarios.FieldError{File: arg, Msg: "no such file, and " + scenarios.UnknownBuiltin(arg)}
}

func looksLikePath(arg string) bool {
	return strings.ContainsAny(arg, `/\`) || strings.HasSuffix(arg, ".yaml") || strings.HasSuffix(arg, ".yml")
}
