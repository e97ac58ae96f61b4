package main

import (
	"bufio"
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/mcpmock/mcpmock/internal/mcpclient"
	"github.com/mcpmock/mcpmock/mcptest"
	"github.com/mcpmock/mcpmock/scenarios"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/tidwall/gjson"
	"go.uber.org/goleak"
)

// bin is the mcpmock binary the tests build and drive.
var bin string

func TestMain(m *testing.M) {
	if mode := os.Getenv("MCPMOCK_TEST_CLIENT"); mode != "" {
		os.Exit(fakeClient(mode))
	}
	dir, err := os.MkdirTemp("", "mcpmock-test")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	bin = filepath.Join(dir, "mcpmock")
	if out, err := exec.Command("go", "build", "-race", "-o", bin, ".").CombinedOutput(); err != nil {
		// -race needs cgo; fall back to a plain build.
		if out2, err2 := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err2 != nil {
			fmt.Fprintf(os.Stderr, "building mcpmock: %v\n%s\n%s", err2, out, out2)
			os.Exit(2)
		}
	}
	code := func() int {
		defer os.RemoveAll(dir)
		goleak.VerifyTestMain(m) // exits
		return 0
	}()
	os.Exit(code)
}

// proc is a running mcpmock.
type proc struct {
	t      *testing.T
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	lines  chan string
	stderr *bytes.Buffer
	done   chan struct{}
}

func start(t *testing.T, args ...string) *proc {
	t.Helper()
	cmd := exec.Command(bin, args...)
	p := &proc{t: t, cmd: cmd, lines: make(chan string, 256), stderr: &bytes.Buffer{}, done: make(chan struct{})}
	var err error
	p.stdin, err = cmd.StdinPipe()
	require.NoError(t, err)
	out, err := cmd.StdoutPipe()
	require.NoError(t, err)
	cmd.Stderr = &lockedWriter{w: p.stderr}
	require.NoError(t, cmd.Start())
	go func() {
		defer close(p.lines)
		sc := bufio.NewScanner(out)
		sc.Buffer(make([]byte, 1<<20), 1<<24)
		for sc.Scan() {
			p.lines <- sc.Text()
		}
	}()
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		p.wait()
	})
	return p
}

type lockedWriter struct {
	w io.Writer
}

func (l *lockedWriter) Write(b []byte) (int, error) { return l.w.Write(b) }

func (p *proc) send(line string) {
	p.t.Helper()
	_, err := io.WriteString(p.stdin, line+"\n")
	require.NoError(p.t, err)
}

// recv returns the next line mcpmock wrote to stdout, which must be JSON.
func (p *proc) recv() gjson.Result {
	p.t.Helper()
	select {
	case line, ok := <-p.lines:
		require.True(p.t, ok, "mcpmock closed stdout; stderr:\n%s", p.stderr)
		require.True(p.t, gjson.Valid(line), "stdout carries only MCP, but got %q", line)
		return gjson.Parse(line)
	case <-time.After(20 * time.Second):
		p.t.Fatalf("no reply from mcpmock within 20 s; stderr:\n%s", p.stderr)
		return gjson.Result{}
	}
}

