package mcptest_test

import (
	"fmt"
	"io"
	"net/http"
	"strings"

	"github.com/mcpmock/mcpmock/mcptest"
	"github.com/tidwall/gjson"
)

// ExampleServer_URL: a client reaches the mock over Streamable HTTP. Here a
// few raw net/http requests stand in for the client under test (in your
// test: &mcp.StreamableClientTransport{Endpoint: srv.URL()} or
// transport.NewStreamableHTTP(srv.URL())).
func ExampleServer_URL() {
	t := newExampleT()
	defer t.Finish()
	srv := mcptest.NewServer(t).WithTools(mcptest.NewTool("suggest_gifts").ReturnsText("a board game"))

	tr := &http.Transport{}
	defer tr.CloseIdleConnections()
	post := func(body string, header ...string) *http.Response {
		req, _ := http.NewRequest(http.MethodPost, srv.URL(), strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		for i := 0; i+1 < len(header); i += 2 {
			req.Header.Set(header[i], header[i+1])
		}
		resp, err := tr.RoundTrip(req)
		if err != nil {
			panic(err)
		}
		return resp
	}

	resp := post(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"app","version":"1"}}}`)
	sid := resp.Header.Get("Mcp-Session-Id")
	resp.Body.Close()
	fmt.Println("initialize:", resp.StatusCode, "session id assigned:", sid != "")

	resp = post(`{"jsonrpc":"2.0","method":"notifications/initialized"}`, "Mcp-Session-Id", sid, "Mcp-Protocol-Version", "2025-11-25")
	resp.Body.Close()
	fmt.Println("notifications/initialized:", resp.StatusCode)

	resp = post(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"suggest_gifts","arguments":{}}}`, "Mcp-Session-Id", sid, "Mcp-Protocol-Version", "2025-11-25")
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	fmt.Println("tools/call:", resp.StatusCode, resp.Header.Get("Content-Type"), gjson.GetBytes(body, "result.content.0.text"))

	resp = post(`{"jsonrpc":"2.0","id":3,"method":"tools/list"}`) // no session id
	resp.Body.Close()
	fmt.Println("without the session id:", resp.StatusCode)

	call := srv.Journal().All().ToolCalls("suggest_gifts")[0]
	fmt.Println("journaled:", call.HTTP.Method, call.HTTP.ProtocolVersion, call.HTTP.SessionID == sid)
	for _, v := range srv.Violations() {
		fmt.Println("violation:", v.Rule)
	}
	srv.IgnoreViolations()
	// Output:
	// initialize: 200 session id assigned: true
	// notifications/initialized: 202
	// tools/call: 200 application/json a board game
	// without the session id: 400
	// journaled: POST 2025-11-25 true
	// violation: http/session-id
}
