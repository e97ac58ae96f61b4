package bugs_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"strconv"
	"sync"
	"unicode/utf8"

	"github.com/mcpmock/mcpmock/scenarios"
	"github.com/tidwall/gjson"
)

// raw is a hand-written MCP client on the stdio framing, of the handshake
// era, written for the bug catalog's proofs: it initializes, lists the
// tools (every page), calls one and closes. Its zero value does what a
// fixed client does for every bug of the catalog; each field turns on one
// behaviour a report describes, so that a proof plays the buggy client and
// the fixed one and nothing else differs.
type raw struct {
	version     string   // the protocolVersion initialize asks for ("" = 2025-11-25)
	omitVersion bool     // initialize without protocolVersion
	knows       []string // the versions it accepts from the server (nil: 2024-11-05 … 2025-11-25)
	skipInit    bool     // never sends notifications/initialized
	initWithID  bool     // sends notifications/initialized with an id (a request)

	maxLine      int  // a line longer than this fails the read loop (bufio.Scanner's 64 KB)
	panicLine    int  // a line longer than this panics (mcp-go v0.32's buffer)
	nonJSONFatal bool // a line that is not JSON ends the read loop
	strictUTF8   bool // bytes that are not UTF-8 end the read loop
	hangOnEOF    bool // at end of file pending requests keep waiting
	noTimeout    bool // waits for a reply until its connection is closed, whatever ctx says
	noCancel     bool // gives up on a timed-out call without notifications/cancelled

	stateless       bool // speaks the 2026-07-28 era: no initialize, the per-request _meta on every request
	emptyCursorEnds bool // takes nextCursor "" for the end of the list
	onePage         bool // reads the first page of a list only
	loopBlind       bool // follows every nextCursor, even one it has seen
	dropSchema      func(schema gjson.Result) bool
	rejectList      func(schema gjson.Result) bool // one such tool rejects the whole list
	maxNameLen      int                            // drops tools with longer names
	maxTools        int                            // keeps only the first n tools
	ignoreChanged   bool                           // ignores notifications/tools/list_changed
	keepFirstList   bool                           // re-lists after list_changed but keeps the first list
	strictOutput    bool                           // checks structuredContent's required fields against outputSchema even when isError
	knownContent    []string                       // content types it can read (nil: all)
	noProgress      bool                           // tools/call without a progressToken

	intIDs      bool // decodes a request id from the server as an integer
	floatIDs    bool // decodes ids as float64
	routeByID   bool // a message whose id matches a pending request is its reply, whatever it is
	noPing      bool // answers the server's ping with -32601
	ignoreReqs  bool // never answers a request from the server
	emptyAccept bool // answers elicitation/create with accept and {}

	call string // the tool to call (default: the first listed)
}

// connect returns the ConnectFunc of the raw client c.
func (c raw) connect() scenarios.ConnectFunc { return scenarios.OneSession(c.run) }

// run is the raw client's work on one connection.
func (c raw) run(ctx context.Context, conn net.Conn) error {
	s := &rawSession{raw: c, ctx: ctx, conn: conn, pending: map[string]chan gjson.Result{}, changed: make(chan struct{}, 1), done: make(chan struct{})}
	go s.read()
	defer conn.Close()
	return s.work()
}

type rawSession struct {
	raw
	ctx  context.Context
	conn net.Conn

	mu      sync.Mutex
	wmu     sync.Mutex
	nextID  int
	pending map[string]chan gjson.Result
	readErr error
	done    chan struct{} // the read loop ended
	changed chan struct{} // notifications/tools/list_changed came
}

var errTimeout = errors.New("request timed out")

// errPanic is a read loop's panic, raised again by the request waiting.
type errPanic struct{ msg string }

func (e errPanic) Error() string { return e.msg }

func (s *rawSession) write(v any) error {
	b, _ := json.Marshal(v)
	s.wmu.Lock()
	defer s.wmu.Unlock()
	_, err := s.conn.Write(append(b, '\n'))
	return err
}

