package integration_test

import (
	"bytes"
	"debug/elf"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/tidwall/gjson"
	"go.yaml.in/yaml/v3"
)

// The ways to get the mcpmock command without a Go toolchain
// (docs/distribution.md): the image of the Dockerfile, the composite
// GitHub Action of dist/action, the binaries of .ci/dist.sh. No Docker
// daemon and no GitHub runner here: the tests run the Dockerfile's build
// commands and the action's steps as Docker and a runner would, and hold
// the files to what those need (pins, a static binary, declared inputs,
// flags mcpmock has). .ci/dist.sh runs in .ci/run.

// dockerInstr is one instruction of a Dockerfile: its keyword and the
// rest of its (joined) lines.
type dockerInstr struct{ op, args string }

// dockerStages reads a Dockerfile into its stages (each begins with FROM),
// joining the lines a backslash continues and dropping comments.
func dockerStages(text string) [][]dockerInstr {
	var stages [][]dockerInstr
	var cur string
	flush := func() {
		line := strings.TrimSpace(cur)
		cur = ""
		if line == "" {
			return
		}
		op, args, _ := strings.Cut(line, " ")
		in := dockerInstr{strings.ToUpper(op), strings.TrimSpace(args)}
		if in.op == "FROM" || len(stages) == 0 {
			stages = append(stages, nil)
		}
		stages[len(stages)-1] = append(stages[len(stages)-1], in)
	}
	for _, l := range strings.Split(text, "\n") {
		if t := strings.TrimSpace(l); strings.HasPrefix(t, "#") {
			continue
		}
		if strings.HasSuffix(l, "\\") {
			cur += strings.TrimSuffix(l, "\\") + " "
			continue
		}
		cur += l
		flush()
	}
	flush()
	return stages
}

// goDirective is the go line of the library's go.mod.
func goDirective(t *testing.T) string {
	b, err := os.ReadFile("../go.mod")
	require.NoError(t, err)
	m := regexp.MustCompile(`(?m)^go (\S+)$`).FindSubmatch(b)
	require.NotNil(t, m, "go.mod has no go line")
	return string(m[1])
}

// versionAtLeast says whether the dotted version a is b or later.
func versionAtLeast(a, b string) bool {
	as, bs := strings.Split(a, "."), strings.Split(b, ".")
	for i := 0; i < len(bs); i++ {
		x, y := 0, 0
		if i < len(as) {
			x, _ = strconv.Atoi(as[i])
		}
		y, _ = strconv.Atoi(bs[i])
		if x != y {
			return x > y
		}
	}
	return true
}

