package sweep

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"runtime/debug"
	"slices"
	"strings"

	"github.com/rlsim/rlsim/run"
)

// PartialVersion is the version of a sweep's partial result file. Version 2
// added the rlsim version, the sweep's definition digest and the content's
// checksum, all verified before a merge uses the file.
const PartialVersion = 2

// partialFile is a partial result as written: one shard's points of a sweep,
// sealed with two SHA-256 digests in hex. Definition is the digest of what
// makes two shards parts of one sweep (the header but its Arg, and the rlsim
// that ran it); Content is the checksum of the result itself (the canonical
// JSON of Result).
type partialFile struct {
	Partial    int    `json:"rlsim_sweep_partial"`
	Rlsim      string `json:"rlsim"`
	Definition string `json:"definition_sha256"`
	Content    string `json:"content_sha256"`
	Result
}

// buildVersion is this rlsim's version as its build records it: the module
// version and the VCS revision, "(devel)" when neither is known (go test).
func buildVersion() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return "(devel)"
	}
	v := bi.Main.Version
	if v == "" {
		v = "(devel)"
	}
	for _, s := range bi.Settings {
		if s.Key == "vcs.revision" {
			v += " " + s.Value
		}
	}
	return v
}

// WritePartial writes r, one shard's part of a sweep, for MergePartials.
func WritePartial(w io.Writer, r *Result) error {
	// The content is sealed as it reads back: a string that is not UTF-8, or
	// an infinity, is written as its JSON reads (U+FFFD, null).
	b, err := json.Marshal(r)
	if err != nil {
		return err
	}
	var canon Result
	if err := json.Unmarshal(b, &canon); err != nil {
		return fmt.Errorf("rlsim sweep: a partial result that does not read back: %w", err)
	}
	f := partialFile{Partial: PartialVersion, Rlsim: buildVersion(), Result: canon}
	if err := f.seal(); err != nil {
		return err
	}
	out, err := json.Marshal(f)
	if err != nil {
		return err
	}
	_, err = w.Write(append(out, '\n'))
	return err
}

// seal sets f's digests from its content.
func (f *partialFile) seal() error {
	var err error
	f.Definition, err = definitionDigest(f.Rlsim, f.Header)
	if err != nil {
		return err
	}
	f.Content, err = contentChecksum(&f.Result)
	return err
}

// definitionDigest is the SHA-256 of what two shards of one sweep share: the
// rlsim that ran them and the header without the scenario's argument, which
// may name one file by different paths.
func definitionDigest(rlsim string, h Header) (string, error) {
	h.Arg = ""
	b, err := json.Marshal(struct {
		Rlsim  string `json:"rlsim"`
		Header Header `json:"header"`
	}{rlsim, h})
	if err != nil {
		return "", err
	}
	return digest(b), nil
}

// contentChecksum is the SHA-256 of r's canonical JSON: the encoder's, which
// reads back to the same JSON.
func contentChecksum(r *Result) (string, error) {
	b, err := json.Marshal(r)
	if err != nil {
		return "", err
	}
	return digest(b), nil
}

// ReadPartial reads one partial result file and verifies it (decodePartial).
func ReadPartial(path string) (*Result, error) {
	p, err := readPartial(path)
	if err != nil {
		return nil, err
	}
	return &p.Result, nil
}

func readPartial(path string) (*partialFile, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, run.BadInputf("%s: %w", path, errors.Unwrap(err))
	}
	defer f.Close()
	return decodePartial(path, f)
}

