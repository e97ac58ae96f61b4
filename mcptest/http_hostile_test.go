package mcptest_test

import (
	"bufio"
	"context"
	"fmt"
	"github.com/mcpmock/mcpmock/internal/spec"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcpmock/mcpmock/internal/mcpclient"
	"github.com/mcpmock/mcpmock/mcptest"
	"github.com/tidwall/gjson"
	"go.uber.org/goleak"
)

// Slow and hostile HTTP clients: each test plays one against the mock
// while a healthy client (the golden client, in a session of its own)
// calls tools, and proves three things: the healthy calls complete, Close
// returns with no goroutine left, and the journal says what happened. No
// test sleeps or waits on the clock: each waits on the journal or on a
// channel.

// hostileServer is a server with a tool for the healthy client, and a
// tool that blocks until its test releases it (or its context ends).
func hostileServer(t *testing.T, release <-chan struct{}, started chan<- string) *mcptest.Server {
	return mcptest.NewServer(t).IgnoreViolations().WithTools(
		mcptest.NewTool("echo").ReturnsText("echo"),
		mcptest.NewTool("block").HandledBy(func(ctx context.Context, req *mcptest.Request) mcptest.Reply {
			_ = req.Progress(1, 2, "started")
			if started != nil {
				started <- req.Session.ID()
			}
			select {
			case <-release:
			case <-ctx.Done():
			}
			return mcptest.TextResult("released")
		}))
}

// hostileFront is where a test's clients reach the server: its own
// server (URL), or a test's server mounting HTTPHandler, which the mock's
// Close cannot close.
type hostileFront struct {
	name  string
	mount func(t *testing.T, srv *mcptest.Server) (url string, stop func())
}

var hostileFronts = []hostileFront{
	{"URL", func(t *testing.T, srv *mcptest.Server) (string, func()) { return srv.URL(), func() {} }},
	{"HTTPHandler", func(t *testing.T, srv *mcptest.Server) (string, func()) {
		ts := httptest.NewServer(srv.HTTPHandler())
		return ts.URL + "/mcp", ts.Close
	}},
}

// healthyCalls opens a session of the golden client at url, calls echo n
// times (each call must complete), and closes it.
func healthyCalls(t *testing.T, url string, n int) {
	t.Helper()
	ctx := context.Background()
	c := mcpclient.HTTP(url, mcpclient.Options{Version: "2025-11-25"})
	defer c.Close()
	if err := c.Connect(ctx); err != nil {
		t.Fatalf("the healthy client's Connect: %v", err)
	}
	for i := range n {
		res, err := c.Call(ctx, "tools/call", `{"name":"echo","arguments":{"i":`+strconv.Itoa(i)+`}}`)
		if err != nil || res.Get("content.0.text").String() != "echo" {
			t.Fatalf("the healthy client's call %d: %v %s", i, err, res.Raw)
		}
	}
}

// healthyCount is how many echo calls the journal holds.
func healthyCount(srv *mcptest.Server) int { return len(srv.Journal().All().ToolCalls("echo")) }

// hostileDial opens a TCP connection to url's host.
func hostileDial(t *testing.T, url string) (net.Conn, string) {
	t.Helper()
	host := strings.TrimPrefix(url, "http://")
	host = host[:strings.IndexByte(host, '/')]
	conn, err := net.Dial("tcp", host)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = conn.Close() })
	return conn, host
}

// closeAndCheck closes srv (it must return: no timed assertion, a hang
// fails the test by its timeout), stops the front and checks that no
// goroutine is left.
func closeAndCheck(t *testing.T, srv *mcptest.Server, stop func(), ignore goleak.Option, clients ...func()) {
	t.Helper()
	srv.Close()
	stop()
	for _, c := range clients { // the hostile clients' own goroutines
		c()
	}
	goleak.VerifyNone(t, ignore)
}

