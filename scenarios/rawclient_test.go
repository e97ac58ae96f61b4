package scenarios_test

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/mcpmock/mcpmock/scenarios"
	"github.com/tidwall/gjson"
)

// rawClient is a hand-written MCP client that does, by default, what a
// correct client does in every scenario of the catalog: it probes with
// server/discover and goes stateless or falls back to the handshake,
// checks what the server answered, lists only what was declared, pages
// with loop detection, answers elicitations (both eras), cancels a call its
// deadline ends, and re-lists tools when told they changed or when a call
// is rejected for its arguments. Each field of bugs turns on exactly one
// bug, the one a scenario catches.
type rawClient struct {
	ctx     context.Context
	conn    net.Conn
	r       *bufio.Reader
	partial string
	bug     bugs

	nextID    int
	probing   bool
	stateless bool
	caps      gjson.Result
	tools     []string
	stale     bool // the server said the tools changed
}

// bugs are the client bugs the scenarios catch; the zero value is a
// correct client.
type bugs struct {
	skipInitialized      bool // never sends notifications/initialized
	noMeta               bool // stateless requests after discover without the per-request _meta
	acceptAnyResult      bool // does not check the initialize result's version and capabilities
	ignoreCaps           bool // lists tools, resources and prompts whatever the server declared
	strictHandshake      bool // a message before its own notifications/initialized is fatal
	retryStale           bool // repeats a call rejected with -32602 instead of re-listing tools
	callDespiteListError bool // calls suggest_gifts although tools/list failed
	ignoreListChanged    bool // ignores notifications/tools/list_changed
	exactVersion         bool // rejects any version but the one it asked for
	ignore32022          bool // carries on stateless after -32022
	noProbeTimeout       bool // waits for server/discover until its deadline
	initAfterDiscover    bool // sends initialize although server/discover succeeded
	strictLines          bool // a non-JSON line is fatal
	looseIDs             bool // matches ids by their text: "3" is 3
	waitOnEOF            bool // on end of file, waits for its deadline
	noCancel             bool // gives up on a call without notifications/cancelled
	reuseRetryID         bool // retries after input_required with the same id
	followCursorsBlindly bool // follows nextCursor without noticing a loop
	rejectUnknownCaps    bool // a capability key it does not know is fatal
	cacheCaps            bool // when it reconnects, keeps the first session's capabilities

	// Not bugs: kinds of correct client.
	handshakeOnly bool // never probes: initialize first (a client of the handshake era only)
	onePage       bool // reads the first page of a list only
	reconnect     bool // after a session that went well, connects once more and works again
}

const (
	probeTimeout    = 300 * time.Millisecond
	handshakeVer    = "2025-11-25"
	statelessVer    = "2026-07-28"
	clientCapsJSON  = `{"elicitation":{}}`
	strictPeekLimit = 50 * time.Millisecond
)

var knownHandshake = []string{"2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"}

// knownCaps are the server capabilities the raw client knows.
var knownCaps = []string{"tools", "resources", "prompts", "logging", "completions", "experimental", "tasks", "extensions"}

// setCaps takes the server's capabilities; with rejectUnknownCaps, a key
// the client does not know is an error.
func (c *rawClient) setCaps(caps gjson.Result) error {
	c.caps = caps
	var err error
	if c.bug.rejectUnknownCaps {
		caps.ForEach(func(k, _ gjson.Result) bool {
			if !slices.Contains(knownCaps, k.String()) {
				err = fmt.Errorf("unknown server capability %q", k.String())
			}
			return err == nil
		})
	}
	return err
}

