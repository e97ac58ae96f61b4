// Package mcpclient is mcpmock's client kit, the one MCP client of the
// module's tests, tour and command. Its zero value is the golden client: a
// raw MCP client written from the specification alone, with no SDK and nothing of mcptest, that does
// everything by the book on every transport (newline-delimited JSON over a
// connection, Streamable HTTP, the HTTP+SSE transport of 2024-11-05) and in
// every protocol version (the handshake era 2024-11-05 … 2025-11-25 and
// the stateless era 2026-07-28). Its use is to prove that no rule of the
// mock blames a correct client: a session of this client must leave no
// violation of any severity.
//
// What it does, per the spec:
//   - handshake era: initialize (never cancelled, never in a batch), a
//     check of the answered version and capabilities, notifications/initialized,
//     then only methods whose capability the server declared;
//   - stateless era: server/discover first, params._meta with protocolVersion,
//     clientCapabilities and clientInfo on every request, the same each
//     time; input_required answered by a retry with a NEW id, the
//     requestState echoed unchanged and every input answered;
//     subscriptions/listen;
//   - every list followed to its last page; integer ids counting up, never
//     reused; replies matched by the exact JSON text of the id;
//   - every request of the server answered (ping, roots/list,
//     sampling/createMessage, elicitation/create), an unknown one with -32601;
//   - a request given up on is cancelled with notifications/cancelled;
//   - over Streamable HTTP: Accept listing application/json and
//     text/event-stream, Content-Type application/json, the Mcp-Session-Id
//     the server assigned, Mcp-Protocol-Version after the handshake, SSE
//     replies, the GET stream, resumption with Last-Event-ID, and DELETE at
//     the end; in the stateless era Mcp-Protocol-Version, Mcp-Method and
//     Mcp-Name on every request and no session.
package mcpclient

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/tidwall/gjson"
)

// The protocol versions the golden client speaks, oldest first.
var (
	HandshakeVersions = []string{"2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"}
	StatelessVersion  = "2026-07-28"
)

// Name and Version are the clientInfo the golden client sends.
const (
	Name    = "mcpmock-golden"
	Version = "1.0.0"
)

// Options say which protocol the client speaks.
type Options struct {
	// Version pins the protocol version: a handshake-era version is asked
	// for with initialize at once (no probe); StatelessVersion goes
	// stateless after server/discover. "" probes: server/discover, and
	// initialize with the newest handshake version when the server does
	// not answer it with a stateless version.
	Version string
	// ProbeTimeout bounds the wait for the server/discover answer when
	// probing; 0 waits until the context ends (which then fails Connect).
	ProbeTimeout time.Duration
	// Name is the clientInfo name; "" is Name.
	Name string
}

// JSONRPCError is a JSON-RPC error the server answered a request with.
type JSONRPCError struct {
	Method  string
	Code    int64
	Message string
	Data    string // JSON text, "" when absent
}

func (e *JSONRPCError) Error() string {
	return fmt.Sprintf("%s: error %d: %s", e.Method, e.Code, e.Message)
}

// ErrClosed is returned by calls after the connection ended.
var ErrClosed = errors.New("mcpclient: the connection ended")

// transport carries frames. send delivers one frame (a message or a
// batch); whatever the server sends arrives on frames.
type transport interface {
	send(ctx context.Context, frame []byte, h hint) error
	frames() <-chan []byte
	// closed is closed when no more frames can arrive.
	closed() <-chan struct{}
	close() error
}

// hint is what an HTTP transport needs to know about a frame.
type hint struct {
	method, name string
	id           string // JSON text of a request's id
	request      bool
}

// Client is one golden client session.
type Client struct {
	opt Options
	t   transport

	mu        sync.Mutex
	nextID    int
	pending   map[string]chan reply
	listeners map[string]chan gjson.Result
	version   string
	stateless bool
	caps      gjson.Result // the server's capabilities
	info      gjson.Result
	sent      []string
	notes     []gjson.Result
	answered  []string // methods of the server's requests it answered
	changed   map[string]bool
	noteCh    chan struct{}

	loopDone chan struct{}
	stop     chan struct{}
	stopOnce sync.Once
}