// TestHTTPSlowHeaders: a client that dribbles its request's headers
// (slowloris) and never ends them holds one connection and nothing else:
// the healthy client is served meanwhile, and Close closes that
// connection. The headers never reached the MCP endpoint, so the journal
// has nothing of that client: no session, no message.
func TestHTTPSlowHeaders(t *testing.T) {
	for _, fr := range hostileFronts[:1] { // a mounting server's headers are its own
		t.Run(fr.name, func(t *testing.T) {
			ignore := goleak.IgnoreCurrent()
			srv := hostileServer(t, nil, nil)
			url, stop := fr.mount(t, srv)
			slow, host := hostileDial(t, url)
			fmt.Fprintf(slow, "POST /mcp HTTP/1.1\r\nHost: %s\r\nContent-Ty", host)
			healthyCalls(t, url, 5)
			_, _ = io.WriteString(slow, "pe: application/json\r\nAcc")
			healthyCalls(t, url, 5)
			closeAndCheck(t, srv, stop, ignore)
			// the server closed the connection: the read ends
			if _, err := io.ReadAll(slow); err != nil && !strings.Contains(err.Error(), "reset") {
				t.Fatalf("reading the slow connection after Close: %v", err)
			}
			if n := healthyCount(srv); n != 10 {
				t.Fatalf("%d healthy calls journaled, want 10:\n%s", n, srv.Transcript())
			}
			if n := len(srv.Sessions()); n != 2 {
				t.Fatalf("%d sessions, want the healthy client's 2:\n%s", n, srv.Transcript())
			}
		})
	}
}

