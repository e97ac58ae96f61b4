package integration_test

// Benchmarks of tools/call over Streamable HTTP: the mock (JSON reply and
// SSE reply) side by side with a raw net/http handler that writes the same
// response bytes (the floor) and the official Go SDK's own Streamable HTTP
// handler, all driven by the same raw HTTP client over loopback.
//
//	go test -run '^$' -bench 'HTTPToolCall' -benchmem -count 5 ./integration
//
// TestHTTPBenchTargetsAgree runs the client once against each target and
// checks the answers, so the harness is tested by a plain go test.

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"github.com/mcpmock/mcpmock/internal/spec"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"

	"github.com/mcpmock/mcpmock/mcptest"
	"github.com/mcpmock/mcpmock/mcptest/fault"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/tidwall/gjson"
)

// benchHTTPClient is the raw client every HTTP target is driven by: one
// keep-alive connection, the session id the initialize result gave, and a
// POST per call whose body it reads to the end.
type benchHTTPClient struct {
	url    string
	tr     *http.Transport
	sid    string
	nextID int64
	body   bytes.Buffer
}

func newBenchHTTPClient(tb testing.TB, url string) *benchHTTPClient {
	c := &benchHTTPClient{url: url, tr: &http.Transport{MaxIdleConnsPerHost: 1}, nextID: 2}
	tb.Cleanup(c.tr.CloseIdleConnections)
	resp, err := c.post(benchInitializeFrame)
	if err != nil {
		tb.Fatalf("initialize: %v", err)
	}
	c.sid = resp.Header.Get(spec.HeaderSessionID)
	if _, err := c.post(benchInitializedFrame); err != nil {
		tb.Fatalf("notifications/initialized: %v", err)
	}
	tb.Cleanup(c.end)
	return c
}

// end sends DELETE, ending the session, as a client that is done does.
func (c *benchHTTPClient) end() {
	req, _ := http.NewRequest(http.MethodDelete, c.url, nil)
	req.Header.Set(spec.HeaderSessionID, c.sid)
	if resp, err := c.tr.RoundTrip(req); err == nil {
		_, _ = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
	}
}

// post sends one message and reads the whole response into c.body.
func (c *benchHTTPClient) post(frame []byte) (*http.Response, error) {
	req, err := http.NewRequest(http.MethodPost, c.url, bytes.NewReader(frame))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	if c.sid != "" {
		req.Header.Set(spec.HeaderSessionID, c.sid)
		req.Header.Set(spec.HeaderProtocolVersion, "2025-11-25")
	}
	resp, err := c.tr.RoundTrip(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	c.body.Reset()
	if _, err := c.body.ReadFrom(resp.Body); err != nil {
		return nil, err
	}
	if resp.StatusCode/100 != 2 {
		return nil, fmt.Errorf("status %d: %s", resp.StatusCode, c.body.String())
	}
	return resp, nil
}

// call sends tools/call and checks that the response carries its id.
func (c *benchHTTPClient) call() error {
	id := c.nextID
	c.nextID++
	frame := strconv.AppendInt(append([]byte(nil), benchToolCallHead...), id, 10)
	frame = append(frame, benchToolCallTail...)
	if _, err := c.post(frame); err != nil {
		return err
	}
	if !bytes.Contains(c.body.Bytes(), []byte(`"id":`+strconv.FormatInt(id, 10)+`,`)) {
		return fmt.Errorf("response without id %d: %s", id, c.body.String())
	}
	return nil
}

// text returns the tool result's text from the last response, JSON or SSE.
func (c *benchHTTPClient) text() string {
	b := c.body.String()
	if i := strings.LastIndex(b, "data: "); i >= 0 {
		b = strings.TrimSpace(b[i+len("data: "):])
	}
	return gjson.Get(b, "result.content.0.text").String()
}

// benchRawHTTP is the floor: a handler that answers initialize with a
// session id, notifications with 202, and every other request with the
// response bytes the mock sends, as JSON or as one SSE event.
func benchRawHTTP(sse bool) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		id := gjson.GetBytes(body, "id")
		if !id.Exists() {
			w.WriteHeader(http.StatusAccepted)
			return
		}
		resp := `{"jsonrpc":"2.0","id":` + id.Raw + `,"result":{"content":[{"text":"hi","type":"text"}]}}`
		w.Header().Set(spec.HeaderSessionID, "raw-session")
		if sse {
			w.Header().Set("Content-Type", "text/event-stream")
			_, _ = io.WriteString(w, "id: 1-1\nevent: message\ndata: "+resp+"\n\n")
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, resp)
	})
}

