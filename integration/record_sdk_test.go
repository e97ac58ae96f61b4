package integration_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"

	"github.com/mcpmock/mcpmock/config"
	"github.com/mcpmock/mcpmock/mcptest"
	"github.com/mcpmock/mcpmock/mcptest/fault"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Fidelity of `mcpmock record`: a real server on the official Go SDK
// (testdata/recordserver) is recorded through the proxy while the go-sdk
// client lists and calls everything it has, then replayed with
// `mcpmock serve --config`; the same client calls must get the same
// results, compared as the client decoded them (JSON of the SDK's result
// types), ids aside.

// sdkCall is one client call and what the client got: the result as JSON,
// or the error's text.
type sdkCall struct{ name, got string }

func gotJSON(v any, err error) string {
	if err != nil {
		return "error: " + err.Error()
	}
	b, err := json.Marshal(v)
	if err != nil {
		return "unencodable: " + err.Error()
	}
	// Cursors are opaque tokens each server makes its own way, as ids are.
	return cursorRE.ReplaceAllString(string(b), `"nextCursor":"…"`)
}

var cursorRE = regexp.MustCompile(`"nextCursor":"[^"]*"`)

// exercise runs every call of the fidelity check on cs.
func exercise(ctx context.Context, cs *mcp.ClientSession) []sdkCall {
	var out []sdkCall
	add := func(name string, v any, err error) { out = append(out, sdkCall{name, gotJSON(v, err)}) }
	add("initialize", cs.InitializeResult(), nil)
	cursor := ""
	for i := 0; ; i++ {
		res, err := cs.ListTools(ctx, &mcp.ListToolsParams{Cursor: cursor})
		add(fmt.Sprintf("tools/list page %d", i+1), res, err)
		if err != nil || res.NextCursor == "" || i > 5 {
			break
		}
		cursor = res.NextCursor
	}
	for _, c := range []struct {
		name string
		args map[string]any
	}{
		{"forecast", map[string]any{"city": "Paris"}},
		{"forecast", map[string]any{"city": "Oslo", "days": 3}},
		{"forecast", map[string]any{"city": "Paris"}},
		{"echo", map[string]any{"text": "hi"}},
		{"echo", map[string]any{}},
		{"fail", map[string]any{}},
	} {
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: c.name, Arguments: c.args})
		b, _ := json.Marshal(c.args)
		add("tools/call "+c.name+" "+string(b), res, err)
	}
	cursor = ""
	for i := 0; ; i++ {
		res, err := cs.ListResources(ctx, &mcp.ListResourcesParams{Cursor: cursor})
		add(fmt.Sprintf("resources/list page %d", i+1), res, err)
		if err != nil || res.NextCursor == "" || i > 5 {
			break
		}
		cursor = res.NextCursor
	}
	tpls, err := cs.ListResourceTemplates(ctx, nil)
	add("resources/templates/list", tpls, err)
	for _, uri := range []string{"weather://stations", "weather://logo.png", "weather://about", "weather://city/Lima", "weather://stations"} {
		res, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: uri})
		add("resources/read "+uri, res, err)
	}
	prompts, err := cs.ListPrompts(ctx, nil)
	add("prompts/list", prompts, err)
	brief, err := cs.GetPrompt(ctx, &mcp.GetPromptParams{Name: "brief", Arguments: map[string]string{"city": "Oslo"}})
	add("prompts/get brief", brief, err)
	hello, err := cs.GetPrompt(ctx, &mcp.GetPromptParams{Name: "hello"})
	add("prompts/get hello", hello, err)
	comp, err := cs.Complete(ctx, &mcp.CompleteParams{Ref: &mcp.CompleteReference{Type: "ref/prompt", Name: "brief"}, Argument: mcp.CompleteParamsArgument{Name: "city", Value: "O"}})
	add("completion/complete prompt", comp, err)
	comp, err = cs.Complete(ctx, &mcp.CompleteParams{Ref: &mcp.CompleteReference{Type: "ref/resource", URI: "weather://city/{name}"}, Argument: mcp.CompleteParamsArgument{Name: "name", Value: "P"}})
	add("completion/complete template", comp, err)
	// (No ping: go-sdk v1.8.0 sends it in 2026-07-28 sessions too, where
	// the mock reports it as stateless/removed-method.)
	return out
}

func connectCommand(t *testing.T, ctx context.Context, cmd *exec.Cmd) *mcp.ClientSession {
	t.Helper()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "gosdk-app", Version: "1.0.0"}, nil).Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	require.NoError(t, err)
	return cs
}

// compareCalls reports the calls replayed identically, and fails for the
// others.
func compareCalls(t *testing.T, want, got []sdkCall) int {
	t.Helper()
	require.Equal(t, len(want), len(got), "the same calls on both")
	same := 0
	for i := range want {
		if assert.Equal(t, want[i].got, got[i].got, "call %d: %s", i+1, want[i].name) {
			same++
		}
	}
	return same
}