func newClient(t transport, opt Options) *Client {
	c := &Client{opt: opt, t: t, pending: map[string]chan reply{}, listeners: map[string]chan gjson.Result{},
		changed: map[string]bool{}, noteCh: make(chan struct{}), loopDone: make(chan struct{}), stop: make(chan struct{})}
	go c.loop()
	return c
}

// Version returns the protocol version in use ("" before Connect).
func (c *Client) Version() string { c.mu.Lock(); defer c.mu.Unlock(); return c.version }

// Stateless reports whether the client went stateless (2026-07-28).
func (c *Client) Stateless() bool { c.mu.Lock(); defer c.mu.Unlock(); return c.stateless }

// Capabilities returns the server's capabilities, as it declared them.
func (c *Client) Capabilities() gjson.Result { c.mu.Lock(); defer c.mu.Unlock(); return c.caps }

// Sent returns every frame the client sent, in order.
func (c *Client) Sent() []string { c.mu.Lock(); defer c.mu.Unlock(); return slices.Clone(c.sent) }

// Notifications returns every notification the server sent, in order.
func (c *Client) Notifications() []gjson.Result {
	c.mu.Lock()
	defer c.mu.Unlock()
	return slices.Clone(c.notes)
}

// Answered returns the methods of the server's requests the client answered.
func (c *Client) Answered() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return slices.Clone(c.answered)
}

// WaitNotification waits for a notification of the server with the given method.
func (c *Client) WaitNotification(ctx context.Context, method string) (gjson.Result, error) {
	for {
		c.mu.Lock()
		for _, n := range c.notes {
			if n.Get("method").String() == method {
				c.mu.Unlock()
				return n, nil
			}
		}
		ch := c.noteCh
		c.mu.Unlock()
		select {
		case <-ch:
		case <-ctx.Done():
			return gjson.Result{}, fmt.Errorf("mcpclient: no %s before the context ended: %w", method, ctx.Err())
		case <-c.loopDone:
			return gjson.Result{}, fmt.Errorf("mcpclient: no %s: %w", method, ErrClosed)
		}
	}
}

// Close ends the session the way the transport says (closing the
// connection; DELETE over Streamable HTTP) and waits for the client's
// goroutines.
func (c *Client) Close() error {
	err := c.t.close()
	c.stopOnce.Do(func() { close(c.stop) })
	<-c.loopDone
	return err
}

func (c *Client) loop() {
	defer close(c.loopDone)
	defer func() {
		c.mu.Lock()
		for id, ch := range c.pending {
			close(ch)
			delete(c.pending, id)
		}
		c.mu.Unlock()
	}()
	for {
		select {
		case f := <-c.t.frames():
			c.dispatchFrame(f)
		case <-c.t.closed():
			for { // what arrived before the end
				select {
				case f := <-c.t.frames():
					c.dispatchFrame(f)
				default:
					return
				}
			}
		case <-c.stop:
			return
		}
	}
}

func (c *Client) dispatchFrame(f []byte) {
	if !gjson.ValidBytes(f) {
		return // not JSON (a banner, a cut frame): not a message of ours
	}
	m := gjson.ParseBytes(f)
	if m.IsArray() {
		for _, e := range m.Array() {
			c.dispatch(e)
		}
		return
	}
	c.dispatch(m)
}

func (c *Client) dispatch(m gjson.Result) {
	if !m.IsObject() {
		return
	}
	method, id := m.Get("method"), m.Get("id")
	switch {
	case method.Type == gjson.String && id.Exists():
		c.answer(m)
	case method.Type == gjson.String:
		c.mu.Lock()
		c.notes = append(c.notes, m)
		if strings.HasSuffix(method.Str, "/list_changed") {
			c.changed[method.Str] = true
		}
		close(c.noteCh)
		c.noteCh = make(chan struct{})
		var l chan gjson.Result
		if sub := m.Get(`params._meta.io\.modelcontextprotocol/subscriptionId`); sub.Exists() {
			l = c.listeners[sub.Raw]
		}
		c.mu.Unlock()
		if l != nil {
			select {
			case l <- m:
			default: // a listener that does not read loses nothing it asked to wait for
			}
		}
	case id.Exists():
		c.mu.Lock()
		ch := c.pending[id.Raw]
		delete(c.pending, id.Raw)
		c.mu.Unlock()
		if ch != nil {
			ch <- reply{m: m}
		}
	}
}

