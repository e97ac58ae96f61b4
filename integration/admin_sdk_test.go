package integration_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/tidwall/gjson"
)

// The admin API of `mcpmock serve --http --admin` (docs/admin.md), driven
// as a test in another language drives it: plain HTTP and JSON, while the
// official Go SDK client talks to the test's own MCP endpoint.

// adminCall sends one admin request and returns the status and the body.
func adminCall(t *testing.T, method, url, body string) (int, gjson.Result) {
	t.Helper()
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req, err := http.NewRequest(method, url, rd)
	require.NoError(t, err)
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	require.True(t, gjson.ValidBytes(b), "the admin API answered no JSON: %s", b)
	return resp.StatusCode, gjson.ParseBytes(b)
}

const adminScript = `{"server": {"name": "weather", "version": "1.0.0"},
 "tools": [{"name": "get_forecast",
   "inputSchema": {"type": "object", "properties": {"city": {"type": "string"}}},
   "cases": [{"arguments": {"city": "Paris"}, "replies": [{"text": "rain"}]}],
   "replies": [{"text": "sunny"}]}]}`

func TestAdminGoSDK(t *testing.T) {
	bin := mcpmockBinary(t)
	_, url := serveHTTP(t, bin, "--admin")
	base := strings.TrimSuffix(url, "/mcp") + "/__mcpmock"

	// Two tests share the process, in parallel: each scripts its server,
	// adds a fault, drives go-sdk and verifies, and sees only its own
	// traffic.
	var wg sync.WaitGroup
	for i, city := range []string{"Paris", "Lyon"} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			t.Run(city, func(t *testing.T) { adminTestRound(t, base, city, []string{"rain", "sunny"}[i]) })
		}()
	}
	wg.Wait()

	// The admin journal holds the admin requests; no test's journal does.
	st, log := adminCall(t, "GET", base+"/log", "")
	require.Equal(t, 200, st)
	assert.GreaterOrEqual(t, len(log.Get("entries").Array()), 20)
	assert.Equal(t, "/__mcpmock/tests", log.Get("entries.0.path").String())
}

