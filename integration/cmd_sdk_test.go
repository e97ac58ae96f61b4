package integration_test

import (
	"bufio"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/tidwall/gjson"
)

// The mcpmock command (cmd/mcpmock) with the official Go SDK client as a
// process would use it: go-sdk spawning `mcpmock serve` with its
// CommandTransport, connecting to `mcpmock serve --http` with its
// StreamableClientTransport, and an app program on go-sdk judged by
// `mcpmock run` on both transports. (.ci/run does the same with the
// TypeScript SDK and the Inspector CLI.)

// build compiles a package of the workspace into dir and returns the binary.
func build(t *testing.T, dir, pkg, name string) string {
	t.Helper()
	bin := filepath.Join(dir, name)
	out, err := exec.Command("go", "build", "-o", bin, pkg).CombinedOutput()
	require.NoError(t, err, "go build %s:\n%s", pkg, out)
	return bin
}

func mcpmockBinary(t *testing.T) string {
	return build(t, t.TempDir(), "github.com/mcpmock/mcpmock/cmd/mcpmock", "mcpmock")
}

func report(t *testing.T, path string) gjson.Result {
	t.Helper()
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	return gjson.ParseBytes(b)
}

func TestCommandServeStdioGoSDK(t *testing.T) {
	bin := mcpmockBinary(t)
	rep := filepath.Join(t.TempDir(), "report.json")
	cmd := exec.Command(bin, "serve", "--config", "../cmd/mcpmock/testdata/weather.json", "--report", rep)
	ctx := testContext(t)
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "gosdk-app", Version: "1.0.0"}, nil).Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	require.NoError(t, err)
	assert.Equal(t, "weather", cs.InitializeResult().ServerInfo.Name)
	tools, err := cs.ListTools(ctx, nil)
	require.NoError(t, err)
	require.Len(t, tools.Tools, 1)
	assert.Equal(t, "get_forecast", tools.Tools[0].Name)
	for city, want := range map[string]string{"Paris": "rain", "Lyon": "sunny"} {
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "get_forecast", Arguments: map[string]any{"city": city}})
		require.NoError(t, err)
		assert.Equal(t, want, text(t, res.Content[0]))
	}
	read, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "weather://stations"})
	require.NoError(t, err)
	assert.Equal(t, "Paris\nLyon", read.Contents[0].Text)
	require.NoError(t, cs.Close()) // closes mcpmock's stdin and waits for it

	r := report(t, rep)
	assert.Equal(t, "pass", r.Get("verdict").String(), r.Raw)
	assert.Equal(t, "the client closed stdin", r.Get("ended").String())
	assert.Contains(t, r.Get("transcript").String(), `"name":"get_forecast","arguments":{"city":"Paris"}`)
	assert.Contains(t, r.Get("mermaid").String(), "C->>S: tools/call")
	assert.Empty(t, r.Get("violations").Array())
}

// serveHTTP starts mcpmock serve --http and returns its URL.
func serveHTTP(t *testing.T, bin string, args ...string) (*exec.Cmd, string) {
	t.Helper()
	cmd := exec.Command(bin, append([]string{"serve", "--http"}, args...)...)
	out, err := cmd.StdoutPipe()
	require.NoError(t, err)
	require.NoError(t, cmd.Start())
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	line, err := bufio.NewReader(out).ReadString('\n')
	require.NoError(t, err, "serve --http printed no URL")
	return cmd, strings.TrimSpace(line)
}

// callThenClose runs `mcpmock serve --http` with args, connects go-sdk
// (pinned to 2025-11-25) through the transport made for its URL, calls
// suggest_gifts, closes, and returns the report once serve exited 0 with
// a passing verdict.
func callThenClose(t *testing.T, bin string, transport func(url string) *mcp.StreamableClientTransport, args ...string) gjson.Result {
	t.Helper()
	rep := filepath.Join(t.TempDir(), "report.json")
	cmd, url := serveHTTP(t, bin, append(args, "--report", rep)...)
	ctx := testContext(t)
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "gosdk-app", Version: "1.0.0"}, nil).
		Connect(ctx, transport(url), &mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
	require.NoError(t, err)
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "suggest_gifts", Arguments: map[string]any{"age": 25}})
	require.NoError(t, err)
	assert.Equal(t, "a board game", text(t, res.Content[0]))
	require.NoError(t, cs.Close())
	require.NoError(t, cmd.Wait(), "serve --http exits 0 once the session ended")
	r := report(t, rep)
	assert.Equal(t, "pass", r.Get("verdict").String(), r.Raw)
	return r
}

func TestCommandServeHTTPGoSDK(t *testing.T) {
	bin := mcpmockBinary(t)
	t.Run("handshake: Close ends the session with DELETE, and serve", func(t *testing.T) {
		r := callThenClose(t, bin, func(url string) *mcp.StreamableClientTransport {
			return &mcp.StreamableClientTransport{Endpoint: url}
		})
		assert.Equal(t, "the client ended its session (DELETE)", r.Get("ended").String())
	})
	t.Run("stateless: a signal ends serve", func(t *testing.T) {
		rep := filepath.Join(t.TempDir(), "report.json")
		cmd, url := serveHTTP(t, bin, "--scenario", "modern-only", "--report", rep)
		ctx := testContext(t)
		cs, err := mcp.NewClient(&mcp.Implementation{Name: "gosdk-app", Version: "1.0.0"}, nil).
			Connect(ctx, &mcp.StreamableClientTransport{Endpoint: url}, nil)
		require.NoError(t, err)
		tools, err := cs.ListTools(ctx, nil)
		require.NoError(t, err)
		assert.Equal(t, "suggest_gifts", tools.Tools[0].Name)
		require.NoError(t, cs.Close())
		require.NoError(t, cmd.Process.Signal(syscall.SIGTERM))
		_ = cmd.Wait()
		r := report(t, rep)
		assert.Equal(t, "SIGTERM", r.Get("ended").String())
		assert.Equal(t, "modern-only", r.Get("scenario.scenario").String(), r.Raw)
		assert.Contains(t, r.Get("transcript").String(), "server/discover")
	})
}

