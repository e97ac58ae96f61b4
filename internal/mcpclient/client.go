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

// HandshakeVersions are the protocol versions of the handshake era the
// client speaks, oldest first.
var HandshakeVersions = []string{"2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"}

// StatelessVersion is the protocol version of the stateless era it speaks.
const StatelessVersion = "2026-07-28"

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
	// Capabilities is the capabilities object the client declares (JSON
	// text); "" declares roots, sampling and elicitation as its version
	// has them. It answers the server's requests of the capabilities it
	// declared, and ping; any other with -32601.
	Capabilities string
	// Auth, on an HTTP transport, authorizes the session: every request
	// carries its token, and a 401 or a 403 insufficient_scope runs its
	// flow and sends the request again.
	Auth *OAuth
	// Say, when set, is told in plain words what the client did that a
	// reader of its session would not guess: a line it skipped, a reply it
	// ignored, a call it gave up on, a request it refused, the end of its
	// session.
	Say func(format string, args ...any)
	// Bugs are the mistakes it makes on purpose; none by default.
	Bugs Bugs
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
	// err is why no more frames arrive: nil at the end of the stream, a
	// read error, or a read loop's bug (Bugs).
	err() error
	close() error
}

// hint is what an HTTP transport needs to know about a frame.
type hint struct {
	method, name string
	id           string // JSON text of a request's id
	request      bool
}

// Client is one session of the kit's client: with the zero Options, the
// golden client.
type Client struct {
	opt Options
	t   transport

	mu          sync.Mutex
	nextID      int
	pending     map[string]chan reply
	listeners   map[string]chan gjson.Result
	version     string
	stateless   bool
	srvCaps     gjson.Result // the server's capabilities
	info        gjson.Result
	sent        []string
	notes       []gjson.Result
	answered    []string // methods of the server's requests it answered
	changed     map[string]bool
	noteCh      chan struct{}
	arrivals    int           // the server's messages that were not responses
	arrived     chan struct{} // closed (and renewed) when one arrives
	lastArrival gjson.Result
	cause       error // why the loop ended, when it ended itself (a bug)

	loopDone chan struct{}
	stop     chan struct{}
	stopOnce sync.Once
}

func newClient(t transport, opt Options) *Client {
	c := &Client{opt: opt, t: t, pending: map[string]chan reply{}, listeners: map[string]chan gjson.Result{},
		changed: map[string]bool{}, noteCh: make(chan struct{}), arrived: make(chan struct{}), loopDone: make(chan struct{}), stop: make(chan struct{})}
	go c.loop()
	return c
}

// Version returns the protocol version in use ("" before Connect).
func (c *Client) Version() string { c.mu.Lock(); defer c.mu.Unlock(); return c.version }

// Stateless reports whether the client went stateless (2026-07-28).
func (c *Client) Stateless() bool { c.mu.Lock(); defer c.mu.Unlock(); return c.stateless }

// Capabilities returns the server's capabilities, as it declared them.
func (c *Client) Capabilities() gjson.Result { c.mu.Lock(); defer c.mu.Unlock(); return c.srvCaps }

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
		if c.opt.Bugs.HangOnEOF {
			return // its calls wait for their deadline
		}
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
			if !c.dispatchFrame(f) {
				return
			}
		case <-c.t.closed():
			for { // what arrived before the end
				select {
				case f := <-c.t.frames():
					if !c.dispatchFrame(f) {
						return
					}
				default:
					return
				}
			}
		case <-c.stop:
			return
		}
	}
}

// ended is the error of a call whose connection ended: ErrClosed, with
// why. A read loop that panicked (Bugs.PanicLine) panics the call.
func (c *Client) ended(method string) error {
	c.mu.Lock()
	cause := c.cause
	c.mu.Unlock()
	if cause == nil {
		cause = c.t.err()
	}
	var p panicked
	if errors.As(cause, &p) {
		panic(string(p))
	}
	if cause == nil {
		return fmt.Errorf("mcpclient: %s: %w", method, ErrClosed)
	}
	return fmt.Errorf("mcpclient: %s: %w: %w", method, ErrClosed, cause)
}