// TestDockerfile: the Dockerfile's builder is a Go image pinned by tag and
// digest, recent enough for go.mod; its RUN commands, run here with its
// ENV and the target's ARGs, build a static binary (no program
// interpreter, no shared library) that runs; the final stage is scratch
// with that binary, a user that is not root, and the binary as ENTRYPOINT.
func TestDockerfile(t *testing.T) {
	b, err := os.ReadFile("../Dockerfile")
	require.NoError(t, err)
	stages := dockerStages(string(b))
	require.Len(t, stages, 2, "the Dockerfile has a build stage and the final one")
	build, final := stages[0], stages[1]

	from := regexp.MustCompile(`^--platform=\$BUILDPLATFORM golang:(\d+\.\d+\.\d+)-\w+@sha256:[0-9a-f]{64} AS (\w+)$`).FindStringSubmatch(build[0].args)
	require.NotNil(t, from, "the builder must be FROM --platform=$BUILDPLATFORM golang:X.Y.Z-DIST@sha256:DIGEST AS NAME, pinned by tag and digest; got %q", build[0].args)
	assert.True(t, versionAtLeast(from[1], goDirective(t)), "the builder's Go %s is older than go.mod's go %s", from[1], goDirective(t))
	stage := from[2]

	// The build stage, as Docker runs it: WORKDIR is the repository's
	// root (COPY brings its files), ENV and the ARGs BuildKit sets are the
	// environment, /out is a temporary folder.
	out := t.TempDir()
	env := append(os.Environ(), "TARGETOS=linux", "TARGETARCH="+runtime.GOARCH)
	var runs []string
	for _, in := range build[1:] {
		switch in.op {
		case "ENV":
			for _, kv := range strings.Fields(in.args) {
				require.Contains(t, kv, "=", "ENV %s: write ENV KEY=VALUE", in.args)
				env = append(env, kv)
			}
		case "COPY":
			for _, src := range strings.Fields(in.args)[:len(strings.Fields(in.args))-1] {
				_, err := os.Stat(filepath.Join("..", src))
				assert.NoError(t, err, "COPY %s: the build context has no %s", in.args, src)
			}
		case "RUN":
			runs = append(runs, in.args)
			cmd := exec.Command("sh", "-c", strings.ReplaceAll(in.args, "/out/", out+"/"))
			cmd.Dir = ".."
			cmd.Env = env
			o, err := cmd.CombinedOutput()
			require.NoError(t, err, "RUN %s:\n%s", in.args, o)
		case "ARG", "WORKDIR":
		default:
			t.Errorf("the build stage's %s %s: the test does not know how to run it", in.op, in.args)
		}
	}
	assert.Contains(t, env, "CGO_ENABLED=0", "the build stage must set ENV CGO_ENABLED=0 (a static binary for scratch)")
	assert.Contains(t, env, "GOWORK=off", "the build stage must set ENV GOWORK=off (the context holds only the library module)")
	goBuild := runs[len(runs)-1]
	for _, flag := range []string{"go build", "-trimpath", "GOOS=$TARGETOS", "GOARCH=$TARGETARCH", "-o /out/mcpmock", "./cmd/mcpmock"} {
		assert.Contains(t, goBuild, flag, "the last RUN builds the command")
	}

	bin := filepath.Join(out, "mcpmock")
	f, err := elf.Open(bin)
	require.NoError(t, err, "the build stage made no ELF binary at /out/mcpmock")
	for _, p := range f.Progs {
		assert.NotEqual(t, elf.PT_INTERP, p.Type, "the binary has a program interpreter: it is not static and will not run FROM scratch")
		assert.NotEqual(t, elf.PT_DYNAMIC, p.Type, "the binary is dynamically linked")
	}
	libs, _ := f.ImportedLibraries()
	assert.Empty(t, libs, "the binary needs shared libraries")
	require.NoError(t, f.Close())
	if runtime.GOOS == "linux" { // the image's binary runs on Linux only
		o, err := exec.Command(bin, "version").CombinedOutput()
		require.NoError(t, err, "%s", o)
		assert.Regexp(t, `^mcpmock \S+ go1\.`, string(o))
		o, err = exec.Command(bin, "--help").CombinedOutput()
		require.NoError(t, err, "%s", o)
		assert.Contains(t, string(o), "mcpmock run [--scenario NAME]")
	}

	// The final stage: scratch, the binary, not root, the binary first.
	assert.Equal(t, "FROM scratch", final[0].op+" "+final[0].args)
	var entry, user string
	var copied []string
	for _, in := range final[1:] {
		switch in.op {
		case "COPY":
			f := strings.Fields(in.args)
			require.Len(t, f, 3, "COPY %s: one file from the build stage", in.args)
			assert.Equal(t, "--from="+stage, f[0], "COPY %s: only from the build stage", in.args)
			if f[1] == "/out/mcpmock" {
				copied = append(copied, f[2])
			}
		case "USER":
			user = in.args
		case "ENTRYPOINT":
			entry = in.args
		default:
			t.Errorf("the final stage's %s %s: not expected FROM scratch", in.op, in.args)
		}
	}
	require.Len(t, copied, 1, "the final stage copies /out/mcpmock once")
	var argv []string
	require.NoError(t, json.Unmarshal([]byte(entry), &argv), "ENTRYPOINT in exec form (a JSON array): scratch has no shell")
	assert.Equal(t, []string{copied[0]}, argv, "ENTRYPOINT is the binary")
	uid, gid, ok := strings.Cut(user, ":")
	u, err1 := strconv.Atoi(uid)
	g, err2 := strconv.Atoi(gid)
	assert.True(t, ok && err1 == nil && err2 == nil && u > 0 && g > 0, "USER %q: a numeric UID:GID that is not root (scratch has no /etc/passwd)", user)

	ignore, err := os.ReadFile("../.dockerignore")
	require.NoError(t, err)
	for _, dir := range []string{".git", "integration", "examples"} {
		assert.Regexp(t, `(?m)^`+regexp.QuoteMeta(dir)+`$`, string(ignore), ".dockerignore keeps %s out of the context", dir)
	}
}

