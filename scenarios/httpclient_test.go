package scenarios_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"

	"github.com/mcpmock/mcpmock/scenarios"
	"github.com/tidwall/gjson"
)

// httpClient is a hand-written MCP client on the Streamable HTTP
// transport (net/http, loopback), of the handshake era: it initializes,
// lists the tools, calls the first one and ends its session with DELETE.
// By default it does what a correct client does in the HTTP scenarios: on
// 404 it starts a new session, an HTTP error of a call reaches its caller,
// a reply stream cut before the reply is resumed with GET and
// Last-Event-ID, and a 405 to its first POST makes it fall back to the
// HTTP+SSE transport of 2024-11-05. Each field of httpBugs turns on
// exactly one bug, the one an HTTP scenario catches.
type httpClient struct {
	ctx     context.Context
	hc      *http.Client
	url     string
	bug     httpBugs
	nextID  int
	session string // Mcp-Session-Id
	version string // negotiated protocol version

	// The HTTP+SSE transport, once the client fell back to it.
	postURL string
	events  *sseReader
	body    io.Closer
}

// httpBugs are the client bugs the HTTP scenarios catch; the zero value
// is a correct client.
type httpBugs struct {
	giveUpOn404  bool // a 404 ends its work instead of a new session
	swallowHTTP  bool // an HTTP error of tools/call is taken as an empty result
	noResume     bool // a reply stream that ends before the reply loses the call
	noFallback   bool // a 405 to the first POST ends its work
	neverConnect bool // takes the URL and sends nothing
}

// errExpired is a 404 on a request of the session.
var errExpired = errors.New("session expired (404 Not Found)")

// httpStatusError is a request answered with an HTTP error status.
type httpStatusError struct {
	method string
	code   int
}

func (e *httpStatusError) Error() string {
	return fmt.Sprintf("%s: HTTP %d %s", e.method, e.code, http.StatusText(e.code))
}

// connectHTTP returns a ConnectFunc running the HTTP raw client with the
// given bugs at the Endpoint's URL.
func connectHTTP(b httpBugs) scenarios.ConnectFunc {
	return func(ctx context.Context, ep *scenarios.Endpoint) error {
		tr := &http.Transport{}
		defer tr.CloseIdleConnections()
		c := &httpClient{ctx: ctx, hc: &http.Client{Transport: tr}, url: ep.URL(), bug: b}
		if b.neverConnect {
			return nil
		}
		defer c.closeEvents()
		err := c.work()
		if errors.Is(err, errExpired) && !b.giveUpOn404 {
			c.session, c.version = "", ""
			err = c.work()
		}
		return err
	}
}

// correctHTTP is the ConnectFunc of a correct HTTP client.
var correctHTTP = connectHTTP(httpBugs{})

func (c *httpClient) work() error {
	if _, err := c.call("initialize", map[string]any{
		"protocolVersion": handshakeVer,
		"capabilities":    map[string]any{},
		"clientInfo":      map[string]string{"name": "rawhttp", "version": "1.0.0"},
	}); err != nil {
		return err
	}
	defer c.deleteSession()
	if err := c.post(map[string]any{"jsonrpc": "2.0", "method": "notifications/initialized"}, "notifications/initialized", nil); err != nil {
		return err
	}
	res, err := c.call("tools/list", map[string]any{})
	if err != nil {
		return err
	}
	name := res.Get("tools.0.name").String()
	if name == "" {
		return errors.New("tools/list: no tools")
	}
	_, err = c.call("tools/call", map[string]any{"name": name, "arguments": toolArgs[name]})
	var herr *httpStatusError
	if errors.As(err, &herr) && c.bug.swallowHTTP {
		return nil
	}
	return err
}

// call sends a request and returns its result.
func (c *httpClient) call(method string, params map[string]any) (gjson.Result, error) {
	c.nextID++
	id := c.nextID
	var reply gjson.Result
	err := c.post(map[string]any{"jsonrpc": "2.0", "id": id, "method": method, "params": params}, method, func(m gjson.Result) bool {
		if m.Get("id").Raw == fmt.Sprint(id) && !m.Get("method").Exists() {
			reply = m
			return true
		}
		return false
	})
	if err != nil {
		return gjson.Result{}, err
	}
	if e := reply.Get("error"); e.Exists() {
		return reply, &rpcError{method, e.Get("code").Int(), e.Get("message").String(), e.Get("data")}
	}
	if method == "initialize" {
		c.version = reply.Get("result.protocolVersion").String()
	}
	return reply.Get("result"), nil
}