// panicked is a read loop's panic (Bugs.PanicLine), raised again in the
// call waiting for a reply, where a test can recover it.
type panicked string

func (p panicked) Error() string { return string(p) }

// dispatchFrame handles one frame of the server; false ends the loop.
func (c *Client) dispatchFrame(f []byte) bool {
	if !gjson.ValidBytes(f) {
		c.say("skipped a line that is not JSON: %.40q", f)
		return true // not JSON (a banner, a cut frame): not a message of ours
	}
	m := gjson.ParseBytes(f)
	ms := []gjson.Result{m}
	if m.IsArray() {
		ms = m.Array()
	}
	for _, e := range ms {
		if err := c.dispatch(e); err != nil {
			c.mu.Lock()
			c.cause = err
			c.mu.Unlock()
			return false
		}
	}
	return true
}

// dispatch handles one message of the server; an error ends the loop.
func (c *Client) dispatch(m gjson.Result) error {
	if !m.IsObject() {
		return nil
	}
	method, id := m.Get("method"), m.Get("id")
	if method.Exists() {
		c.mu.Lock()
		c.arrivals++
		c.lastArrival = m
		close(c.arrived)
		c.arrived = make(chan struct{})
		c.mu.Unlock()
	}
	switch {
	case c.opt.Bugs.RouteByID && id.Exists() && c.deliver(id.Raw, m):
	case method.Type == gjson.String && id.Exists():
		return c.answer(m)
	case method.Type == gjson.String:
		c.mu.Lock()
		c.notes = append(c.notes, m)
		if strings.HasSuffix(method.Str, "/list_changed") && !c.opt.Bugs.IgnoreListChanged {
			c.changed[method.Str] = true
			if method.Str == "notifications/tools/list_changed" {
				c.say("got notifications/tools/list_changed: the tool list is out of date")
			}
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
		switch {
		case c.deliver(id.Raw, m):
		case c.opt.Bugs.LooseIDs && c.deliver(strings.Trim(id.Raw, `"`), m):
		default:
			c.say("ignored a reply with id %s, which is not that of a pending request", id.Raw)
		}
	}
	return nil
}

// deliver hands m to the pending call with the id key, and reports
// whether one took it.
func (c *Client) deliver(key string, m gjson.Result) bool {
	c.mu.Lock()
	ch, ok := c.pending[key]
	delete(c.pending, key)
	n := c.arrivals
	c.mu.Unlock()
	if ok {
		ch <- reply{m: m, arrivals: n}
	}
	return ok
}

// answer answers a request of the server: ping, and the requests of the
// capabilities it declared; any other with -32601.
func (c *Client) answer(m gjson.Result) error {
	method, id := m.Get("method").String(), m.Get("id")
	b := c.opt.Bugs
	rid := id.Raw
	switch {
	case b.IntRequestIDs && id.Type != gjson.Number:
		return fmt.Errorf("json: cannot unmarshal string into Go struct field of type int64 (request id %s)", id.Raw)
	case b.FloatRequestIDs:
		rid = strconv.FormatFloat(id.Float(), 'f', -1, 64)
	}
	if b.IgnoreServerRequests {
		return nil
	}
	result, ok := "", false
	switch {
	case method == "ping":
		result, ok = `{}`, !b.NoPing
	case gjson.Get(c.declared(c.versionOrAsked()), capabilityOf(method)).Exists():
		result, ok = c.answerFor(method, m.Get("params"))
	}
	var frame string
	if ok {
		frame = `{"jsonrpc":"2.0","id":` + rid + `,"result":` + result + `}`
	} else {
		frame = `{"jsonrpc":"2.0","id":` + rid + `,"error":{"code":-32601,"message":"Method not found: ` + method + `"}}`
		c.say("answered the server's %s with -32601: it declared no capability for it", method)
	}
	c.mu.Lock()
	c.answered = append(c.answered, method)
	c.mu.Unlock()
	_ = c.write(context.Background(), frame, hint{})
	return nil
}

// versionOrAsked is the version in use, or before the handshake's end
// the one it asks for.
func (c *Client) versionOrAsked() string {
	if v := c.Version(); v != "" {
		return v
	}
	if c.opt.Version != "" {
		return c.opt.Version
	}
	return HandshakeVersions[len(HandshakeVersions)-1]
}

// capabilityOf is the client capability a request of the server needs.
func capabilityOf(method string) string {
	capability, _, _ := strings.Cut(method, "/")
	return capability // roots/list, sampling/createMessage, elicitation/create
}

// answerFor is the client's answer to a request of the server (a
// handshake-era request or a stateless-era input request).
func (c *Client) answerFor(method string, params gjson.Result) (string, bool) {
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
		if c.opt.Bugs.EmptyElicitation {
			return `{"action":"accept","content":{}}`, true
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

func (c *Client) say(format string, args ...any) {
	if c.opt.Say != nil {
		c.opt.Say(format, args...)
	}
}

// declared is the capabilities object the client declares in version.
func (c *Client) declared(version string) string {
	if c.opt.Capabilities != "" {
		return c.opt.Capabilities
	}
	return clientCaps(version)
}

// clientCaps are the capabilities the kit declares by default for a version.
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
func (c *Client) meta() string { return statelessMeta(c.declared(StatelessVersion), c.clientInfo()) }

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

// Connect opens the session: the handshake, or server/discover for the
// stateless era, as Options say.
func (c *Client) Connect(ctx context.Context) error {
	b := c.opt.Bugs
	v := c.opt.Version
	if v == "" || v == StatelessVersion {
		pctx, cancel := ctx, context.CancelFunc(func() {})
		if v == "" && c.opt.ProbeTimeout > 0 && !b.NoProbeTimeout {
			pctx, cancel = context.WithTimeout(ctx, c.opt.ProbeTimeout)
		}
		res, err := c.request(pctx, "server/discover", "", "", "")
		cancel()
		var re *JSONRPCError
		switch {
		case err == nil && slices.Contains(strs(res.Get("supportedVersions")), StatelessVersion):
			c.mu.Lock()
			c.stateless, c.version = true, StatelessVersion
			c.info = res.Get(`_meta.io\.modelcontextprotocol/serverInfo`)
			c.mu.Unlock()
			if err := c.setCapabilities(res.Get("capabilities")); err != nil {
				return err
			}
			if b.InitAfterDiscover {
				return c.handshake(ctx, HandshakeVersions[len(HandshakeVersions)-1])
			}
			return nil
		case v == StatelessVersion && err != nil:
			return err
		case v == StatelessVersion:
			return fmt.Errorf("mcpclient: server/discover offers %s, not %s", res.Get("supportedVersions").Raw, StatelessVersion)
		case ctx.Err() != nil:
			return err
		case errors.As(err, &re) && re.Code == -32022 && b.Ignore32022:
			c.mu.Lock()
			c.stateless, c.version = true, StatelessVersion
			c.mu.Unlock()
			return c.setCapabilities(gjson.Parse(`{"tools":{}}`))
		case errors.As(err, &re) && re.Code == -32022:
			// A modern server that does not speak our stateless version:
			// the handshake, if it has one of ours.
		}
		v = HandshakeVersions[len(HandshakeVersions)-1]
	}
	return c.handshake(ctx, v)
}

// knownCapabilities are the server capabilities the kit knows.
var knownCapabilities = []string{"tools", "resources", "prompts", "logging", "completions", "experimental", "tasks", "extensions"}

// setCapabilities takes the server's capabilities.
func (c *Client) setCapabilities(caps gjson.Result) error {
	b := c.opt.Bugs
	if b.StaleCapabilities != "" {
		caps = gjson.Parse(b.StaleCapabilities)
	}
	var err error
	if b.RejectUnknownCapabilities {
		caps.ForEach(func(k, _ gjson.Result) bool {
			if !slices.Contains(knownCapabilities, k.String()) {
				err = fmt.Errorf("unknown server capability %q", k.String())
			}
			return err == nil
		})
	}
	c.mu.Lock()
	c.srvCaps = caps
	c.mu.Unlock()
	return err
}

// strictPeek is how long a client with Bugs.StrictHandshake watches for a
// message of the server before it sends notifications/initialized.
const strictPeek = 50 * time.Millisecond

func (c *Client) handshake(ctx context.Context, v string) error {
	b := c.opt.Bugs
	params := `{"protocolVersion":"` + v + `","capabilities":` + c.declared(v) + `,"clientInfo":` + c.clientInfo() + `}`
	if b.OmitProtocolVersion {
		params = `{"capabilities":` + c.declared(v) + `,"clientInfo":` + c.clientInfo() + `}`
	}
	res, arrivals, err := c.requestArrivals(ctx, "initialize", params, "", "")
	if err != nil {
		return err
	}
	got := res.Get("protocolVersion")
	if !b.AcceptAnyResult {
		speaks := HandshakeVersions
		if b.OnlyVersions != nil {
			speaks = b.OnlyVersions
		}
		if got.Type != gjson.String || !slices.Contains(speaks, got.Str) {
			_ = c.t.close()
			c.say("refused the initialize result: protocolVersion %s is not a version it speaks", got.Raw)
			return fmt.Errorf("mcpclient: unsupported protocol version %s: the server answered a version this client does not speak; it disconnected", got.Raw)
		}
		if caps := res.Get("capabilities"); !caps.IsObject() {
			_ = c.t.close()
			c.say("refused the initialize result: capabilities is %s, not an object", caps.Raw)
			return fmt.Errorf("mcpclient: malformed initialize result: capabilities is %s; it disconnected", caps.Raw)
		}
	}
	c.mu.Lock()
	c.version, c.info = got.String(), res.Get("serverInfo")
	c.mu.Unlock()
	if err := c.setCapabilities(res.Get("capabilities")); err != nil {
		return err
	}
	if b.StrictHandshake {
		if err := c.peek(arrivals); err != nil {
			return err
		}
	}
	h, isHTTP := c.t.(*httpTransport)
	if isHTTP { // every HTTP request after the initialize result carries the version
		h.negotiated(got.String())
	}
	switch {
	case b.SkipInitialized:
	case b.InitializedWithID:
		if err := c.write(ctx, `{"jsonrpc":"2.0","id":1000,"method":"notifications/initialized"}`, hint{method: "notifications/initialized", id: "1000"}); err != nil {
			return err
		}
	default:
		if err := c.Notify(ctx, "notifications/initialized", ""); err != nil {
			return err
		}
	}
	c.say("initialized in %s", got.String())
	if isHTTP {
		h.openGET()
	}
	return nil
}

// peek fails the handshake when a message of the server arrived after the
// initialize result (of which arrivals had come), or arrives within
// strictPeek (Bugs.StrictHandshake).
func (c *Client) peek(arrivals int) error {
	c.mu.Lock()
	n, ch := c.arrivals, c.arrived
	c.mu.Unlock()
	if n == arrivals {
		t := time.NewTimer(strictPeek)
		defer t.Stop()
		select {
		case <-ch:
		case <-t.C:
			return nil
		}
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return fmt.Errorf("unexpected message before notifications/initialized: %s", c.lastArrival.Raw)
}

func strs(r gjson.Result) []string {
	var out []string
	for _, v := range r.Array() {
		out = append(out, v.String())
	}
	return out
}

// Has reports whether the server declared the capability at path (e.g.
// "tools", "resources.subscribe"); with Bugs.IgnoreCapabilities, always.
func (c *Client) Has(path string) bool {
	if c.opt.Bugs.IgnoreCapabilities {
		return true
	}
	v := c.Capabilities().Get(path)
	return v.Exists() && v.Type != gjson.Null && v.Type != gjson.False
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
	// arrivals counts the server's messages that were not responses when
	// it came.
	arrivals int
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