// decodePartial reads one partial result from r, name naming it in errors,
// and verifies it whole before anything uses it: its version, its checksum
// and definition digest, and that it is what its header says it is (the
// shard's own points, each once, with the grid's values, one run per seed,
// every figure array as long as run.Figures). Every problem found is an
// *run.InputError naming name.
func decodePartial(name string, r io.Reader) (*partialFile, error) {
	var raw json.RawMessage
	dec := json.NewDecoder(r)
	if err := dec.Decode(&raw); err != nil {
		if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
			return nil, run.BadInputf("%s: not a whole partial result of rlsim sweep --shard (empty or truncated)", name)
		}
		return nil, run.BadInputf("%s: not a whole partial result of rlsim sweep --shard: %w", name, err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, run.BadInputf("%s: more after the partial result (two files joined in one?)", name)
	}
	var version struct {
		Partial int `json:"rlsim_sweep_partial"`
	}
	if json.Unmarshal(raw, &version) != nil || version.Partial == 0 {
		return nil, run.BadInputf("%s: not a partial result of rlsim sweep --shard", name)
	}
	if version.Partial != PartialVersion {
		return nil, run.BadInputf("%s: partial result version %d; this rlsim reads version %d: run the shards again with this rlsim", name, version.Partial, PartialVersion)
	}
	var f partialFile
	strict := json.NewDecoder(bytes.NewReader(raw))
	strict.DisallowUnknownFields()
	if err := strict.Decode(&f); err != nil {
		return nil, run.BadInputf("%s: not a whole partial result of rlsim sweep --shard: %w", name, err)
	}
	content, err := contentChecksum(&f.Result)
	if err != nil {
		return nil, run.BadInputf("%s: %w", name, err)
	}
	if content != f.Content {
		return nil, run.BadInputf("%s: the content does not match its checksum (content_sha256): the file was cut short or edited", name)
	}
	def, err := definitionDigest(f.Rlsim, f.Header)
	if err != nil {
		return nil, run.BadInputf("%s: %w", name, err)
	}
	if def != f.Definition {
		return nil, run.BadInputf("%s: the sweep's definition does not match its digest (definition_sha256): the file was edited", name)
	}
	if errs := f.check(); len(errs) > 0 {
		for i, e := range errs {
			errs[i] = fmt.Errorf("%s: %w", name, e)
		}
		return nil, run.BadInput(errors.Join(errs...))
	}
	return &f, nil
}

// maxPartialErrors is how many problems of one partial are listed.
const maxPartialErrors = 10

// check lists what in f is not what a sweep --shard writes, each problem
// named by its field, up to maxPartialErrors.
func (f *partialFile) check() []error {
	var errs []error
	add := func(format string, args ...any) bool {
		if len(errs) >= maxPartialErrors {
			if len(errs) == maxPartialErrors { // told once, and only when there are more
				errs = append(errs, errors.New("...; more problems, not listed"))
			}
			return false
		}
		errs = append(errs, fmt.Errorf(format, args...))
		return true
	}
	h := f.Header
	count, err := PointCount(h.Varies)
	switch {
	case err != nil:
		add("vary: %w", err)
	case h.PointCount != count:
		add("point_count: %d, but the varies make %d points", h.PointCount, count)
	}
	for i, v := range h.Varies {
		if v.Path == "" {
			add("vary[%d]: no path", i)
		}
	}
	if h.Seeds < 1 || h.Seeds > MaxSeeds {
		add("seeds: want 1 to %d, got %d", MaxSeeds, h.Seeds)
	} else if h.Seed > math.MaxUint64-uint64(h.Seeds-1) {
		add("seed, seeds: seeds %d to %d + %d pass the largest seed", h.Seed, h.Seed, h.Seeds-1)
	}
	sh, shErr := ParseShard(f.Shard)
	switch {
	case f.Shard == "":
		add("shard: none: not the result of one shard (--shard i/n)")
	case shErr != nil:
		add("%w", shErr)
	}
	if len(errs) > 0 {
		return errs // the points cannot be checked against a header in doubt
	}
	want := 0 // the points shard sh owns
	if sh.Index < count {
		want = (count-sh.Index-1)/sh.Count + 1
	}
	if len(f.Points) != want {
		if !add("points: %d, but shard %s of %s holds %d", len(f.Points), f.Shard, counted(count, "point"), want) {
			return errs
		}
	}
	prev := -1
	lanesAt := -1 // the first point whose runs are whole
	for i, pt := range f.Points {
		at := fmt.Sprintf("points[%d]", i)
		switch {
		case pt.Index < 0 || pt.Index >= count:
			if !add("%s: index %d, outside the sweep's %s", at, pt.Index, counted(count, "point")) {
				return errs
			}
			continue
		case pt.Index <= prev:
			if !add("%s: index %d after %d: each point once, in grid order", at, pt.Index, prev) {
				return errs
			}
			continue
		case !sh.owns(pt.Index):
			if !add("%s: point %d is not shard %s's", at, pt.Index, f.Shard) {
				return errs
			}
			continue
		}
		prev = pt.Index
		if v := pointValues(h.Varies, pt.Index); !slices.Equal(pt.Values, v) {
			if !add("%s: values %q, but point %d of the grid is %q", at, pt.Values, pt.Index, v) {
				return errs
			}
		}
		runErrs := checkRuns(pt, h.Seed, h.Seeds)
		if len(runErrs) == 0 {
			if lanesAt < 0 {
				lanesAt = i
			} else if n, want := len(pt.Runs[0].Lanes), len(f.Points[lanesAt].Runs[0].Lanes); n != want {
				runErrs = append(runErrs, fmt.Errorf("%d lanes, but points[%d] has %d: every point runs the same lanes", n, lanesAt, want))
			}
		}
		for _, e := range runErrs {
			if !add("%s: %w", at, e) {
				return errs
			}
		}
	}
	return errs
}