// connectWith returns a ConnectFunc running a raw client with the given
// bugs, over one session (two with reconnect).
func connectWith(b bugs) scenarios.ConnectFunc {
	return func(ctx context.Context, ep *scenarios.Endpoint) error {
		var first gjson.Result
		for n := 1; n <= 2; n++ {
			conn, err := ep.Open()
			if err != nil {
				return err
			}
			c := &rawClient{ctx: ctx, conn: conn, r: bufio.NewReader(conn), bug: b}
			err = c.connect()
			if err == nil && n == 2 && b.cacheCaps {
				c.caps = first
			}
			if err == nil {
				err = c.work()
			}
			_ = conn.Close()
			if err != nil || !b.reconnect {
				return err
			}
			first = c.caps
		}
		return nil
	}
}

// toolArgs are the arguments the raw client calls a tool with.
var toolArgs = map[string]map[string]any{
	"suggest_gifts": {"age": 25},
	"get_forecast":  {"city": "Paris"},
}

// correct is the ConnectFunc of a correct client.
var correct = connectWith(bugs{})

// ---- wire ----

func (c *rawClient) write(v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	_, err = c.conn.Write(append(b, '\n'))
	return err
}

// params adds the per-request _meta in the stateless era.
func (c *rawClient) params(p map[string]any) map[string]any {
	if p == nil {
		p = map[string]any{}
	}
	if c.stateless && (c.probing || !c.bug.noMeta) {
		p["_meta"] = map[string]any{
			"io.modelcontextprotocol/protocolVersion":    statelessVer,
			"io.modelcontextprotocol/clientCapabilities": json.RawMessage(clientCapsJSON),
			"io.modelcontextprotocol/clientInfo":         map[string]string{"name": "rawclient", "version": "1.0.0"},
		}
	}
	return p
}

func (c *rawClient) send(method string, p map[string]any) (int, error) {
	c.nextID++
	return c.nextID, c.write(map[string]any{"jsonrpc": "2.0", "id": c.nextID, "method": method, "params": p})
}

func (c *rawClient) notify(method string, p map[string]any) error {
	m := map[string]any{"jsonrpc": "2.0", "method": method}
	if p != nil {
		m["params"] = p
	}
	return c.write(m)
}

var errLimit = errors.New("read limit reached")

// read returns the next JSON message, waiting at most until limit (or the
// context's deadline, whichever is first). Non-JSON lines are skipped.
func (c *rawClient) read(limit time.Time) (gjson.Result, error) {
	for {
		dl, _ := c.ctx.Deadline()
		if !limit.IsZero() && limit.Before(dl) {
			dl = limit
		}
		_ = c.conn.SetReadDeadline(dl)
		line, err := c.r.ReadString('\n')
		line = c.partial + line
		c.partial = ""
		if err != nil {
			c.partial = line
			switch {
			case errors.Is(err, os.ErrDeadlineExceeded) && c.ctx.Err() == nil && !limit.IsZero():
				return gjson.Result{}, errLimit
			case errors.Is(err, os.ErrDeadlineExceeded):
				<-c.ctx.Done() // the deadline of the conn and of ctx are the same instant
				return gjson.Result{}, c.ctx.Err()
			case errors.Is(err, io.EOF) && c.bug.waitOnEOF:
				<-c.ctx.Done()
				return gjson.Result{}, c.ctx.Err()
			}
			return gjson.Result{}, err
		}
		line = strings.TrimSpace(line)
		if !gjson.Valid(line) {
			if c.bug.strictLines {
				return gjson.Result{}, fmt.Errorf("invalid JSON from the server: %q", line)
			}
			continue
		}
		return gjson.Parse(line), nil
	}
}

// sameID matches a response id to a request id.
func (c *rawClient) sameID(got gjson.Result, id int) bool {
	if c.bug.looseIDs {
		return strings.Trim(got.Raw, `"`) == fmt.Sprint(id)
	}
	return got.Raw == fmt.Sprint(id)
}