const initialize = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"test","version":"1"}}}`
const initialized = `{"jsonrpc":"2.0","method":"notifications/initialized"}`

func (p *proc) handshake() gjson.Result {
	p.t.Helper()
	p.send(initialize)
	res := p.recv()
	require.Equal(p.t, "2025-11-25", res.Get("result.protocolVersion").String(), res.Raw)
	p.send(initialized)
	return res
}

// wait waits for mcpmock to exit and returns its exit code.
func (p *proc) wait() int {
	err := p.cmd.Wait()
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		return ee.ExitCode()
	}
	if err != nil && strings.Contains(err.Error(), "Wait was already called") {
		return p.cmd.ProcessState.ExitCode()
	}
	return 0
}

// exit closes stdin and returns the exit code.
func (p *proc) exit() int {
	p.t.Helper()
	require.NoError(p.t, p.stdin.Close())
	for range p.lines { // drain
	}
	return p.wait()
}

func readReport(t *testing.T, path string) gjson.Result {
	t.Helper()
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	require.True(t, gjson.ValidBytes(b), "%s", b)
	return gjson.ParseBytes(b)
}

func runMcpmock(t *testing.T, env []string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Env = append(os.Environ(), env...)
	var o, e bytes.Buffer
	cmd.Stdout, cmd.Stderr = &o, &e
	err := cmd.Run()
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee):
		code = ee.ExitCode()
	case err != nil:
		t.Fatalf("running mcpmock: %v", err)
	}
	return o.String(), e.String(), code
}

func TestList(t *testing.T) {
	t.Parallel()
	out, _, code := runMcpmock(t, nil, "list")
	assert.Equal(t, 0, code)
	lines := strings.Split(strings.TrimSpace(out), "\n")
	assert.GreaterOrEqual(t, len(lines), 20)
	assert.Contains(t, out, "wrong-id-type: ")
	assert.Contains(t, out, "http-session-expired: ") // the HTTP scenarios are in the catalog
	assert.Contains(t, out, "auth/metadata-default: ")
	assert.Contains(t, out, "[https://modelcontextprotocol.io/specification/")

	out, _, code = runMcpmock(t, nil, "list", "--faults")
	assert.Equal(t, 0, code)
	assert.Contains(t, out, `{fault: "Delay", method: string, duration: duration}: answers method after a delay`)
	assert.Contains(t, out, "nth (integer ≥ 1)")
}

func TestListRules(t *testing.T) {
	t.Parallel()
	out, _, code := runMcpmock(t, nil, "list", "--rules")
	assert.Equal(t, 0, code)
	var lines, headings []string // the rules' lines, the areas' headings
	for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
		switch {
		case strings.HasPrefix(l, "  "):
			lines = append(lines, strings.TrimPrefix(l, "  "))
		case l != "":
			headings = append(headings, l)
		}
	}
	assert.Len(t, lines, len(mcptest.Rules()), "one line a rule")
	// Grouped by area in the order of the spec's pages: the base
	// protocol's messages first, authorization after the transports, the
	// features last; not alphabetically (auth/ came first).
	assert.Equal(t, "Base protocol: JSON-RPC messages:", headings[0])
	assert.Less(t, slices.Index(headings, "Base protocol: transports, Streamable HTTP:"), slices.Index(headings, "Base protocol: authorization:"))
	assert.Equal(t, "Client features: elicitation:", headings[len(headings)-1])
	assert.Len(t, headings, len(ruleAreas), "every area has a heading of ruleAreas")
	assert.Contains(t, lines, "lifecycle/unoffered-version-accepted: SHOULD (warning, once per session; 2024-11-05, 2025-03-26, 2025-06-18, 2025-11-25; transport any): "+
		"disconnect when answered a version it does not support (unknown, or of the stateless era) [https://modelcontextprotocol.io/specification/2025-11-25/basic/lifecycle#version-negotiation]")
	assert.Contains(t, lines, "capabilities/undeclared-method: MUST (SHOULD in 2024-11-05, 2025-03-26) (error; all versions; transport any): "+
		"use only capabilities the server declared (tools, resources, resources.subscribe, prompts, logging, completions) [https://modelcontextprotocol.io/specification/2025-11-25/basic/lifecycle#operation]")
	for _, l := range lines {
		id, _, _ := strings.Cut(l, ":")
		_, ok := mcptest.LookupRule(mcptest.RuleID(id))
		assert.True(t, ok, "line %q names no rule", l)
	}
	_, stderr, code := runMcpmock(t, nil, "list", "--rules", "--faults")
	assert.Equal(t, exitUsage, code)
	assert.Contains(t, stderr, "--faults, --rules and --bugs: choose one")
}

func TestUsage(t *testing.T) {
	t.Parallel()
	_, stderr, code := runMcpmock(t, nil)
	assert.Equal(t, exitUsage, code)
	assert.Contains(t, stderr, "usage:")
	_, stderr, code = runMcpmock(t, nil, "srve")
	assert.Equal(t, exitUsage, code)
	assert.Contains(t, stderr, `unknown command "srve"`)
	_, stderr, code = runMcpmock(t, nil, "serve", "--scenario", "wrong-id")
	assert.Equal(t, exitUsage, code)
	assert.Contains(t, stderr, `mcpmock serve: --scenario "wrong-id": no scenario named "wrong-id"; did you mean "wrong-id-type"? (mcpmock list shows the catalog)`)
	assert.NotContains(t, stderr, "giftgen-handshake", "not the whole catalog")
	out, _, code := runMcpmock(t, nil, "help")
	assert.Equal(t, 0, code)
	assert.Contains(t, out, "mcpmock run")
}

// TestFlagHelp: each command's -h names every flag's argument in capitals
// (the flag package takes a backquoted word of the usage for it, so a
// usage must not backquote anything else), and the top-level usage lists
// every flag of every command and points to "mcpmock COMMAND -h".
func TestFlagHelp(t *testing.T) {
	t.Parallel()
	top, _, code := runMcpmock(t, nil, "help")
	require.Equal(t, 0, code)
	assert.Contains(t, top, `Run "mcpmock COMMAND -h"`)
	flagLine := regexp.MustCompile(`(?m)^  -(\S+)(?: (\S+))?$`)
	block, _, _ := strings.Cut(top[strings.Index(top, "usage:\n"):], "\n\n")
	synopses := map[string]string{}
	for _, part := range strings.Split(block, "\n  mcpmock ")[1:] {
		name, _, _ := strings.Cut(part, " ")
		synopses[name] = part
	}
	for _, cmd := range []string{"serve", "run", "list", "tour"} {
		_, help, code := runMcpmock(t, nil, cmd, "-h")
		require.Equal(t, 0, code, help)
		synopsis := synopses[cmd]
		flags := flagLine.FindAllStringSubmatch(help, -1)
		require.NotEmpty(t, flags, help)
		for _, f := range flags {
			if f[2] != "" && !regexp.MustCompile(`^[A-Z]+(=why|:[A-Z]+)?$`).MatchString(f[2]) {
				t.Errorf("mcpmock %s -h: -%s takes %q; want a name in capitals (FILE, NAME), the one word of its usage in backquotes", cmd, f[1], f[2])
			}
			want := "--" + f[1]
			if f[2] != "" {
				want += " " + f[2]
			}
			if !strings.Contains(synopsis, want) {
				t.Errorf("the usage's mcpmock %s line does not list %s:\n%s", cmd, want, synopsis)
			}
		}
	}
}

func TestServeStdioReport(t *testing.T) {
	t.Parallel()
	report := filepath.Join(t.TempDir(), "report.json")
	p := start(t, "serve", "--report", report)
	init := p.handshake()
	assert.Equal(t, "gift-genius-backend", init.Get("result.serverInfo.name").String(), "the default server is GiftGen")
	p.send(`{"jsonrpc":"2.0","id":2,"method":"tools/list"}`)
	assert.Equal(t, "suggest_gifts", p.recv().Get("result.tools.0.name").String())
	p.send(`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"suggest_gifts","arguments":{"age":25}}}`)
	assert.Equal(t, "a board game", p.recv().Get("result.content.0.text").String())
	assert.Equal(t, 0, p.exit(), "stderr:\n%s", p.stderr)

	r := readReport(t, report)
	assert.Equal(t, "pass", r.Get("verdict").String())
	assert.Equal(t, "giftgen", r.Get("server").String())
	assert.Equal(t, "stdio", r.Get("transport").String())
	assert.Equal(t, "the client closed stdin", r.Get("ended").String())
	assert.Equal(t, int64(7), r.Get("messages").Int())
	assert.Empty(t, r.Get("violations").Array())
	assert.Contains(t, r.Get("transcript").String(), `"method":"tools/call"`)
	assert.True(t, strings.HasPrefix(r.Get("mermaid").String(), "sequenceDiagram"), r.Get("mermaid").String())
	assert.Contains(t, r.Get("mermaid").String(), "C->>S: tools/call [id 3]")
	assert.Contains(t, p.stderr.String(), "mcpmock: giftgen: pass (7 messages, no rule broken; the client closed stdin)")
}

func TestServeBrokenRuleExits1(t *testing.T) {
	t.Parallel()
	report := filepath.Join(t.TempDir(), "report.json")
	p := start(t, "serve", "--report", report)
	p.send(`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`) // before initialize
	p.recv()
	assert.Equal(t, exitVerdict, p.exit())
	r := readReport(t, report)
	assert.Equal(t, "fail", r.Get("verdict").String())
	assert.Equal(t, "lifecycle/initialize-first", r.Get("violations.0.rule").String(), r.Raw)
	assert.Equal(t, "error", r.Get("violations.0.severity").String())
	assert.Contains(t, r.Get("violations.0.url").String(), "https://modelcontextprotocol.io/specification/")
	assert.Contains(t, r.Get("problems.0").String(), "lifecycle/initialize-first")
	assert.Contains(t, p.stderr.String(), "lifecycle/initialize-first")
}

func TestServeGarbageDoesNotCrash(t *testing.T) {
	t.Parallel()
	report := filepath.Join(t.TempDir(), "report.json")
	p := start(t, "serve", "--report", report)
	p.send(`{not json`)
	assert.Equal(t, int64(-32700), p.recv().Get("error.code").Int())
	p.handshake()
	p.send(`{"jsonrpc":"2.0","id":2,"method":"ping"}`)
	assert.True(t, p.recv().Get("result").Exists())
	assert.Equal(t, exitVerdict, p.exit())
	assert.Equal(t, "jsonrpc/parse-error", readReport(t, report).Get("violations.0.rule").String())
}

const smallConfig = `{
  "server": {"name": "weather", "version": "1.0.0"},
  "tools": [{
    "name": "get_forecast",
    "inputSchema": {"type": "object", "properties": {"city": {"type": "string"}}},
    "cases": [{"arguments": {"city": "Paris"}, "replies": [{"text": "rain"}]}],
    "replies": [{"text": "sunny"}]
  }],
  "faults": [{"fault": "SetField", "method": "tools/call", "path": "result._meta.fault", "value": true}]
}`

func TestServeConfig(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	cfg := filepath.Join(dir, "weather.json")
	require.NoError(t, os.WriteFile(cfg, []byte(smallConfig), 0o644))
	report := filepath.Join(dir, "report.json")
	p := start(t, "serve", "--config", cfg, "--report", report)
	assert.Equal(t, "weather", p.handshake().Get("result.serverInfo.name").String())
	p.send(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"get_forecast","arguments":{"city":"Paris"}}}`)
	res := p.recv()
	assert.Equal(t, "rain", res.Get("result.content.0.text").String())
	assert.True(t, res.Get("result._meta.fault").Bool(), "the file's fault: %s", res.Raw)
	assert.Equal(t, 0, p.exit(), "stderr:\n%s", p.stderr)
	assert.Equal(t, "config "+cfg, readReport(t, report).Get("server").String())
}