// benchGosdkHTTP is the official SDK's Streamable HTTP handler serving the same tool.
func benchGosdkHTTP(sse bool) http.Handler {
	srv := mcp.NewServer(&mcp.Implementation{Name: "gosdk-bench", Version: "1"}, nil)
	mcp.AddTool(srv, &mcp.Tool{Name: "echo"}, func(ctx context.Context, req *mcp.CallToolRequest, in benchEchoArgs) (*mcp.CallToolResult, any, error) {
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "hi"}}}, nil, nil
	})
	return mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, &mcp.StreamableHTTPOptions{JSONResponse: !sse})
}

// benchHTTPTarget starts one target and returns its URL.
func benchHTTPTarget(tb testing.TB, name string) string {
	var h http.Handler
	switch name {
	case "mcptest-json", "mcptest-sse":
		srv := mcptest.NewServer(tb).WithTools(mcptest.NewTool("echo").ReturnsText("hi"))
		if name == "mcptest-sse" {
			srv.WithFaults(fault.ReplyAsSSE("tools/call"))
		}
		return srv.URL()
	case "raw-json":
		h = benchRawHTTP(false)
	case "raw-sse":
		h = benchRawHTTP(true)
	case "gosdk-json":
		h = benchGosdkHTTP(false)
	case "gosdk-sse":
		h = benchGosdkHTTP(true)
	default:
		tb.Fatalf("unknown target %q", name)
	}
	hs := httptest.NewServer(h)
	tb.Cleanup(hs.Close)
	return hs.URL
}

var benchHTTPTargets = []string{"raw-json", "mcptest-json", "gosdk-json", "raw-sse", "mcptest-sse", "gosdk-sse"}

