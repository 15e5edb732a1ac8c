//go:build ignore

// Run plants each change listed in mutants.txt, one at a time, in a scratch
// copy of a base tree, runs the tests of the packages it names and reports
// which changes the tests caught and which survived. It is slow (one test build
// per package per change) and not part of CI:
//
//	git -C /work/main archive HEAD | tar -x -C /tmp/mutbase
//	go run internal/mutants/run.go -base /tmp/mutbase [-j 2] [-only id,id] internal/mutants/mutants.txt
//
// A change whose snippet is not found exactly once in its file stops the run
// before any test (the list is stale). A change that does not compile is
// reported as broken, neither caught nor survived.
package main

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"time"
)

type mutant struct {
	id, file, old, new, why string
	pkgs                    []string
	line                    int // of its id in the list
}

func main() {
	base := flag.String("base", "/tmp/mutbase", "the tree to copy (committed code only)")
	scratch := flag.String("scratch", "/tmp/mutwork", "where the copies go")
	jobs := flag.Int("j", 2, "changes tested at once")
	only := flag.String("only", "", "comma-separated ids to run (default: all)")
	timeout := flag.Duration("timeout", 6*time.Minute, "per change")
	flag.Parse()
	if flag.NArg() != 1 {
		fmt.Fprintln(os.Stderr, "usage: go run internal/mutants/run.go [flags] mutants.txt")
		os.Exit(2)
	}
	ms, err := parse(flag.Arg(0))
	if err == nil {
		err = check(*base, ms)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	if *only != "" {
		want := map[string]bool{}
		for _, id := range strings.Split(*only, ",") {
			want[id] = true
		}
		var kept []mutant
		for _, m := range ms {
			if want[m.id] {
				kept = append(kept, m)
			}
		}
		ms = kept
	}
	if err := os.MkdirAll(*scratch, 0o755); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	results := make([]string, len(ms))
	sem := make(chan struct{}, max(*jobs, 1))
	var wg sync.WaitGroup
	var mu sync.Mutex
	for i, m := range ms {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			start := time.Now()
			verdict, detail := try(*base, *scratch, m, *timeout)
			results[i] = verdict
			mu.Lock()
			fmt.Printf("%-9s %-34s %6.1fs %s\n", verdict, m.id, time.Since(start).Seconds(), detail)
			mu.Unlock()
		}()
	}
	wg.Wait()
	counts := map[string]int{}
	var survivors []string
	for i, r := range results {
		counts[r]++
		if r == "SURVIVED" {
			survivors = append(survivors, ms[i].id)
		}
	}
	valid := counts["caught"] + counts["SURVIVED"]
	fmt.Printf("\n%d changes: %d caught, %d survived, %d broken", len(ms), counts["caught"], counts["SURVIVED"], counts["broken"])
	if valid > 0 {
		fmt.Printf(" (%.1f%% of those that compile caught)", 100*float64(counts["caught"])/float64(valid))
	}
	fmt.Println()
	if len(survivors) > 0 {
		fmt.Println("survivors:", strings.Join(survivors, ", "))
		os.Exit(1)
	}
}

// parse reads the list: blocks of "key: value" lines, one block per change,
// blank lines between blocks, # comments. old and new are the rest of their line
// after "old: " and "new: ", taken exactly (tabs and spaces kept); "\n" in them
// stands for a line break, "\t" for a tab.
func parse(path string) ([]mutant, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var ms []mutant
	var cur *mutant
	var errs []error
	sc := bufio.NewScanner(f)
	n := 0
	unescape := strings.NewReplacer(`\n`, "\n", `\t`, "\t").Replace
	for sc.Scan() {
		n++
		line := sc.Text()
		if strings.HasPrefix(line, "#") {
			continue
		}
		if strings.TrimSpace(line) == "" {
			cur = nil
			continue
		}
		key, val, ok := strings.Cut(line, ": ")
		if !ok {
			errs = append(errs, fmt.Errorf("%s:%d: want key: value", path, n))
			continue
		}
		if cur == nil {
			if key != "id" {
				errs = append(errs, fmt.Errorf("%s:%d: a change starts with id:", path, n))
				continue
			}
			ms = append(ms, mutant{line: n})
			cur = &ms[len(ms)-1]
		}
		switch key {
		case "id":
			cur.id = val
		case "file":
			cur.file = val
		case "pkgs":
			cur.pkgs = strings.Fields(val)
		case "why":
			cur.why = val
		case "old":
			cur.old = unescape(val)
		case "new":
			cur.new = unescape(val)
		default:
			errs = append(errs, fmt.Errorf("%s:%d: unknown key %q", path, n, key))
		}
	}
	seen := map[string]bool{}
	for _, m := range ms {
		if m.id == "" || m.file == "" || m.old == "" || len(m.pkgs) == 0 || m.old == m.new {
			errs = append(errs, fmt.Errorf("%s:%d: a change needs id, file, pkgs, old and a different new", path, m.line))
		}
		if seen[m.id] {
			errs = append(errs, fmt.Errorf("%s:%d: id %q used twice", path, m.line, m.id))
		}
		seen[m.id] = true
	}
	return ms, errors.Join(append(errs, sc.Err())...)
}

// check makes sure every snippet occurs exactly once in its file of base.
func check(base string, ms []mutant) error {
	var errs []error
	for _, m := range ms {
		b, err := os.ReadFile(filepath.Join(base, m.file))
		if err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", m.id, err))
			continue
		}
		if n := strings.Count(string(b), m.old); n != 1 {
			errs = append(errs, fmt.Errorf("%s: %s holds its snippet %d times, want once: %q", m.id, m.file, n, m.old))
		}
	}
	return errors.Join(errs...)
}

// try copies base (hard links: only the changed file is rewritten), plants m
// and runs its packages' tests.
func try(base, scratch string, m mutant, timeout time.Duration) (verdict, detail string) {
	dir := filepath.Join(scratch, m.id)
	os.RemoveAll(dir)
	defer os.RemoveAll(dir)
	if out, err := exec.Command("cp", "-al", base, dir).CombinedOutput(); err != nil {
		return "broken", fmt.Sprintf("copy: %v %s", err, strings.TrimSpace(string(out)))
	}
	path := filepath.Join(dir, m.file)
	b, err := os.ReadFile(path)
	if err != nil {
		return "broken", err.Error()
	}
	os.Remove(path) // break the hard link before writing
	if err := os.WriteFile(path, []byte(strings.Replace(string(b), m.old, m.new, 1)), 0o644); err != nil {
		return "broken", err.Error()
	}
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	args := append([]string{"test", "-count=1", "-p=1", "-timeout", timeout.String()}, m.pkgs...)
	cmd := exec.CommandContext(ctx, "go", args...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	text := string(out)
	switch {
	case err == nil:
		return "SURVIVED", strings.Join(m.pkgs, " ")
	case strings.Contains(text, "[build failed]") || strings.Contains(text, "[setup failed]"):
		return "broken", firstLine(text)
	case ctx.Err() != nil:
		return "caught", "timed out"
	}
	return "caught", firstFail(text)
}

func firstLine(s string) string {
	l, _, _ := strings.Cut(s, "\n")
	return l
}

// firstFail is the first failing test's name, to show what caught the change.
func firstFail(s string) string {
	for _, l := range strings.Split(s, "\n") {
		if t := strings.TrimSpace(l); strings.HasPrefix(t, "--- FAIL:") {
			return t
		}
	}
	return firstLine(s)
}