func TestServeConfigFaultThatNeverActs(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	cfg := filepath.Join(dir, "weather.json")
	require.NoError(t, os.WriteFile(cfg, []byte(smallConfig), 0o644))
	report := filepath.Join(dir, "report.json")
	p := start(t, "serve", "--config", cfg, "--report", report)
	p.handshake()
	assert.Equal(t, exitVerdict, p.exit(), "the file's fault never acted")
	r := readReport(t, report)
	assert.Equal(t, "fail", r.Get("verdict").String())
	assert.Contains(t, r.Get("problems.0").String(), `SetField("tools/call"`)
}

func TestServeConfigOptionalFault(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	cfg := filepath.Join(dir, "weather.json")
	optional := strings.Replace(smallConfig, `"value": true}`, `"value": true, "optional": true}`, 1)
	require.NotEqual(t, smallConfig, optional)
	require.NoError(t, os.WriteFile(cfg, []byte(optional), 0o644))
	p := start(t, "serve", "--config", cfg)
	p.handshake()
	assert.Equal(t, 0, p.exit(), "an optional fault may never act; stderr:\n%s", p.stderr)
}

func TestServeConfigEveryFeature(t *testing.T) {
	t.Parallel()
	report := filepath.Join(t.TempDir(), "report.json")
	p := start(t, "serve", "--config", "../../config/testdata/full.json", "--report", report)
	init := p.handshake()
	assert.Equal(t, "Weather service", init.Get("result.serverInfo.title").String())
	p.send(`{"jsonrpc":"2.0","id":2,"method":"resources/read","params":{"uri":"weather://city/lyon"}}`)
	assert.Equal(t, "a city", p.recv().Get("result.contents.0.text").String())
	assert.Equal(t, exitVerdict, p.exit(), "its faults never acted")
}

func TestServeBadConfig(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	cfg := filepath.Join(dir, "bad.json")
	require.NoError(t, os.WriteFile(cfg, []byte("{\n  \"server\": {\"name\": \"x\", \"version\": \"1\"},\n  \"tools\": [{\"name\": \"a\",\n    \"replies\": [{\"txt\": \"hi\"}]}],\n  \"faults\": [{\"fault\": \"Dealy\"}]\n}\n"), 0o644))
	_, stderr, code := runMcpmock(t, nil, "serve", "--config", cfg)
	assert.Equal(t, exitUsage, code)
	assert.Contains(t, stderr, `bad.json:4:17: tools[0].replies[0]: unknown field "txt" (did you mean "text"?)`)
	assert.Contains(t, stderr, `bad.json:5:15: faults[0].fault: unknown fault "Dealy" (did you mean "Delay"?)`)

	_, stderr, code = runMcpmock(t, nil, "serve", "--config", filepath.Join(dir, "missing.json"))
	assert.Equal(t, exitUsage, code)
	assert.Contains(t, stderr, "no such file")
}

func TestServeSignals(t *testing.T) {
	t.Parallel()
	for name, sig := range map[string]syscall.Signal{"SIGTERM": syscall.SIGTERM, "SIGINT": syscall.SIGINT} {
		t.Run(name, func(t *testing.T) {
			report := filepath.Join(t.TempDir(), "report.json")
			p := start(t, "serve", "--report", report)
			p.handshake()
			p.send(`{"jsonrpc":"2.0","id":2,"method":"ping"}`)
			p.recv() // serving: the signal handler is in place
			require.NoError(t, p.cmd.Process.Signal(sig))
			assert.Equal(t, 0, p.wait(), "stderr:\n%s", p.stderr)
			r := readReport(t, report)
			assert.Equal(t, "pass", r.Get("verdict").String())
			assert.Equal(t, name, r.Get("ended").String())
			assert.Equal(t, int64(5), r.Get("messages").Int())
		})
	}
}