// post sends one message and, for a request, reads until done accepts a
// message of the reply (a JSON body or an SSE stream, resumed when cut).
func (c *httpClient) post(msg map[string]any, method string, done func(gjson.Result) bool) error {
	body, err := json.Marshal(msg)
	if err != nil {
		return err
	}
	if c.events != nil {
		return c.postLegacy(body, method, done)
	}
	resp, err := c.do(http.MethodPost, c.url, body, "")
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	switch {
	case resp.StatusCode == http.StatusMethodNotAllowed && method == "initialize" && !c.bug.noFallback:
		if err := c.fallBack(); err != nil {
			return err
		}
		return c.postLegacy(body, method, done)
	case resp.StatusCode == http.StatusNotFound && c.session != "":
		return fmt.Errorf("%s: %w", method, errExpired)
	case resp.StatusCode >= 300:
		return &httpStatusError{method, resp.StatusCode}
	}
	if method == "initialize" {
		c.session = resp.Header.Get("Mcp-Session-Id")
	}
	if done == nil {
		return nil
	}
	if !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") {
		b, err := io.ReadAll(resp.Body)
		if err != nil {
			return err
		}
		if m := gjson.ParseBytes(b); done(m) {
			return nil
		}
		return fmt.Errorf("%s: the JSON reply is not the response: %s", method, b)
	}
	last, found, err := readUntil(newSSEReader(resp.Body), done)
	for tries := 0; !found && last != "" && !c.bug.noResume && tries < 3; tries++ {
		// The stream ended before the reply: resume it.
		resp.Body.Close()
		if resp, err = c.do(http.MethodGet, c.url, nil, last); err != nil {
			return err
		}
		if resp.StatusCode != http.StatusOK {
			return &httpStatusError{method + " (resuming with GET)", resp.StatusCode}
		}
		var l string
		l, found, err = readUntil(newSSEReader(resp.Body), done)
		if l != "" {
			last = l
		}
	}
	if !found {
		return fmt.Errorf("%s: the reply stream ended before the reply (%v)", method, err)
	}
	return nil
}

// readUntil reads events until done accepts one; it returns the last
// event id seen.
func readUntil(r *sseReader, done func(gjson.Result) bool) (last string, found bool, err error) {
	for {
		ev, err := r.next()
		if err != nil {
			return last, false, err
		}
		if ev.id != "" {
			last = ev.id
		}
		if gjson.Valid(ev.data) && done(gjson.Parse(ev.data)) {
			return last, true, nil
		}
	}
}

// do sends one HTTP request with the headers of the transport.
func (c *httpClient) do(method, u string, body []byte, lastEventID string) (*http.Response, error) {
	req, err := http.NewRequestWithContext(c.ctx, method, u, bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
	} else {
		req.Header.Set("Accept", "text/event-stream")
	}
	if c.session != "" {
		req.Header.Set("Mcp-Session-Id", c.session)
	}
	if c.version != "" {
		req.Header.Set("Mcp-Protocol-Version", c.version)
	}
	if lastEventID != "" {
		req.Header.Set("Last-Event-ID", lastEventID)
	}
	return c.hc.Do(req)
}

// deleteSession ends the session with DELETE.
func (c *httpClient) deleteSession() {
	if c.session == "" || c.events != nil {
		return
	}
	if resp, err := c.do(http.MethodDelete, c.url, nil, ""); err == nil {
		resp.Body.Close()
	}
}

// fallBack opens the HTTP+SSE transport: a GET whose first event,
// endpoint, names the URL to POST to.
func (c *httpClient) fallBack() error {
	resp, err := c.do(http.MethodGet, c.url, nil, "")
	if err != nil {
		return err
	}
	if resp.StatusCode != http.StatusOK {
		resp.Body.Close()
		return &httpStatusError{"GET (HTTP+SSE fallback)", resp.StatusCode}
	}
	c.body, c.events = resp.Body, newSSEReader(resp.Body)
	ev, err := c.events.next()
	if err != nil || ev.event != "endpoint" {
		return fmt.Errorf("HTTP+SSE: want the endpoint event first, got %+v (%v)", ev, err)
	}
	base, _ := url.Parse(c.url)
	ref, err := url.Parse(ev.data)
	if err != nil {
		return err
	}
	c.postURL = base.ResolveReference(ref).String()
	return nil
}

// postLegacy sends a message on the HTTP+SSE transport: the reply comes
// on the GET stream.
func (c *httpClient) postLegacy(body []byte, method string, done func(gjson.Result) bool) error {
	resp, err := c.do(http.MethodPost, c.postURL, body, "")
	if err != nil {
		return err
	}
	resp.Body.Close()
	if resp.StatusCode >= 300 {
		return &httpStatusError{method, resp.StatusCode}
	}
	if done == nil {
		return nil
	}
	if _, found, err := readUntil(c.events, done); !found {
		return fmt.Errorf("%s: the HTTP+SSE stream ended before the reply (%v)", method, err)
	}
	return nil
}

func (c *httpClient) closeEvents() {
	if c.body != nil {
		c.body.Close()
	}
}

// sseEvent is one event of a text/event-stream.
type sseEvent struct{ id, event, data string }

// sseReader reads the events of a text/event-stream.
type sseReader struct{ r *bufio.Reader }

func newSSEReader(r io.Reader) *sseReader { return &sseReader{bufio.NewReader(r)} }

// next returns the next event (comments and retry fields are skipped).
func (s *sseReader) next() (sseEvent, error) {
	var ev sseEvent
	var data []string
	seen := false
	for {
		line, err := s.r.ReadString('\n')
		if err != nil {
			return ev, err
		}
		line = strings.TrimRight(line, "\r\n")
		if line == "" {
			if seen {
				ev.data = strings.Join(data, "\n")
				return ev, nil
			}
			continue
		}
		field, value, _ := strings.Cut(line, ":")
		value = strings.TrimPrefix(value, " ")
		switch field {
		case "id":
			ev.id, seen = value, true
		case "event":
			ev.event, seen = value, true
		case "data":
			data, seen = append(data, value), true
		}
	}
}
