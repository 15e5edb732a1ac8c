package diff

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"

	"github.com/rlsim/rlsim/report/textlayout"
	"github.com/rlsim/rlsim/run"
)

// WriteText writes r as a table per pair, its classes and top keys, then
// the --fail-on results.
func WriteText(w io.Writer, r *Report) error {
	var b bytes.Buffer
	on := "scenario " + r.On
	if r.Mode == "log" {
		on = fmt.Sprintf("log %s (%d requests)", r.On, r.Requests)
	}
	fmt.Fprintf(&b, "rlsim diff: current %s, proposed %s, on %s\n", r.Current, r.Proposed, on)
	reqs := "requests"
	if r.Mode == "log" {
		reqs = "peak/window"
	}
	for i := range r.Pairs {
		p := &r.Pairs[i]
		fmt.Fprintf(&b, "\n%s\n", p.where())
		t := textlayout.Table{Head: []string{"", "current", "proposed", "change"}}
		t.Add("refused", n(p.RefusedCurrent), n(p.RefusedProposed), signed(p.RefusedDelta))
		t.Add("keys refused", n(int64(p.KeysRefusedCurrent)), n(int64(p.KeysRefusedProposed)), signed(int64(p.KeysRefusedProposed-p.KeysRefusedCurrent)))
		t.Add("newly refused requests", "", "", n(p.NewlyRefused))
		t.Add("newly admitted requests", "", "", n(p.NewlyAdmitted))
		t.Add("keys newly refused", "", "", n(int64(p.NewlyRefusedKeys)))
		t.Add(fmt.Sprintf("  of them at most the p99 (%d %s)", p.P99, reqs), "", "", n(int64(p.NewlyRefusedKeysBelowP99)))
		t.Add("keys newly admitted", "", "", n(int64(p.NewlyAdmittedKeys)))
		peak := "peak admitted in a window"
		if r.Mode == "log" {
			peak = "peak sent in a window"
		}
		t.Add(peak, n(p.PeakCurrent), n(p.PeakProposed), signed(p.PeakDelta))
		if r.Mode == "scenario" {
			t.Add("store calls", n(p.StoreCallsCurrent), n(p.StoreCallsProposed), signed(p.StoreCallsDelta))
		}
		t.Write(&b)
		if len(p.Classes) > 0 {
			b.WriteString("\n")
			ct := textlayout.Table{Head: []string{"class", "refused", "proposed", "newly refused", "newly admitted", "keys newly refused", "keys newly admitted"}}
			for _, c := range p.Classes {
				ct.Add(c.Class, n(c.RefusedCurrent), n(c.RefusedProposed), n(c.NewlyRefused), n(c.NewlyAdmitted),
					n(int64(c.NewlyRefusedKeys)), n(int64(c.NewlyAdmittedKeys)))
			}
			ct.Write(&b)
		}
		for _, list := range []struct {
			title string
			keys  []KeyDiff
		}{{"top keys refused more", p.TopRefused}, {"top keys refused less", p.TopAdmitted}} {
			if len(list.keys) == 0 {
				continue
			}
			fmt.Fprintf(&b, "\n%s:\n", list.title)
			kt := textlayout.Table{Head: []string{"key", "classes", reqs, "refused", "proposed", "change", ""}, Left: 2}
			if r.Mode == "log" { // a log has no classes
				kt = textlayout.Table{Head: []string{"key", reqs, "refused", "proposed", "change", ""}}
			}
			for _, k := range list.keys {
				row := []string{k.Key, k.Classes, n(k.Requests), n(k.RefusedCurrent), n(k.RefusedProposed),
					signed(k.RefusedProposed - k.RefusedCurrent), k.status()}
				if r.Mode == "log" {
					row = append(row[:1], row[2:]...)
				}
				kt.Add(row...)
			}
			kt.Write(&b)
		}
	}
	if len(r.Notes)+len(r.Unpaired) > 0 {
		b.WriteString("\n")
	}
	for _, note := range r.Notes {
		fmt.Fprintf(&b, "note: %s\n", note)
	}
	for _, u := range r.Unpaired {
		fmt.Fprintf(&b, "not compared: %s (on one side only)\n", u)
	}
	if len(r.FailOn) > 0 {
		b.WriteString("\nfail-on:\n")
		for _, f := range r.FailOn {
			if f.Failed {
				fmt.Fprintf(&b, "  FAIL  %s\n", f.Message())
				continue
			}
			fmt.Fprintf(&b, "  ok    %s\n", f.Text)
		}
		fmt.Fprintf(&b, "%d of %d failed\n", r.Failed, len(r.FailOn))
	}
	_, err := w.Write(b.Bytes())
	return err
}