func BenchmarkHTTPToolCall(b *testing.B) {
	for _, name := range benchHTTPTargets {
		b.Run(name, func(b *testing.B) {
			c := newBenchHTTPClient(b, benchHTTPTarget(b, name))
			b.ReportAllocs()
			for b.Loop() {
				if err := c.call(); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// TestHTTPBenchTargetsAgree: the benchmark's client gets the same answer
// from every target, as JSON or SSE as the target's name says.
func TestHTTPBenchTargetsAgree(t *testing.T) {
	for _, name := range benchHTTPTargets {
		t.Run(name, func(t *testing.T) {
			c := newBenchHTTPClient(t, benchHTTPTarget(t, name))
			if strings.HasPrefix(name, "mcptest") && c.sid == "" {
				t.Fatal("the mock assigned no session id")
			}
			for range 3 {
				if err := c.call(); err != nil {
					t.Fatal(err)
				}
				if got := c.text(); got != "hi" {
					t.Fatalf("tool text %q, want hi; body %s", got, c.body.String())
				}
				if sse := strings.HasSuffix(name, "-sse"); sse != strings.Contains(c.body.String(), "data: ") {
					t.Fatalf("want SSE %v, got body %q", sse, c.body.String())
				}
			}
		})
	}
}

// benchOpenHTTPSession opens one idle session of the mock at url the
// cheapest way an HTTP client can: raw HTTP/1.1 on a loopback connection
// for initialize, notifications/initialized and a ping (closed after), then
// the session's standalone GET stream on a second one, read up to its
// headers and left open. The closer ends the session (DELETE) and closes
// the stream.
func benchOpenHTTPSession(url string) (func(), error) {
	u := strings.TrimPrefix(url, "http://")
	host, path, _ := strings.Cut(u, "/")
	path = "/" + path
	post, err := net.Dial("tcp", host)
	if err != nil {
		return nil, err
	}
	defer post.Close()
	r := bufio.NewReader(post)
	sid := ""
	send := func(method string, frame []byte, accept string) (*http.Response, error) {
		var h strings.Builder
		fmt.Fprintf(&h, "%s %s HTTP/1.1\r\nHost: %s\r\nAccept: %s\r\n", method, path, host, accept)
		if frame != nil {
			fmt.Fprintf(&h, "Content-Type: application/json\r\nContent-Length: %d\r\n", len(frame))
		}
		if sid != "" {
			fmt.Fprintf(&h, "%s: %s\r\n%s: 2025-11-25\r\n", spec.HeaderSessionID, sid, spec.HeaderProtocolVersion)
		}
		h.WriteString("\r\n")
		if _, err := io.WriteString(post, h.String()); err != nil {
			return nil, err
		}
		if _, err := post.Write(frame); err != nil {
			return nil, err
		}
		resp, err := http.ReadResponse(r, nil)
		if err != nil {
			return nil, err
		}
		_, err = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		return resp, err
	}
	const both = "application/json, text/event-stream"
	resp, err := send(http.MethodPost, benchInitializeFrame, both)
	if err != nil {
		return nil, fmt.Errorf("initialize: %w", err)
	}
	if sid = resp.Header.Get(spec.HeaderSessionID); sid == "" {
		return nil, fmt.Errorf("initialize: %s without %s", resp.Status, spec.HeaderSessionID)
	}
	for _, frame := range [][]byte{benchInitializedFrame, []byte(`{"jsonrpc":"2.0","id":2,"method":"ping"}`)} {
		if resp, err = send(http.MethodPost, frame, both); err != nil || resp.StatusCode/100 != 2 {
			return nil, fmt.Errorf("%s: %v %v", frame, resp, err)
		}
	}
	end := func() {
		req, _ := http.NewRequest(http.MethodDelete, url, nil)
		req.Header.Set(spec.HeaderSessionID, sid)
		tr := &http.Transport{}
		if resp, err := tr.RoundTrip(req); err == nil {
			resp.Body.Close()
		}
		tr.CloseIdleConnections()
	}
	get, err := net.Dial("tcp", host)
	if err != nil {
		end()
		return nil, err
	}
	closer := func() { end(); get.Close() }
	if _, err := fmt.Fprintf(get, "GET %s HTTP/1.1\r\nHost: %s\r\nAccept: text/event-stream\r\n%s: %s\r\n%s: 2025-11-25\r\n\r\n", path, host, spec.HeaderSessionID, sid, spec.HeaderProtocolVersion); err != nil {
		return closer, err
	}
	if resp, err = http.ReadResponse(bufio.NewReaderSize(get, 16), nil); err != nil || resp.StatusCode != http.StatusOK {
		return closer, fmt.Errorf("GET stream: %v %v", resp, err)
	}
	return closer, nil
}

// benchFloorHTTP serves, on a loopback server closed at tb's cleanup, the
// least an HTTP server can do for benchOpenHTTPSession: each POST answered
// with one fixed JSON body (the initialize one with a session id), each GET
// held open as an SSE stream until its client goes, each DELETE 200.
func benchFloorHTTP(tb testing.TB) string {
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		switch r.Method {
		case http.MethodPost:
			w.Header().Set(spec.HeaderSessionID, "floor")
			w.Header().Set("Content-Type", "application/json")
			_, _ = io.WriteString(w, `{"jsonrpc":"2.0","id":1,"result":{}}`)
		case http.MethodGet:
			w.Header().Set("Content-Type", "text/event-stream")
			w.WriteHeader(http.StatusOK)
			http.NewResponseController(w).Flush()
			<-r.Context().Done()
		}
	}))
	tb.Cleanup(hs.Close)
	return hs.URL + "/mcp"
}