// await reads until the response to id, serving what comes meanwhile. On
// the context's end it cancels the request.
func (c *rawClient) await(id int, method string, limit time.Time) (gjson.Result, error) {
	for {
		m, err := c.read(limit)
		if err != nil {
			if c.ctx.Err() != nil && !c.bug.noCancel && method != "initialize" {
				_ = c.notify("notifications/cancelled", map[string]any{"requestId": id, "reason": "timeout"})
			}
			return m, fmt.Errorf("%s: %w", method, err)
		}
		switch {
		case m.Get("method").Exists() && m.Get("id").Exists():
			if err := c.serveRequest(m); err != nil {
				return m, err
			}
		case m.Get("method").Exists():
			if m.Get("method").String() == "notifications/tools/list_changed" && !c.bug.ignoreListChanged {
				c.stale = true
			}
		case c.sameID(m.Get("id"), id):
			return m, nil
		}
	}
}

// serveRequest answers a request of the server.
func (c *rawClient) serveRequest(m gjson.Result) error {
	reply := map[string]any{"jsonrpc": "2.0", "id": json.RawMessage(m.Get("id").Raw)}
	switch m.Get("method").String() {
	case "ping":
		reply["result"] = map[string]any{}
	case "elicitation/create":
		reply["result"] = accept
	case "roots/list":
		reply["result"] = map[string]any{"roots": []any{}}
	default:
		reply["error"] = map[string]any{"code": -32601, "message": "Method not found"}
	}
	return c.write(reply)
}

var accept = map[string]any{"action": "accept", "content": map[string]any{"ok": true}}

// rpcError is a JSON-RPC error the server answered.
type rpcError struct {
	method  string
	code    int64
	message string
	data    gjson.Result
}

func (e *rpcError) Error() string {
	return fmt.Sprintf("%s: error %d: %s", e.method, e.code, e.message)
}

// call sends a request and returns its result, or the error.
func (c *rawClient) call(method string, p map[string]any, limit time.Time) (gjson.Result, error) {
	id, err := c.send(method, c.params(p))
	if err != nil {
		return gjson.Result{}, err
	}
	m, err := c.await(id, method, limit)
	if err != nil {
		return m, err
	}
	if e := m.Get("error"); e.Exists() {
		return m, &rpcError{method, e.Get("code").Int(), e.Get("message").String(), e.Get("data")}
	}
	return m.Get("result"), nil
}

// ---- lifecycle ----

func (c *rawClient) connect() error {
	if c.bug.handshakeOnly {
		return c.handshake()
	}
	limit := time.Now().Add(probeTimeout)
	if c.bug.noProbeTimeout {
		limit = time.Time{}
	}
	c.stateless, c.probing = true, true // discover carries the _meta
	res, err := c.call("server/discover", nil, limit)
	c.stateless, c.probing = false, false
	var rerr *rpcError
	switch {
	case err == nil:
		if !slices.Contains(stringsOf(res.Get("supportedVersions")), statelessVer) {
			return c.handshake()
		}
		c.stateless = true
		if err := c.setCaps(res.Get("capabilities")); err != nil {
			return err
		}
		if c.bug.initAfterDiscover {
			return c.handshake()
		}
		return nil
	case errors.As(err, &rerr) && rerr.code == -32022 && c.bug.ignore32022:
		c.stateless, c.caps = true, gjson.Parse(`{"tools":{}}`)
		return nil
	case errors.As(err, &rerr), errors.Is(err, errLimit):
		return c.handshake() // any error, or no answer in time: a legacy server
	}
	return err
}

func stringsOf(r gjson.Result) []string {
	var out []string
	for _, v := range r.Array() {
		out = append(out, v.String())
	}
	return out
}

