package main

import (
	"net/http"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/tidwall/gjson"
)

// serveURL waits for the URL serve --http prints.
func serveURL(t *testing.T, p *proc) string {
	t.Helper()
	select {
	case url := <-p.lines:
		require.Regexp(t, `^http://127\.0\.0\.1:\d+/mcp$`, url)
		return url
	case <-time.After(20 * time.Second):
		t.Fatalf("serve --http printed no URL; stderr:\n%s", p.stderr)
		return ""
	}
}

// TestServeHTTPUntilSignal: with --until-signal, a session that ends with
// DELETE does not end serve: the next client (as the official conformance
// suite runs one per scenario) is served, and only a signal ends it.
func TestServeHTTPUntilSignal(t *testing.T) {
	t.Parallel()
	report := filepath.Join(t.TempDir(), "report.json")
	p := start(t, "serve", "--http", "--until-signal", "--report", report)
	url := serveURL(t, p)
	for i := range 2 {
		status, sid, body := httpPost(t, url, "", initialize)
		require.Equal(t, http.StatusOK, status, "client %d: %s", i+1, body)
		status, _, _ = httpPost(t, url, sid, initialized)
		require.Equal(t, http.StatusAccepted, status)
		require.Equal(t, http.StatusOK, httpDelete(t, url, sid), "client %d", i+1)
	}
	require.NoError(t, p.cmd.Process.Signal(syscall.SIGTERM))
	assert.Equal(t, 0, p.wait(), "stderr:\n%s", p.stderr)
	r := readReport(t, report)
	assert.Equal(t, "SIGTERM", r.Get("ended").String(), r.Raw)
	assert.Equal(t, "pass", r.Get("verdict").String(), r.Raw)
}

func TestServeUntilSignalNeedsHTTP(t *testing.T) {
	t.Parallel()
	_, stderr, code := runMcpmock(t, nil, "serve", "--until-signal")
	assert.Equal(t, 2, code)
	assert.Contains(t, stderr, "--until-signal go with --http")
}

// TestServeConformanceConfig: examples/conformance/server.json, the
// official suite's fixture server as a config file, loads and answers the
// suite's probes of 2026-07-28 as the spec says (the suite itself runs in
// CI: .ci/conformance_server.sh).
func TestServeConformanceConfig(t *testing.T) {
	t.Parallel()
	p := start(t, "serve", "--http", "--until-signal", "--config", "../../examples/conformance/server.json")
	url := serveURL(t, p)
	const meta = `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientInfo":{"name":"raw","version":"1"}}`
	post := func(method, name, params string) (int, gjson.Result) {
		hdr := map[string]string{"MCP-Protocol-Version": "2026-07-28", "Mcp-Method": method}
		if name != "" {
			hdr["Mcp-Name"] = name
		}
		res, b := postMCP(t, url, `{"jsonrpc":"2.0","id":1,"method":"`+method+`","params":`+params+`}`, hdr)
		return res.StatusCode, gjson.Parse(b)
	}
	status, list := post("tools/list", "", `{`+meta+`}`)
	require.Equal(t, http.StatusOK, status, list.Raw)
	assert.Equal(t, "Region", list.Get(`result.tools.#(name=="test_custom_headers").inputSchema.properties.region.x-mcp-header`).String(), list.Raw)
	status, got := post("tools/call", "test_missing_capability", `{"name":"test_missing_capability","arguments":{},`+meta+`}`)
	assert.Equal(t, http.StatusBadRequest, status, got.Raw)
	assert.Equal(t, int64(-32021), got.Get("error.code").Int(), got.Raw)
	status, got = post("initialize", "", `{`+meta+`}`)
	assert.Equal(t, http.StatusNotFound, status, got.Raw)
	assert.Equal(t, int64(-32601), got.Get("error.code").Int(), got.Raw)
	require.NoError(t, p.cmd.Process.Signal(syscall.SIGTERM))
	p.wait()
}
