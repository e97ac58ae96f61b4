package mcpclient

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/tidwall/gjson"
)

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
	var responses, state, id string
	for round := 0; ; round++ {
		if round == 0 || !c.opt.Bugs.ReuseRetryID { // a retry is a new request, with a new id
			id = c.newID()
		}
		p := params
		if responses != "" {
			p = setMember(p, "inputResponses", responses)
			if state != "" {
				p = setMember(p, "requestState", state)
			}
		}
		res, err := c.request(ctx, method, p, extraMeta, id)
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
			ans, ok := c.answerFor(v.Get("method").String(), v.Get("params"))
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

// request sends one request and waits for its reply: with a new id, or
// with id when it is not "" (a retry of Bugs.ReuseRetryID).
func (c *Client) request(ctx context.Context, method, params, extraMeta, id string) (gjson.Result, error) {
	r, _, err := c.requestArrivals(ctx, method, params, extraMeta, id)
	return r, err
}

// requestArrivals is request that also returns how many of the server's
// messages that were not responses had come with the reply.
func (c *Client) requestArrivals(ctx context.Context, method, params, extraMeta, id string) (gjson.Result, int, error) {
	b := c.opt.Bugs
	if id == "" {
		id = c.newID()
	}
	c.mu.Lock()
	stateless := method == "server/discover" || c.stateless && !b.NoMeta
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
	h := hint{method: method, id: id, request: true, name: nameOf(method, gjson.Parse(p))}
	if err := c.write(ctx, Request(id, method, p), h); err != nil {
		c.forget(id)
		return gjson.Result{}, 0, fmt.Errorf("mcpclient: %s: %w", method, err)
	}
	done, ended := ctx.Done(), c.loopDone
	if b.NoTimeout {
		done = nil
	}
	if b.HangOnEOF {
		ended = nil
	}
	var rp reply
	var ok bool
	select {
	case rp, ok = <-ch:
	case <-ended: // the connection ended: a reply may have come with the end
		select {
		case rp, ok = <-ch:
		default:
		}
	case <-done:
		c.forget(id)
		switch {
		case method == "initialize": // initialize is never cancelled
		case b.NoCancel:
			c.say("gave up on %s (id %s)", method, id)
		default:
			_ = c.Notify(context.Background(), "notifications/cancelled", `{"requestId":`+id+`,"reason":"the client gave up"}`)
			c.say("gave up on %s (id %s) and sent notifications/cancelled", method, id)
		}
		return gjson.Result{}, 0, fmt.Errorf("mcpclient: %s: gave up: %w", method, ctx.Err())
	}
	if !ok {
		return gjson.Result{}, 0, c.ended(method)
	}
	if rp.err != nil {
		return gjson.Result{}, rp.arrivals, rp.err
	}
	if e := rp.m.Get("error"); e.Exists() {
		re := &JSONRPCError{Method: method, Code: e.Get("code").Int(), Message: e.Get("message").String()}
		if d := e.Get("data"); d.Exists() {
			re.Data = d.Raw
		}
		return rp.m, rp.arrivals, re
	}
	return rp.m.Get("result"), rp.arrivals, nil
}

// newID is a new request id: integers counting up, never reused.
func (c *Client) newID() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.nextID++
	return strconv.Itoa(c.nextID)
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

// ListAll lists every page of a list method (tools/list, prompts/list,
// resources/list, resources/templates/list) and returns the items under
// key. It stops at a cursor it has seen before: the server's pages loop.
func (c *Client) ListAll(ctx context.Context, method, key string) ([]gjson.Result, error) {
	b := c.opt.Bugs
	var items []gjson.Result
	seen := map[string]bool{}
	params := ""
	for page := 1; ; page++ {
		res, err := c.Call(ctx, method, params)
		if err != nil {
			return items, err
		}
		items = append(items, res.Get(key).Array()...)
		next := res.Get("nextCursor")
		switch {
		case !next.Exists() || next.Type == gjson.Null || b.OnePage || b.EmptyCursorEnds && next.String() == "":
			return items, nil
		case seen[next.Raw] && !b.FollowCursorLoop:
			c.say("the nextCursor %s came back: the server's pages loop, so it stopped paging", next.Raw)
			return items, nil
		case page == maxPages: // a client that follows the loop gives up at last
			return items, nil
		}
		seen[next.Raw] = true
		params = `{"cursor":` + next.Raw + `}`
	}
}

// maxPages bounds the pages of a list a client with
// Bugs.FollowCursorLoop asks for.
const maxPages = 100

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
