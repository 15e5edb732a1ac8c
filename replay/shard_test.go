package replay

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/quick"
	"time"

	"github.com/rlsim/rlsim/run"
)

// writeShardLog writes a generated combined log (documentation addresses)
// that exercises every figure a merge sums up: a heavy hitter and many light
// keys, users, a /login endpoint, lines out of order within --late and lines
// too late, bad lines (more than 10% with bad set: a warning), several hours
// with idle gaps, so that keys retire and come back as new episodes.
func writeShardLog(w *bytes.Buffer, n int, seed uint64, bad bool) {
	rng := rand.New(rand.NewPCG(seed, 7))
	start := time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)
	at := start
	users := []string{"-", "alice", "bob", "carol", "dave", "erin"}
	paths := []string{"/api/users/%d", "/login", "/health", "/api/orders/%d?x=1"}
	for i := range n {
		step := time.Duration(rng.IntN(400)) * time.Millisecond
		if rng.IntN(500) == 0 {
			step = time.Duration(5+rng.IntN(40)) * time.Minute // an idle gap: keys retire
		}
		at = at.Add(step)
		t := at
		switch r := rng.IntN(100); {
		case r < 4:
			t = at.Add(-time.Duration(rng.IntN(3000)) * time.Millisecond) // within --late
		case r < 5:
			t = at.Add(-20 * time.Second) // more than --late behind
		}
		if bad && rng.IntN(7) == 0 || rng.IntN(200) == 0 {
			fmt.Fprintf(w, "garbage line %d\n", i)
			continue
		}
		ip := fmt.Sprintf("198.51.100.%d", rng.IntN(30))
		if rng.IntN(4) == 0 {
			ip = "203.0.113.66"
		} else if rng.IntN(3) == 0 {
			ip = fmt.Sprintf("192.0.2.%d", rng.IntN(250))
		}
		path := paths[rng.IntN(len(paths))]
		if strings.Contains(path, "%d") {
			path = fmt.Sprintf(path, rng.IntN(50))
		}
		method := "GET"
		if path == "/login" {
			method = "POST"
		}
		fmt.Fprintf(w, "%s - %s [%s] \"%s %s HTTP/1.1\" 200 %d \"-\" \"curl/8.5\"\n",
			ip, users[rng.IntN(len(users))], t.Format("02/Jan/2006:15:04:05 -0700"), method, path, 100+rng.IntN(900))
	}
}

// shardFlags are the flags of the replays the merge tests run: several
// limits (one on an endpoint), a --vary with --find, a small --top.
func shardFlags(where bool) Flags {
	f := Flags{Limits: []string{"key=ip limit=4/1m burst=2", "key=user limit=3/1s", "key=ip+endpoint limit=2/10s endpoint=/login"},
		LogFormat: "auto", TZ: "UTC", Late: 5 * time.Second, LegitBelow: 0.5, Top: 3, Format: "text",
		Vary: "limits[0].limit=2..12/5", Find: "min limits[0].limit"}
	if where {
		f.Where = []string{"keys_refused <= 40", "lane gcra refused_share <= 30%"}
	}
	return f
}

// onePassAndMerge replays log in one pass and as n shards merged, and
// returns both renderings (and the merged Result).
func onePassAndMerge(t *testing.T, log []byte, f Flags, n int) (whole, merged Outputs, m *Merged) {
	t.Helper()
	o, err := f.Options()
	if err != nil {
		t.Fatal(err)
	}
	in := func() []Input { return []Input{{Name: "access.log", R: bytes.NewReader(log)}} }
	res, err := Replay(context.Background(), in(), o)
	if err != nil {
		t.Fatal(err)
	}
	if whole, err = Render(res, o, f.Find != "", 0); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	var paths []string
	for i := range n {
		so := o
		so.Shard = Shard{i, n}
		r, err := Replay(context.Background(), in(), so)
		if err != nil {
			t.Fatal(err)
		}
		var b bytes.Buffer
		sf := f
		sf.Shard = so.Shard.String()
		if err := WritePartial(&b, r, so.Shard, []PartialInput{{Name: "access.log", Size: int64(len(log))}}, sf, so); err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(dir, fmt.Sprintf("part-%d.json", i))
		if err := os.WriteFile(p, b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, p)
	}
	// Any order of the files merges the same.
	rand.New(rand.NewPCG(uint64(n), 3)).Shuffle(len(paths), func(i, j int) { paths[i], paths[j] = paths[j], paths[i] })
	if m, err = MergePartials(paths); err != nil {
		t.Fatal(err)
	}
	if merged, err = Render(m.Result, m.Options, m.Find, 0); err != nil {
		t.Fatal(err)
	}
	return whole, merged, m
}

