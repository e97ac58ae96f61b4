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

	"github.com/mcpmock/mcpmock/internal/spec"
	"github.com/tidwall/gjson"
)

// HandshakeVersions are the protocol versions of the handshake era the
// client speaks, oldest first.
var HandshakeVersions = spec.Handshake.List()

// StatelessVersion is the protocol version of the stateless era it speaks.
const StatelessVersion = spec.V20260728

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
	return `"` + spec.MetaProtocolVersion + `":"` + StatelessVersion + `","` + spec.MetaClientCapabilities + `":` +
		caps + `,"` + spec.MetaClientInfo + `":` + info
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
