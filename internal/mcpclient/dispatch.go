package mcpclient

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/tidwall/gjson"
)

// What the client does with what the server sends: the loop reads every
// frame, hands each response to its call, answers the server's requests
// and keeps its notifications.

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