// TestShardMergeIsOnePass: on generated logs over several seeds, n shards
// merged print what one pass prints, byte for byte, in text, JSON and CSV.
func TestShardMergeIsOnePass(t *testing.T) {
	for _, seed := range []uint64{1, 2, 3, 4} {
		var log bytes.Buffer
		writeShardLog(&log, 6000, seed, seed%2 == 0)
		for _, n := range []int{1, 2, 3, 7} {
			t.Run(fmt.Sprintf("seed=%d/n=%d", seed, n), func(t *testing.T) {
				whole, merged, m := onePassAndMerge(t, log.Bytes(), shardFlags(seed == 3), n)
				for _, c := range []struct {
					format string
					a, b   []byte
				}{{"text", whole.Text, merged.Text}, {"json", whole.JSON, merged.JSON}, {"csv", whole.CSV, merged.CSV}} {
					if !bytes.Equal(c.a, c.b) {
						t.Errorf("%s: the merge of %d shards differs from one pass:\n%s", c.format, n, firstDiff(c.a, c.b))
					}
				}
				// The log exercises what it means to: bad lines counted once
				// (not n times), late lines, refusals, retired keys.
				r := m.Result
				if r.Bad == 0 || r.TooLate == 0 || r.retired == 0 || r.Limits[0].Lanes[0].Refused == 0 || len(r.Limits[0].Lanes[0].Top) != 3 {
					t.Errorf("the log does not exercise the merge: bad %d, too late %d, retired %d, refused %d, top %d",
						r.Bad, r.TooLate, r.retired, r.Limits[0].Lanes[0].Refused, len(r.Limits[0].Lanes[0].Top))
				}
				if got := int64(strings.Count(log.String(), "garbage line")); r.Bad != got {
					t.Errorf("bad lines %d, want %d (the garbage lines written, each once)", r.Bad, got)
				}
				if seed%2 == 0 && len(r.Warnings) == 0 {
					t.Errorf("seed %d: more than 10%% bad lines, no warning", seed)
				}
			})
		}
	}
}

// TestShardMergeWritesTheSameFolder: the --out folder of a merge is one pass's, file for file.
func TestShardMergeWritesTheSameFolder(t *testing.T) {
	var log bytes.Buffer
	writeShardLog(&log, 3000, 5, false)
	f := shardFlags(false)
	whole, merged, m := onePassAndMerge(t, log.Bytes(), f, 3)
	o, _ := f.Options()
	res, err := Replay(context.Background(), []Input{{Name: "access.log", R: bytes.NewReader(log.Bytes())}}, o)
	if err != nil {
		t.Fatal(err)
	}
	a, b := filepath.Join(t.TempDir(), "one"), filepath.Join(t.TempDir(), "merged")
	if err := whole.WriteDir(a, res, o.Sweep); err != nil {
		t.Fatal(err)
	}
	if err := merged.WriteDir(b, m.Result, m.Options.Sweep); err != nil {
		t.Fatal(err)
	}
	entries, _ := os.ReadDir(a)
	if len(entries) < 6 {
		t.Fatalf("one pass wrote %d files", len(entries))
	}
	for _, e := range entries {
		x, _ := os.ReadFile(filepath.Join(a, e.Name()))
		y, err := os.ReadFile(filepath.Join(b, e.Name()))
		if err != nil || !bytes.Equal(x, y) {
			t.Errorf("%s: the merge's differs from one pass's (%v)", e.Name(), err)
		}
	}
}

// firstDiff shows where two outputs part.
func firstDiff(a, b []byte) string {
	al, bl := strings.Split(string(a), "\n"), strings.Split(string(b), "\n")
	for i := range min(len(al), len(bl)) {
		if al[i] != bl[i] {
			return fmt.Sprintf("line %d:\none pass: %s\nmerged:   %s", i+1, al[i], bl[i])
		}
	}
	return fmt.Sprintf("%d lines against %d", len(al), len(bl))
}