// read is the read loop: it splits lines, hands replies to their requests,
// answers the server's requests and notes notifications.
func (s *rawSession) read() {
	defer close(s.done)
	r := bufio.NewReaderSize(s.conn, 4096)
	fail := func(err error) {
		s.mu.Lock()
		s.readErr = err
		if !s.hangOnEOF {
			for id, ch := range s.pending {
				close(ch)
				delete(s.pending, id)
			}
		}
		s.mu.Unlock()
	}
	for {
		line, err := r.ReadBytes('\n')
		if err != nil {
			fail(fmt.Errorf("reading the server's output: %w", err))
			return
		}
		line = bytes.TrimRight(line, "\r\n")
		switch {
		case s.panicLine > 0 && len(line) > s.panicLine:
			// mcp-go v0.32 panicked in its reader goroutine, which took
			// the process down; here the panic is raised in the caller's
			// goroutine (request), where the play recovers it.
			fail(errPanic{fmt.Sprintf("runtime error: slice bounds out of range [:%d] with capacity %d", len(line), s.panicLine)})
			return
		case s.maxLine > 0 && len(line) > s.maxLine:
			fail(errors.New("bufio.Scanner: token too long"))
			return
		case s.strictUTF8 && !utf8.Valid(line):
			fail(errors.New("'utf-8' codec can't decode the server's output"))
			return
		case len(bytes.TrimSpace(line)) == 0:
			continue
		case !gjson.ValidBytes(line):
			if s.nonJSONFatal {
				fail(fmt.Errorf("invalid character %q looking for beginning of value", line[0]))
				return
			}
			continue
		}
		m := gjson.ParseBytes(line)
		id, method := m.Get("id"), m.Get("method").String()
		if s.routeByID && id.Exists() && s.deliver(id, m) {
			continue
		}
		switch {
		case method != "" && id.Exists():
			if err := s.answer(id, method, m); err != nil {
				fail(err)
				return
			}
		case method == "notifications/tools/list_changed":
			select {
			case s.changed <- struct{}{}:
			default:
			}
		case method == "":
			s.deliver(id, m)
		}
	}
}

// deliver hands a reply to the pending request of its id and reports
// whether one took it.
func (s *rawSession) deliver(id, m gjson.Result) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	key := id.Raw
	ch, ok := s.pending[key]
	if ok {
		delete(s.pending, key)
		ch <- m
	}
	return ok
}

// answer answers a request from the server.
func (s *rawSession) answer(id gjson.Result, method string, m gjson.Result) error {
	rid := json.RawMessage(id.Raw)
	switch {
	case s.intIDs && id.Type != gjson.Number:
		return fmt.Errorf("json: cannot unmarshal string into Go struct field of type int64 (request id %s)", id.Raw)
	case s.floatIDs:
		rid = json.RawMessage(strconv.FormatFloat(id.Float(), 'f', -1, 64))
	}
	if s.ignoreReqs {
		return nil
	}
	reply := map[string]any{"jsonrpc": "2.0", "id": rid}
	switch {
	case method == "ping" && !s.noPing:
		reply["result"] = map[string]any{}
	case method == "elicitation/create":
		content := map[string]any{}
		if !s.emptyAccept {
			for _, f := range m.Get("params.requestedSchema.required").Array() {
				content[f.String()] = true
			}
		}
		reply["result"] = map[string]any{"action": "accept", "content": content}
	case method == "roots/list":
		reply["result"] = map[string]any{"roots": []any{}}
	default:
		reply["error"] = map[string]any{"code": -32601, "message": "Method not found: " + method}
	}
	return s.write(reply)
}

// request sends a request and waits for its reply.
func (s *rawSession) request(method string, params any) (gjson.Result, error) {
	s.mu.Lock()
	id := s.nextID
	s.nextID++
	ch := make(chan gjson.Result, 1)
	key := strconv.Itoa(id)
	if s.readErr != nil && !s.hangOnEOF {
		err := s.readErr
		s.mu.Unlock()
		return gjson.Result{}, err
	}
	s.pending[key] = ch
	s.mu.Unlock()
	msg := map[string]any{"jsonrpc": "2.0", "id": id, "method": method}
	if p, ok := params.(map[string]any); ok && s.stateless {
		p["_meta"] = map[string]any{
			"io.modelcontextprotocol/protocolVersion":    "2026-07-28",
			"io.modelcontextprotocol/clientCapabilities": map[string]any{},
			"io.modelcontextprotocol/clientInfo":         map[string]any{"name": "bugs-raw", "version": "1.0.0"},
		}
	}
	if params != nil {
		msg["params"] = params
	}
	if err := s.write(msg); err != nil {
		return gjson.Result{}, err
	}
	ctxDone := s.ctx.Done()
	if s.noTimeout {
		ctxDone = nil
	}
	select {
	case m, ok := <-ch:
		if !ok {
			s.mu.Lock()
			err := s.readErr
			s.mu.Unlock()
			var p errPanic
			if errors.As(err, &p) {
				panic(p.msg)
			}
			return gjson.Result{}, fmt.Errorf("%s: %w", method, err)
		}
		if e := m.Get("error"); e.Exists() {
			return m, fmt.Errorf("%s: error %d %s", method, e.Get("code").Int(), e.Get("message").String())
		}
		if !m.Get("result").Exists() {
			return m, fmt.Errorf("%s: the reply has no result: %s", method, m.Raw)
		}
		return m.Get("result"), nil
	case <-ctxDone:
		if method != "initialize" && !s.noCancel {
			_ = s.write(map[string]any{"jsonrpc": "2.0", "method": "notifications/cancelled", "params": map[string]any{"requestId": id, "reason": "timeout"}})
		}
		return gjson.Result{}, fmt.Errorf("%s: %w", method, errTimeout)
	case <-s.doneIfClosed():
		return gjson.Result{}, fmt.Errorf("%s: the connection closed", method)
	}
}

// doneIfClosed is the read loop's end for a client without a timeout: it
// returns when its connection is closed (by the play) and nothing else.
func (s *rawSession) doneIfClosed() <-chan struct{} {
	if s.noTimeout {
		return s.done
	}
	return nil
}