func TestRecordGoSDKServerStdioReplaysIdentically(t *testing.T) {
	dir := t.TempDir()
	bin := mcpmockBinary(t)
	server := build(t, dir, "github.com/mcpmock/mcpmock/integration/testdata/recordserver", "recordserver")
	rec := filepath.Join(dir, "rec.json")
	ctx := testContext(t)

	var recStderr strings.Builder
	cmd := exec.Command(bin, "record", "--out", rec, "--", server)
	cmd.Stderr = &recStderr
	cs := connectCommand(t, ctx, cmd)
	want := exercise(ctx, cs)
	require.NoError(t, cs.Close())
	require.FileExists(t, rec, "stderr:\n%s", recStderr.String())
	t.Logf("mcpmock record's stderr:\n%s", recStderr.String())
	cfg, err := config.Load(rec)
	require.NoError(t, err)
	assert.Equal(t, "go-sdk-weather", cfg.Server.Name)
	assert.Equal(t, 2, cfg.PageSize, "the server's paging is kept")

	var serveStderr strings.Builder
	cmd = exec.Command(bin, "serve", "--config", rec)
	cmd.Stderr = &serveStderr
	cs = connectCommand(t, ctx, cmd)
	got := exercise(ctx, cs)
	require.NoError(t, cs.Close(), "mcpmock serve's stderr:\n%s", serveStderr.String())
	same := compareCalls(t, want, got)
	t.Logf("fidelity (stdio): %d/%d calls replayed identically", same, len(want))
	assert.NotContains(t, serveStderr.String(), "unmatched", "every call of the replay was recorded")
}

func TestRecordGoSDKServerHTTPReplaysIdentically(t *testing.T) {
	dir := t.TempDir()
	bin := mcpmockBinary(t)
	server := build(t, dir, "github.com/mcpmock/mcpmock/integration/testdata/recordserver", "recordserver")
	ctx := testContext(t)

	// The real server on HTTP; it prints its URL.
	real := exec.Command(server, "-http", "127.0.0.1:0")
	realOut, err := real.StdoutPipe()
	require.NoError(t, err)
	require.NoError(t, real.Start())
	t.Cleanup(func() { _ = real.Process.Kill(); _ = real.Wait() })
	realURL := firstLine(t, realOut)

	rec := filepath.Join(dir, "rec.json")
	proxy := exec.Command(bin, "record", "--out", rec, "--url", realURL)
	out, err := proxy.StdoutPipe()
	require.NoError(t, err)
	var proxyErr strings.Builder
	proxy.Stderr = &proxyErr
	require.NoError(t, proxy.Start())
	t.Cleanup(func() { _ = proxy.Process.Kill(); _ = proxy.Wait() })
	url := firstLine(t, out)

	cs, err := mcp.NewClient(&mcp.Implementation{Name: "gosdk-app", Version: "1.0.0"}, nil).Connect(ctx, &mcp.StreamableClientTransport{Endpoint: url}, nil)
	require.NoError(t, err)
	want := exercise(ctx, cs)
	require.NoError(t, cs.Close())
	require.NoError(t, proxy.Process.Signal(syscall.SIGTERM))
	require.NoError(t, proxy.Wait(), "stderr:\n%s", proxyErr.String())
	t.Logf("mcpmock record --url's stderr:\n%s", proxyErr.String())

	replay := config.LoadServer(t, rec)
	rcs, err := mcp.NewClient(&mcp.Implementation{Name: "gosdk-app", Version: "1.0.0"}, nil).Connect(ctx, &mcp.StreamableClientTransport{Endpoint: replay.URL()}, nil)
	require.NoError(t, err)
	got := exercise(ctx, rcs)
	require.NoError(t, rcs.Close())
	same := compareCalls(t, want, got)
	t.Logf("fidelity (HTTP): %d/%d calls replayed identically", same, len(want))
	assert.Empty(t, replay.Unmatched())
	// go-sdk answers every request with an SSE stream; so does the replay.
	calls := replay.Journal().All().Responses("tools/call")
	require.NotEmpty(t, calls)
	assert.Equal(t, "text/event-stream", calls[0].HTTP.ContentType)
}

// In Go: what a test's mock saw, turned into a file, serves the same
// answers (config.FromServer, config.LoadServer).
func TestRecordFromJournalGoSDK(t *testing.T) {
	ctx := testContext(t)
	orig := mcptest.NewServer(t).WithOptions(mcptest.Options{Name: "orig", Version: "1"}).
		WithTools(mcptest.NewTool("add").WhenArgs(`{"a":1,"b":2}`, mcptest.StructuredResult(`{"sum":3}`)).
			WhenArgs(`{"a":2,"b":2}`, mcptest.TextResult("4")))
	cs := connectGoSDK(t, orig, nil, nil)
	var want []string
	for _, args := range []map[string]any{{"a": 1, "b": 2}, {"a": 2, "b": 2}} {
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "add", Arguments: args})
		want = append(want, gotJSON(res, err))
	}
	require.NoError(t, cs.Close())

	path := filepath.Join(t.TempDir(), "bug-report.json")
	require.NoError(t, config.FromServer(orig).Save(path))
	replay := config.LoadServer(t, path)
	cs = connectGoSDK(t, replay, nil, nil)
	var got []string
	for _, args := range []map[string]any{{"a": 1, "b": 2}, {"a": 2, "b": 2}} {
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "add", Arguments: args})
		got = append(got, gotJSON(res, err))
	}
	require.NoError(t, cs.Close())
	assert.Equal(t, want, got)
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	assert.Contains(t, string(b), `"name": "orig"`)

	// Broken on purpose: the recording with a fault on top.
	broken := config.LoadServer(t, path).WithFaults(fault.ReplaceWithJSONRPCError("tools/call", -32603, "the backend fell over", nil).Nth(1))
	cs = connectGoSDK(t, broken, nil, nil)
	_, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "add", Arguments: map[string]any{"a": 1, "b": 2}})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "the backend fell over")
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "add", Arguments: map[string]any{"a": 1, "b": 2}})
	assert.Equal(t, want[0], gotJSON(res, err), "then the recorded answer")
	require.NoError(t, cs.Close())
}

// firstLine returns the first line a process wrote, trimmed.
func firstLine(t *testing.T, r io.Reader) string {
	t.Helper()
	line, err := bufio.NewReader(r).ReadString('\n')
	require.NoError(t, err, "the process printed no URL")
	return strings.TrimSpace(line)
}