// answer answers a request of the server.
func (c *Client) answer(m gjson.Result) {
	method := m.Get("method").String()
	result, ok := answerFor(method, m.Get("params"))
	var frame string
	if ok {
		frame = `{"jsonrpc":"2.0","id":` + m.Get("id").Raw + `,"result":` + result + `}`
	} else {
		frame = `{"jsonrpc":"2.0","id":` + m.Get("id").Raw + `,"error":{"code":-32601,"message":"Method not found: ` + method + `"}}`
	}
	c.mu.Lock()
	c.answered = append(c.answered, method)
	c.mu.Unlock()
	_ = c.write(context.Background(), frame, hint{})
}

// answerFor is the client's answer to a request of the server (a
// handshake-era request or a stateless-era input request).
func answerFor(method string, params gjson.Result) (string, bool) {
	switch method {
	case "ping":
		return `{}`, true
	case "roots/list":
		return `{"roots":[{"uri":"file:///golden","name":"golden"}]}`, true
	case "sampling/createMessage":
		return `{"role":"assistant","content":{"type":"text","text":"golden"},"model":"golden-model","stopReason":"endTurn"}`, true
	case "elicitation/create":
		if params.Get("mode").String() == "url" {
			return `{"action":"decline"}`, true // it declared form elicitation only
		}
		return `{"action":"accept","content":` + Fill(params.Get("requestedSchema")) + `}`, true
	}
	return "", false
}

func (c *Client) write(ctx context.Context, frame string, h hint) error {
	c.mu.Lock()
	c.sent = append(c.sent, frame)
	c.mu.Unlock()
	return c.t.send(ctx, []byte(frame), h)
}

// Notify sends a notification; params is a JSON object text or "".
func (c *Client) Notify(ctx context.Context, method, params string) error {
	frame := `{"jsonrpc":"2.0","method":` + strconv.Quote(method)
	if params != "" {
		frame += `,"params":` + params
	}
	return c.write(ctx, frame+"}", hint{method: method})
}

// clientCaps are the capabilities the client declares for a version.
func clientCaps(version string) string {
	switch {
	case version == StatelessVersion:
		return `{"roots":{},"sampling":{},"elicitation":{}}`
	case version >= "2025-06-18":
		return `{"roots":{"listChanged":true},"sampling":{},"elicitation":{}}`
	}
	return `{"roots":{"listChanged":true},"sampling":{}}`
}

// clientInfo is the client's clientInfo object.
func (c *Client) clientInfo() string {
	name := c.opt.Name
	if name == "" {
		name = Name
	}
	return clientInfoOf(name)
}

// meta is the stateless era's per-request _meta members.
func (c *Client) meta() string { return statelessMeta(clientCaps(StatelessVersion), c.clientInfo()) }

// statelessMeta is the per-request _meta members of the stateless era:
// the version, the client's capabilities and its clientInfo (JSON texts).
func statelessMeta(caps, info string) string {
	return `"io.modelcontextprotocol/protocolVersion":"` + StatelessVersion + `","io.modelcontextprotocol/clientCapabilities":` +
		caps + `,"io.modelcontextprotocol/clientInfo":` + info
}

// clientInfoOf is the clientInfo object of a client named name.
func clientInfoOf(name string) string {
	return `{"name":` + strconv.Quote(name) + `,"version":"` + Version + `"}`
}

// withMeta adds a _meta object with members to params (a JSON object text or "").
func withMeta(params, members string) string {
	if members == "" {
		return params
	}
	m := `"_meta":{` + members + `}`
	p := strings.TrimSpace(params)
	if p == "" || p == "{}" {
		return "{" + m + "}"
	}
	return "{" + m + "," + strings.TrimPrefix(p, "{")
}

// Call sends a request and waits for its reply. params is a JSON object
// text or "" (none). In the stateless era it adds the _meta and carries an
// input_required result through its retries. When ctx ends first, the
// client gives up and sends notifications/cancelled for it.
func (c *Client) Call(ctx context.Context, method, params string) (gjson.Result, error) {
	return c.call(ctx, method, params, "")
}