// action is the part of an action.yml the tests read.
type action struct {
	Inputs map[string]struct {
		Description string `yaml:"description"`
		Required    bool   `yaml:"required"`
		Default     string `yaml:"default"`
	} `yaml:"inputs"`
	Outputs map[string]struct {
		Value string `yaml:"value"`
	} `yaml:"outputs"`
	Runs struct {
		Using string       `yaml:"using"`
		Steps []actionStep `yaml:"steps"`
	} `yaml:"runs"`
}

type actionStep struct {
	ID               string            `yaml:"id"`
	If               string            `yaml:"if"`
	Shell            string            `yaml:"shell"`
	Run              string            `yaml:"run"`
	Uses             string            `yaml:"uses"`
	With             map[string]string `yaml:"with"`
	Env              map[string]string `yaml:"env"`
	WorkingDirectory string            `yaml:"working-directory"`
}

func readAction(t *testing.T) (action, string) {
	b, err := os.ReadFile("../dist/action/action.yml")
	require.NoError(t, err)
	var a action
	require.NoError(t, yaml.Unmarshal(b, &a))
	return a, string(b)
}

var (
	actionExpr     = regexp.MustCompile(`\$\{\{\s*(.*?)\s*\}\}`)
	actionInput    = regexp.MustCompile(`\binputs\.([a-z][a-z0-9-]*)`)
	actionStepOut  = regexp.MustCompile(`\bsteps\.([a-z][a-z0-9-]*)\.outputs\.([a-z][a-z0-9-]*)`)
	actionProduced = regexp.MustCompile(`echo "([a-z][a-z0-9-]*)=`)
	longFlag       = regexp.MustCompile(`(?:^|[\s("])--([a-z][a-z-]*)`)
)

// TestActionDefinition: dist/action/action.yml is a composite action
// whose every input it uses is declared, every step output it reads is
// written by an earlier step, whose scripts hold no expression (they read
// env: variables, so no input is pasted into a script), whose actions are
// pinned to a full tag, and whose mcpmock flags are mcpmock run's.
func TestActionDefinition(t *testing.T) {
	a, text := readAction(t)
	assert.Equal(t, "composite", a.Runs.Using)
	require.Contains(t, a.Inputs, "command")
	assert.True(t, a.Inputs["command"].Required)

	produced := map[string][]string{}
	used := map[string]bool{}
	check := func(where, s string) {
		for _, m := range actionExpr.FindAllStringSubmatch(s, -1) {
			for _, in := range actionInput.FindAllStringSubmatch(m[1], -1) {
				used[in[1]] = true
				assert.Contains(t, a.Inputs, in[1], "%s: the input %s is not declared", where, in[1])
			}
			for _, so := range actionStepOut.FindAllStringSubmatch(m[1], -1) {
				assert.Contains(t, produced[so[1]], so[2], "%s: no step before it with id %s writes the output %s", where, so[1], so[2])
			}
		}
	}
	var runStep string
	for i, st := range a.Runs.Steps {
		where := fmt.Sprintf("step %d (%s%s)", i+1, st.ID, st.Uses)
		check(where, st.If+" "+st.WorkingDirectory)
		for k, v := range st.Env {
			check(where+" env "+k, v)
		}
		for k, v := range st.With {
			check(where+" with "+k, v)
		}
		if st.Uses != "" {
			assert.Regexp(t, `@(v\d+\.\d+\.\d+|[0-9a-f]{40})$`, st.Uses, "%s: pin the action to a full tag or a commit", where)
			continue
		}
		assert.Equal(t, "bash", st.Shell, "%s: shell: bash", where)
		assert.NotContains(t, st.Run, "${{", "%s: an expression in the script; pass it through env:", where)
		if st.ID != "" {
			for _, m := range actionProduced.FindAllStringSubmatch(st.Run, -1) {
				produced[st.ID] = append(produced[st.ID], m[1])
			}
		}
		if strings.Contains(st.Run, `run "${flags[@]}"`) {
			runStep = st.Run
		}
	}
	for name, o := range a.Outputs {
		check("output "+name, o.Value)
	}
	for name := range a.Inputs {
		assert.True(t, used[name], "the input %s is declared and never used", name)
	}
	assert.NotContains(t, text, "\t", "YAML is indented with spaces")

	require.NotEmpty(t, runStep, "no step runs mcpmock run")
	help, _ := exec.Command(mcpmockBinary(t), "run", "-h").CombinedOutput()
	for _, m := range longFlag.FindAllStringSubmatch(runStep, -1) {
		assert.Regexp(t, `\n  -`+m[1]+`[ \n]`, string(help), "the action passes --%s, which mcpmock run -h does not list", m[1])
	}
}

