package scenarios

import (
	"embed"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"strings"

	"gopkg.in/yaml.v3"
)

//go:embed builtin/*.yaml
var builtinFS embed.FS

// DefaultName is the built-in scenario rlsim runs when given none.
const DefaultName = "demo"

// Builtin names a built-in scenario and says what it shows.
type Builtin struct {
	Name        string
	Description string
}

// Builtins lists the built-in scenarios, the default first, then by name.
func Builtins() []Builtin {
	entries, err := fs.ReadDir(builtinFS, "builtin")
	if err != nil {
		panic("scenarios.Builtins: " + err.Error())
	}
	var list []Builtin
	for _, e := range entries {
		name := strings.TrimSuffix(e.Name(), ".yaml")
		data, _ := BuiltinSource(name)
		var head struct {
			Description string `yaml:"description"`
		}
		_ = yaml.Unmarshal(data, &head) // a broken built-in fails its test, not the listing
		list = append(list, Builtin{Name: name, Description: head.Description})
	}
	slices.SortStableFunc(list, func(a, b Builtin) int {
		switch {
		case a.Name == DefaultName:
			return -1
		case b.Name == DefaultName:
			return 1
		}
		return strings.Compare(a.Name, b.Name)
	})
	return list
}

// BuiltinNames lists the built-in scenarios' names in the order of Builtins.
func BuiltinNames() []string {
	var names []string
	for _, b := range Builtins() {
		names = append(names, b.Name)
	}
	return names
}

// BuiltinSource is the YAML of the named built-in scenario, as shipped.
func BuiltinSource(name string) ([]byte, bool) {
	if strings.ContainsAny(name, `/\`) || name == "" {
		return nil, false
	}
	data, err := builtinFS.ReadFile(path.Join("builtin", name+".yaml"))
	return data, err == nil
}

// LoadBuiltin parses the named built-in scenario, with sets written into it.
func LoadBuiltin(name string, sets ...Set) (*Scenario, error) {
	data, ok := BuiltinSource(name)
	if !ok {
		return nil, &FieldError{File: name, Msg: UnknownBuiltin(name)}
	}
	s, err := Parse(name+".yaml", data, sets...)
	if err != nil {
		return nil, err
	}
	s.Name = name
	if s.Config != nil {
		s.Config.Name = name
	}
	if changed := changingSets(sets); len(changed) > 0 {
		// The shipped description speaks of the shipped scenario.
		s.Description = fmt.Sprintf("the built-in %s with --set %s; as shipped: %s", name, strings.Join(changed, " --set "), s.Description)
	}
	return s, nil
}

// changingSets are the sets, as written, that change what a scenario is
// about: any but its seed, description, checks and buckets, and the
// ConfigSets (--config names itself).
func changingSets(sets []Set) []string {
	var out []string
	for _, set := range sets {
		if set.label != "" || len(set.steps) == 0 {
			continue
		}
		switch set.steps[0].field {
		case "seed", "description", "checks", "bucket":
			continue
		}
		out = append(out, set.Path+"="+set.Value)
	}
	return out
}

// UnknownBuiltin says that name is no built-in scenario and which ones there are.
func UnknownBuiltin(name string) string {
	names := BuiltinNames()
	msg := fmt.Sprintf("no built-in scenario of that name (rlsim scenarios lists them: %s)", strings.Join(names, ", "))
	if m := closest(name, names); m != "" {
		msg += fmt.Sprintf("; did you mean %q?", m)
	}
	return msg
}