// TestShardHashIsFNV1a holds ShardHash to the standard library's FNV-1a 64
// on arbitrary keys, and to the published test vectors.
func TestShardHashIsFNV1a(t *testing.T) {
	for key, want := range map[string]uint64{"": 0xcbf29ce484222325, "a": 0xaf63dc4c8601ec8c, "foobar": 0x85944171f73967e8} {
		if got := ShardHash([]byte(key)); got != want {
			t.Errorf("ShardHash(%q) = %#x, want %#x", key, got, want)
		}
	}
	same := func(key []byte) bool {
		h := fnv.New64a()
		h.Write(key)
		return ShardHash(key) == h.Sum64()
	}
	if err := quick.Check(same, nil); err != nil {
		t.Error(err)
	}
}

func TestParseShard(t *testing.T) {
	for _, c := range []struct {
		in   string
		want Shard
		err  string
	}{
		{"0/1", Shard{0, 1}, ""}, {"3/4", Shard{3, 4}, ""}, {"9999/10000", Shard{9999, 10000}, ""},
		{"4/4", Shard{}, "want i/n with 0 <= i < n"}, {"-1/4", Shard{}, "want i/n"}, {"0/0", Shard{}, "want i/n"},
		{"1/2x", Shard{}, "want i/n"}, {"01/2", Shard{}, "want i/n"}, {"1", Shard{}, "want i/n"}, {"", Shard{}, "want i/n"},
		{"0/10001", Shard{}, "more than 10000"},
	} {
		got, err := ParseShard(c.in)
		if got != c.want || (err == nil) != (c.err == "") || err != nil && !strings.Contains(err.Error(), c.err) {
			t.Errorf("ParseShard(%q) = %v, %v; want %v, error with %q", c.in, got, err, c.want, c.err)
		}
	}
}

// TestShardRefusesGlobal: a global limit cannot be split by key; --shard
// refuses it, naming the limit and the reason, and every other key is accepted.
func TestShardRefusesGlobal(t *testing.T) {
	f := shardFlags(false)
	f.Vary, f.Find = "", ""
	f.Limits = append(f.Limits, "key=global limit=100/1s name=all", "key=global+global limit=1/1s")
	f.Shard = "0/2"
	_, err := f.Options()
	if err == nil || !strings.Contains(err.Error(), "limit all has key global: one key counts every line, so its decisions cannot be split") ||
		!strings.Contains(err.Error(), "limit global+global has key global+global") {
		t.Fatalf("Options() = %v, want both global limits refused", err)
	}
	f.Shard = ""
	if _, err := f.Options(); err != nil {
		t.Errorf("without --shard: %v", err)
	}
	f.Shard, f.Limits = "1/2", []string{"key=ip+global limit=1/1s", "key=method limit=1/1s"}
	if _, err := f.Options(); err != nil {
		t.Errorf("keys that are not global: %v", err)
	}
	// RunShard refuses too, as an input error (exit 2), before reading.
	o := Options{Limits: []Limit{mustLimit(t, "key=global limit=1/1s")}, Shard: Shard{0, 2}}
	err = Command{Out: &bytes.Buffer{}}.RunShard(context.Background(), []string{"/nonexistent"}, Flags{}, o)
	if !run.IsBadInput(err) || !strings.Contains(err.Error(), "cannot be split") {
		t.Errorf("RunShard = %v, want the global limit refused", err)
	}
}

// TestShardHoldsOnlyItsKeys: a shard's key table holds the keys it owns,
// counted independently by hash/fnv, so its memory grows with its own live
// keys; the shards' keys add up to one pass's.
func TestShardHoldsOnlyItsKeys(t *testing.T) {
	var log bytes.Buffer
	const keys = 20000
	for i := range keys {
		fmt.Fprintf(&log, "10.%d.%d.%d - - [01/Mar/2026:09:00:%02d +0000] \"GET / HTTP/1.1\" 200 1\n", i>>16, i>>8&255, i&255, i*60/keys)
	}
	o := Options{Limits: []Limit{mustLimit(t, "key=ip limit=100/1m")}, Lanes: []string{"gcra"}}
	owned := make([]int, 4)
	for i := range keys {
		h := fnv.New64a()
		fmt.Fprintf(h, "10.%d.%d.%d", i>>16, i>>8&255, i&255)
		owned[h.Sum64()%4]++
	}
	total := 0
	for i := range 4 {
		o.Shard = Shard{i, 4}
		r, err := Replay(context.Background(), []Input{{Name: "k", R: bytes.NewReader(log.Bytes())}}, o)
		if err != nil {
			t.Fatal(err)
		}
		if len(r.names) != owned[i] || r.Keys != owned[i] {
			t.Errorf("shard %d/4 held %d key ids and %d episodes, want the %d keys it owns", i, len(r.names), r.Keys, owned[i])
		}
		if owned[i] > keys/3 {
			t.Errorf("shard %d/4 owns %d of %d keys: the hash does not spread them", i, owned[i], keys)
		}
		total += r.Keys
	}
	if total != keys {
		t.Errorf("the shards hold %d keys, want %d", total, keys)
	}
}