// runAction runs the action's steps as a runner would, the action being
// in actionPath (github.action_path): each script by bash with its env:
// (inputs and step outputs substituted), RUNNER_TEMP, GITHUB_OUTPUT, and
// the working directory; a uses: step is not run but its with: is
// returned. After a step fails, only the steps whose if: says always()
// run, and an if: that compares steps.ID.outputs.NAME with the empty
// string skips its step when that output is empty. It returns the first
// failed step's error and the output of every step.
func runAction(t *testing.T, a action, actionPath string, inputs map[string]string) (with map[string]string, log string, err error) {
	temp := t.TempDir()
	outputs := map[string]map[string]string{}
	eval := func(s string) string {
		return actionExpr.ReplaceAllStringFunc(s, func(e string) string {
			m := actionExpr.FindStringSubmatch(e)[1]
			if in := actionInput.FindStringSubmatch(m); in != nil && in[0] == m {
				if v, ok := inputs[in[1]]; ok {
					return v
				}
				return a.Inputs[in[1]].Default
			}
			if so := actionStepOut.FindStringSubmatch(m); so != nil && so[0] == m {
				return outputs[so[1]][so[2]]
			}
			if m == "github.action_path" {
				return actionPath
			}
			t.Fatalf("the action uses the expression %s, which runAction cannot evaluate", e)
			return ""
		})
	}
	var all bytes.Buffer
	for i, st := range a.Runs.Steps {
		if err != nil && !strings.Contains(st.If, "always()") {
			continue
		}
		skip := false
		for _, m := range regexp.MustCompile(`(steps\.[a-z0-9-]+\.outputs\.[a-z0-9-]+) != ''`).FindAllStringSubmatch(st.If, -1) {
			skip = skip || eval("${{ "+m[1]+" }}") == ""
		}
		if skip {
			continue
		}
		if st.Uses != "" {
			with = map[string]string{}
			for k, v := range st.With {
				with[k] = eval(v)
			}
			continue
		}
		outFile := filepath.Join(temp, fmt.Sprintf("output-%d", i))
		require.NoError(t, os.WriteFile(outFile, nil, 0o600))
		cmd := exec.Command("bash", "-e", "-c", st.Run)
		cmd.Env = append(os.Environ(), "RUNNER_TEMP="+temp, "GITHUB_OUTPUT="+outFile)
		for k, v := range st.Env {
			cmd.Env = append(cmd.Env, k+"="+eval(v))
		}
		cmd.Dir = ".."
		if st.WorkingDirectory != "" {
			cmd.Dir = filepath.Join("..", eval(st.WorkingDirectory))
		}
		cmd.Stdout, cmd.Stderr = &all, &all
		rerr := cmd.Run()
		b, ferr := os.ReadFile(outFile)
		require.NoError(t, ferr)
		if st.ID != "" {
			outputs[st.ID] = map[string]string{}
			for _, l := range strings.Split(strings.TrimSpace(string(b)), "\n") {
				if k, v, ok := strings.Cut(l, "="); ok {
					outputs[st.ID][k] = v
				}
			}
		}
		if rerr != nil && err == nil {
			err = fmt.Errorf("step %d (%s): %w", i+1, st.ID, rerr)
		}
	}
	return with, all.String(), err
}

