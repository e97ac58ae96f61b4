package tour

import (
	"context"
	"errors"
	"fmt"
	"net"
	"strconv"
	"strings"
	"time"

	"github.com/mcpmock/mcpmock/internal/mcpclient"
	"github.com/mcpmock/mcpmock/mcptest"
	"github.com/mcpmock/mcpmock/scenarios"
	"github.com/tidwall/gjson"
)

// The naive clients of the client-side lessons: JSON-RPC written by hand,
// line by line, on the kit's Wire, each making its lesson's mistake on
// purpose. They are the clients a student writes before reading the spec.

// naiveInfo is the clientInfo the naive clients send.
const naiveInfo = `{"name":"naive-gift-client","version":"0.1.0"}`

// naiveVersion is the protocol version the naive clients ask for, the
// lesson's.
const naiveVersion = "2025-06-18"

// malformedInitializeClient makes mistake 1: three malformed initialize
// requests in a row, as a hand-written client retries until something
// works, then it goes on as an app does.
var malformedInitializeClient = Client{
	Name: "a naive hand-written client that sends a malformed initialize",
	own:  true,
	mistake: &mistake{did: "sent a malformed initialize, three times",
		rules: []mcptest.RuleID{"jsonrpc/version", "lifecycle/initialize-first", "jsonrpc/method-not-found", "lifecycle/initialize-params"}},
	Run: OneSessionRun(func(ctx context.Context, conn net.Conn, _ scenarios.Scenario, say func(string, ...any)) error {
		n := newNaive(ctx, conn, say)
		defer n.close()
		params := `{"protocolVersion":"` + naiveVersion + `","capabilities":{},"clientInfo":` + naiveInfo + `}`
		n.call(`without "jsonrpc": "2.0"`, `{"id":1,"method":"initialize","params":`+params+`}`, 1)
		n.call(`instead of initialize`, `{"jsonrpc":"2.0","id":2,"method":"init","params":`+params+`}`, 2)
		res := n.call(`with "capabilities": true instead of an object`,
			`{"jsonrpc":"2.0","id":3,"method":"initialize","params":{"protocolVersion":"`+naiveVersion+`","capabilities":true,"clientInfo":`+naiveInfo+`}}`, 3)
		if !res.Get("result").Exists() {
			return n.fail("no initialize succeeded")
		}
		n.notify(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
		return n.work(4)
	}),
}

// undeclaredMethodsClient makes mistake 4: a correct handshake, then
// resources/list without a look at the server's capabilities.
var undeclaredMethodsClient = Client{
	Name:    "a naive hand-written client that calls undeclared methods",
	own:     true,
	mistake: &mistake{did: "called resources/list, which the server did not declare", rules: []mcptest.RuleID{"capabilities/undeclared-method"}},
	Run: OneSessionRun(func(ctx context.Context, conn net.Conn, _ scenarios.Scenario, say func(string, ...any)) error {
		n := newNaive(ctx, conn, say)
		defer n.close()
		res := n.call("", `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"`+naiveVersion+`","capabilities":{},"clientInfo":`+naiveInfo+`}}`, 1)
		if !res.Get("result").Exists() {
			return n.fail("initialize failed")
		}
		n.notify(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
		n.call("without looking at the capabilities", `{"jsonrpc":"2.0","id":2,"method":"resources/list"}`, 2)
		return n.work(3)
	}),
}

// naive is the JSON-RPC of the naive clients, on the kit's Wire: write a
// line, read lines until the response with the request's id, skipping
// anything else.
type naive struct {
	w        *mcpclient.Wire
	deadline time.Time
	say      func(string, ...any)
	err      error // the first read or write error; after it nothing more is sent
}

func newNaive(ctx context.Context, conn net.Conn, say func(string, ...any)) *naive {
	d, ok := ctx.Deadline()
	if !ok {
		d = time.Now().Add(scenarios.DefaultDeadline)
	}
	return &naive{w: mcpclient.NewWire(conn), deadline: d, say: say}
}

// call sends a request and waits for its response, saying what it sent
// (how: what is special about it) and what came back.
func (n *naive) call(how, line string, id int) gjson.Result {
	if n.err != nil {
		return gjson.Result{}
	}
	method := gjson.Get(line, "method").String()
	what := "it sent " + method
	if how != "" {
		what += " " + how
	}
	if err := n.w.Send(line); err != nil {
		n.err = err
		n.say("%s, and the write failed: %v", what, err)
		return gjson.Result{}
	}
	m, err := n.w.Await(n.deadline, strconv.Itoa(id))
	if err != nil {
		n.err = err
		n.say("%s, and got no answer: %v", what, err)
		return gjson.Result{}
	}
	n.say("%s: %s", what, answer(method, m))
	return m
}

// notify sends a notification.
func (n *naive) notify(line string) {
	if n.err != nil {
		return
	}
	if err := n.w.Send(line); err != nil {
		n.err = err
	}
	n.say("it sent %s", gjson.Get(line, "method").String())
}

// work is what the app does once connected: list the tools and call
// suggest_gifts {"age":25}, the first request with the given id. It
// returns the first error.
func (n *naive) work(id int) error {
	n.call("", `{"jsonrpc":"2.0","id":`+strconv.Itoa(id)+`,"method":"tools/list"}`, id)
	n.call(`{"age":25}`, `{"jsonrpc":"2.0","id":`+strconv.Itoa(id+1)+`,"method":"tools/call","params":{"name":"suggest_gifts","arguments":{"age":25}}}`, id+1)
	return n.err
}

func (n *naive) fail(why string) error {
	if n.err != nil {
		return n.err
	}
	n.err = errors.New(why)
	n.say("it gave up: %s", why)
	return n.err
}

func (n *naive) close() {
	_ = n.w.Close()
	n.say("it closed the connection")
}

// answer says what a response was, in a few words.
func answer(method string, m gjson.Result) string {
	if e := m.Get("error"); e.Exists() {
		return fmt.Sprintf("answered error %d %q", e.Get("code").Int(), e.Get("message").String())
	}
	r := m.Get("result")
	switch method {
	case "initialize":
		var caps []string
		r.Get("capabilities").ForEach(func(k, _ gjson.Result) bool {
			caps = append(caps, k.String())
			return true
		})
		declared := "no capabilities"
		if len(caps) > 0 {
			declared = "the capabilities " + strings.Join(caps, ", ")
		}
		return fmt.Sprintf("answered protocol %s with %s", r.Get("protocolVersion").String(), declared)
	case "tools/list":
		var names []string
		for _, t := range r.Get("tools").Array() {
			names = append(names, t.Get("name").String())
		}
		return "answered " + count(len(names), "tool") + listed(names)
	case "resources/list":
		var uris []string
		for _, res := range r.Get("resources").Array() {
			uris = append(uris, res.Get("uri").String())
		}
		return "answered " + count(len(uris), "resource") + listed(uris)
	case "tools/call":
		var texts []string
		for _, c := range r.Get("content").Array() {
			if c.Get("type").String() == "text" {
				texts = append(texts, strconv.Quote(c.Get("text").String()))
			}
		}
		return "answered " + strings.Join(append([]string{"a result"}, texts...), " ")
	}
	return "answered a result"
}

func count(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

func listed(items []string) string {
	if len(items) == 0 {
		return ""
	}
	return " (" + strings.Join(items, ", ") + ")"
}
