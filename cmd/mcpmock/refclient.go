package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/mcpmock/mcpmock/mcptest"
	"github.com/tidwall/gjson"
)

// refClient is mcpmock's reference client: a small hand-written stdio
// client that does what the scenarios call correct, for `mcpmock tour`
// without a client program of your own (and, in the tests, as the client
// program of `mcpmock run`). It initializes in the handshake era, refuses
// a version it does not speak, reads the capabilities before it calls,
// lists every page of the tools (stopping at a cursor it has seen), lists
// again after notifications/tools/list_changed or a -32602, calls
// suggest_gifts {"age":25}, skips lines that are not JSON, matches reply ids
// exactly, and gives up on a call (cancelling it) before its deadline.
type refClient struct {
	w     io.Writer
	lines chan string
	id    int
	// byNumber matches reply ids by number ("3" answers 3), as the
	// TypeScript SDK 1.32 does: a client bug, for the tests.
	byNumber bool
	// trustsNoCapabilities lists and calls the tools although the server
	// declared no tools capability, as the official Go SDK v1.8.0 does: a
	// client bug, for the tests (it fails mistake 3 of the tour).
	trustsNoCapabilities bool
	// say tells what the client did, in plain words (nil: silent).
	say func(format string, args ...any)
	// relist is set when the server said its tools changed.
	relist bool
}

func newRefClient(r io.Reader, w io.Writer, say func(string, ...any)) *refClient {
	if say == nil {
		say = func(string, ...any) {}
	}
	c := &refClient{w: w, lines: make(chan string, 64), say: say}
	go func() {
		defer close(c.lines)
		sc := bufio.NewScanner(r)
		sc.Buffer(make([]byte, 1<<20), 1<<25)
		for sc.Scan() {
			c.lines <- sc.Text()
		}
	}()
	return c
}

func (c *refClient) send(format string, args ...any) {
	fmt.Fprintf(c.w, format+"\n", args...)
}

// call sends a request and waits for its reply until ctx ends, handling
// what comes in between.
func (c *refClient) call(ctx context.Context, method, params string) (gjson.Result, error) {
	c.id++
	id := c.id
	c.send(`{"jsonrpc":"2.0","id":%d,"method":%q,"params":%s}`, id, method, params)
	for {
		select {
		case line, ok := <-c.lines:
			if !ok {
				return gjson.Result{}, fmt.Errorf("%s: the server closed the connection (end of file)", method)
			}
			if !gjson.Valid(line) {
				c.say("skipped a line that is not JSON: %.40q", line)
				continue
			}
			m := gjson.Parse(line)
			if m.Get("method").Exists() {
				c.incoming(m)
				continue
			}
			got := m.Get("id")
			match := got.Type == gjson.Number && got.Raw == strconv.Itoa(id)
			if c.byNumber {
				match = got.Int() == int64(id)
			}
			if !match {
				c.say("ignored a reply with id %s, which is not that of a pending request", got.Raw)
				continue
			}
			if e := m.Get("error"); e.Exists() {
				return m, &rpcError{method, e.Get("code").Int(), e.Get("message").String()}
			}
			return m, nil
		case <-ctx.Done():
			c.send(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":%d,"reason":"timeout"}}`, id)
			c.say("gave up on %s (id %d) and sent notifications/cancelled", method, id)
			return gjson.Result{}, fmt.Errorf("%s: no reply before the deadline", method)
		}
	}
}

type rpcError struct {
	method  string
	code    int64
	message string
}

func (e *rpcError) Error() string {
	return fmt.Sprintf("%s: error %d: %s", e.method, e.code, e.message)
}

// incoming handles a message from the server that is not a reply.
func (c *refClient) incoming(m gjson.Result) {
	method := m.Get("method").String()
	if !m.Get("id").Exists() {
		if method == "notifications/tools/list_changed" {
			c.relist = true
			c.say("got notifications/tools/list_changed: the tool list is out of date")
		}
		return
	}
	// A request from the server: this client declared no capability.
	c.send(`{"jsonrpc":"2.0","id":%s,"error":{"code":-32601,"message":"the client does not support %s"}}`, m.Get("id").Raw, method)
	c.say("answered the server's %s with -32601: it declared no capability for it", method)
}

// listTools lists every page of the tools.
func (c *refClient) listTools(ctx context.Context) ([]string, error) {
	var names []string
	seen := map[string]bool{}
	params := `{}`
	for {
		res, err := c.call(ctx, "tools/list", params)
		if err != nil {
			return names, err
		}
		for _, t := range res.Get("result.tools").Array() {
			names = append(names, t.Get("name").String())
		}
		next := res.Get("result.nextCursor")
		if !next.Exists() {
			return names, nil
		}
		if seen[next.Raw] {
			c.say("the nextCursor %s came back: the server's pages loop, so it stopped paging", next.Raw)
			return names, nil
		}
		seen[next.Raw] = true
		params = fmt.Sprintf(`{"cursor":%s}`, next.Raw)
	}
}

// work is the client's session: connect, list the tools, call one, done.
func (c *refClient) work(ctx context.Context) error {
	init, err := c.call(ctx, "initialize", `{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"mcpmock-reference-client","version":"1.0.0"}}`)
	if err != nil {
		return err
	}
	v := init.Get("result.protocolVersion")
	if v.Type != gjson.String || !slices.Contains(mcptest.HandshakeVersions(), v.String()) {
		c.say("refused the initialize result: protocolVersion %s is not a version it speaks", v.Raw)
		return fmt.Errorf("unsupported protocol version %s", v.Raw)
	}
	caps := init.Get("result.capabilities")
	if !caps.IsObject() {
		c.say("refused the initialize result: capabilities is %s, not an object", caps.Raw)
		return fmt.Errorf("malformed initialize result: capabilities is %s", caps.Raw)
	}
	c.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	c.say("initialized in %s", v.String())
	if !caps.Get("tools").Exists() && !c.trustsNoCapabilities {
		c.say("read the capabilities: no tools, so it calls none")
		return nil
	}
	tools, err := c.listTools(ctx)
	if err != nil {
		var re *rpcError
		if ok := asRPC(err, &re); ok && re.code == -32601 {
			c.say("tools/list got -32601 although the server declared tools: it calls no tool")
			return err
		}
		return err
	}
	c.say("listed the tools: %s", strings.Join(tools, ", "))
	if !slices.Contains(tools, "suggest_gifts") {
		return nil
	}
	res, err := c.call(ctx, "tools/call", `{"name":"suggest_gifts","arguments":{"age":25}}`)
	var re *rpcError
	if asRPC(err, &re) && re.code == -32602 {
		c.say("its call was rejected with -32602: it lists the tools again, their schemas may have changed")
		if _, lerr := c.listTools(ctx); lerr != nil {
			return lerr
		}
		return err
	}
	if err != nil {
		return err
	}
	c.say("called suggest_gifts: %q", res.Get("result.content.0.text").String())
	if c.relist {
		if _, err := c.listTools(ctx); err != nil {
			return err
		}
		c.say("listed the tools again, as the server said they changed")
	}
	return nil
}

func asRPC(err error, target **rpcError) bool {
	re, ok := err.(*rpcError)
	if ok {
		*target = re
	}
	return ok
}

// callDeadline is how long the reference client waits for its session:
// 70% of the scenario's deadline, leaving room to cancel.
func callDeadline(d time.Duration) time.Duration { return d * 7 / 10 }
