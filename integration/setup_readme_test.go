package integration_test

// TestReadmeSetup runs the README's Setup steps as written, in the
// directories they name, as a new user pastes them: a fresh module beside
// a clone of this repository, the Quickstart saved as its test, go mod
// tidy, go test, then the command installed from the clone and run.

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// setupStep is one ```sh block of the README's Setup section: the
// directory its "# in: …" line names, and its commands.
type setupStep struct {
	in    string // "the folder that holds your module", "your module", "the clone"
	lines []string
}

// setupSteps returns the README's Setup blocks, in order.
func setupSteps(t *testing.T, readme string) []setupStep {
	t.Helper()
	section := between(t, readme, "\n## Setup\n", "\n## ", "README.md")
	var steps []setupStep
	for {
		_, rest, ok := strings.Cut(section, "```sh\n")
		if !ok {
			break
		}
		block, after, ok := strings.Cut(rest, "```")
		if !ok {
			t.Fatalf("README.md Setup: a ```sh block never ends")
		}
		section = after
		lines := strings.Split(strings.TrimSpace(block), "\n")
		in, ok := strings.CutPrefix(lines[0], "# in: ")
		if !ok {
			t.Fatalf("README.md Setup: a block starts %q: each step's block starts with \"# in: \" and the folder it runs in", lines[0])
		}
		steps = append(steps, setupStep{in: in, lines: lines[1:]})
	}
	if len(steps) == 0 {
		t.Fatal("README.md Setup has no ```sh block")
	}
	return steps
}

func TestReadmeSetup(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: the setup downloads the Quickstart's modules and builds them")
	}
	t.Parallel()
	for _, tool := range []string{"git", "go", "sh"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s is not on PATH: %v", tool, err)
		}
	}
	repo, err := filepath.Abs("..")
	must(t, err)
	if out, err := exec.Command("git", "-C", repo, "rev-parse", "HEAD").CombinedOutput(); err != nil {
		t.Skipf("the repository is no git clone (%v): %s", err, out)
	}
	readme := readFile(t, "../README.md")
	quickstart := between(t, readme, "## Quickstart\n\n```go\n", "```", "README.md")

	parent := t.TempDir()
	module := filepath.Join(parent, "yourapp")
	clone := filepath.Join(parent, "mcpmock")
	bin := filepath.Join(parent, "bin")
	must(t, os.MkdirAll(module, 0o755))
	dirs := map[string]string{
		"the folder that holds your module": parent,
		"your module":                       module,
		"the clone":                         clone,
	}
	// With the user's defaults (no GOWORK or GOFLAGS of this test run),
	// the command installed where PATH finds it.
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "GOWORK=") && !strings.HasPrefix(kv, "GOFLAGS=") && !strings.HasPrefix(kv, "PATH=") && !strings.HasPrefix(kv, "GOBIN=") {
			env = append(env, kv)
		}
	}
	env = append(env, "GOBIN="+bin, "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"))

	run := func(dir, line string) string {
		t.Helper()
		cmd := exec.Command("sh", "-c", line)
		cmd.Dir, cmd.Env = dir, env
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		if err := cmd.Run(); err != nil {
			t.Fatalf("README.md Setup: %q in %s failed (%v):\n%s", line, dir, err, out.String())
		}
		return out.String()
	}
	// The user's module, before the steps: what `go mod init` gives.
	run(module, "go mod init example.com/yourapp")

	savedQuickstart := false
	for _, step := range setupSteps(t, readme) {
		dir, ok := dirs[step.in]
		if !ok {
			t.Fatalf("README.md Setup: a block runs %q; want one of the folders %v", step.in, keysOf(dirs))
		}
		for _, line := range step.lines {
			line = strings.TrimSpace(line)
			if line == "" || strings.HasPrefix(line, "#") {
				continue
			}
			if strings.HasPrefix(line, "go mod tidy") && !savedQuickstart {
				// Step 3: the Quickstart, saved as gifts_test.go under
				// the module's package line.
				src := "package yourapp\n\n" + quickstart
				must(t, os.WriteFile(filepath.Join(module, "gifts_test.go"), []byte(src), 0o644))
				savedQuickstart = true
			}
			// The clone is of this repository, from its local copy: the
			// same commands, another URL.
			line = strings.Replace(line, "git clone https://github.com/mcpmock/mcpmock", "git clone --quiet "+repo+" mcpmock", 1)
			out := run(dir, line)
			t.Logf("%s$ %s\n%s", step.in, line, out)
			switch {
			case strings.HasPrefix(line, "go test"):
				if !strings.Contains(out, "ok") {
					t.Errorf("README.md Setup: go test passed no test:\n%s", out)
				}
			case strings.HasPrefix(line, "mcpmock --version"):
				if !strings.HasPrefix(out, "mcpmock ") {
					t.Errorf("README.md Setup: mcpmock --version printed %q", out)
				}
			case strings.HasPrefix(line, "go run ./examples/handshake 3"):
				if !strings.Contains(out, "# Mistake 3 of 7") {
					t.Errorf("README.md Setup: the tour printed no mistake 3:\n%s", out)
				}
			}
		}
	}
	if !savedQuickstart {
		t.Fatal("README.md Setup never runs go mod tidy in your module after saving the Quickstart: the require of step 2 would not last")
	}
	gomod := readFile(t, filepath.Join(module, "go.mod"))
	for _, want := range []string{"github.com/mcpmock/mcpmock v0.0.0-00010101000000-000000000000", "replace github.com/mcpmock/mcpmock => ../mcpmock"} {
		if !strings.Contains(gomod, want) {
			t.Errorf("after the setup, go.mod lacks %q:\n%s", want, gomod)
		}
	}
}

// keysOf is the keys of m, for a message.
func keysOf(m map[string]string) []string {
	var out []string
	for k := range m {
		out = append(out, fmt.Sprintf("%q", k))
	}
	return out
}
