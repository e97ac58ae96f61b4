package main

// The traps a new user met in the first hour (issue 28): each test here
// failed before its fix.

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"unicode/utf8"

	"github.com/mcpmock/mcpmock/scenarios"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestHTTPIsASwitch: --http is a switch in serve as in run, the address
// its own flag (--listen, default 127.0.0.1:0); the shapes that trapped
// users get errors that say what to write instead.
func TestHTTPIsASwitch(t *testing.T) {
	t.Parallel()
	t.Run("serve --http --scenario NAME serves the scenario", func(t *testing.T) {
		report := filepath.Join(t.TempDir(), "report.json")
		p := start(t, "serve", "--http", "--scenario", "wrong-id-type", "--report", report)
		line, ok := <-p.lines
		require.True(t, ok, "serve --http printed no URL; stderr:\n%s", p.stderr)
		assert.Regexp(t, `^http://127\.0\.0\.1:[0-9]+/mcp$`, line)
		require.NoError(t, p.cmd.Process.Signal(syscall.SIGTERM))
		p.wait()
		assert.Equal(t, "scenario wrong-id-type", readReport(t, report).Get("server").String())
	})
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"serve", "--http", "127.0.0.1:0"}, `unexpected argument "127.0.0.1:0": --http is a switch; give the address with --listen 127.0.0.1:0`},
		{[]string{"serve", "--listen", "127.0.0.1:0"}, "--listen goes with --http"},
		{[]string{"serve", "--config", "--scenario", "wrong-id-type"}, `--config took "--scenario" as its FILE: a flag's value follows it (--config FILE), so give --config its FILE before --scenario`},
		{[]string{"serve", "--scenario", "--http"}, `--scenario took "--http" as its NAME`},
		{[]string{"run", "--log", "--", "true"}, `--log took "--" as its FILE`},
		{[]string{"run", "--scenario", "giftgen-handshake", "--scenario", "--http", "--", "true"}, `--scenario took "--http" as its NAME`},
	} {
		_, stderr, code := runMcpmock(t, nil, c.args...)
		assert.Equal(t, exitUsage, code, "%v", c.args)
		assert.Contains(t, stderr, c.want, "%v", c.args)
	}
}

// TestServeNothingObservedIsNoPass: serve with no client (stdin closed at
// once) is not reached, exit 1, not a pass; it said on stderr that it
// waits on stdin and how to stop it.
func TestServeNothingObservedIsNoPass(t *testing.T) {
	t.Parallel()
	report := filepath.Join(t.TempDir(), "report.json")
	p := start(t, "serve", "--report", report)
	assert.Equal(t, exitVerdict, p.exit(), "stderr:\n%s", p.stderr)
	r := readReport(t, report)
	assert.Equal(t, verdictNotReached, r.Get("verdict").String(), r.Raw)
	assert.Contains(t, r.Get("problems.0").String(), "no client sent anything before the client closed stdin")
	assert.Contains(t, p.stderr.String(), "waiting for an MCP client on stdin")
	assert.Contains(t, p.stderr.String(), "Ctrl-D")
	assert.Contains(t, p.stderr.String(), "mcpmock: giftgen: not-reached (0 messages, no rule broken; the client closed stdin)")
}