func (c *rawClient) handshake() error {
	res, err := c.call("initialize", map[string]any{
		"protocolVersion": handshakeVer,
		"capabilities":    json.RawMessage(clientCapsJSON),
		"clientInfo":      map[string]string{"name": "rawclient", "version": "1.0.0"},
	}, time.Time{})
	if err != nil {
		return err
	}
	if !c.bug.acceptAnyResult {
		v := res.Get("protocolVersion").String()
		if !slices.Contains(knownHandshake, v) || c.bug.exactVersion && v != handshakeVer {
			return fmt.Errorf("unsupported protocol version %q", v)
		}
		if !res.Get("capabilities").IsObject() {
			return fmt.Errorf("malformed initialize result: capabilities is %s", res.Get("capabilities").Raw)
		}
	}
	if err := c.setCaps(res.Get("capabilities")); err != nil {
		return err
	}
	if c.bug.strictHandshake {
		if m, err := c.read(time.Now().Add(strictPeekLimit)); err == nil {
			return fmt.Errorf("unexpected message before notifications/initialized: %s", m.Raw)
		}
	}
	if c.bug.skipInitialized {
		return nil
	}
	return c.notify("notifications/initialized", nil)
}

func (c *rawClient) declared(capability string) bool {
	v := c.caps.Get(capability)
	return c.bug.ignoreCaps || v.IsObject()
}

// ---- work: list, call, close ----

func (c *rawClient) work() error {
	listErr := error(nil)
	if c.declared("tools") {
		listErr = c.listTools()
		if listErr != nil && !c.bug.callDespiteListError {
			return listErr
		}
	}
	if c.declared("resources") {
		if _, err := c.list("resources/list", "resources"); err != nil && !c.bug.ignoreCaps {
			return err
		}
	}
	if c.declared("prompts") {
		if _, err := c.list("prompts/list", "prompts"); err != nil && !c.bug.ignoreCaps {
			return err
		}
	}
	var callErr error
	switch {
	case len(c.tools) > 0:
		callErr = c.callTool(c.tools[0])
	case listErr != nil && c.bug.callDespiteListError:
		callErr = c.callTool("suggest_gifts")
	}
	if c.stale && callErr == nil {
		return c.listTools()
	}
	return callErr
}

func (c *rawClient) listTools() error {
	items, err := c.list("tools/list", "tools")
	if err != nil {
		return err
	}
	c.tools, c.stale = nil, false
	for _, it := range items {
		c.tools = append(c.tools, it.Get("name").String())
	}
	return nil
}

// list pages through a list, stopping at a cursor it has seen before.
func (c *rawClient) list(method, field string) ([]gjson.Result, error) {
	var items []gjson.Result
	seen := map[string]bool{}
	var cursor *string
	for {
		p := map[string]any{}
		if cursor != nil {
			p["cursor"] = *cursor
		}
		res, err := c.call(method, p, time.Time{})
		if err != nil {
			return items, err
		}
		items = append(items, res.Get(field).Array()...)
		next := res.Get("nextCursor")
		if !next.Exists() || next.Type == gjson.Null || c.bug.onePage {
			return items, nil
		}
		s := next.String()
		if seen[s] && !c.bug.followCursorsBlindly {
			return items, nil // a loop: keep what we have
		}
		seen[s] = true
		cursor = &s
	}
}

func (c *rawClient) callTool(name string) error {
	p := map[string]any{"name": name, "arguments": toolArgs[name]}
	for round := 0; round < 3; round++ {
		res, err := c.call("tools/call", p, time.Time{})
		var rerr *rpcError
		if errors.As(err, &rerr) && rerr.code == -32602 {
			if c.bug.retryStale {
				_, _ = c.call("tools/call", p, time.Time{})
				return err
			}
			if lerr := c.listTools(); lerr != nil {
				return lerr
			}
			return err
		}
		if err != nil {
			return err
		}
		if res.Get("resultType").String() != "input_required" {
			return nil
		}
		responses := map[string]any{}
		res.Get("inputRequests").ForEach(func(k, v gjson.Result) bool {
			if v.Get("method").String() == "elicitation/create" {
				responses[k.String()] = accept
			}
			return true
		})
		p = map[string]any{"name": name, "arguments": toolArgs[name], "inputResponses": responses}
		if st := res.Get("requestState"); st.Exists() {
			p["requestState"] = st.String()
		}
		if c.bug.reuseRetryID {
			c.nextID--
		}
	}
	return errors.New("tools/call: input_required three times")
}