func TestServeScenario(t *testing.T) {
	t.Parallel()
	t.Run("a client that trusts the capabilities", func(t *testing.T) {
		report := filepath.Join(t.TempDir(), "report.json")
		p := start(t, "serve", "--scenario", "tools-capability-missing", "--report", report)
		init := p.handshake()
		assert.False(t, init.Get("result.capabilities.tools").Exists(), init.Raw)
		assert.Equal(t, 0, p.exit(), "stderr:\n%s", p.stderr)
		r := readReport(t, report)
		assert.Equal(t, "pass", r.Get("verdict").String(), r.Raw)
		assert.Equal(t, "tools-capability-missing", r.Get("scenario.scenario").String())
		assert.Equal(t, "pass", r.Get("scenario.status").String())
	})
	t.Run("a client that lists anyway", func(t *testing.T) {
		report := filepath.Join(t.TempDir(), "report.json")
		p := start(t, "serve", "--scenario", "tools-capability-missing", "--report", report)
		p.handshake()
		p.send(`{"jsonrpc":"2.0","id":2,"method":"tools/list"}`)
		p.recv()
		assert.Equal(t, exitVerdict, p.exit())
		r := readReport(t, report)
		assert.Equal(t, "fail", r.Get("scenario.status").String(), r.Raw)
		assert.Contains(t, r.Get("scenario.observed").String(), "tools/list")
		assert.Equal(t, "capabilities/undeclared-method", r.Get("violations.0.rule").String())
	})
}

// TestServeScenarioBrokenRules: serve --scenario prints the rules the
// client broke and the transcript on stderr, as serve without a scenario
// does, and the report's problems list them; the verdict fails.
func TestServeScenarioBrokenRules(t *testing.T) {
	t.Parallel()
	report := filepath.Join(t.TempDir(), "report.json")
	p := start(t, "serve", "--scenario", "giftgen-handshake", "--report", report)
	p.send(`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`) // before initialize
	p.recv()
	assert.Equal(t, exitVerdict, p.exit())
	r := readReport(t, report)
	assert.Equal(t, "fail", r.Get("verdict").String(), r.Raw)
	assert.Equal(t, "giftgen-handshake", r.Get("scenario.scenario").String())
	require.Len(t, r.Get("problems").Array(), 1, r.Raw)
	assert.Contains(t, r.Get("problems.0").String(), "the client broke 1 protocol rule; fix the client")
	assert.Contains(t, r.Get("problems.0").String(), "lifecycle/initialize-first: tools/list sent before initialize")
	stderr := p.stderr.String()
	assert.Contains(t, stderr, "mcpmock: FAIL: the client broke 1 protocol rule;")
	assert.Contains(t, stderr, "lifecycle/initialize-first")
	assert.Contains(t, stderr, `mcpmock:   1 → {"jsonrpc":"2.0","id":1,"method":"tools/list"}`, "the transcript")
	assert.NotContains(t, stderr, "ExpectViolation", "the command speaks of the command")
	assert.Contains(t, stderr, "mcpmock: scenario giftgen-handshake: fail (2 messages, 1 rule broken; the client closed stdin)")
}

// httpPost posts a JSON-RPC message to the mock's endpoint and returns
// the status, the session id header and the body.
func httpPost(t *testing.T, url, sid, body string) (int, string, string) {
	t.Helper()
	var hdr map[string]string
	if sid != "" {
		hdr = map[string]string{"Mcp-Session-Id": sid, "MCP-Protocol-Version": "2025-11-25"}
	}
	res, b := postMCP(t, url, body, hdr)
	return res.StatusCode, res.Header.Get("Mcp-Session-Id"), b
}

// httpDelete ends the session sid with DELETE and returns the status.
func httpDelete(t *testing.T, url, sid string) int {
	t.Helper()
	req, err := http.NewRequest(http.MethodDelete, url, nil)
	require.NoError(t, err)
	req.Header.Set("Mcp-Session-Id", sid)
	req.Header.Set("MCP-Protocol-Version", "2025-11-25")
	res, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	_ = res.Body.Close()
	return res.StatusCode
}

// postMCP posts body to the mock's endpoint with the headers a correct
// client sends (Content-Type, Accept), then those of hdr ("Host" sets the
// request's Host), and returns the response and its body, read and closed.
func postMCP(t *testing.T, url, body string, hdr map[string]string) (*http.Response, string) {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
	require.NoError(t, err)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	for k, v := range hdr {
		if k == "Host" {
			req.Host = v
			continue
		}
		req.Header.Set(k, v)
	}
	res, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	require.NoError(t, err)
	return res, string(b)
}

func TestServeHTTP(t *testing.T) {
	t.Parallel()
	report := filepath.Join(t.TempDir(), "report.json")
	p := start(t, "serve", "--http", "--report", report)
	var url string
	select {
	case url = <-p.lines:
	case <-time.After(20 * time.Second):
		t.Fatalf("serve --http printed no URL; stderr:\n%s", p.stderr)
	}
	require.Regexp(t, `^http://127\.0\.0\.1:\d+/mcp$`, url)

	status, sid, body := httpPost(t, url, "", initialize)
	require.Equal(t, http.StatusOK, status, body)
	require.NotEmpty(t, sid)
	assert.Equal(t, "gift-genius-backend", gjson.Get(body, "result.serverInfo.name").String(), body)
	status, _, _ = httpPost(t, url, sid, initialized)
	assert.Equal(t, http.StatusAccepted, status)
	status, _, body = httpPost(t, url, sid, `{"jsonrpc":"2.0","id":2,"method":"tools/list"}`)
	assert.Equal(t, http.StatusOK, status)
	assert.Equal(t, "suggest_gifts", gjson.Get(body, "result.tools.0.name").String(), body)

	assert.Equal(t, http.StatusOK, httpDelete(t, url, sid))

	assert.Equal(t, 0, p.wait(), "DELETE ends serve --http; stderr:\n%s", p.stderr)
	r := readReport(t, report)
	assert.Equal(t, "pass", r.Get("verdict").String(), r.Raw)
	assert.Equal(t, "http", r.Get("transport").String())
	assert.Equal(t, "the client ended its session (DELETE)", r.Get("ended").String())
	assert.Equal(t, int64(5), r.Get("messages").Int())
	assert.Contains(t, r.Get("transcript").String(), "POST")
}

