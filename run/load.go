package run

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/rlsim/rlsim/scenarios"
)

// LoadAll loads every argument, a file path or a built-in scenario's name, with
// sets written into each, and reports the problems of all of them at once.
func LoadAll(args []string, sets ...scenarios.Set) ([]*scenarios.Scenario, error) {
	var list []*scenarios.Scenario
	var errs []error
	for _, arg := range args {
		s, err := Load(arg, sets...)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		list = append(list, s)
	}
	if len(errs) > 0 {
		return nil, BadInput(errors.Join(errs...))
	}
	return list, nil
}

// BuiltinPrefix names a built-in scenario explicitly: builtin:demo is the
// built-in even when a file or folder named demo is in the current folder.
const BuiltinPrefix = "builtin:"

// Load reads arg, a scenario file (or "-", standard input) or a built-in scenario's name. An argument
// with a slash or ending in .yaml or .yml is a file; builtin:NAME is a built-in.
// A bare name is a built-in, or a file if no built-in has that name; a bare name
// that is both a built-in and a file here is an error rather than a silent
// choice (./NAME or builtin:NAME says which). A folder is never a scenario, so
// a folder named like a built-in does not hide it.
//
// Sets are written into the file before it is decoded (see scenarios.Set).
func Load(arg string, sets ...scenarios.Set) (*scenarios.Scenario, error) {
	if arg == StdinArg {
		data, err := stdinScenario()
		if err != nil {
			return nil, err
		}
		return scenarios.Parse(StdinFile, data, sets...)
	}
	if arg == CommandLineArg {
		return scenarios.Parse(CommandLineFile, commandLine.Load().([]byte), sets...)
	}
	if name, ok := strings.CutPrefix(arg, BuiltinPrefix); ok {
		if _, ok := scenarios.BuiltinSource(name); !ok {
			return nil, &scenarios.FieldError{File: arg, Msg: scenarios.UnknownBuiltin(name)}
		}
		return scenarios.LoadBuiltin(name, sets...)
	}
	if looksLikePath(arg) {
		return scenarios.Load(arg, sets...)
	}
	_, builtin := scenarios.BuiltinSource(arg)
	st, err := os.Stat(arg)
	file := err == nil && !st.IsDir()
	switch {
	case builtin && file:
		return nil, &scenarios.FieldError{File: arg, Msg: fmt.Sprintf(
			"names both a built-in scenario and a file here; write ./%s for the file or %s%s for the built-in", arg, BuiltinPrefix, arg)}
	case builtin:
		return scenarios.LoadBuiltin(arg, sets...)
	case err == nil:
		return scenarios.Load(arg, sets...)
	}
	return nil, &scenarios.FieldError{File: arg, Msg: "no such file, and " + scenarios.UnknownBuiltin(arg)}
}

func looksLikePath(arg string) bool {
	return strings.ContainsAny(arg, `/\`) || strings.HasSuffix(arg, ".yaml") || strings.HasSuffix(arg, ".yml")
}

// ParseSets reads --set flags, each path=value, reporting every malformed one at
// once as an *InputError.
func ParseSets(flags []string) ([]scenarios.Set, error) {
	var sets []scenarios.Set
	var errs []error
	for _, f := range flags {
		s, err := scenarios.ParseSet(f)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		sets = append(sets, s)
	}
	if len(errs) > 0 {
		return nil, BadInput(errors.Join(errs...))
	}
	return sets, nil
}

// StdinArg is the argument that reads a scenario from standard input, and
// StdinFile the name its problems are reported at.
const (
	StdinArg  = "-"
	StdinFile = "stdin"
)

// stdin is standard input, read once however often "-" is loaded (a sweep
// loads its scenario at every point).
var stdin struct {
	sync.Mutex
	r    io.Reader
	read bool
	data []byte
	err  error
}

// SetStdin makes r the standard input "-" reads (os.Stdin until then), unread.
func SetStdin(r io.Reader) {
	stdin.Lock()
	defer stdin.Unlock()
	stdin.r, stdin.read, stdin.data, stdin.err = r, false, nil, nil
}

func stdinScenario() ([]byte, error) {
	stdin.Lock()
	defer stdin.Unlock()
	if !stdin.read {
		r := stdin.r
		if r == nil {
			r = os.Stdin
		}
		stdin.data, stdin.err = io.ReadAll(io.LimitReader(r, scenarios.MaxFileSize+1))
		stdin.read = true
		switch {
		case stdin.err != nil:
			stdin.err = &scenarios.FieldError{File: StdinFile, Msg: "cannot be read: " + stdin.err.Error()}
		case len(stdin.data) > scenarios.MaxFileSize:
			stdin.err = &scenarios.FieldError{File: StdinFile, Msg: fmt.Sprintf("larger than %d MB, the most a scenario file may hold", scenarios.MaxFileSize>>20)}
		}
	}
	return stdin.data, stdin.err
}

// CommandLineArg is the argument that reads the scenario a command built
// from its flags (SetCommandLine: rlsim run --limit … --traffic …), and
// CommandLineFile the name its problems are reported at.
const (
	CommandLineArg  = "\x00command-line"
	CommandLineFile = "command-line.yaml"
)

var commandLine atomic.Value // []byte

// SetCommandLine makes data the scenario CommandLineArg loads.
func SetCommandLine(data []byte) { commandLine.Store(data) }
