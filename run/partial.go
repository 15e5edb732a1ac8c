package run

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"sort"
)

// PartialVersion is the version of a sweep's partial result file.
const PartialVersion = 1

// partialFile is a partial result as written: one shard's points of a sweep.
type partialFile struct {
	Partial int `json:"rlsim_sweep_partial"`
	SweepResult
}

// WritePartial writes r, one shard's part of a sweep, for MergePartials.
func WritePartial(w io.Writer, r *SweepResult) error {
	b, err := json.Marshal(partialFile{Partial: PartialVersion, SweepResult: *r})
	if err != nil {
		return err
	}
	_, err = w.Write(append(b, '\n'))
	return err
}

// ReadPartial reads one partial result file.
func ReadPartial(path string) (*SweepResult, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, BadInputf("%s: %v", path, err)
	}
	var f partialFile
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&f); err != nil || f.Partial == 0 {
		return nil, BadInputf("%s: not a partial result of rlsim sweep --shard", path)
	}
	if f.Partial != PartialVersion {
		return nil, BadInputf("%s: partial result version %d; this rlsim reads version %d", path, f.Partial, PartialVersion)
	}
	return &f.SweepResult, nil
}

// MergePartials combines the partial results of every shard of one sweep
// into the result a single machine's sweep gives. It refuses partials of
// different sweeps, a shard given twice and a sweep with shards missing,
// naming the files.
func MergePartials(paths []string) (*SweepResult, error) {
	var parts []*SweepResult
	var errs []error
	for _, p := range paths {
		r, err := ReadPartial(p)
		errs = append(errs, err)
		parts = append(parts, r)
	}
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	if len(parts) == 0 {
		return nil, BadInputf("rlsim sweep merge: no partial result files given")
	}
	first := headerKey(parts[0].Header)
	var count int
	byShard := map[int]string{}
	for i, r := range parts {
		if !bytes.Equal(headerKey(r.Header), first) {
			errs = append(errs, fmt.Errorf("%s: a part of another sweep than %s (scenario, flags or seeds differ)", paths[i], paths[0]))
			continue
		}
		sh, err := ParseShard(r.Shard)
		if err != nil {
			errs = append(errs, fmt.Errorf("%s: not the result of one shard (--shard i/n)", paths[i]))
			continue
		}
		if count == 0 {
			count = sh.Count
		}
		if sh.Count != count {
			errs = append(errs, fmt.Errorf("%s: shard %s of a sweep split in %d, not %d like %s", paths[i], r.Shard, sh.Count, count, paths[0]))
			continue
		}
		if other, dup := byShard[sh.Index]; dup {
			errs = append(errs, fmt.Errorf("%s: shard %s is also in %s", paths[i], r.Shard, other))
			continue
		}
		byShard[sh.Index] = paths[i]
	}
	if err := errors.Join(errs...); err != nil {
		return nil, BadInput(err)
	}
	var missing []string
	for i := range count {
		if _, ok := byShard[i]; !ok {
			missing = append(missing, fmt.Sprintf("%d/%d", i, count))
		}
	}
	if len(missing) > 0 {
		return nil, BadInputf("rlsim sweep merge: shards %v are missing", missing)
	}
	out := &SweepResult{Header: parts[0].Header}
	for _, r := range parts {
		out.Points = append(out.Points, r.Points...)
	}
	sort.Slice(out.Points, func(i, j int) bool { return out.Points[i].Index < out.Points[j].Index })
	for i, p := range out.Points {
		if p.Index != i {
			return nil, BadInputf("rlsim sweep merge: point %d is missing from the partials", i)
		}
	}
	if len(out.Points) != out.PointCount {
		return nil, BadInputf("rlsim sweep merge: the partials hold %d of the sweep's %d points", len(out.Points), out.PointCount)
	}
	return out, nil
}

// headerKey is what two shards of one sweep share: the header without the
// scenario's argument, which may name one file by different paths.
func headerKey(h Header) []byte {
	h.Arg = ""
	b, _ := json.Marshal(h)
	return b
}