// CallWithProgress is Call with a progressToken in params._meta.
func (c *Client) CallWithProgress(ctx context.Context, method, params, token string) (gjson.Result, error) {
	return c.call(ctx, method, params, `"progressToken":`+strconv.Quote(token))
}

func (c *Client) call(ctx context.Context, method, params, extraMeta string) (gjson.Result, error) {
	var responses, state string
	for round := 0; ; round++ {
		p := params
		if responses != "" {
			p = setMember(p, "inputResponses", responses)
			if state != "" {
				p = setMember(p, "requestState", state)
			}
		}
		res, err := c.request(ctx, method, p, extraMeta)
		if err != nil || !c.Stateless() {
			return res, err
		}
		switch rt := res.Get("resultType"); {
		case !rt.Exists() || rt.String() == "complete":
			return res, nil
		case rt.String() != "input_required":
			return res, fmt.Errorf("mcpclient: %s: resultType %s is not one the spec defines", method, rt.Raw)
		}
		if round == 8 {
			return res, fmt.Errorf("mcpclient: %s: still input_required after %d rounds", method, round+1)
		}
		var parts []string
		res.Get("inputRequests").ForEach(func(k, v gjson.Result) bool {
			ans, ok := answerFor(v.Get("method").String(), v.Get("params"))
			if !ok {
				ans = `{}`
			}
			parts = append(parts, k.Raw+":"+ans)
			return true
		})
		responses = "{" + strings.Join(parts, ",") + "}"
		state = ""
		if rs := res.Get("requestState"); rs.Exists() {
			state = rs.Raw // echoed unchanged
		}
	}
}

// setMember sets the member name of a JSON object text to the JSON text v.
func setMember(obj, name, v string) string {
	p := strings.TrimSpace(obj)
	if p == "" || p == "{}" {
		return "{" + strconv.Quote(name) + ":" + v + "}"
	}
	return "{" + strconv.Quote(name) + ":" + v + "," + strings.TrimPrefix(p, "{")
}

// request sends one request with a new id and waits for its reply.
func (c *Client) request(ctx context.Context, method, params, extraMeta string) (gjson.Result, error) {
	c.mu.Lock()
	c.nextID++
	id := strconv.Itoa(c.nextID)
	stateless := c.stateless || method == "server/discover"
	ch := make(chan reply, 1)
	c.pending[id] = ch
	c.mu.Unlock()
	m := extraMeta
	if stateless {
		m = c.meta()
		if extraMeta != "" {
			m += "," + extraMeta
		}
	}
	p := withMeta(params, m)
	frame := `{"jsonrpc":"2.0","id":` + id + `,"method":` + strconv.Quote(method)
	if p != "" {
		frame += `,"params":` + p
	}
	frame += "}"
	h := hint{method: method, id: id, request: true, name: nameOf(method, gjson.Parse(p))}
	if err := c.write(ctx, frame, h); err != nil {
		c.forget(id)
		return gjson.Result{}, fmt.Errorf("mcpclient: %s: %w", method, err)
	}
	select {
	case rp, ok := <-ch:
		if !ok {
			return gjson.Result{}, fmt.Errorf("mcpclient: %s: %w", method, ErrClosed)
		}
		if rp.err != nil {
			return gjson.Result{}, rp.err
		}
		r := rp.m
		if e := r.Get("error"); e.Exists() {
			re := &JSONRPCError{Method: method, Code: e.Get("code").Int(), Message: e.Get("message").String()}
			if d := e.Get("data"); d.Exists() {
				re.Data = d.Raw
			}
			return r, re
		}
		return r.Get("result"), nil
	case <-ctx.Done():
		c.forget(id)
		if method != "initialize" { // initialize is never cancelled
			_ = c.Notify(context.Background(), "notifications/cancelled", `{"requestId":`+id+`,"reason":"the client gave up"}`)
		}
		return gjson.Result{}, fmt.Errorf("mcpclient: %s: gave up: %w", method, ctx.Err())
	}
}