func adminTestRound(t *testing.T, base, city, want string) {
	ctx := testContext(t)
	st, test := adminCall(t, "POST", base+"/tests", `{"script": `+adminScript+`}`)
	require.Equal(t, 201, st, test.Raw)
	tag, mcpURL := test.Get("tag").String(), test.Get("url").String()
	require.Contains(t, mcpURL, "/t/"+tag+"/mcp")
	tb := base + "/tests/" + tag

	// The second tools/call fails: a fault added at run time, a handle
	// with its hit count.
	st, f := adminCall(t, "POST", tb+"/faults", `{"fault": "ReplaceWithJSONRPCError", "method": "tools/call", "code": -32000, "message": "backend down", "nth": 2}`)
	require.Equal(t, 201, st, f.Raw)
	assert.Equal(t, int64(0), f.Get("hits").Int())

	cs, err := mcp.NewClient(&mcp.Implementation{Name: "gosdk-app", Version: "1.0.0"}, nil).
		Connect(ctx, &mcp.StreamableClientTransport{Endpoint: mcpURL}, &mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
	require.NoError(t, err)
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "get_forecast", Arguments: map[string]any{"city": city}})
	require.NoError(t, err)
	assert.Equal(t, want, text(t, res.Content[0]))
	_, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "get_forecast", Arguments: map[string]any{"city": city}})
	require.ErrorContains(t, err, "backend down")

	st, f = adminCall(t, "GET", tb+"/faults/"+f.Get("id").String(), "")
	require.Equal(t, 200, st, f.Raw)
	assert.Equal(t, int64(1), f.Get("hits").Int(), "the fault acted once")

	// The journal, as the Go queries select it: this test's calls only.
	st, j := adminCall(t, "GET", tb+"/journal?direction=client&method=tools/call", "")
	require.Equal(t, 200, st, j.Raw)
	calls := j.Get("messages").Array()
	require.Len(t, calls, 2, j.Raw)
	for _, c := range calls {
		assert.Equal(t, city, gjson.Get(c.Get("raw").String(), "params.arguments.city").String())
	}
	st, j = adminCall(t, "GET", tb+fmt.Sprintf("/journal?since=%d", calls[1].Get("seq").Int()), "")
	require.Equal(t, 200, st)
	for _, m := range j.Get("messages").Array() {
		assert.Greater(t, m.Get("seq").Int(), calls[1].Get("seq").Int())
	}

	// verify: mcptest's assertions, a pass or the Go failure text.
	st, v := adminCall(t, "POST", tb+"/verify", `{"assert": "toolCalled", "tool": "get_forecast", "arguments": {"city": "`+city+`"}}`)
	require.Equal(t, 200, st, v.Raw)
	assert.True(t, v.Get("pass").Bool(), v.Raw)
	st, v = adminCall(t, "POST", tb+"/verify", `{"assert": "calledTimes", "method": "tools/call", "times": 2}`)
	require.Equal(t, 200, st)
	assert.True(t, v.Get("pass").Bool(), v.Raw)
	st, v = adminCall(t, "POST", tb+"/verify", `{"assert": "noViolations"}`)
	require.Equal(t, 200, st)
	assert.True(t, v.Get("pass").Bool(), v.Raw)
	st, v = adminCall(t, "POST", tb+"/verify", `{"assert": "toolCalled", "tool": "get_forecast", "arguments": {"city": "Oslo"}}`)
	require.Equal(t, 200, st)
	assert.False(t, v.Get("pass").Bool(), v.Raw)
	failure := v.Get("failure").String()
	assert.Contains(t, failure, `mcptest: AssertToolCalled("get_forecast"`)
	assert.Contains(t, failure, `"city":"`+city+`"`, "the failure shows the transcript")
	other := map[string]string{"Paris": "Lyon", "Lyon": "Paris"}[city]
	assert.NotContains(t, failure, `"city":"`+other+`"`, "another test's traffic is not in this test's transcript")

	// Bad input: a 4xx naming the field, with a did-you-mean; the MCP
	// side goes on serving.
	st, e := adminCall(t, "POST", tb+"/verify", `{"assert": "calledTimes", "method": "tools/call", "tims": 2}`)
	assert.Equal(t, 400, st)
	assert.Equal(t, "tims", e.Get("field").String())
	assert.Contains(t, e.Get("error").String(), `did you mean "times"?`)
	res, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "get_forecast", Arguments: map[string]any{"city": city}})
	require.NoError(t, err)
	assert.Equal(t, want, text(t, res.Content[0]))
	require.NoError(t, cs.Close())

	// reset: sessions, journal and faults forgotten; the script kept.
	st, r := adminCall(t, "POST", tb+"/reset", `{"keepScript": true}`)
	require.Equal(t, 200, st, r.Raw)
	assert.Equal(t, int64(0), r.Get("messages").Int())
	assert.Empty(t, r.Get("faults").Array())
	cs, err = mcp.NewClient(&mcp.Implementation{Name: "gosdk-app", Version: "1.0.0"}, nil).
		Connect(ctx, &mcp.StreamableClientTransport{Endpoint: mcpURL}, nil)
	require.NoError(t, err)
	res, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "get_forecast", Arguments: map[string]any{"city": city}})
	require.NoError(t, err, "the fault is gone, the script is kept")
	assert.Equal(t, want, text(t, res.Content[0]))
	require.NoError(t, cs.Close())

	// Extend the script mid-session: a second tool, the first kept; the
	// server and its session stay, the client is told (list_changed).
	changed := make(chan struct{}, 1)
	cs, err = mcp.NewClient(&mcp.Implementation{Name: "gosdk-app", Version: "1.0.0"}, &mcp.ClientOptions{
		ToolListChangedHandler: func(context.Context, *mcp.ToolListChangedRequest) { changed <- struct{}{} },
	}).Connect(ctx, &mcp.StreamableClientTransport{Endpoint: mcpURL}, &mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
	require.NoError(t, err)
	tools, err := cs.ListTools(ctx, nil)
	require.NoError(t, err)
	require.Len(t, tools.Tools, 1)
	st, r = adminCall(t, "PATCH", tb+"/script", `{"tools": [{"name": "get_tide", "replies": [{"text": "high"}]}]}`)
	require.Equal(t, 200, st, r.Raw)
	assert.True(t, r.Get("live").Bool(), "a change of tools only is live: %s", r.Raw)
	select {
	case <-changed:
	case <-ctx.Done():
		t.Fatal("the client was never told the tools changed")
	}
	tools, err = cs.ListTools(ctx, nil)
	require.NoError(t, err)
	var names []string
	for _, tl := range tools.Tools {
		names = append(names, tl.Name)
	}
	assert.ElementsMatch(t, []string{"get_forecast", "get_tide"}, names)
	res, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "get_tide"})
	require.NoError(t, err)
	assert.Equal(t, "high", text(t, res.Content[0]))
	st, j = adminCall(t, "GET", tb+"/journal?direction=client&method=tools/call", "")
	require.Equal(t, 200, st)
	assert.Len(t, j.Get("messages").Array(), 2, "the journal from before the change is kept: %s", j.Raw)
	require.NoError(t, cs.Close())

	// A change beyond the lists starts the test afresh.
	st, r = adminCall(t, "PATCH", tb+"/script", `{"server": {"name": "weather", "version": "2.0.0"}}`)
	require.Equal(t, 200, st, r.Raw)
	assert.False(t, r.Get("live").Bool())
	assert.Equal(t, int64(0), r.Get("messages").Int())

	st, _ = adminCall(t, "DELETE", tb, "")
	assert.Equal(t, 200, st)
	st, _ = adminCall(t, "GET", tb, "")
	assert.Equal(t, 404, st)
}