// shardParts writes the partials of n shards of log into dir and returns their paths.
func shardParts(t *testing.T, dir string, log []byte, f Flags, n int) []string {
	t.Helper()
	o, err := f.Options()
	if err != nil {
		t.Fatal(err)
	}
	var paths []string
	for i := range n {
		o.Shard = Shard{i, n}
		r, err := Replay(context.Background(), []Input{{Name: "access.log", R: bytes.NewReader(log)}}, o)
		if err != nil {
			t.Fatal(err)
		}
		var b bytes.Buffer
		if err := WritePartial(&b, r, o.Shard, []PartialInput{{Name: "access.log", Size: int64(len(log))}}, f, o); err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(dir, fmt.Sprintf("part-%d.json", i))
		if err := os.WriteFile(p, b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, p)
	}
	return paths
}

// reseal rewrites a partial after edit, with digests that match, so that the
// checks behind the checksum are what refuses it.
func reseal(t *testing.T, path string, edit func(p *partialFile)) {
	t.Helper()
	b, _ := os.ReadFile(path)
	var p partialFile
	if err := json.Unmarshal(b, &p); err != nil {
		t.Fatal(err)
	}
	edit(&p)
	p.Definition, _ = p.definitionDigest()
	p.Content, _ = p.contentChecksum()
	out, _ := json.Marshal(p)
	if err := os.WriteFile(path, out, 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestMergeRefuses: wrong, missing, duplicate and tampered partials are
// refused as input errors (exit 2), naming the file and what is wrong.
func TestMergeRefuses(t *testing.T) {
	var log, other bytes.Buffer
	writeShardLog(&log, 2000, 11, false)
	writeShardLog(&other, 2000, 12, false)
	f := shardFlags(false)
	base := t.TempDir()
	good := shardParts(t, filepath.Join(base), log.Bytes(), f, 3)
	cp := func(t *testing.T, src, dst string) string {
		b, _ := os.ReadFile(src)
		if err := os.WriteFile(dst, b, 0o644); err != nil {
			t.Fatal(err)
		}
		return dst
	}
	for _, c := range []struct {
		name  string
		paths func(t *testing.T, dir string) []string
		want  []string
	}{
		{"missing", func(t *testing.T, dir string) []string { return good[:2] },
			[]string{"shards 2/3 are missing (the partials given are 2 of the 3 shards"}},
		{"duplicate", func(t *testing.T, dir string) []string {
			return []string{good[0], good[1], cp(t, good[1], filepath.Join(dir, "again.json")), good[2]}
		}, []string{"again.json: shard 1/3 is also in " + good[1]}},
		{"tampered", func(t *testing.T, dir string) []string {
			p := cp(t, good[1], filepath.Join(dir, "t.json"))
			b, _ := os.ReadFile(p)
			b = bytes.Replace(b, []byte(`"refused":`), []byte(`"refused":1`), 1)
			os.WriteFile(p, b, 0o644)
			return []string{good[0], p, good[2]}
		}, []string{"t.json: the content does not match its checksum (content_sha256)"}},
		{"truncated", func(t *testing.T, dir string) []string {
			p := cp(t, good[1], filepath.Join(dir, "cut.json"))
			b, _ := os.ReadFile(p)
			os.WriteFile(p, b[:len(b)/2], 0o644)
			return []string{good[0], p, good[2]}
		}, []string{"cut.json: not a whole partial result of rlsim replay --shard (empty or truncated)"}},
		{"joined", func(t *testing.T, dir string) []string {
			p := filepath.Join(dir, "two.json")
			a, _ := os.ReadFile(good[1])
			os.WriteFile(p, append(a, a...), 0o644)
			return []string{good[0], p, good[2]}
		}, []string{"two.json: more after the partial result"}},
		{"definition edited", func(t *testing.T, dir string) []string {
			p := cp(t, good[1], filepath.Join(dir, "d.json"))
			b, _ := os.ReadFile(p)
			os.WriteFile(p, bytes.Replace(b, []byte(`"Top":3`), []byte(`"Top":4`), 1), 0o644)
			return []string{good[0], p, good[2]}
		}, []string{"d.json: the replay's definition does not match its digest"}},
		{"another replay", func(t *testing.T, dir string) []string {
			g := f
			g.Top = 4
			o := shardParts(t, dir, log.Bytes(), g, 3)
			return []string{good[0], o[1], good[2]}
		}, []string{"part-1.json: a part of another replay than " + good[0] + ` (flags`}},
		{"another n", func(t *testing.T, dir string) []string {
			o := shardParts(t, dir, log.Bytes(), f, 4)
			return []string{good[0], good[1], good[2], o[3]}
		}, []string{"part-3.json: shard 3/4 of a replay split in 4, not 3"}},
		{"another log of the same name and size", func(t *testing.T, dir string) []string {
			b := other.Bytes()
			b = append(b[:min(len(b), log.Len())], bytes.Repeat([]byte("\n"), max(0, log.Len()-len(b)))...)
			o := shardParts(t, dir, b, f, 3)
			return []string{good[0], o[1], good[2]}
		}, []string{"part-1.json: read the logs otherwise than " + good[0], "a log changed between the shards"}},
		{"version", func(t *testing.T, dir string) []string {
			p := cp(t, good[1], filepath.Join(dir, "v.json"))
			reseal(t, p, func(p *partialFile) { p.Partial = 2 })
			return []string{good[0], p, good[2]}
		}, []string{"v.json: partial result version 2; this rlsim reads version 1"}},
		{"a key of another shard", func(t *testing.T, dir string) []string {
			p := cp(t, good[1], filepath.Join(dir, "k.json"))
			reseal(t, p, func(p *partialFile) {
				lane := &p.State.Limits[0].Lanes[0]
				for i := 0; ; i++ {
					if k := exact(fmt.Sprintf("zz%d", i)); !(Shard{1, 3}).owns([]byte(k)) {
						lane.Kept = append(lane.Kept, partialKey{Key: k, Refused: 1})
						break
					}
				}
			})
			return []string{good[0], p, good[2]}
		}, []string{"k.json: state.limits[0].lanes[0].keys_refused[", `is not shard 1/3's`}},
		{"refusals that do not add up", func(t *testing.T, dir string) []string {
			p := cp(t, good[1], filepath.Join(dir, "s.json"))
			reseal(t, p, func(p *partialFile) { p.State.Limits[0].Lanes[0].Refused++ })
			return []string{good[0], p, good[2]}
		}, []string{"s.json: state.limits[0].lanes[0].refused_by_hour: ", "but the lane refused"}},
		{"no file", func(t *testing.T, dir string) []string { return []string{good[0], filepath.Join(dir, "none.json")} },
			[]string{"none.json: no such file or directory"}},
		{"not a partial", func(t *testing.T, dir string) []string {
			p := filepath.Join(dir, "x.json")
			os.WriteFile(p, []byte(`{"rlsim_sweep_partial":2}`), 0o644)
			return []string{p}
		}, []string{"x.json: not a partial result of rlsim replay --shard"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := MergePartials(c.paths(t, t.TempDir()))
			if err == nil {
				t.Fatal("merged")
			}
			var ie *run.InputError
			if !errors.As(err, &ie) {
				t.Errorf("%v: not an input error (exit 2)", err)
			}
			for _, w := range c.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q\nwants %q", err, w)
				}
			}
		})
	}
	if _, err := MergePartials(good); err != nil {
		t.Errorf("the good parts: %v", err)
	}
}