// TestServeHTTPExitsAfterRefusedInitialize: an initialize refused with 406
// (it accepts only JSON) opens no session, so the session the client then
// opens and ends with DELETE ends serve --http. (Before: the 406 opened a
// session that never ended, and serve never exited.)
func TestServeHTTPExitsAfterRefusedInitialize(t *testing.T) {
	t.Parallel()
	report := filepath.Join(t.TempDir(), "report.json")
	p := start(t, "serve", "--http", "--report", report)
	var url string
	select {
	case url = <-p.lines:
	case <-time.After(20 * time.Second):
		t.Fatalf("serve --http printed no URL; stderr:\n%s", p.stderr)
	}
	res, _ := postMCP(t, url, initialize, map[string]string{"Accept": "application/json"})
	require.Equal(t, http.StatusNotAcceptable, res.StatusCode)

	status, sid, body := httpPost(t, url, "", initialize)
	require.Equal(t, http.StatusOK, status, body)
	status, _, _ = httpPost(t, url, sid, initialized)
	require.Equal(t, http.StatusAccepted, status)
	require.Equal(t, http.StatusOK, httpDelete(t, url, sid))

	done := make(chan int, 1)
	go func() { done <- p.wait() }()
	select {
	case code := <-done:
		assert.Equal(t, 1, code, "the refused initialize is a violation; stderr:\n%s", p.stderr)
	case <-time.After(20 * time.Second):
		t.Fatalf("serve --http did not exit after the only session ended with DELETE; stderr:\n%s", p.stderr)
	}
	r := readReport(t, report)
	assert.Equal(t, "the client ended its session (DELETE)", r.Get("ended").String(), r.Raw)
	assert.Equal(t, "http/accept", r.Get("violations.0.rule").String(), r.Raw)
}

func TestServeHTTPStatelessEndsOnSignal(t *testing.T) {
	t.Parallel()
	report := filepath.Join(t.TempDir(), "report.json")
	p := start(t, "serve", "--http", "--scenario", "modern-only", "--report", report)
	url := <-p.lines
	res, b := postMCP(t, url, `{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientInfo":{"name":"raw","version":"1"}}}}`,
		map[string]string{"MCP-Protocol-Version": "2026-07-28", "Mcp-Method": "tools/list"})
	require.Equal(t, http.StatusOK, res.StatusCode, "%s", b)
	assert.Equal(t, "suggest_gifts", gjson.Get(b, "result.tools.0.name").String(), "%s", b)
	require.NoError(t, p.cmd.Process.Signal(syscall.SIGTERM))
	p.wait()
	r := readReport(t, report)
	assert.Equal(t, "SIGTERM", r.Get("ended").String())
	assert.Equal(t, "modern-only", r.Get("scenario.scenario").String())
	assert.Contains(t, r.Get("transcript").String(), "tools/list")
}

func TestServeHTTPLoopbackOnly(t *testing.T) {
	t.Parallel()
	_, stderr, code := runMcpmock(t, nil, "serve", "--http", "--listen", "0.0.0.0:0")
	assert.Equal(t, exitUsage, code)
	assert.Contains(t, stderr, "loopback addresses only")
	assert.Contains(t, stderr, "answers anyone who reaches it", "it says why")
	assert.Contains(t, stderr, "add --allow-remote", "and how to ask for it")
	_, stderr, code = runMcpmock(t, nil, "serve", "--allow-remote")
	assert.Equal(t, exitUsage, code)
	assert.Contains(t, stderr, "go with --http")
	_, stderr, code = runMcpmock(t, nil, "serve", "--http", "--allow-host", "mock.test:8080")
	assert.Equal(t, exitUsage, code)
	assert.Contains(t, stderr, `--allow-host "mock.test:8080": want a host name or IP address, without a port`)
	_, stderr, code = runMcpmock(t, nil, "serve", "--http", "--listen", "8080")
	assert.Equal(t, exitUsage, code)
	assert.Contains(t, stderr, "want host:port")
}

// fakeClientCmd is the command line of the fake client in the given mode.
func fakeClientCmd(mode string) ([]string, []string) {
	return []string{"MCPMOCK_TEST_CLIENT=" + mode}, []string{os.Args[0]}
}

// TestRunHTTPConformanceConventions: mcpmock run --http gives a client
// program the official suite's environment (MCP_CONFORMANCE_SCENARIO,
// MCP_CONFORMANCE_CONTEXT with the scenario's name and its ClientContext),
// and its front keeps the authorization's URLs (PRM, the authorization
// server's) naming the address the client was given.
func TestRunHTTPConformanceConventions(t *testing.T) {
	t.Parallel()
	env, cmd := fakeClientCmd("oauth-probe")
	args := append([]string{"run", "--http", "--scenario", "auth/pre-registration", "--"}, cmd...)
	_, stderr, _ := runMcpmock(t, env, args...)
	assert.Contains(t, stderr, `probe: scenario=auth/pre-registration context={"client_id":"mcpmock-preregistered","client_secret":"mcpmock-preregistered-secret","name":"auth/pre-registration"}`)
	assert.Contains(t, stderr, "probe: the PRM's resource is the URL it was given")
}

func TestRunCarefulClient(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	env, cmd := fakeClientCmd("careful")
	jsonFile, junitFile := filepath.Join(dir, "r.json"), filepath.Join(dir, "r.xml")
	args := append([]string{"run", "--scenario", "giftgen-handshake", "--scenario", "wrong-id-type", "--scenario", "stdout-banner",
		"--json", jsonFile, "--junit", junitFile, "--"}, cmd...)
	out, stderr, code := runMcpmock(t, env, args...)
	assert.Equal(t, 0, code, "stdout:\n%s\nstderr:\n%s", out, stderr)
	assert.Contains(t, out, "3 scenarios: 3 pass, 0 known deviations, 0 fail")
	assert.Regexp(t, `(?m)^wrong-id-type .* pass$`, out)

	rep := readReport(t, jsonFile)
	assert.Equal(t, int64(3), rep.Get("summary.pass").Int(), rep.Raw)
	assert.Contains(t, rep.Get(`results.#(scenario=="wrong-id-type").observed`).String(), `ignored a reply with id \"3\"`)

	var suite struct {
		Tests    int `xml:"tests,attr"`
		Failures int `xml:"failures,attr"`
		Cases    []struct {
			Name    string    `xml:"name,attr"`
			Failure *struct{} `xml:"failure"`
		} `xml:"testcase"`
	}
	b, err := os.ReadFile(junitFile)
	require.NoError(t, err)
	require.NoError(t, xml.Unmarshal(b, &suite), "%s", b)
	assert.Equal(t, 3, suite.Tests)
	assert.Equal(t, 0, suite.Failures)
	assert.Equal(t, "giftgen-handshake", suite.Cases[0].Name)
	assert.Contains(t, stderr, "client[giftgen-handshake]: fake client: called suggest_gifts: \"a board game\"", "the client's stderr goes to the log")

	// A client that takes "3" for 3 breaks no rule of its own either: no
	// sentence of the spec tells a client to refuse it.
	env, cmd = fakeClientCmd("by-number")
	out, stderr, code = runMcpmock(t, env, append([]string{"run", "--scenario", "wrong-id-type", "--"}, cmd...)...)
	assert.Equal(t, 0, code, "stdout:\n%s\nstderr:\n%s", out, stderr)
	assert.Regexp(t, `(?m)^wrong-id-type .* pass$`, out)
}

