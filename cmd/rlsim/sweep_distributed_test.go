package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
)

// docBlock is the fenced block of the given language that follows the first
// line of docs/distributed.md containing marker.
func docBlock(t *testing.T, marker, lang string) string {
	t.Helper()
	data, err := os.ReadFile("../../docs/distributed.md")
	if err != nil {
		t.Fatal(err)
	}
	s := string(data)
	i := strings.Index(s, marker)
	if i < 0 {
		t.Fatalf("docs/distributed.md has no %q", marker)
	}
	fence := "```" + lang + "\n"
	start := strings.Index(s[i:], fence)
	if start < 0 {
		t.Fatalf("docs/distributed.md has no %s block after %q", lang, marker)
	}
	body := s[i+start+len(fence):]
	return body[:strings.Index(body, "```")]
}

// TestDistributedRecipe runs the local recipe of docs/distributed.md as
// written, with the real binary: the merged shards print what the whole sweep does.
func TestDistributedRecipe(t *testing.T) {
	bin := binary(t)
	for _, tool := range []string{"sh", "xargs", "seq", "cmp"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s is not installed", tool)
		}
	}
	dir := t.TempDir()
	script := docBlock(t, "## Locally, with `xargs -P`", "sh")
	cmd := exec.Command("sh", "-e", "-c", script)
	cmd.Dir = dir
	cmd.Env = append(withoutEnv("PATH"), "PATH="+filepath.Dir(bin)+string(os.PathListSeparator)+os.Getenv("PATH"))
	out, err := cmd.CombinedOutput()
	if err != nil || strings.TrimSpace(string(out)) != "identical" {
		t.Fatalf("the recipe: %v\n%s", err, out)
	}
	parts, _ := filepath.Glob(filepath.Join(dir, "part-*.json"))
	merged, _ := os.ReadFile(filepath.Join(dir, "sweep.txt"))
	if len(parts) != 4 || !strings.Contains(string(merged), "recommended: min limits[0].limit") {
		t.Errorf("the recipe left %d parts and printed:\n%s", len(parts), merged)
	}
}

// TestDistributedManifest checks the Kubernetes manifest: an Indexed Job whose
// completions are the shards' n, each pod running the local recipe's sweep.
func TestDistributedManifest(t *testing.T) {
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
	if err := yaml.Unmarshal([]byte(docBlock(t, "## On Kubernetes", "yaml")), &job); err != nil {
		t.Fatal(err)
	}
	if job.Kind != "Job" || job.Spec.CompletionMode != "Indexed" || job.Spec.Completions != 4 {
		t.Errorf("the manifest is a %s, %s, of %d completions; want an Indexed Job of 4", job.Kind, job.Spec.CompletionMode, job.Spec.Completions)
	}
	args := strings.Join(job.Spec.Template.Spec.Containers[0].Args, " ")
	local := docBlock(t, "## Locally, with `xargs -P`", "sh")
	sweep := `rlsim sweep noisy-neighbour --vary "limits[0].limit=10..60/10" --seeds 5`
	if !strings.Contains(args, sweep+` --shard "$JOB_COMPLETION_INDEX/4"`) || !strings.Contains(local, sweep+" --shard {}/4") {
		t.Errorf("the manifest and the local recipe do not run the same sweep %q:\n%s", sweep, args)
	}
}