// TestExactStringRoundTrips: keys and names that are not UTF-8 come back
// from a partial byte for byte.
func TestExactStringRoundTrips(t *testing.T) {
	rt := func(s string) bool {
		b, err := json.Marshal(exact(s))
		var back exact
		return err == nil && json.Unmarshal(b, &back) == nil && string(back) == s
	}
	if err := quick.Check(rt, nil); err != nil {
		t.Error(err)
	}
	for _, s := range []string{"\xff\xfe", "a\x00b", "<&>", "é"} {
		if !rt(s) {
			t.Errorf("%q does not round-trip", s)
		}
	}
}

// TestShardMergeQuick: for arbitrary seeds and shard counts, the merge of
// every shard is one pass, byte for byte, in every format.
func TestShardMergeQuick(t *testing.T) {
	f := func(seed uint64, n8 uint8) bool {
		n := 1 + int(n8%8)
		var log bytes.Buffer
		writeShardLog(&log, 800, seed, seed%3 == 0)
		whole, merged, _ := onePassAndMerge(t, log.Bytes(), shardFlags(seed%2 == 0), n)
		return bytes.Equal(whole.Text, merged.Text) && bytes.Equal(whole.JSON, merged.JSON) && bytes.Equal(whole.CSV, merged.CSV)
	}
	if err := quick.Check(f, &quick.Config{MaxCount: 12}); err != nil {
		t.Error(err)
	}
}