// TestActionRunsGoSDK: the action's steps, run as a runner would, judge
// the official Go SDK's app (integration/testdata/gosdkclient) on stdio
// with a prebuilt mcpmock and over HTTP with mcpmock built from the
// action's checkout; the JUnit and JSON reports are in the folder the
// upload step uploads. Without the known deviation the run step fails
// and the reports are still there; a transport that is neither is refused.
func TestActionRunsGoSDK(t *testing.T) {
	a, _ := readAction(t)
	actionPath, err := filepath.Abs("../dist/action")
	require.NoError(t, err)
	dir := t.TempDir()
	bin := build(t, dir, "github.com/mcpmock/mcpmock/cmd/mcpmock", "mcpmock")
	app := build(t, dir, "./testdata/gosdkclient", "gosdkclient")
	const deviation = "tools-capability-missing=go-sdk v1.8.0 calls tools/list without the tools capability"
	scenarios := "giftgen-handshake\ntools-capability-missing disconnect-mid-call"
	want := map[string]string{"giftgen-handshake": "pass", "tools-capability-missing": "known-deviation", "disconnect-mid-call": "pass"}

	reports := func(t *testing.T, with map[string]string) gjson.Result {
		t.Helper()
		require.NotEmpty(t, with["path"], "the upload step has no path")
		junit, err := os.ReadFile(filepath.Join(with["path"], "junit.xml"))
		require.NoError(t, err, "the uploaded folder has no junit.xml")
		assert.Contains(t, string(junit), "<testsuite")
		assert.Equal(t, len(want), strings.Count(string(junit), "<testcase "), "%s", junit)
		assert.Equal(t, "mcpmock-report", with["name"])
		return report(t, filepath.Join(with["path"], "report.json"))
	}
	for _, tc := range []struct {
		name   string
		inputs map[string]string
	}{
		{"stdio-prebuilt", map[string]string{"command": app, "mcpmock": bin}},
		{"http-from-source", map[string]string{"command": app + " -pin 2025-11-25", "transport": "http"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.inputs["scenarios"] = scenarios
			tc.inputs["known-deviations"] = "\n" + deviation + "\n"
			with, log, err := runAction(t, a, actionPath, tc.inputs)
			require.NoError(t, err, "%s", log)
			r := reports(t, with)
			for name, status := range want {
				res := r.Get(`results.#(scenario=="` + name + `")`)
				assert.Equal(t, status, res.Get("status").String(), "%s: %s", name, res.Get("observed").String())
			}
		})
	}
	t.Run("undeclared-deviation-fails", func(t *testing.T) {
		with, log, err := runAction(t, a, actionPath, map[string]string{"command": app, "mcpmock": bin, "scenarios": scenarios})
		var exit *exec.ExitError
		require.ErrorAs(t, err, &exit, "%s", log)
		assert.Equal(t, 1, exit.ExitCode(), "%s", log)
		assert.Contains(t, err.Error(), "(run)")
		r := reports(t, with)
		res := r.Get(`results.#(scenario=="tools-capability-missing")`)
		assert.Equal(t, "fail", res.Get("status").String(), "%s", res.Raw)
	})
	t.Run("bad-transport", func(t *testing.T) {
		with, log, err := runAction(t, a, actionPath, map[string]string{"command": app, "mcpmock": bin, "transport": "sse"})
		require.Error(t, err)
		assert.Nil(t, with, "nothing to upload when the run did not start")
		assert.Contains(t, log, `the input transport is "sse"; give stdio or http`)
	})
	t.Run("copy-without-checkout", func(t *testing.T) {
		// The action copied into a client's repository as
		// .github/actions/mcpmock: nothing to build without a binary.
		copied := filepath.Join(t.TempDir(), ".github", "actions", "mcpmock")
		_, log, err := runAction(t, a, copied, map[string]string{"command": app})
		require.Error(t, err)
		assert.Contains(t, log, "give the input mcpmock (a binary's path) or version")
	})
	assert.True(t, slices.ContainsFunc(a.Runs.Steps, func(s actionStep) bool { return strings.HasPrefix(s.If, "${{ always()") }),
		"the upload step must run when the run step failed")
}