// status says what the change is to the key: newly refused (from none),
// newly admitted (to none), or neither.
func (k KeyDiff) status() string {
	switch {
	case k.RefusedCurrent == 0 && k.RefusedProposed > 0:
		return "newly refused"
	case k.RefusedCurrent > 0 && k.RefusedProposed == 0:
		return "newly admitted"
	}
	return ""
}

func n(v int64) string { return strconv.FormatInt(v, 10) }

func signed(v int64) string {
	if v > 0 {
		return "+" + n(v)
	}
	return n(v)
}

// WriteJSON writes r as one indented JSON document (version Version).
func WriteJSON(w io.Writer, r *Report) error {
	b, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return err
	}
	_, err = w.Write(append(b, '\n'))
	return err
}

// JUnitSuites is the name of the JUnit document's root: WriteJUnit replaces
// only a file whose root has it, a report rlsim diff wrote.
const JUnitSuites = "rlsim diff"

type junitSuites struct {
	XMLName  xml.Name     `xml:"testsuites"`
	Name     string       `xml:"name,attr"`
	Tests    int          `xml:"tests,attr"`
	Failures int          `xml:"failures,attr"`
	Suites   []junitSuite `xml:"testsuite"`
}

type junitSuite struct {
	Name     string      `xml:"name,attr"`
	Tests    int         `xml:"tests,attr"`
	Failures int         `xml:"failures,attr"`
	Cases    []junitCase `xml:"testcase"`
}

type junitCase struct {
	Name      string        `xml:"name,attr"`
	Classname string        `xml:"classname,attr"`
	Failure   *junitFailure `xml:"failure"`
	Out       string        `xml:"system-out,omitempty"`
}

type junitFailure struct {
	Message string `xml:"message,attr"`
	Type    string `xml:"type,attr"`
	Text    string `xml:",chardata"`
}

// JUnit is r's --fail-on results as JUnit XML: one testcase per expression,
// failed with the values that met it, every pair's value in its output.
func JUnit(r *Report) []byte {
	s := junitSuite{Name: "rlsim diff " + r.Current.Arg + " " + r.Proposed.Arg + " on " + r.On}
	for _, f := range r.FailOn {
		c := junitCase{Name: f.Text, Classname: "rlsim.diff"}
		var out bytes.Buffer
		for _, v := range f.Values {
			fmt.Fprintf(&out, "%s = %s (%s)\n", f.Metric, v.Shown, v.Where)
		}
		c.Out = out.String()
		if f.Failed {
			s.Failures++
			c.Failure = &junitFailure{Message: f.Message(), Type: "fail-on", Text: f.Message()}
		}
		s.Tests++
		s.Cases = append(s.Cases, c)
	}
	doc := junitSuites{Name: JUnitSuites, Tests: s.Tests, Failures: s.Failures, Suites: []junitSuite{s}}
	b, err := xml.MarshalIndent(doc, "", "  ")
	if err != nil {
		panic("diff.JUnit: " + err.Error()) // plain strings and ints always marshal
	}
	return append(append([]byte(xml.Header), b...), '\n')
}

// WriteJUnit writes r's JUnit XML to path through a temporary file beside
// it, renamed into place. It refuses, as an *run.InputError, to replace a
// file that is not a JUnit report rlsim diff wrote (root testsuites named
// JUnitSuites), or a directory.
func WriteJUnit(path string, r *Report) error {
	if err := CheckJUnit(path); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return run.CouldNotFinish(fmt.Errorf("--junit %s: %w", path, err))
	}
	_, err = tmp.Write(JUnit(r))
	if err == nil {
		err = tmp.Chmod(0o644) // CreateTemp's file is private; a report is not
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), path)
	}
	if err != nil {
		os.Remove(tmp.Name())
		return run.CouldNotFinish(fmt.Errorf("--junit %s: %w", path, err))
	}
	return nil
}

// CheckJUnit reports, as an *run.InputError, why path may not be written
// as the JUnit report: its folder is missing, or it is a directory or a file
// that is not rlsim diff's JUnit report. The command checks it before it runs.
func CheckJUnit(path string) error {
	if st, err := os.Stat(filepath.Dir(path)); err != nil || !st.IsDir() {
		return run.BadInputf("--junit %s: no folder %s to write it in", path, filepath.Dir(path))
	}
	st, err := os.Stat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return run.BadInputf("--junit %s: %v", path, err)
	}
	if !st.Mode().IsRegular() {
		return run.BadInputf("--junit %s: exists and is not a file", path)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return run.BadInputf("--junit %s: %v", path, err)
	}
	var doc junitSuites
	if xml.Unmarshal(data, &doc) != nil || doc.Name != JUnitSuites {
		return run.BadInputf("--junit %s: exists and is not a JUnit report rlsim diff wrote; choose another name or remove it: rlsim never replaces files it did not write", path)
	}
	return nil
}