// pointValues is point i of the grid of varies, as Grid lists it.
func pointValues(varies []Vary, i int) []string {
	point := make([]string, len(varies))
	for j := len(varies) - 1; j >= 0; j-- {
		k := len(varies[j].Values)
		point[j] = varies[j].Values[i%k]
		i /= k
	}
	return point
}

// checkRuns lists what in one point's runs a sweep does not write: one run
// per seed in order, each with the same lanes, each lane with the same
// classes, every figure array as long as run.Figures.
func checkRuns(pt PointResult, seed uint64, seeds int) []error {
	if len(pt.Runs) != seeds {
		return []error{fmt.Errorf("%d runs, want one per seed, %d", len(pt.Runs), seeds)}
	}
	var errs []error
	first := pt.Runs[0].Lanes
	if len(first) == 0 {
		return []error{fmt.Errorf("runs[0]: no lanes")}
	}
	for k, r := range pt.Runs {
		at := fmt.Sprintf("runs[%d]", k)
		if r.Seed != seed+uint64(k) {
			errs = append(errs, fmt.Errorf("%s: seed %d, want %d", at, r.Seed, seed+uint64(k)))
		}
		if len(r.Lanes) != len(first) {
			errs = append(errs, fmt.Errorf("%s: %d lanes, but runs[0] has %d", at, len(r.Lanes), len(first)))
			continue
		}
		for li, l := range r.Lanes {
			at := fmt.Sprintf("%s.lanes[%d]", at, li)
			if l.Lane != first[li].Lane {
				errs = append(errs, fmt.Errorf("%s: lane %q, but runs[0] has %q", at, l.Lane, first[li].Lane))
			}
			if len(l.Totals) != len(run.Figures) {
				errs = append(errs, fmt.Errorf("%s.totals: %d figures, want %d", at, len(l.Totals), len(run.Figures)))
			}
			if !slices.EqualFunc(l.Classes, first[0].Classes, func(a, b run.ClassFigures) bool { return a.Name == b.Name }) {
				errs = append(errs, fmt.Errorf("%s.classes: %s, but runs[0].lanes[0] has %s", at, classNames(l.Classes), classNames(first[0].Classes)))
				continue
			}
			for ci, c := range l.Classes {
				if len(c.Values) != len(run.Figures) {
					errs = append(errs, fmt.Errorf("%s.classes[%d].values: %d figures, want %d", at, ci, len(c.Values), len(run.Figures)))
				}
			}
		}
	}
	return errs
}

func classNames(cs []run.ClassFigures) string {
	var names []string
	for _, c := range cs {
		names = append(names, fmt.Sprintf("%q", c.Name))
	}
	return "[" + strings.Join(names, " ") + "]"
}

// MergePartials combines the partial results of every shard of one sweep
// into the result a single machine's sweep gives. Each file is verified
// whole first (decodePartial); then it refuses partials of different sweeps,
// a shard given twice and a sweep with shards missing, naming the files.
// Every problem is reported at once, as an *run.InputError.
func MergePartials(paths []string) (*Result, error) {
	if len(paths) == 0 {
		return nil, run.BadInputf("rlsim sweep merge: no partial result files given")
	}
	var parts []*partialFile
	var errs []error
	for _, path := range paths {
		p, err := readPartial(path)
		parts = append(parts, p)
		errs = append(errs, err)
	}
	return merge(paths, parts, errs)
}

