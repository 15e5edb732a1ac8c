package importer

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// MaxConfigSize is the most bytes Import reads of one config file, and of
// all the files it includes together.
const MaxConfigSize = 10 << 20

// MaxIncludes is the most files one import reads.
const MaxIncludes = 1000

// Source is a config to import.
type Source struct {
	Path string // the file's name, as errors and comments give it
	Data []byte // its content
	// Read reads a file the config includes, by its path (relative to the
	// directory of Path when not absolute); nil: an include is a Problem.
	Read func(path string) ([]byte, error)
}

// SourceFile is the config at path, its includes read from the disk.
func SourceFile(path string) (Source, error) {
	data, err := readCapped(path)
	if err != nil {
		return Source{}, err
	}
	return Source{Path: path, Data: data, Read: readCapped}, nil
}

func readCapped(path string) ([]byte, error) {
	info, err := os.Stat(path)
	if err == nil && info.Mode().IsRegular() && info.Size() > MaxConfigSize {
		return nil, fmt.Errorf("%s: larger than %d MB, the most a config may hold", path, MaxConfigSize>>20)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", path, unwrapPath(err))
	}
	return data, nil
}

func unwrapPath(err error) error {
	if pe, ok := err.(*os.PathError); ok {
		return pe.Err
	}
	return err
}

// SyntaxError is a config that cannot be read at all: every problem found,
// each at its file and line.
type SyntaxError struct {
	Product  string
	Problems []Problem
}

func (e *SyntaxError) Error() string {
	s := make([]string, len(e.Problems))
	for i, p := range e.Problems {
		s[i] = p.String()
	}
	return strings.Join(s, "\n")
}

// product is one config format Import reads.
type product struct {
	name   string
	detect func(path string, data []byte) bool
	read   func(src Source) (*Model, error) // a *SyntaxError when the file cannot be read
}

// products is every format, in the order auto-detection tries them.
var products []product

// register adds a product's reader; each product's file calls it in init.
func register(p product) { products = append(products, p) }

// Products names the formats Import reads (--from), in order.
func Products() []string {
	names := make([]string, len(products))
	for i, p := range products {
		names[i] = p.name
	}
	slices.Sort(names)
	return names
}

// Import reads src as the product from names ("" or "auto": detected).
func Import(src Source, from string) (*Model, error) {
	if len(src.Data) > MaxConfigSize {
		return nil, fmt.Errorf("%s: larger than %d MB, the most a config may hold", src.Path, MaxConfigSize>>20)
	}
	p, err := pick(src, from)
	if err != nil {
		return nil, err
	}
	m, err := p.read(src)
	if err != nil {
		return nil, err
	}
	m.Product = p.name
	if len(m.Files) == 0 {
		m.Files = []string{src.Path}
	}
	if len(m.Limits) == 0 && len(m.Lanes) == 0 {
		return nil, &SyntaxError{Product: p.name, Problems: append(m.Problems,
			Problem{At: Origin{File: src.Path}, Message: fmt.Sprintf("no rate limit found in this %s config", productTitle(p.name))})}
	}
	return m, nil
}

func pick(src Source, from string) (product, error) {
	if from != "" && from != "auto" {
		for _, p := range products {
			if p.name == from {
				return p, nil
			}
		}
		return product{}, fmt.Errorf("--from %s: unknown (want auto, %s)", from, strings.Join(Products(), ", "))
	}
	for _, p := range products {
		if p.detect(src.Path, src.Data) {
			return p, nil
		}
	}
	return product{}, fmt.Errorf("%s: not a config rlsim can tell (it reads %s); --from names the product", src.Path, strings.Join(Products(), ", "))
}

// Detected names the product src would be read as, or "".
func Detected(src Source) string {
	for _, p := range products {
		if p.detect(src.Path, src.Data) {
			return p.name
		}
	}
	return ""
}

// ext is path's extension, lower case, without the dot.
func ext(path string) string { return strings.ToLower(strings.TrimPrefix(filepath.Ext(path), ".")) }

// containsAny reports whether data holds one of words.
func containsAny(data []byte, words ...string) bool {
	for _, w := range words {
		if bytes.Contains(data, []byte(w)) {
			return true
		}
	}
	return false
}

// resolve is an included path as Read takes it: relative to the including file's directory.
func resolve(from, path string) string {
	if filepath.IsAbs(path) {
		return path
	}
	return filepath.Join(filepath.Dir(from), path)
}