func (c *Client) forget(id string) {
	c.mu.Lock()
	delete(c.pending, id)
	c.mu.Unlock()
}

// nameOf is the Mcp-Name of a request: the tool or prompt name, the resource URI.
func nameOf(method string, params gjson.Result) string {
	switch method {
	case "tools/call", "prompts/get":
		return params.Get("name").String()
	case "resources/read":
		return params.Get("uri").String()
	}
	return ""
}

// BatchCall is one request of a batch.
type BatchCall struct{ Method, Params string }

// Batch sends requests in one JSON-RPC batch (2024-11-05 and 2025-03-26
// only) and returns their results in order.
func (c *Client) Batch(ctx context.Context, calls ...BatchCall) ([]gjson.Result, error) {
	v := c.Version()
	if v != "2024-11-05" && v != "2025-03-26" {
		return nil, fmt.Errorf("mcpclient: protocol %s has no batches", v)
	}
	var frames, ids []string
	chans := make([]chan reply, len(calls))
	c.mu.Lock()
	for i, call := range calls {
		c.nextID++
		id := strconv.Itoa(c.nextID)
		ids = append(ids, id)
		chans[i] = make(chan reply, 1)
		c.pending[id] = chans[i]
		f := `{"jsonrpc":"2.0","id":` + id + `,"method":` + strconv.Quote(call.Method)
		if call.Params != "" {
			f += `,"params":` + call.Params
		}
		frames = append(frames, f+"}")
	}
	c.mu.Unlock()
	if err := c.write(ctx, "["+strings.Join(frames, ",")+"]", hint{request: true, method: "batch"}); err != nil {
		return nil, err
	}
	out := make([]gjson.Result, len(calls))
	for i, ch := range chans {
		select {
		case rp, ok := <-ch:
			if !ok {
				return out, ErrClosed
			}
			if rp.err != nil {
				return out, rp.err
			}
			r := rp.m
			if e := r.Get("error"); e.Exists() {
				return out, &JSONRPCError{Method: calls[i].Method, Code: e.Get("code").Int(), Message: e.Get("message").String()}
			}
			out[i] = r.Get("result")
		case <-ctx.Done():
			for _, id := range ids[i:] {
				c.forget(id)
				_ = c.Notify(context.Background(), "notifications/cancelled", `{"requestId":`+id+`,"reason":"the client gave up"}`)
			}
			return out, ctx.Err()
		}
	}
	return out, nil
}

// Connect opens the session: the handshake, or server/discover for the
// stateless era, as Options say.
func (c *Client) Connect(ctx context.Context) error {
	v := c.opt.Version
	if v == "" || v == StatelessVersion {
		pctx, cancel := ctx, context.CancelFunc(func() {})
		if v == "" && c.opt.ProbeTimeout > 0 {
			pctx, cancel = context.WithTimeout(ctx, c.opt.ProbeTimeout)
		}
		res, err := c.request(pctx, "server/discover", "", "")
		cancel()
		var re *JSONRPCError
		switch {
		case err == nil && slices.Contains(strs(res.Get("supportedVersions")), StatelessVersion):
			c.mu.Lock()
			c.stateless, c.version, c.caps = true, StatelessVersion, res.Get("capabilities")
			c.info = res.Get(`_meta.io\.modelcontextprotocol/serverInfo`)
			c.mu.Unlock()
			return nil
		case v == StatelessVersion && err != nil:
			return err
		case v == StatelessVersion:
			return fmt.Errorf("mcpclient: server/discover offers %s, not %s", res.Get("supportedVersions").Raw, StatelessVersion)
		case ctx.Err() != nil:
			return err
		case errors.As(err, &re) && re.Code == -32022:
			// A modern server that does not speak our stateless version:
			// the handshake, if it has one of ours.
		}
		v = HandshakeVersions[len(HandshakeVersions)-1]
	}
	return c.handshake(ctx, v)
}

