package mcptest_test

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/mcpmock/mcpmock/internal/faketb"
	"github.com/mcpmock/mcpmock/mcptest"
	"github.com/mcpmock/mcpmock/mcptest/fault"
)

// postCancelled POSTs body to url with the headers, and closes the request
// once the mock has journaled a tools/call: the client gives up on its
// response before the reply (the Hang holds it).
func postCancelled(t *testing.T, srv *mcptest.Server, url, body string, headers map[string]string) {
	t.Helper()
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	for k, v := range headers {
		req.Header.Set(k, v)
	}
	done := make(chan error, 1)
	go func() {
		resp, err := http.DefaultClient.Do(req)
		if err == nil {
			resp.Body.Close()
		}
		done <- err
	}()
	srv.WaitFor(t, mcptest.ToolCall("slow", nil))
	cancel()
	if err := <-done; err == nil {
		t.Fatal("the POST was answered; want it held until the client closed it")
	}
}

// TestHTTPStatelessDisconnectCancels: in the stateless era, a client that
// closes a request's response before the reply cancels the request, as
// the 2026-07-28 spec says for Streamable HTTP ("Closing the SSE response
// stream is the cancellation signal. The server MUST treat a client
// disconnect as cancellation of that request. No notifications/cancelled
// message is required or expected"): the journal marks the request's
// exchange Cancelled, AssertCancelled counts it, and the request gets no
// reply.
func TestHTTPStatelessDisconnectCancels(t *testing.T) {
	srv := mcptest.NewServer(t).WithTools(mcptest.NewTool("slow").ReturnsText("late")).
		WithFaults(fault.Delay("tools/call", time.Hour))
	meta := `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientInfo":{"name":"raw","version":"1"}}`
	postCancelled(t, srv, srv.URL(), `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"slow","arguments":{},`+meta+`}}`,
		map[string]string{"Mcp-Protocol-Version": "2026-07-28", "Mcp-Method": "tools/call", "Mcp-Name": "slow"})
	srv.AssertCancelled(t, "tools/call")
	call := srv.Journal().All().ToolCalls("slow")
	if len(call) != 1 || call[0].HTTP == nil || !call[0].HTTP.Cancelled {
		t.Fatalf("want the call's exchange marked Cancelled, got %v", call)
	}
	if tr := srv.Transcript(); !strings.Contains(tr, "cancelled (the client closed the response)") {
		t.Errorf("the transcript does not show the cancellation:\n%s", tr)
	}
	srv.Close()
	if r := srv.Journal().All().Responses("tools/call"); len(r) != 0 {
		t.Errorf("want no reply to a cancelled request, got %v", r)
	}
}

// TestHTTPHandshakeDisconnectIsNoCancellation: in the handshake era a
// disconnect is not a cancellation (the client SHOULD send
// notifications/cancelled): nothing is marked, and AssertCancelled fails.
func TestHTTPHandshakeDisconnectIsNoCancellation(t *testing.T) {
	srv := mcptest.NewServer(t).WithTools(mcptest.NewTool("slow").ReturnsText("late")).
		WithProtocolVersions(mcptest.HandshakeVersions()...).
		WithFaults(fault.Delay("tools/call", time.Hour)).
		WithOptions(mcptest.Options{WaitTimeout: 50 * time.Millisecond})
	url := srv.URL()
	post := func(body, sid string) *http.Response {
		t.Helper()
		req, err := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		if sid != "" {
			req.Header.Set("Mcp-Session-Id", sid)
			req.Header.Set("Mcp-Protocol-Version", "2025-11-25")
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		return resp
	}
	resp := post(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`, "")
	sid := resp.Header.Get("Mcp-Session-Id")
	resp.Body.Close()
	post(`{"jsonrpc":"2.0","method":"notifications/initialized"}`, sid).Body.Close()
	postCancelled(t, srv, url, `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"slow","arguments":{}}}`,
		map[string]string{"Mcp-Session-Id": sid, "Mcp-Protocol-Version": "2025-11-25"})
	if call := srv.Journal().All().ToolCalls("slow"); len(call) != 1 || call[0].HTTP == nil || call[0].HTTP.Cancelled {
		t.Fatalf("want the call journaled and not marked Cancelled, got %v", call)
	}
	ft := faketb.New(t)
	ft.Run(func() { srv.AssertCancelled(ft, "tools/call") })
	if errs := ft.Errors(); len(errs) != 1 || !strings.Contains(errs[0], "AssertCancelled(\"tools/call\") failed") {
		t.Errorf("want AssertCancelled to fail on a handshake-era disconnect, got %s", ft.Report())
	}
}

// TestAwaitStatelessRequestsWithoutHTTP: on a server no client reached
// over HTTP there is nothing to wait for, even with an ended context.
func TestAwaitStatelessRequestsWithoutHTTP(t *testing.T) {
	srv := mcptest.NewServer(t)
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	if err := srv.AwaitStatelessRequests(ctx); err != nil {
		t.Errorf("AwaitStatelessRequests on a server without HTTP: %v, want nil", err)
	}
	srv.URL() // an endpoint with no request open
	if err := srv.AwaitStatelessRequests(ctx); err != nil {
		t.Errorf("AwaitStatelessRequests with no request open: %v, want nil", err)
	}
}
