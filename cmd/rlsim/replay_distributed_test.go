package main

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
)

// TestReplayDistributedRecipe runs the local replay recipe of
// docs/distributed.md as written, with the real binary, on the sample log:
// the merged shards print what one pass does.
func TestReplayDistributedRecipe(t *testing.T) {
	bin := binary(t)
	for _, tool := range []string{"sh", "xargs", "seq", "cmp"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s is not installed", tool)
		}
	}
	dir := t.TempDir()
	log, err := os.ReadFile("../../replay/testdata/sample.log")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "access.log"), log, 0o644); err != nil {
		t.Fatal(err)
	}
	script := docBlock(t, "## A replay, locally", "sh")
	cmd := exec.Command("sh", "-e", "-c", script)
	cmd.Dir = dir
	cmd.Env = append(withoutEnv("PATH"), "PATH="+filepath.Dir(bin)+string(os.PathListSeparator)+os.Getenv("PATH"))
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil || strings.TrimSpace(string(out)) != "identical" {
		t.Fatalf("the recipe: %v\n%s\n%s", err, out, stderr.String())
	}
	for _, line := range strings.Split(strings.TrimSpace(stderr.String()), "\n") {
		if line != "" && !strings.HasPrefix(line, "rlsim replay: read as combined (detected") {
			t.Errorf("the recipe's stderr: %q", line)
		}
	}
	parts, _ := filepath.Glob(filepath.Join(dir, "rpart-*.json"))
	merged, _ := os.ReadFile(filepath.Join(dir, "replay.json"))
	// sample.log holds 3000 requests; 203.0.113.66 sends most of them.
	if len(parts) != 4 || !strings.Contains(string(merged), `"requests": 3000`) || !strings.Contains(string(merged), `"key": "203.0.113.66"`) {
		t.Errorf("the recipe left %d parts and printed:\n%.400s", len(parts), merged)
	}
}

// TestReplayDistributedManifest checks the replay's Kubernetes manifest: an
// Indexed Job whose completions are the shards' n, each pod running the local
// recipe's replay.
func TestReplayDistributedManifest(t *testing.T) {
	var job struct {
		Kind string
		Spec struct {
			CompletionMode string `yaml:"completionMode"`
			Completions    int
			Template       struct {
				Spec struct {
					Containers []struct {
						Args []string
					}
				}
			}
		}
	}
	if err := yaml.Unmarshal([]byte(docBlock(t, "## A replay on Kubernetes", "yaml")), &job); err != nil {
		t.Fatal(err)
	}
	if job.Kind != "Job" || job.Spec.CompletionMode != "Indexed" || job.Spec.Completions != 4 {
		t.Errorf("the manifest is a %s, %s, of %d completions; want an Indexed Job of 4", job.Kind, job.Spec.CompletionMode, job.Spec.Completions)
	}
	args := strings.Join(job.Spec.Template.Spec.Containers[0].Args, " ")
	local := docBlock(t, "## A replay, locally", "sh")
	replay := `rlsim replay access.log --limit "key=ip limit=5/1m burst=2" --limit "key=user limit=3/1s"`
	if !strings.Contains(args, replay+` --shard "$JOB_COMPLETION_INDEX/4"`) || !strings.Contains(local, replay+" --shard {}/4") {
		t.Errorf("the manifest and the local recipe do not run the same replay %q:\n%s", replay, args)
	}
	if merge := docBlock(t, "the final step merges", "sh"); !strings.Contains(merge, "rlsim replay merge rpart-*.json") {
		t.Errorf("the final step does not merge the pods' partials:\n%s", merge)
	}
}

// TestReplayShardExitStatus: what --shard and merge refuse is exit 2, with
// the reason on stderr.
func TestReplayShardExitStatus(t *testing.T) {
	bin := binary(t)
	dir := t.TempDir()
	sample := "../../replay/testdata/sample.log"
	abs, _ := filepath.Abs(sample)
	part := func(i string) string {
		out, err := exec.Command(bin, "replay", abs, "--limit", "key=ip limit=5/1m", "--shard", i+"/2").Output()
		if err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(dir, "p"+i+".json")
		os.WriteFile(p, out, 0o644)
		return p
	}
	p0, p1 := part("0"), part("1")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"replay", abs, "--limit", "key=global limit=10/1s name=all", "--shard", "0/2"}, "limit all has key global: one key counts every line"},
		{[]string{"replay", abs, "--limit", "key=ip limit=10/1s", "--shard", "2/2"}, "--shard 2/2: want i/n with 0 <= i < n"},
		{[]string{"replay", abs, "--limit", "key=ip limit=10/1s", "--shard", "0/2", "--out", "d"}, "--out: a --shard prints a partial result only"},
		{[]string{"replay", "merge", p0}, "shards 1/2 are missing"},
		{[]string{"replay", "merge", p0, p0, p1}, "shard 0/2 is also in " + p0},
		{[]string{"replay", "merge", p0, p1, "--format", "yaml"}, `--format: unknown "yaml"`},
	} {
		cmd := exec.Command(bin, c.args...)
		cmd.Dir = dir
		var stderr strings.Builder
		cmd.Stderr = &stderr
		err := cmd.Run()
		var exit *exec.ExitError
		if !errors.As(err, &exit) || exit.ExitCode() != 2 || !strings.Contains(stderr.String(), c.want) {
			t.Errorf("rlsim %s: %v, stderr %q; want exit 2 saying %q", strings.Join(c.args, " "), err, stderr.String(), c.want)
		}
	}
	// And the good parts merge into one pass's table.
	merged, err := exec.Command(bin, "replay", "merge", p1, p0).Output()
	whole, err2 := exec.Command(bin, "replay", abs, "--limit", "key=ip limit=5/1m").Output()
	if err != nil || err2 != nil || string(merged) != string(whole) {
		t.Errorf("merge: %v, %v; merged:\n%s\none pass:\n%s", err, err2, merged, whole)
	}
}