func TestRunBuggyClientAndKnownDeviation(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	env, cmd := fakeClientCmd("non-json-fatal")
	junitFile := filepath.Join(dir, "r.xml")
	out, _, code := runMcpmock(t, env, append([]string{"run", "--scenario", "stdout-banner", "--junit", junitFile, "--"}, cmd...)...)
	assert.Equal(t, exitVerdict, code, out)
	assert.Regexp(t, `(?m)^stdout-banner +fail \(robustness\)\n(    .*\n)*    observed  the client ended with error "the client exited: exit status 1;`, out,
		"a program's result in the command's words: its exit status, not Go's \"connect returned\"")
	assert.NotContains(t, out, "connect return")
	b, err := os.ReadFile(junitFile)
	require.NoError(t, err)
	assert.Contains(t, string(b), `failures="1"`)
	assert.Contains(t, string(b), `<failure message="the client ended with error &#34;the client exited: exit status 1;`)

	out, _, code = runMcpmock(t, env, append([]string{"run", "--scenario", "stdout-banner", "--scenario", "giftgen-stateless", "--junit", junitFile,
		"--known-deviation", "stdout-banner=a line that is not JSON ends its read loop", "--"}, cmd...)...)
	assert.Equal(t, 0, code, out)
	assert.Regexp(t, `(?m)^stdout-banner .* known-deviation$`, out)
	assert.Regexp(t, `(?m)^giftgen-stateless .* not-applicable$`, out, "the fake client speaks only the handshake era")
	b, err = os.ReadFile(junitFile)
	require.NoError(t, err)
	assert.Contains(t, string(b), `failures="0" skipped="1"`)
	assert.Contains(t, string(b), "known deviation: a line that is not JSON ends its read loop")

	// A declared deviation that no longer happens fails, so it is removed.
	env, cmd = fakeClientCmd("careful")
	out, _, code = runMcpmock(t, env, append([]string{"run", "--scenario", "stdout-banner",
		"--known-deviation", "stdout-banner=a line that is not JSON ends its read loop", "--json", filepath.Join(dir, "r.json"), "--"}, cmd...)...)
	assert.Equal(t, exitVerdict, code, out)
	assert.Equal(t, "--known-deviation 'stdout-banner=a line that is not JSON ends its read loop' was given, but the client now does what a correct client does: remove it",
		readReport(t, filepath.Join(dir, "r.json")).Get("results.0.why").String(), "the command's words, not KnownDeviation(…)")
}

func TestRunDeadlineCountsFromFirstByte(t *testing.T) {
	t.Parallel()
	// disconnect-mid-call wants the client to notice the closed connection
	// well before its 4 s deadline; this client takes 2.5 s to start.
	env, cmd := fakeClientCmd("slow-start")
	out, stderr, code := runMcpmock(t, env, append([]string{"run", "--scenario", "disconnect-mid-call", "--"}, cmd...)...)
	assert.Equal(t, 0, code, "stdout:\n%s\nstderr:\n%s", out, stderr)
	assert.Regexp(t, `(?m)^disconnect-mid-call .* pass$`, out)
}

func TestRunClientWithoutServer(t *testing.T) {
	t.Parallel()
	env, cmd := fakeClientCmd("no-server")
	jsonFile, junitFile := filepath.Join(t.TempDir(), "r.json"), filepath.Join(t.TempDir(), "r.xml")
	out, _, code := runMcpmock(t, env, append([]string{"run", "--scenario", "giftgen-handshake", "--json", jsonFile, "--junit", junitFile, "--"}, cmd...)...)
	assert.Equal(t, exitVerdict, code, "not reached is a failure")
	assert.Regexp(t, `(?m)^giftgen-handshake .* not-reached$`, out)
	r := readReport(t, jsonFile).Get("results.0")
	assert.Contains(t, r.Get("observed").String(), "the client exited (exit status 3) without starting its server from MCPMOCK_SERVER_COMMAND")
	assert.Contains(t, r.Get("observed").String(), "fake client: I start no server", "the end of its stderr")
	b, err := os.ReadFile(junitFile)
	require.NoError(t, err)
	assert.Contains(t, string(b), `failures="1"`, "not reached is a failure in JUnit too")
	assert.Contains(t, string(b), `type="not-reached"`)
}

func TestRunUsageMistakes(t *testing.T) {
	t.Parallel()
	_, stderr, code := runMcpmock(t, nil, "run")
	assert.Equal(t, exitUsage, code)
	assert.Contains(t, stderr, "no client command: write it after --")
	_, stderr, code = runMcpmock(t, nil, "run", "--scenario", "nope", "--", "true")
	assert.Equal(t, exitUsage, code)
	assert.Contains(t, stderr, `mcpmock run: --scenario "nope": no scenario named "nope" (mcpmock list shows the catalog)`)
	assert.NotContains(t, stderr, "giftgen-handshake", "not the whole catalog")
	_, stderr, code = runMcpmock(t, nil, "run", "--scenario", "looping-cursr", "--known-deviation", "tool-list-changed=x", "--", "true")
	assert.Equal(t, exitUsage, code)
	assert.Contains(t, stderr, `--scenario "looping-cursr": no scenario named "looping-cursr"; did you mean "looping-cursor"?; `+
		`--known-deviation "tool-list-changed": no scenario named "tool-list-changed"; did you mean "tools-list-changed"?`)
	_, stderr, code = runMcpmock(t, nil, "run", "--known-deviation", "wrong-id-type", "--", "true")
	assert.Equal(t, exitUsage, code)
	assert.Contains(t, stderr, "write NAME=why")
	// A client that cannot start: TestRunClientThatCannotStart.
}