// FuzzDecodePartial: whatever the bytes, decoding a partial never panics,
// and refuses what it cannot read as an input error (exit 2).
func FuzzDecodePartial(f *testing.F) {
	var log bytes.Buffer
	writeShardLog(&log, 300, 9, false)
	fl := shardFlags(false)
	o, err := fl.Options()
	if err != nil {
		f.Fatal(err)
	}
	o.Shard = Shard{1, 2}
	r, err := Replay(context.Background(), []Input{{Name: "access.log", R: bytes.NewReader(log.Bytes())}}, o)
	if err != nil {
		f.Fatal(err)
	}
	var good bytes.Buffer
	if err := WritePartial(&good, r, o.Shard, []PartialInput{{Name: "access.log", Size: int64(log.Len())}}, fl, o); err != nil {
		f.Fatal(err)
	}
	f.Add(good.Bytes())
	f.Add(good.Bytes()[:good.Len()/3])
	f.Add([]byte(`{"rlsim_replay_partial":1}`))
	f.Add([]byte(`{"rlsim_replay_partial":1,"definition":{"limits":[{"key":{"bytes":"/w=="}}]}}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		p, _, err := decodePartial("fuzz.json", bytes.NewReader(b))
		if err != nil && !run.IsBadInput(err) {
			t.Errorf("%v: not an input error", err)
		}
		if err == nil {
			if _, serr := ParseShard(p.Shard); serr != nil {
				t.Errorf("decoded a partial of shard %q: %v", p.Shard, serr)
			}
		}
		if bytes.Equal(b, good.Bytes()) && err != nil {
			t.Errorf("the good partial: %v", err)
		}
	})
}

// TestShardMergeScenarioAndBytes: limits from a --scenario (rebuilt from the
// partial, not loaded again) and keys that are not UTF-8 merge to one pass.
func TestShardMergeScenarioAndBytes(t *testing.T) {
	var log bytes.Buffer
	for i := range 400 {
		user := []string{"\xffbob", "\xffbob", "al\xfeice", "-"}[i%4]
		fmt.Fprintf(&log, "198.51.100.%d - %s [01/Mar/2026:09:%02d:%02d +0000] \"GET /x HTTP/1.1\" 200 1\n", i%7, user, i/8/60, i/8%60)
	}
	f := Flags{Scenario: "nat-per-user", LogFormat: "auto", TZ: "UTC", Late: 5 * time.Second, LegitBelow: 0.5, Top: 10, Format: "text"}
	f.Limits = []string{"key=user limit=1/1s"}
	for _, n := range []int{2, 3} {
		whole, merged, m := onePassAndMerge(t, log.Bytes(), f, n)
		if !bytes.Equal(whole.Text, merged.Text) || !bytes.Equal(whole.JSON, merged.JSON) || !bytes.Equal(whole.CSV, merged.CSV) {
			t.Errorf("n=%d: the merge differs from one pass:\n%s", n, firstDiff(whole.Text, merged.Text))
		}
		if len(m.Result.Limits) != 2 || !bytes.Contains(merged.Text, []byte("\xffbob (")) {
			t.Errorf("n=%d: %d limits; the text:\n%s", n, len(m.Result.Limits), merged.Text)
		}
	}
}