// TestHTTPSlowBody: a client that sends its headers and dribbles its
// body, never finishing it, holds one handler: the healthy client is
// served meanwhile, Close ends that handler (also when the server that
// mounts HTTPHandler is still running), and the journal records the POST
// as a body cut short.
func TestHTTPSlowBody(t *testing.T) {
	for _, fr := range hostileFronts {
		t.Run(fr.name, func(t *testing.T) {
			ignore := goleak.IgnoreCurrent()
			srv := hostileServer(t, nil, nil)
			url, stop := fr.mount(t, srv)
			slow, host := hostileDial(t, url)
			body := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}`
			fmt.Fprintf(slow, "POST /mcp HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nAccept: %s\r\nContent-Length: %d\r\n\r\n%s", host, both, len(body)+1000, body[:10])
			healthyCalls(t, url, 5)
			_, _ = io.WriteString(slow, body[10:20])
			healthyCalls(t, url, 5)
			closeAndCheck(t, srv, stop, ignore)
			if n := healthyCount(srv); n != 10 {
				t.Fatalf("%d healthy calls journaled, want 10:\n%s", n, srv.Transcript())
			}
			cut := srv.Journal().All().Filter(func(m mcptest.Message) bool {
				return m.Direction == mcptest.FromClient && strings.HasPrefix(m.Problem, "body cut short")
			})
			if len(cut) != 1 || cut[0].SessionNumber != 0 || cut[0].HTTP == nil {
				t.Fatalf("want the dribbled POST journaled once as a body cut short, got %v:\n%s", cut, srv.Transcript())
			}
		})
	}
}

// hostileSession opens a handshake-era session with a raw client.
func hostileSession(t *testing.T, url string) (*httpRaw, string) {
	t.Helper()
	tr := &http.Transport{}
	t.Cleanup(tr.CloseIdleConnections)
	h := &httpRaw{t: t, url: url, c: &http.Client{Transport: tr}}
	return h, h.handshake("2025-11-25")
}

// hostileGET opens the session's standalone stream (or resumes one with
// last) on a connection of its own and returns the response, its body
// unread.
func hostileGET(t *testing.T, url, sid, last string) *http.Response {
	t.Helper()
	req, _ := http.NewRequest(http.MethodGet, url, nil)
	req.Header.Set("Accept", "text/event-stream")
	req.Header.Set(spec.HeaderSessionID, sid)
	req.Header.Set(spec.HeaderProtocolVersion, "2025-11-25")
	if last != "" {
		req.Header.Set(spec.HeaderLastEventID, last)
	}
	tr := &http.Transport{DisableKeepAlives: true}
	resp, err := (&http.Client{Transport: tr}).Do(req)
	if err != nil {
		t.Fatalf("GET: %v", err)
	}
	t.Cleanup(func() { resp.Body.Close(); tr.CloseIdleConnections() })
	return resp
}

// TestHTTPSSEReaderNeverReads: a client opens its standalone SSE stream,
// reads the start of a notification's event, and never reads again; the
// notification is larger than every socket buffer between them, so the
// write blocks. The healthy client is served meanwhile, and Close returns
// (the blocked write is cut, also when the server that mounts HTTPHandler
// is still running); the journal says the notification was not delivered
// whole.
//
// The start of the event on the stream is what says the mock's writer is
// in the write: the notification is journaled before it is written, and a
// test that went on from the journal (WaitFor) could Close before the
// write began, under load ("never delivered: the connection closed", or
// a WaitFor past its deadline while 32 MiB were encoded).
func TestHTTPSSEReaderNeverReads(t *testing.T) {
	for _, fr := range hostileFronts {
		t.Run(fr.name, func(t *testing.T) {
			ignore := goleak.IgnoreCurrent()
			srv := hostileServer(t, nil, nil)
			url, stop := fr.mount(t, srv)
			_, sid := hostileSession(t, url)
			resp := hostileGET(t, url, sid, "")
			if resp.StatusCode != http.StatusOK {
				t.Fatalf("GET: %d", resp.StatusCode)
			}
			// 32 MiB: more than the kernel's socket buffers on both sides
			big := strings.Repeat("x", 32<<20)
			sent := make(chan error, 1)
			go func() {
				sent <- srv.Session(1).Notify("notifications/message", map[string]any{"level": "info", "data": big})
			}()
			// the event's first lines: from here the writer is in a write
			// the client never drains (a few KiB of buffers are read)
			began := make(chan error, 1)
			go func() {
				br := bufio.NewReader(resp.Body)
				for {
					line, err := br.ReadString('\n')
					if err != nil || line == "event: message\n" {
						began <- err
						return
					}
				}
			}()
			select {
			case err := <-began:
				if err != nil {
					t.Fatalf("reading the stream before the notification's event: %v", err)
				}
			case <-time.After(5 * time.Minute): // a failure bound only
				t.Fatalf("the notification's event did not begin on the stream within 5 minutes")
			}
			healthyCalls(t, url, 5)
			closeAndCheck(t, srv, stop, ignore, func() { resp.Body.Close() })
			<-sent
			if n := healthyCount(srv); n != 5 {
				t.Fatalf("%d healthy calls journaled, want 5:\n%s", n, srv.Transcript())
			}
			m := srv.Journal().All().Notifications("notifications/message")
			if len(m) != 1 || !strings.Contains(m[0].Problem, "the client did not read") {
				t.Fatalf("want the notification journaled as not delivered whole, got %v", m)
			}
		})
	}
}

// sseReader reads the events of an SSE response.
type sseReader struct {
	t  *testing.T
	br *bufio.Reader
}

// next returns the next event with data: its id and its data.
func (r *sseReader) next() (string, gjson.Result) {
	r.t.Helper()
	var id, data string
	for {
		line, err := r.br.ReadString('\n')
		if err != nil {
			r.t.Fatalf("reading the SSE stream: %v (after id %q)", err, id)
		}
		line = strings.TrimRight(line, "\r\n")
		switch {
		case strings.HasPrefix(line, "id: "):
			id = line[4:]
		case strings.HasPrefix(line, "data: "):
			data += line[6:]
		case line == "" && data != "":
			return id, gjson.Parse(data)
		}
	}
}

// TestHTTPReconnectStorm: a client reconnects its standalone stream
// 10,000 times with Last-Event-ID, and each time the mock sends one
// notification while it is connected and one while it is not. Every
// notification reaches it exactly once, in order: those sent while it
// was away are replayed on the resumed stream. The replay buffer stays
// bounded: an id older than what the stream keeps is refused 400, and
// the healthy client is served throughout.
func TestHTTPReconnectStorm(t *testing.T) {
	reconnects := 10000
	if testing.Short() {
		reconnects = 600 // 1,200 events: past the replay buffer of 1,024
	}
	ignore := goleak.IgnoreCurrent()
	srv := hostileServer(t, nil, nil)
	url := srv.URL()
	_, sid := hostileSession(t, url)
	sess := srv.Session(1)
	notify := func(n int) {
		if err := sess.Notify("notifications/message", map[string]any{"level": "info", "data": n}); err != nil {
			t.Fatalf("Notify %d: %v", n, err)
		}
	}
	healthyDone := make(chan struct{})
	go func() {
		defer close(healthyDone)
		healthyCalls(t, url, 20)
	}()
	want, last, first := 0, "", ""
	for i := 0; i < reconnects; i++ {
		resp := hostileGET(t, url, sid, last)
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("reconnect %d with Last-Event-ID %q: %d", i, last, resp.StatusCode)
		}
		r := &sseReader{t: t, br: bufio.NewReader(resp.Body)}
		if i > 0 { // what was sent while it was away
			id, data := r.next()
			if got := data.Get("params.data").Int(); int(got) != want {
				t.Fatalf("reconnect %d: replayed notification %d, want %d", i, got, want)
			}
			last = id
		}
		want++
		notify(want)
		id, data := r.next()
		if got := data.Get("params.data").Int(); int(got) != want {
			t.Fatalf("reconnect %d: notification %d, want %d", i, got, want)
		}
		if first == "" {
			first = id
		}
		last = id
		resp.Body.Close()
		want++
		notify(want) // while it is away (or before the mock noticed)
	}
	<-healthyDone
	resp := hostileGET(t, url, sid, first)
	if resp.StatusCode != http.StatusBadRequest {
		t.Fatalf("a Last-Event-ID older than the replay buffer: %d, want 400", resp.StatusCode)
	}
	resp.Body.Close()
	closeAndCheck(t, srv, func() {}, ignore)
}

// TestHTTPDeleteRacesPost: a DELETE of a session while a POST of it
// waits for its reply: the POST's handler returns, the blocked tool's
// context ends, the journal has the session ended by the client, and
// the healthy client goes on. Then DELETE and POST race unsynchronized,
// many times: every answer is a documented status.
func TestHTTPDeleteRacesPost(t *testing.T) {
	ignore := goleak.IgnoreCurrent()
	release := make(chan struct{})
	started := make(chan string, 1)
	srv := hostileServer(t, release, started)
	url := srv.URL()
	h, sid := hostileSession(t, url)
	type answer struct {
		status int
		body   string
	}
	posted := make(chan answer, 1)
	go func() {
		s, _, b := h.post(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"block","arguments":{}}}`, spec.HeaderSessionID, sid, spec.HeaderProtocolVersion, "2025-11-25")
		posted <- answer{s, b}
	}()
	<-started
	if s, _, b := h.do(http.MethodDelete, "", spec.HeaderSessionID, sid); s != http.StatusOK {
		t.Fatalf("DELETE: %d %s", s, b)
	}
	a := <-posted
	if a.status != http.StatusNotFound || gjson.Get(a.body, "id").Int() != 2 || gjson.Get(a.body, "error.code").Int() != spec.CodeInvalidRequest {
		t.Fatalf("the POST cut by DELETE: %d %q, want 404 with a JSON-RPC error for id 2", a.status, a.body)
	}
	ended := srv.Journal().All().Filter(func(m mcptest.Message) bool {
		return m.Direction == mcptest.FromServer && m.SessionNumber == 1 && m.ID == "2" && m.HTTP != nil && m.HTTP.Status == http.StatusNotFound
	})
	if len(ended) != 1 {
		t.Fatalf("want the 404 of the POST cut by DELETE journaled:\n%s", srv.Transcript())
	}
	healthyCalls(t, url, 3)
	if !sessionEnded(srv.Session(1)) {
		t.Fatal("session 1 is not closed after its DELETE")
	}

	// unsynchronized races
	for i := range 50 {
		h, sid := hostileSession(t, url)
		var wg sync.WaitGroup
		var post, del int
		wg.Add(2)
		go func() {
			defer wg.Done()
			post, _, _ = h.post(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"echo","arguments":{}}}`, spec.HeaderSessionID, sid, spec.HeaderProtocolVersion, "2025-11-25")
		}()
		go func() {
			defer wg.Done()
			del, _, _ = h.do(http.MethodDelete, "", spec.HeaderSessionID, sid)
		}()
		wg.Wait()
		if post != http.StatusOK && post != http.StatusNotFound || del != http.StatusOK {
			t.Fatalf("race %d: POST %d, DELETE %d; want 200 or 404, and 200", i, post, del)
		}
		srv.WaitFor(t, mcptest.Matcher{Description: "the answer to the racing POST", Match: func(m mcptest.Message) bool {
			return m.Direction == mcptest.FromServer && m.SessionNumber == i+3 && m.ID == "2"
		}})
	}
	close(release)
	closeAndCheck(t, srv, func() {}, ignore)
}

// TestHTTPClientVanishesMidStream: a client whose POST's SSE stream has
// begun (a progress notification) goes away. The tool's reply, sent
// after, is the next SSE event of that stream: written to a connection
// the client had closed, or kept for a GET with Last-Event-ID, as the
// timing has it (both are journaled with the stream's event id). The
// session goes on serving, the healthy client goes on, and Close is
// clean.
//
// The reply is journaled before it is written (the journal's order is
// the wire's), so the test does not judge it when WaitFor finds it: it
// pings the same session first. A session writes one message at a time,
// so the ping's answer goes out only after the reply's write is done,
// and the reply's entry is then final, whatever the timing. (Judged at
// WaitFor, a Close that came before the write journaled the reply as
// "never delivered: the connection closed": the test's Close, not the
// mock, had lost it.)
func TestHTTPClientVanishesMidStream(t *testing.T) {
	ignore := goleak.IgnoreCurrent()
	release := make(chan struct{})
	started := make(chan string, 1)
	srv := hostileServer(t, release, started)
	url := srv.URL()
	h, sid := hostileSession(t, url)
	req, _ := http.NewRequest(http.MethodPost, url, strings.NewReader(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"block","arguments":{},"_meta":{"progressToken":"p"}}}`))
	for k, v := range map[string]string{"Content-Type": "application/json", "Accept": both, spec.HeaderSessionID: sid, spec.HeaderProtocolVersion: "2025-11-25"} {
		req.Header.Set(k, v)
	}
	tr := &http.Transport{DisableKeepAlives: true}
	resp, err := (&http.Client{Transport: tr}).Do(req)
	if err != nil {
		t.Fatal(err)
	}
	<-started
	r := &sseReader{t: t, br: bufio.NewReader(resp.Body)}
	progressID, data := r.next()
	if data.Get("method").String() != "notifications/progress" {
		t.Fatalf("first event %s, want the progress", data.Raw)
	}
	stream, n, ok := strings.Cut(progressID, "-")
	if !ok || n != "1" {
		t.Fatalf("the progress's event id %q, want the stream's first (\"<stream>-1\")", progressID)
	}
	resp.Body.Close() // the client vanishes
	tr.CloseIdleConnections()
	healthyCalls(t, url, 3)
	close(release)
	reply := srv.WaitFor(t, mcptest.Matcher{Description: "the reply to the vanished call", Match: func(m mcptest.Message) bool {
		return m.Direction == mcptest.FromServer && m.IsResponse() && m.SessionNumber == 1 && m.ID == "2"
	}})
	status, _, body := h.post(`{"jsonrpc":"2.0","id":3,"method":"ping"}`, spec.HeaderSessionID, sid, spec.HeaderProtocolVersion, "2025-11-25")
	if pong := gjson.Parse(body); status != http.StatusOK || pong.Get("id").Raw != "3" || !pong.Get("result").IsObject() {
		t.Fatalf("a ping of the session after its client vanished: %d %s, want 200 and a result", status, body)
	}
	closeAndCheck(t, srv, func() {}, ignore)
	// the journal as it stands after Close
	got := srv.Journal().All().Filter(func(m mcptest.Message) bool { return m.Seq == reply.Seq })[0]
	if got.Kind != mcptest.KindResult {
		t.Fatalf("the reply after the client vanished: %v, want the tool's result", got)
	}
	if want := stream + "-2"; got.HTTP == nil || got.HTTP.EventID != want {
		t.Fatalf("the reply after the client vanished: %v (HTTP %v), want the stream's next SSE event, id %q", got, got.HTTP, want)
	}
}