// merge is MergePartials of parts read from names, errs the errors of those
// that could not be read (nil parts).
func merge(names []string, parts []*partialFile, errs []error) (*Result, error) {
	first := slices.IndexFunc(parts, func(p *partialFile) bool { return p != nil })
	var sh0 Shard
	byShard := map[int]string{}
	for i, p := range parts {
		if p == nil {
			continue
		}
		sh, _ := ParseShard(p.Shard) // verified by decodePartial
		if i == first {
			sh0 = sh
		}
		ref := parts[first]
		switch {
		case p.Definition != ref.Definition:
			errs = append(errs, fmt.Errorf("%s: a part of another sweep than %s (%s)", names[i], names[first], differences(ref, p)))
		case sh.Count != sh0.Count:
			errs = append(errs, fmt.Errorf("%s: shard %s of a sweep split in %d, not %d like %s", names[i], p.Shard, sh.Count, sh0.Count, names[first]))
		case byShard[sh.Index] != "":
			errs = append(errs, fmt.Errorf("%s: shard %s is also in %s", names[i], p.Shard, byShard[sh.Index]))
		case len(p.Points) > 0 && len(ref.Points) > 0 && len(p.Points[0].Runs[0].Lanes) != len(ref.Points[0].Runs[0].Lanes):
			errs = append(errs, fmt.Errorf("%s: %d lanes, but %s has %d: every point runs the same lanes", names[i], len(p.Points[0].Runs[0].Lanes), names[first], len(ref.Points[0].Runs[0].Lanes)))
		default:
			byShard[sh.Index] = names[i]
		}
	}
	if err := errors.Join(errs...); err != nil {
		return nil, run.BadInput(err)
	}
	var missing []string
	for i := range sh0.Count { // at most MaxPoints: verified
		if byShard[i] == "" {
			missing = append(missing, fmt.Sprintf("%d/%d", i, sh0.Count))
		}
	}
	if len(missing) > 0 {
		list := fmt.Sprint(missing)
		if len(missing) > maxPointErrors {
			list = fmt.Sprint(missing[:maxPointErrors]) + fmt.Sprintf(" and %d more", len(missing)-maxPointErrors)
		}
		return nil, run.BadInputf("rlsim sweep merge: shards %s are missing (the partials given are %d of the %d shards of %s's sweep)", list, len(byShard), sh0.Count, names[first])
	}
	ref := parts[first]
	out := &Result{Header: ref.Header, Points: make([]PointResult, ref.PointCount)}
	placed := 0
	for _, p := range parts {
		for _, pt := range p.Points {
			out.Points[pt.Index] = pt // each point once: every shard once, each its own points
			placed++
		}
	}
	if placed != ref.PointCount { // cannot happen after the checks above; never a table with holes
		return nil, run.BadInputf("rlsim sweep merge: the partials hold %d of the sweep's %d points", placed, ref.PointCount)
	}
	return out, nil
}

// differences names what differs between the definitions of a and b.
func differences(a, b *partialFile) string {
	var out []string
	diff := func(what string, x, y any) {
		bx, _ := json.Marshal(x)
		by, _ := json.Marshal(y)
		if !bytes.Equal(bx, by) {
			out = append(out, fmt.Sprintf("%s %s, not %s", what, by, bx))
		}
	}
	diff("rlsim", a.Rlsim, b.Rlsim)
	diff("scenario", a.Scenario, b.Scenario)
	diff("scenario source SHA-256", a.SourceSHA256, b.SourceSHA256)
	diff("--set", a.Sets, b.Sets)
	diff("--lanes", a.Lanes, b.Lanes)
	diff("--duration", a.Duration, b.Duration)
	diff("--vary", a.Varies, b.Varies)
	diff("--seed", a.Seed, b.Seed)
	diff("--seeds", a.Seeds, b.Seeds)
	if len(out) == 0 {
		return "their definitions differ"
	}
	return strings.Join(out, "; ")
}