func (c *Client) handshake(ctx context.Context, v string) error {
	params := `{"protocolVersion":"` + v + `","capabilities":` + clientCaps(v) + `,"clientInfo":` + c.clientInfo() + `}`
	res, err := c.request(ctx, "initialize", params, "")
	if err != nil {
		return err
	}
	got := res.Get("protocolVersion")
	if got.Type != gjson.String || !slices.Contains(HandshakeVersions, got.Str) {
		_ = c.t.close()
		return fmt.Errorf("mcpclient: the server answered protocol version %s, which this client does not speak; it disconnected", got.Raw)
	}
	if caps := res.Get("capabilities"); !caps.IsObject() {
		_ = c.t.close()
		return fmt.Errorf("mcpclient: malformed initialize result: capabilities is %s; it disconnected", caps.Raw)
	}
	c.mu.Lock()
	c.version, c.caps, c.info = got.Str, res.Get("capabilities"), res.Get("serverInfo")
	c.mu.Unlock()
	h, isHTTP := c.t.(*httpTransport)
	if isHTTP { // every HTTP request after the initialize result carries the version
		h.negotiated(got.Str)
	}
	if err := c.Notify(ctx, "notifications/initialized", ""); err != nil {
		return err
	}
	if isHTTP {
		h.openGET()
	}
	return nil
}

func strs(r gjson.Result) []string {
	var out []string
	for _, v := range r.Array() {
		out = append(out, v.String())
	}
	return out
}

// Has reports whether the server declared the capability at path (e.g.
// "tools", "resources.subscribe").
func (c *Client) Has(path string) bool {
	v := c.Capabilities().Get(path)
	return v.Exists() && v.Type != gjson.Null && v.Type != gjson.False
}

// ListAll lists every page of a list method (tools/list, prompts/list,
// resources/list, resources/templates/list) and returns the items under
// key. It stops at a cursor it has seen before: the server's pages loop.
func (c *Client) ListAll(ctx context.Context, method, key string) ([]gjson.Result, error) {
	var items []gjson.Result
	seen := map[string]bool{}
	params := ""
	for {
		res, err := c.Call(ctx, method, params)
		if err != nil {
			return items, err
		}
		items = append(items, res.Get(key).Array()...)
		next := res.Get("nextCursor")
		if !next.Exists() || next.Type == gjson.Null || seen[next.Raw] {
			return items, nil
		}
		seen[next.Raw] = true
		params = `{"cursor":` + next.Raw + `}`
	}
}

// Changed reports whether the server said the list of method's kind
// changed (e.g. "notifications/tools/list_changed"), and forgets it.
func (c *Client) Changed(notification string) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	ch := c.changed[notification]
	delete(c.changed, notification)
	return ch
}

// reply is what a pending request gets: the server's response, or what
// the transport could not deliver.
type reply struct {
	m   gjson.Result
	err error
}

// TransportError is a request the transport failed: an HTTP status where
// a JSON-RPC response belonged, a stream that ended without the response.
type TransportError struct {
	Method string
	// Status is the HTTP status, 0 when the failure was not one.
	Status int
	Err    error
}

func (e *TransportError) Error() string {
	if e.Status != 0 {
		return fmt.Sprintf("mcpclient: %s: HTTP %d: %v", e.Method, e.Status, e.Err)
	}
	return fmt.Sprintf("mcpclient: %s: %v", e.Method, e.Err)
}

func (e *TransportError) Unwrap() error { return e.Err }

// failPending ends the pending request id with err.
func (c *Client) failPending(id string, err error) {
	c.mu.Lock()
	ch := c.pending[id]
	delete(c.pending, id)
	c.mu.Unlock()
	if ch != nil {
		ch <- reply{err: err}
	}
}

func (c *Client) isPending(id string) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	_, ok := c.pending[id]
	return ok
}

// Raw sends frame as it is, on the session's transport and with its
// headers: the one wrong frame of a test in an otherwise correct session.
// A reply to it arrives like any other and, matching no call of the
// client, is dropped; read it in the server's journal.
func (c *Client) Raw(ctx context.Context, frame string) error {
	m := gjson.Parse(frame)
	h := hint{method: m.Get("method").String()}
	if m.Get("method").Exists() && m.Get("id").Exists() {
		h.request, h.id = true, m.Get("id").Raw
		h.name = nameOf(h.method, m.Get("params"))
	}
	return c.write(ctx, frame, h)
}