func TestRelayNeedsItsRunner(t *testing.T) {
	t.Parallel()
	_, stderr, code := runMcpmock(t, nil, "relay", "127.0.0.1:1", "token")
	assert.Equal(t, exitUsage, code)
	assert.Contains(t, stderr, "cannot reach the mcpmock run")
}

func TestTour(t *testing.T) {
	t.Parallel()
	env, cmd := fakeClientCmd("careful")
	out, stderr, code := runMcpmock(t, env, append([]string{"tour", "--name", "the fake client", "3", "--"}, cmd...)...)
	assert.Equal(t, 0, code, stderr)
	assert.Contains(t, out, "# Mistake 3 of 7: a forgotten capability")
	assert.Contains(t, out, "```mermaid")
	assert.Contains(t, out, "The fake client: pass")

	// Without a client program: the reference client, in process.
	out, stderr, code = runMcpmock(t, nil, "tour", "2", "forgotten-capability", "wrong-id-type")
	assert.Equal(t, 0, code, stderr)
	assert.Contains(t, out, "# Mistake 2 of 7")
	assert.Contains(t, out, `refused the initialize result: protocolVersion "1999-01-01" is not a version`)
	assert.Contains(t, out, "read the capabilities: no tools, so it calls none")
	assert.Contains(t, out, "gave up on tools/call (id 3) and sent notifications/cancelled")
	assert.Equal(t, 3, strings.Count(out, "The built-in reference client (cmd/mcpmock): pass"), out)

	_, stderr, code = runMcpmock(t, nil, "tour", "no-such-lesson")
	assert.Equal(t, exitUsage, code)
	assert.Contains(t, stderr, `mcpmock tour: no lesson or scenario named "no-such-lesson" (mcpmock tour -h lists the lessons and the catalog)`)
	_, stderr, code = runMcpmock(t, nil, "tour", "wrong-id-typ")
	assert.Equal(t, exitUsage, code)
	assert.Contains(t, stderr, `no lesson or scenario named "wrong-id-typ"; did you mean "wrong-id-type"?`)
	assert.NotContains(t, stderr, "giftgen-handshake", "not the whole catalog")
	_, stderr, code = runMcpmock(t, nil, "tour", "-h", "--", "true")
	assert.Equal(t, 0, code)
	assert.Contains(t, stderr, "  3  forgotten-capability")
	assert.Contains(t, stderr, "(not in the whole tour: a client that gives up on a call")
}

func TestShellJoin(t *testing.T) {
	t.Parallel()
	assert.Equal(t, `/bin/mcpmock relay 127.0.0.1:5 ab-c`, shellJoin([]string{"/bin/mcpmock", "relay", "127.0.0.1:5", "ab-c"}))
	assert.Equal(t, `'/my dir/mcpmock' 'it'\''s' ''`, shellJoin([]string{"/my dir/mcpmock", "it's", ""}))
}

// TestServeHTTPAllowRemote: --allow-remote lets a non-loopback listen
// address through, with a warning (checked without listening there: tests
// stay on loopback); --allow-host makes serve --http answer requests that
// name the mock by another Host, and still refuse others.
func TestServeHTTPAllowRemote(t *testing.T) {
	t.Parallel()
	for _, addr := range []string{"0.0.0.0:8080", "[::]:0", "192.0.2.7:80"} {
		w, err := httpListen{addr: addr, allowRemote: true}.check()
		require.NoError(t, err, addr)
		assert.Contains(t, w, "not loopback (--allow-remote)", addr)
		assert.Contains(t, w, "--allow-host NAME adds a name", addr)
		_, err = httpListen{addr: addr}.check()
		require.Error(t, err, addr)
		assert.Contains(t, err.Error(), "add --allow-remote", addr)
	}
	w, err := httpListen{addr: "127.0.0.1:0"}.check()
	assert.NoError(t, err)
	assert.Empty(t, w, "loopback needs no flag and gets no warning")

	p := start(t, "serve", "--http", "--allow-host", "mock.test")
	url := <-p.lines
	post := func(host string) int {
		res, _ := postMCP(t, url, initialize, map[string]string{"Host": host})
		return res.StatusCode
	}
	assert.Equal(t, http.StatusOK, post("mock.test:1234"), "a Host named with --allow-host")
	assert.Equal(t, http.StatusForbidden, post("other.test"), "any other Host")
	require.NoError(t, p.cmd.Process.Signal(syscall.SIGTERM))
	p.wait()
}

// TestTourAuth: mcpmock tour auth walks the healthy authorization and the
// three client mistakes, with the reference client's name nowhere needed.
func TestTourAuth(t *testing.T) {
	t.Parallel()
	out, stderr, code := runMcpmock(t, nil, "tour", "auth")
	require.Equal(t, 0, code, "stderr:\n%s", stderr)
	assert.Contains(t, out, "# Authorization: one healthy flow, then three client mistakes")
	assert.Contains(t, out, "The tour's OAuth client: pass")
	assert.Contains(t, out, "# Authorization mistake 3 of 3: no re-authorization on a step-up")
	assert.Contains(t, out, "- auth/pkce-s256: ")
}

// TestRunAuthClient: --auth-client turns the mock's authorization on for a
// scenario without any of its own (the 401's resource_metadata is reachable
// through the URL the client was given and names it), and hands the
// client its pre-registered credentials in MCP_CONFORMANCE_CONTEXT, in the
// conformance suite's shape.
func TestRunAuthClient(t *testing.T) {
	t.Parallel()
	env, cmd := fakeClientCmd("oauth-probe")
	args := append([]string{"run", "--http", "--auth-client", "my-app:s3cret", "--scenario", "giftgen-handshake", "--"}, cmd...)
	_, stderr, _ := runMcpmock(t, env, args...)
	assert.Contains(t, stderr, `probe: scenario=giftgen-handshake context={"client_id":"my-app","client_secret":"s3cret","name":"giftgen-handshake"}`)
	assert.Contains(t, stderr, "probe: the PRM's resource is the URL it was given")
}

// TestServeHTTPAuth: serve --http --auth requires OAuth, and serves the
// authorization's well-known URLs beside /mcp; so does serve --http with a
// scenario of Auth.
func TestServeHTTPAuth(t *testing.T) {
	t.Parallel()
	for _, extra := range [][]string{{"--auth"}, {"--scenario", "auth/metadata-var2"}} {
		t.Run(strings.Join(extra, " "), func(t *testing.T) { serveHTTPAuth(t, extra...) })
	}
}