func (s *rawSession) notify(method string) error {
	return s.write(map[string]any{"jsonrpc": "2.0", "method": method})
}

func (s *rawSession) initialize() error {
	v := s.version
	if v == "" {
		v = "2025-11-25"
	}
	params := map[string]any{"capabilities": map[string]any{"elicitation": map[string]any{}},
		"clientInfo": map[string]any{"name": "bugs-raw", "version": "1.0.0"}}
	if !s.omitVersion {
		params["protocolVersion"] = v
	}
	res, err := s.request("initialize", params)
	if err != nil {
		return err
	}
	got := res.Get("protocolVersion").String()
	knows := s.knows
	if knows == nil {
		knows = []string{"2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"}
	}
	ok := false
	for _, k := range knows {
		ok = ok || k == got
	}
	if !ok {
		return fmt.Errorf("unsupported protocol version: %q", got)
	}
	switch {
	case s.skipInit:
		return nil
	case s.initWithID:
		return s.write(map[string]any{"jsonrpc": "2.0", "id": 1000, "method": "notifications/initialized"})
	}
	return s.notify("notifications/initialized")
}

// listTools returns the tools the client keeps, after its filters.
func (s *rawSession) listTools() ([]gjson.Result, error) {
	var all []gjson.Result
	seen := map[string]bool{}
	var cursor *string
	for page := 0; page < 100; page++ {
		params := map[string]any{}
		if cursor != nil {
			params["cursor"] = *cursor
		}
		res, err := s.request("tools/list", params)
		if err != nil {
			return nil, err
		}
		all = append(all, res.Get("tools").Array()...)
		next := res.Get("nextCursor")
		if !next.Exists() || s.onePage || (s.emptyCursorEnds && next.String() == "") {
			break
		}
		if seen[next.String()] && !s.loopBlind {
			break
		}
		seen[next.String()] = true
		c := next.String()
		cursor = &c
	}
	var kept []gjson.Result
	for _, t := range all {
		schema := t.Get("inputSchema")
		switch {
		case s.rejectList != nil && s.rejectList(schema):
			return nil, fmt.Errorf("tool %s: invalid input schema %s: the tool list is rejected", t.Get("name"), schema.Raw)
		case s.dropSchema != nil && s.dropSchema(schema):
		case s.maxNameLen > 0 && len(t.Get("name").String()) > s.maxNameLen:
		case s.maxTools > 0 && len(kept) >= s.maxTools:
		default:
			kept = append(kept, t)
		}
	}
	return kept, nil
}

func (s *rawSession) work() error {
	if !s.stateless {
		if err := s.initialize(); err != nil {
			return err
		}
	}
	tools, err := s.listTools()
	if err != nil {
		return err
	}
	select {
	case <-s.changed:
		if !s.ignoreChanged {
			again, err := s.listTools()
			if err != nil {
				return err
			}
			if !s.keepFirstList {
				tools = again
			}
		}
	default:
		if s.call != "" && !has(tools, s.call) && !s.ignoreChanged {
			// the app's tool may come with a change: wait for it
			select {
			case <-s.changed:
				again, err := s.listTools()
				if err != nil {
					return err
				}
				if !s.keepFirstList {
					tools = again
				}
			case <-s.ctx.Done():
			}
		}
	}
	name := s.call
	if name == "" && len(tools) > 0 {
		name = tools[0].Get("name").String()
	}
	var tool gjson.Result
	for _, t := range tools {
		if t.Get("name").String() == name {
			tool = t
		}
	}
	if !tool.Exists() {
		return fmt.Errorf("tool %q is not available in this session", name)
	}
	args := map[string]any{}
	if name == "suggest_gifts" {
		args["age"] = 30
	}
	params := map[string]any{"name": name, "arguments": args}
	if !s.noProgress && !s.stateless {
		params["_meta"] = map[string]any{"progressToken": "p1"}
	}
	res, err := s.request("tools/call", params)
	if err != nil {
		return err
	}
	select { // the change came with the list: it was read before the call's reply
	case <-s.changed:
		if !s.ignoreChanged {
			if _, err := s.listTools(); err != nil {
				return err
			}
		}
	default:
	}
	if s.strictOutput && tool.Get("outputSchema").Exists() {
		for _, req := range tool.Get("outputSchema.required").Array() {
			if !res.Get("structuredContent." + req.String()).Exists() {
				return fmt.Errorf("MCP error -32602: Structured content does not match the tool's output schema: missing %s", req)
			}
		}
	}
	for _, c := range res.Get("content").Array() {
		if s.knownContent != nil && !contains(s.knownContent, c.Get("type").String()) {
			return fmt.Errorf("failed to parse server response: unknown content type %q", c.Get("type").String())
		}
	}
	return nil
}

func has(tools []gjson.Result, name string) bool {
	for _, t := range tools {
		if t.Get("name").String() == name {
			return true
		}
	}
	return false
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