// TestCommandRunGoSDK: mcpmock run judges an app program on go-sdk, on
// both transports, with the statuses of the conformance table
// (slow-tool-timeout is left out of the handshake era: go-sdk's cancel
// races its Close there, so its status differs from run to run).
func TestCommandRunGoSDK(t *testing.T) {
	dir := t.TempDir()
	bin := build(t, dir, "github.com/mcpmock/mcpmock/cmd/mcpmock", "mcpmock")
	app := build(t, dir, "./testdata/gosdkclient", "gosdkclient")
	cases := []struct {
		name  string
		flags []string
		app   []string
		want  map[string]string
	}{
		{"stdio", nil, []string{app}, map[string]string{
			"giftgen-handshake": "pass", "giftgen-stateless": "pass", "wrong-id-type": "pass", "disconnect-mid-call": "pass",
			"tools-capability-missing": "known-deviation",
		}},
		{"http", []string{"--http"}, []string{app, "-pin", "2025-11-25"}, map[string]string{
			"giftgen-handshake": "pass", "giftgen-stateless": "not-applicable", "wrong-id-type": "pass", "disconnect-mid-call": "pass",
			"tools-capability-missing": "known-deviation",
		}},
		// In the stateless era a call is cancelled by closing its POST,
		// and go-sdk closes it when the call's context ends: the close
		// goes through run's HTTP front to the mock, whatever the
		// machine's load (the front forwards it once the request is
		// written upstream; Play waits for it before closing the server).
		{"http-stateless", []string{"--http"}, []string{app}, map[string]string{
			"giftgen-stateless": "pass", "slow-tool-timeout": "pass",
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			jsonFile := filepath.Join(t.TempDir(), "report.json")
			args := append([]string{"run", "--json", jsonFile,
				"--known-deviation", "tools-capability-missing=go-sdk v1.8.0 calls tools/list without the tools capability"}, tc.flags...)
			for name := range tc.want {
				args = append(args, "--scenario", name)
			}
			args = append(append(args, "--"), tc.app...)
			cmd := exec.CommandContext(context.Background(), bin, args...)
			out, err := cmd.Output()
			require.NoError(t, err, "mcpmock run:\n%s", out)
			r := report(t, jsonFile)
			for name, want := range tc.want {
				res := r.Get(`results.#(scenario=="` + name + `")`)
				assert.Equal(t, want, res.Get("status").String(), "%s: %s", name, res.Get("observed").String())
			}
		})
	}
}

// TestCommandServeHTTPAuthGoSDK: `mcpmock serve --http --auth` is an
// OAuth-protected server the official SDK's OAuth client gets through
// (discovery, registration, authorization, token, a call), and its Close
// ends the session and serve.
func TestCommandServeHTTPAuthGoSDK(t *testing.T) {
	c := httpClient(t)
	r := callThenClose(t, mcpmockBinary(t), func(url string) *mcp.StreamableClientTransport {
		return &mcp.StreamableClientTransport{Endpoint: url, HTTPClient: c, OAuthHandler: goSDKOAuth(t, c)}
	}, "--auth")
	assert.Contains(t, r.Get("transcript").String(), "POST /as/token", "the authorization went through the served process")
}

// TestCommandServeReplayMissGoSDK: go-sdk calls a tool of a config file
// with arguments no case of it answers; the app gets the -32602 error, and
// serve's verdict fails with the near-miss in its problems, not a pass.
func TestCommandServeReplayMissGoSDK(t *testing.T) {
	bin := mcpmockBinary(t)
	dir := t.TempDir()
	cfg, rep := filepath.Join(dir, "rec.json"), filepath.Join(dir, "report.json")
	require.NoError(t, os.WriteFile(cfg, []byte(`{
  "server": {"name": "weather", "version": "1.0.0"},
  "tools": [{"name": "get_forecast", "inputSchema": {"type": "object"},
    "cases": [{"arguments": {"city": "Paris"}, "replies": [{"text": "rain"}]}]}]
}`), 0o644))
	cmd := exec.Command(bin, "serve", "--config", cfg, "--report", rep)
	ctx := testContext(t)
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "gosdk-app", Version: "1.0.0"}, nil).Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	require.NoError(t, err)
	_, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "get_forecast", Arguments: map[string]any{"city": "Lyon"}})
	require.Error(t, err, "no recorded case answers Lyon")
	_ = cs.Close() // mcpmock exits 1: its verdict failed

	r := report(t, rep)
	assert.Equal(t, "fail", r.Get("verdict").String(), r.Raw)
	assert.Contains(t, r.Get("problems.0").String(), `closest is case 1, WhenArgs({"city":"Paris"})`)
}
