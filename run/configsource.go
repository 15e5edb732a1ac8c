package run

import (
	"bytes"
	"errors"
	"fmt"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/rlsim/rlsim/importer"
	"github.com/rlsim/rlsim/scenarios"
)

// Scenario loads the scenario with c written into it, as --config does, then
// sets: data read as the file named file, or, data nil, file as Load takes
// it (a file or a built-in). Its Source is then the scenario as run: its own
// YAML with c's limits, lanes and chain written in place of its own (and the
// description load gives it), so that rlsim run of Source alone, saved
// under the scenario's file name, runs what this scenario runs.
func (c *Config) Scenario(file string, data []byte, sets []scenarios.Set) (*scenarios.Scenario, error) {
	load := func(sets ...scenarios.Set) (*scenarios.Scenario, error) { return Load(file, sets...) }
	if data != nil {
		load = func(sets ...scenarios.Set) (*scenarios.Scenario, error) { return scenarios.Parse(file, data, sets...) }
	}
	s, hasTopology, err := c.loadWith(load, sets)
	if err != nil {
		return nil, err
	}
	merged, err := c.merge(s.Source, hasTopology, s.Description)
	if err != nil {
		return nil, fmt.Errorf("%s: writing %s into the scenario: %w", s.File, c.label(), err)
	}
	s.Source = merged
	return s, nil
}

// merge is src with c's parts in place of its own, as c.sets writes them
// (the same fields, replaced or removed alike), and description.
func (c *Config) merge(src []byte, hasTopology bool, description string) ([]byte, error) {
	var root yaml.Node
	if err := yaml.Unmarshal(src, &root); err != nil {
		return nil, err
	}
	if root.Kind != yaml.DocumentNode || len(root.Content) != 1 || root.Content[0].Kind != yaml.MappingNode {
		return nil, errors.New("the scenario is not a mapping")
	}
	doc := root.Content[0]
	parts := importer.Parts(c.Model)
	put := func(key, value string) error {
		i := field(doc, key)
		if value == "" {
			if i >= 0 {
				doc.Content = append(doc.Content[:i], doc.Content[i+2:]...)
			}
			return nil
		}
		var n yaml.Node
		if err := yaml.Unmarshal([]byte(value), &n); err != nil {
			return fmt.Errorf("%s: %w", key, err)
		}
		v := n.Content[0]
		if i < 0 {
			doc.Content = append(doc.Content, &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: key}, v)
			i = len(doc.Content) - 2
		} else {
			doc.Content[i+1] = v
		}
		// A comment before the value's first line (the first item's origin)
		// belongs above the key, where yaml writes a document's head comment.
		if n.HeadComment != "" {
			doc.Content[i].HeadComment = strings.TrimSpace(doc.Content[i].HeadComment + "\n" + n.HeadComment)
		}
		return nil
	}
	var errs []error
	for _, f := range []string{"limits", "lanes", "chain", "overrides"} {
		errs = append(errs, put(f, parts[f]))
	}
	if t, ok := parts["topology"]; ok && !hasTopology {
		errs = append(errs, put("topology", t))
	}
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	desc := &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: description}
	if i := field(doc, "description"); i >= 0 {
		doc.Content[i+1] = desc
	} else {
		doc.Content = append(doc.Content, &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: "description"}, desc)
	}
	// Where a header read again lands: the document's, or the first key's.
	root.HeadComment = withoutHeader(root.HeadComment)
	if len(doc.Content) > 0 {
		doc.Content[0].HeadComment = withoutHeader(doc.Content[0].HeadComment)
	}
	doc.HeadComment = strings.TrimSpace(c.header() + "\n" + withoutHeader(doc.HeadComment))
	var b bytes.Buffer
	enc := yaml.NewEncoder(&b)
	enc.SetIndent(2)
	if err := enc.Encode(&root); err != nil {
		return nil, err
	}
	if err := enc.Close(); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// The header's first line begins with headerStart, its problems' with headerProblems.
const (
	headerStart    = "# The limits, lanes and chain are those of "
	headerProblems = " of its parts the scenario cannot say as the config does:"
)

// header says, as comments, whose limits and lanes the scenario holds and
// every part of the config the scenario cannot say.
func (c *Config) header() string {
	lines := []string{fmt.Sprintf("%s%s (%s), written in place of the scenario's own.", headerStart[2:], c.Path, c.Model.Product)}
	if n := len(c.Model.Problems); n > 0 {
		lines = append(lines, fmt.Sprintf("%d%s", n, headerProblems))
		for _, p := range c.Model.Problems {
			lines = append(lines, "  "+p.String())
		}
	}
	for i, l := range lines {
		lines[i] = "# " + strings.Map(func(r rune) rune {
			if r < ' ' {
				return ' '
			}
			return r
		}, l)
	}
	return strings.Join(lines, "\n")
}

// withoutHeader is comment without the header a config written in before
// left (a scenario the playground gave back, given a config again).
func withoutHeader(comment string) string {
	lines := strings.Split(comment, "\n")
	if !strings.HasPrefix(lines[0], headerStart) {
		return comment
	}
	i := 1
	if i < len(lines) && strings.HasSuffix(lines[i], headerProblems) {
		i++
		for i < len(lines) && strings.HasPrefix(lines[i], "#   ") {
			i++
		}
	}
	return strings.Join(lines[i:], "\n")
}

// field is the index in the mapping doc of key's key node, or -1.
func field(doc *yaml.Node, key string) int {
	for i := 0; i+1 < len(doc.Content); i += 2 {
		if doc.Content[i].Value == key {
			return i
		}
	}
	return -1
}