// TestServeReplayMissIsAProblem: a call that matched no case of the file
// (the client got -32602) is a problem in the report, with the near-miss,
// not a pass.
func TestServeReplayMissIsAProblem(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	cfg := filepath.Join(dir, "rec.json")
	require.NoError(t, os.WriteFile(cfg, []byte(`{
  "server": {"name": "weather", "version": "1.0.0"},
  "tools": [{"name": "get_forecast", "cases": [{"arguments": {"city": "Paris"}, "replies": [{"text": "rain"}]}]}]
}`), 0o644))
	report := filepath.Join(dir, "report.json")
	p := start(t, "serve", "--config", cfg, "--report", report)
	p.handshake()
	p.send(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"get_forecast","arguments":{"city":"Lyon"}}}`)
	assert.Equal(t, int64(-32602), p.recv().Get("error.code").Int())
	assert.Equal(t, exitVerdict, p.exit(), "stderr:\n%s", p.stderr)
	r := readReport(t, report)
	assert.Equal(t, "fail", r.Get("verdict").String(), r.Raw)
	assert.Contains(t, r.Get("problems.0").String(), "has no answer for")
	assert.Contains(t, r.Get("problems.0").String(), `closest is case 1, WhenArgs({"city":"Paris"})`)
}

// TestServeCountsRulesAndWarnings: the serve log line counts the rules
// broken and, apart, the warnings, as the problems do ("broke 1 protocol
// rule" beside "2 violations" said two things).
func TestServeCountsRulesAndWarnings(t *testing.T) {
	t.Parallel()
	p := start(t, "serve")
	// Before initialize (an error), with an id beyond 2^53 (a warning).
	p.send(`{"jsonrpc":"2.0","id":9007199254740993,"method":"tools/list"}`)
	p.recv()
	assert.Equal(t, exitVerdict, p.exit())
	assert.Contains(t, p.stderr.String(), "1 rule broken, 1 warning;", p.stderr.String())
	assert.Contains(t, p.stderr.String(), "the client broke 1 protocol rule;")
}

// TestRunClientThatCannotStart: a client program that cannot start is a
// mistake on the command line: exit 2, said once, before any scenario.
func TestRunClientThatCannotStart(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ program, why string }{
		{"/nonexistent/client", "no such file or directory"},
		{"mcpmock-no-such-program", "executable file not found in $PATH"},
		{"./firsthour_test.go", "permission denied"},
	} {
		out, stderr, code := runMcpmock(t, nil, "run", "--", c.program, "--flag")
		assert.Equal(t, exitUsage, code, c.program)
		assert.Empty(t, out, "no table: no scenario was played")
		assert.Equal(t, 1, strings.Count(stderr, "cannot be started"), stderr)
		assert.Contains(t, stderr, `mcpmock run: the client program "`+c.program+`" cannot be started: `+c.why)
		assert.NotContains(t, stderr, "scenario", "before any scenario")
	}
}

// TestVersionAndDidYouMean: --version answers, a misspelled command gets
// the nearest one.
func TestVersionAndDidYouMean(t *testing.T) {
	t.Parallel()
	for _, arg := range []string{"--version", "version", "-version"} {
		out, _, code := runMcpmock(t, nil, arg)
		assert.Equal(t, 0, code, arg)
		assert.Regexp(t, `^mcpmock \S+ .*go1\.[0-9]+`, out, arg)
	}
	_, stderr, code := runMcpmock(t, nil, "serv")
	assert.Equal(t, exitUsage, code)
	assert.Contains(t, stderr, `mcpmock: unknown command "serv"; did you mean "serve"?`)
	_, stderr, _ = runMcpmock(t, nil, "lst")
	assert.Contains(t, stderr, `did you mean "list"?`)
}

// TestRunTableFits: run's table fits 100 columns over the whole catalog
// (the longest scenario texts included), and over stdio the scenarios
// that need --http are one line, not 35 rows.
func TestRunTableFits(t *testing.T) {
	t.Parallel()
	env, cmd := fakeClientCmd("no-server") // each play ends at once
	out, _, code := runMcpmock(t, env, append([]string{"run", "--"}, cmd...)...)
	assert.Equal(t, exitVerdict, code)
	for _, l := range strings.Split(out, "\n") {
		assert.LessOrEqual(t, utf8.RuneCountInString(l), scenarios.TableWidth, "line %q", l)
	}
	auth, http := len(scenarios.Auth()), len(scenarios.HTTP())
	assert.Contains(t, out, fmt.Sprintf("not played: %d scenarios about Streamable HTTP (%d auth/, %d http-),", auth+http, auth, http))
	assert.NotContains(t, out, "auth/metadata-default", "no row for a scenario not played")
	assert.Regexp(t, `(?m)^[0-9]+ scenarios: .* [0-9]+ not applicable$`, out)
}

// TestReportReplacedWhole: serve's --report (like run's --json and --junit,
// and record's --out) is written beside the old file and renamed over it,
// so a failure while writing never leaves the user a half report: a hard
// link to the old report still holds the old one afterwards.
func TestReportReplacedWhole(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	report := filepath.Join(dir, "report.json")
	require.NoError(t, os.WriteFile(report, []byte("old report\n"), 0o600))
	require.NoError(t, os.Link(report, filepath.Join(dir, "old.json")))
	p := start(t, "serve", "--report", report)
	p.handshake()
	assert.Equal(t, 0, p.exit(), "stderr:\n%s", p.stderr)
	assert.Equal(t, "pass", readReport(t, report).Get("verdict").String())
	old, err := os.ReadFile(filepath.Join(dir, "old.json"))
	require.NoError(t, err)
	assert.Equal(t, "old report\n", string(old), "the report was renamed over, not written into the old file")
	fi, err := os.Stat(report)
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o600), fi.Mode().Perm(), "the old report's permissions kept")
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	assert.Len(t, entries, 2, "no temporary file left")
}