// TestAdminExpectedViolationsGoSDK: a raw client breaks a rule (a request
// before initialize, which no SDK sends); verify's expectedViolations
// passes on it, noViolations fails, naming the rule.
func TestAdminExpectedViolationsGoSDK(t *testing.T) {
	bin := mcpmockBinary(t)
	_, url := serveHTTP(t, bin, "--admin")
	base := strings.TrimSuffix(url, "/mcp") + "/__mcpmock"
	st, test := adminCall(t, "POST", base+"/tests", "")
	require.Equal(t, 201, st, test.Raw)
	tb := base + "/tests/" + test.Get("tag").String()

	req, err := http.NewRequest("POST", test.Get("url").String(), bytes.NewBufferString(`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`))
	require.NoError(t, err)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	_, _ = io.Copy(io.Discard, resp.Body)
	resp.Body.Close()

	st, vs := adminCall(t, "GET", tb+"/violations", "")
	require.Equal(t, 200, st)
	require.NotEmpty(t, vs.Get("violations").Array(), vs.Raw)
	rule := vs.Get("violations.0.rule").String()

	st, v := adminCall(t, "POST", tb+"/verify", `{"assert": "noViolations"}`)
	require.Equal(t, 200, st)
	assert.False(t, v.Get("pass").Bool())
	assert.Contains(t, v.Get("failure").String(), rule)
	st, v = adminCall(t, "POST", tb+"/verify", `{"assert": "expectedViolations", "rules": ["`+rule+`"]}`)
	require.Equal(t, 200, st)
	assert.True(t, v.Get("pass").Bool(), v.Raw)
	st, e := adminCall(t, "POST", tb+"/verify", `{"assert": "expectedViolations", "rules": ["`+rule+`x"]}`)
	assert.Equal(t, 400, st)
	assert.Contains(t, e.Get("error").String(), "did you mean")
}

// TestAdminScenarioGoSDK: a scenario of the catalog played on a test over
// the admin API, go-sdk as the client, its verdict read with verify: the
// client's own error (here connect's refusal of an unknown protocolVersion)
// reaches the check only through clientError.
func TestAdminScenarioGoSDK(t *testing.T) {
	bin := mcpmockBinary(t)
	_, url := serveHTTP(t, bin, "--admin")
	base := strings.TrimSuffix(url, "/mcp") + "/__mcpmock"
	st, test := adminCall(t, "POST", base+"/tests", `{"scenario": "protocol-version-unknown"}`)
	require.Equal(t, 201, st, test.Raw)
	tb := base + "/tests/" + test.Get("tag").String()

	st, v := adminCall(t, "POST", tb+"/verify", `{"assert": "scenario"}`)
	require.Equal(t, 200, st)
	assert.False(t, v.Get("pass").Bool(), "no client yet: not reached")
	assert.Contains(t, v.Get("failure").String(), "not-reached")

	ctx := testContext(t)
	_, connectErr := mcp.NewClient(&mcp.Implementation{Name: "gosdk-app", Version: "1.0.0"}, nil).
		Connect(ctx, &mcp.StreamableClientTransport{Endpoint: test.Get("url").String()}, &mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
	require.Error(t, connectErr, "go-sdk refuses an initialize result in a version it does not know")

	st, info := adminCall(t, "GET", tb, "")
	require.Equal(t, 200, st)
	assert.Positive(t, info.Get("scenarioHits").Int(), "the scenario's fault acted: %s", info.Raw)
	// Without the client's error, the check reads the connect as a success.
	st, v = adminCall(t, "POST", tb+"/verify", `{"assert": "scenario"}`)
	require.Equal(t, 200, st)
	assert.False(t, v.Get("pass").Bool())
	assert.Contains(t, v.Get("failure").String(), "send clientError")
	body, _ := json.Marshal(map[string]any{"assert": "scenario", "clientError": connectErr.Error()})
	st, v = adminCall(t, "POST", tb+"/verify", string(body))
	require.Equal(t, 200, st)
	assert.True(t, v.Get("pass").Bool(), "go-sdk passes protocol-version-unknown (docs/sdk-results.md): %s", v.Get("failure").String())
}