func serveHTTPAuth(t *testing.T, extra ...string) {
	p := start(t, append([]string{"serve", "--http"}, extra...)...)
	url := <-p.lines
	res, _ := postMCP(t, url, initialize, nil)
	require.Equal(t, http.StatusUnauthorized, res.StatusCode)
	rm := strings.Replace(url, "/mcp", "/.well-known/oauth-protected-resource/mcp", 1) // the path-inserted URL
	if named := mcpclient.ParseChallenge(res.Header.Get("WWW-Authenticate")).Param("resource_metadata"); named != "" {
		rm = named
	} else {
		rm = strings.TrimSuffix(url, "/mcp") + "/.well-known/oauth-protected-resource" // var2: the root one only
	}
	prm, err := http.Get(rm)
	require.NoError(t, err)
	b, _ := io.ReadAll(prm.Body)
	_ = prm.Body.Close()
	assert.Equal(t, http.StatusOK, prm.StatusCode, "%s: %s", rm, b)
	assert.Contains(t, url, gjson.GetBytes(b, "resource").String(), "the PRM names the served address")
	require.NoError(t, p.cmd.Process.Signal(syscall.SIGTERM))
	p.wait()
}

// TestRunAuthFlags: --auth without --http, a malformed --auth-client, and
// --auth with a scenario that brings its own authorization are usage
// errors that say what to write.
func TestRunAuthFlags(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"run", "--auth", "--", "true"}, "need --http"},
		{[]string{"run", "--http", "--auth-client", "nocolon", "--", "true"}, "ID:SECRET"},
		{[]string{"run", "--http", "--auth", "--scenario", "auth/metadata-default", "--", "true"}, "brings its own authorization"},
		{[]string{"serve", "--auth"}, "need --http"},
		{[]string{"serve", "--http", "--auth", "--scenario", "auth/state-mismatch"}, "brings its own authorization"},
	} {
		_, stderr, code := runMcpmock(t, nil, tc.args...)
		assert.Equal(t, exitUsage, code, "%v", tc.args)
		assert.Contains(t, stderr, tc.want, "%v", tc.args)
	}
}

// TestRunAuthFlagsLeaveAuthScenarios: in a whole-catalog run, --auth and
// --auth-client put every scenario's server behind OAuth and hand the
// credentials to the program, but an auth/ scenario keeps its own
// authorization and its own client context (none, or its own
// pre-registered client).
func TestRunAuthFlagsLeaveAuthScenarios(t *testing.T) {
	t.Parallel()
	opts := runOptions{http: true, auth: authFlag{client: "my-app:s3cret"}}
	for _, tc := range []struct {
		name     string
		withAuth bool
		clientID string
	}{
		{"giftgen-handshake", true, "my-app"},
		{"http-session-expired", true, "my-app"},
		{"auth/metadata-default", false, ""},
		{"auth/pre-registration", false, "mcpmock-preregistered"},
	} {
		s, ok := scenarios.Lookup(tc.name)
		require.True(t, ok, tc.name)
		assert.Equal(t, tc.withAuth, opts.authFor(s), "%s: behind --auth-client's OAuth", tc.name)
		assert.Equal(t, tc.clientID, opts.clientContext(s)["client_id"], "%s: the client_id handed to the program", tc.name)
	}
	opts.auth = authFlag{}
	s, _ := scenarios.Lookup("giftgen-handshake")
	assert.False(t, opts.authFor(s), "without the flags")
	assert.Nil(t, opts.clientContext(s), "without the flags")
}

// TestRunStdioSkipsHTTPScenarios: without --http the client gets no URL,
// so the http-* and auth/ scenarios are not applicable without starting
// it (it would only show that it never asked for the URL); the others
// are played.
func TestRunStdioSkipsHTTPScenarios(t *testing.T) {
	t.Parallel()
	env, cmd := fakeClientCmd("careful")
	args := append([]string{"run", "--scenario", "giftgen-handshake", "--scenario", "http-error-page", "--scenario", "auth/metadata-default", "--"}, cmd...)
	out, stderr, code := runMcpmock(t, env, args...)
	assert.Equal(t, 0, code, "stdout:\n%s\nstderr:\n%s", out, stderr)
	assert.Contains(t, out, "3 scenarios: 1 pass, 0 known deviations, 0 fail, 0 not reached, 2 not applicable")
	assert.Contains(t, stderr, "scenario giftgen-handshake: starting")
	for _, n := range []string{"http-error-page", "auth/metadata-default"} {
		assert.Contains(t, stderr, "scenario "+n+": not played: it needs --http")
		assert.NotContains(t, stderr, "scenario "+n+": starting")
	}
	// The rows not played are one line, not a row each.
	assert.Contains(t, out, "not played: 2 scenarios about Streamable HTTP (1 auth/, 1 http-),")
	assert.NotContains(t, out, "auth/metadata-default")
}

// TestRunWarn: --warn robustness makes a robustness fail (wrong-id-type:
// the server breaks the id rule, the client has no requirement there) a
// warning: reported with its basis, exit 0; a MUST cannot be warned away.
func TestRunWarn(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	env, cmd := fakeClientCmd("non-json-fatal")
	junitFile := filepath.Join(dir, "r.xml")
	out, _, code := runMcpmock(t, env, append([]string{"run", "--scenario", "stdout-banner", "--"}, cmd...)...)
	assert.Equal(t, exitVerdict, code, out)
	assert.Regexp(t, `(?m)^stdout-banner +fail \(robustness\)$`, out)
	assert.Contains(t, out, "basis     robustness: the server breaks")

	out, _, code = runMcpmock(t, env, append([]string{"run", "--warn", "robustness", "--scenario", "stdout-banner", "--junit", junitFile, "--"}, cmd...)...)
	assert.Equal(t, 0, code, out)
	assert.Regexp(t, `(?m)^stdout-banner +warning \(robustness\)$`, out)
	assert.Contains(t, out, "1 scenario: 0 pass, 0 known deviations, 1 warning, 0 fail")
	b, err := os.ReadFile(junitFile)
	require.NoError(t, err)
	assert.Contains(t, string(b), `failures="0"`)
	assert.Contains(t, string(b), "warning (--warn robustness)")

	_, stderr, code := runMcpmock(t, env, append([]string{"run", "--warn", "must", "--"}, cmd...)...)
	assert.Equal(t, exitUsage, code)
	assert.Contains(t, stderr, "--warn must: a broken MUST is a spec violation and always fails")
}
