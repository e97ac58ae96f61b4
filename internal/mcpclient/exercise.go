package mcpclient

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/mcpmock/mcpmock/internal/uritemplate"
	"github.com/tidwall/gjson"
)

// Report is what Exercise did: how often it called each method, and the
// errors the server answered (which are the server's business, not the
// client's: a correct client goes on).
type Report struct {
	Calls  map[string]int
	Errors []error
}

func (r *Report) note(method string, err error) {
	r.Calls[method]++
	if err != nil {
		r.Errors = append(r.Errors, err)
	}
}

// Exercise uses every method the server declared, as a correct client
// does: ping (handshake era), every page of every list, every tool called
// with arguments that satisfy its inputSchema, every resource read (and a
// template expanded), subscribe and unsubscribe when declared, every
// prompt got with its required arguments, completion/complete,
// logging/setLevel, a batch where the version has them, a
// subscriptions/listen stream in the stateless era, and the tools listed
// again when the server said they changed. A JSON-RPC error from the
// server does not stop it; a connection that ends, or ctx, does.
func (c *Client) Exercise(ctx context.Context) (*Report, error) {
	r := &Report{Calls: map[string]int{}}
	fatal := func(err error) bool {
		var re *JSONRPCError
		return err != nil && !errors.As(err, &re)
	}
	stateless := c.Stateless()
	if !stateless {
		_, err := c.Call(ctx, "ping", "")
		if r.note("ping", err); fatal(err) {
			return r, err
		}
	}
	if c.Has("tools") {
		tools, err := c.ListAll(ctx, "tools/list", "tools")
		if r.note("tools/list", err); fatal(err) {
			return r, err
		}
		relisted := false
		schemas := map[string]string{}
		for _, t := range tools {
			schemas[t.Get("name").String()] = t.Get("inputSchema").Raw
			if c.opt.Bugs.StripSchema {
				schemas[t.Get("name").String()] = stripSchema(t.Get("inputSchema"))
			}
			if c.opt.Bugs.FetchRefs {
				fetchRefs(ctx, t.Get("inputSchema"))
			}
		}
		for _, t := range tools {
			if _, ok := paramHeadersOf(t.Get("inputSchema")); !ok && !c.opt.Bugs.KeepInvalidTools {
				// An invalid x-mcp-header annotation: the spec has the
				// client exclude the tool (2026-07-28 Streamable HTTP).
				c.say("left out the tool %s: its x-mcp-header annotations are invalid", t.Get("name").String())
				continue
			}
			args := Fill(t.Get("inputSchema"))
			if c.opt.Bugs.StringArguments {
				args = numbersAsStrings(args)
			}
			if t.Get("name").String() == "json_schema_echo" && schemas["json_schema_2020_12_tool"] != "" {
				// The official suite's echo: the schema the client holds,
				// passed back verbatim.
				args = `{"schema":` + schemas["json_schema_2020_12_tool"] + `}`
			}
			_, err := c.CallWithProgress(ctx, "tools/call", `{"name":`+t.Get("name").Raw+`,"arguments":`+args+`}`, "golden-"+t.Get("name").String())
			if r.note("tools/call", err); fatal(err) {
				return r, err
			}
			var re *JSONRPCError
			if errors.As(err, &re) && re.Code == -32602 && !relisted {
				// Arguments built from the listed schema were rejected: the
				// list is out of date. List the tools again.
				relisted = true
				_, err := c.ListAll(ctx, "tools/list", "tools")
				if r.note("tools/list", err); fatal(err) {
					return r, err
				}
			}
		}
	}
	if c.Has("resources") {
		res, err := c.ListAll(ctx, "resources/list", "resources")
		if r.note("resources/list", err); fatal(err) {
			return r, err
		}
		templates, err := c.ListAll(ctx, "resources/templates/list", "resourceTemplates")
		if r.note("resources/templates/list", err); fatal(err) {
			return r, err
		}
		var uris []string
		for _, x := range res {
			uris = append(uris, x.Get("uri").String())
		}
		for _, t := range templates {
			uris = append(uris, Expand(t.Get("uriTemplate").String()))
		}
		for _, u := range uris {
			_, err := c.Call(ctx, "resources/read", `{"uri":`+strconv.Quote(u)+`}`)
			if r.note("resources/read", err); fatal(err) {
				return r, err
			}
		}
		if !stateless && c.Has("resources.subscribe") && len(res) > 0 {
			u := `{"uri":` + res[0].Get("uri").Raw + `}`
			_, err := c.Call(ctx, "resources/subscribe", u)
			if r.note("resources/subscribe", err); fatal(err) {
				return r, err
			}
			_, err = c.Call(ctx, "resources/unsubscribe", u)
			if r.note("resources/unsubscribe", err); fatal(err) {
				return r, err
			}
		}
		if c.Has("completions") && len(templates) > 0 {
			if vars := templateVars(templates[0].Get("uriTemplate").String()); len(vars) > 0 {
				_, err := c.Call(ctx, "completion/complete", `{"ref":{"type":"ref/resource","uri":`+templates[0].Get("uriTemplate").Raw+`},"argument":{"name":`+strconv.Quote(vars[0])+`,"value":""}}`)
				if r.note("completion/complete", err); fatal(err) {
					return r, err
				}
			}
		}
	}
	if c.Has("prompts") {
		prompts, err := c.ListAll(ctx, "prompts/list", "prompts")
		if r.note("prompts/list", err); fatal(err) {
			return r, err
		}
		for _, p := range prompts {
			_, err := c.Call(ctx, "prompts/get", `{"name":`+p.Get("name").Raw+`,"arguments":`+promptArgs(p)+`}`)
			if r.note("prompts/get", err); fatal(err) {
				return r, err
			}
			if arg := p.Get("arguments.0.name"); c.Has("completions") && arg.Exists() {
				_, err := c.Call(ctx, "completion/complete", `{"ref":{"type":"ref/prompt","name":`+p.Get("name").Raw+`},"argument":{"name":`+arg.Raw+`,"value":""}}`)
				if r.note("completion/complete", err); fatal(err) {
					return r, err
				}
			}
		}
	}
	if !stateless && c.Has("logging") {
		_, err := c.Call(ctx, "logging/setLevel", `{"level":"info"}`)
		if r.note("logging/setLevel", err); fatal(err) {
			return r, err
		}
	}
	if v := c.Version(); v == "2024-11-05" || v == "2025-03-26" {
		calls := []BatchCall{{Method: "ping"}, {Method: "ping"}}
		if c.Has("tools") {
			calls[1] = BatchCall{Method: "tools/list"}
		}
		_, err := c.Batch(ctx, calls...)
		if r.note("batch", err); fatal(err) {
			return r, err
		}
	}
	if stateless && (c.Has("tools.listChanged") || c.Has("prompts.listChanged") || c.Has("resources.listChanged")) {
		l, err := c.Listen(ctx, c.listenFilter())
		if r.note("subscriptions/listen", err); fatal(err) {
			return r, err
		}
		if l != nil {
			if err := l.Stop(ctx); err != nil {
				return r, err
			}
		}
	}
	if c.Changed("notifications/tools/list_changed") && c.Has("tools") {
		_, err := c.ListAll(ctx, "tools/list", "tools")
		if r.note("tools/list", err); fatal(err) {
			return r, err
		}
	}
	return r, nil
}

// listenFilter asks for every list_changed the server declared.
func (c *Client) listenFilter() string {
	var parts []string
	for _, k := range []string{"tools", "prompts", "resources"} {
		if c.Has(k + ".listChanged") {
			parts = append(parts, `"`+k+`ListChanged":true`)
		}
	}
	return "{" + strings.Join(parts, ",") + "}"
}

// Listener is an open subscriptions/listen stream (stateless era).
type Listener struct {
	c  *Client
	id string
	// Ack is the notifications/subscriptions/acknowledged the stream began with.
	Ack gjson.Result
	// C receives the stream's notifications.
	C  chan gjson.Result
	ch chan reply // the listen request's reply
}

// Listen opens a subscriptions/listen stream with the notifications filter
// (a JSON object text) and waits for its acknowledgement.
func (c *Client) Listen(ctx context.Context, filter string) (*Listener, error) {
	if !c.Stateless() {
		return nil, errors.New("mcpclient: subscriptions/listen is of the stateless era")
	}
	c.mu.Lock()
	c.nextID++
	id := strconv.Itoa(c.nextID)
	l := &Listener{c: c, id: id, C: make(chan gjson.Result, 64), ch: make(chan reply, 1)}
	c.pending[id] = l.ch
	c.listeners[id] = l.C
	c.mu.Unlock()
	frame := `{"jsonrpc":"2.0","id":` + id + `,"method":"subscriptions/listen","params":` + withMeta(`{"notifications":`+filter+`}`, c.meta()) + `}`
	if err := c.write(ctx, frame, hint{method: "subscriptions/listen", id: id, request: true}); err != nil {
		return nil, err
	}
	for {
		select {
		case n := <-l.C:
			if n.Get("method").String() == "notifications/subscriptions/acknowledged" {
				l.Ack = n
				return l, nil
			}
		case rp, ok := <-l.ch:
			if !ok {
				return nil, ErrClosed
			}
			if rp.err != nil {
				return nil, rp.err
			}
			r := rp.m
			if e := r.Get("error"); e.Exists() {
				return nil, &JSONRPCError{Method: "subscriptions/listen", Code: e.Get("code").Int(), Message: e.Get("message").String()}
			}
			return nil, fmt.Errorf("mcpclient: subscriptions/listen answered before it was acknowledged: %s", r.Raw)
		case <-ctx.Done():
			_ = l.Stop(context.Background())
			return nil, ctx.Err()
		}
	}
}

// ID is the listen request's id (JSON text): every notification of the
// stream carries it as its subscriptionId.
func (l *Listener) ID() string { return l.id }

// Stop ends the stream: the client cancels the listen request.
func (l *Listener) Stop(ctx context.Context) error {
	l.c.forget(l.id)
	l.c.mu.Lock()
	delete(l.c.listeners, l.id)
	l.c.mu.Unlock()
	return l.c.Notify(ctx, "notifications/cancelled", `{"requestId":`+l.id+`,"reason":"done listening"}`)
}

// promptArgs fills a prompt's arguments: every one, with "golden".
func promptArgs(p gjson.Result) string {
	var parts []string
	for _, a := range p.Get("arguments").Array() {
		parts = append(parts, a.Get("name").Raw+`:"golden"`)
	}
	return "{" + strings.Join(parts, ",") + "}"
}

// templateVars are the names of a URI template's variables (none when it
// does not parse).
func templateVars(tmpl string) []string {
	t, err := uritemplate.Parse(tmpl)
	if err != nil {
		return nil
	}
	return t.Names()
}

// Expand fills every variable of a URI template (RFC 6570) with "1", as
// its expression's operator says ({x}, {+x}: 1; {/x}: /1; {?x}: ?x=1; …),
// with the module's one URI-template implementation; a template that does
// not parse comes back as it is.
func Expand(tmpl string) string {
	t, err := uritemplate.Parse(tmpl)
	if err != nil {
		return tmpl
	}
	u, err := t.Fill("1")
	if err != nil {
		return tmpl
	}
	return u
}

// Fill returns a JSON value that satisfies a JSON Schema, as a user (or
// an LLM that follows the schema) would: every property, its default when
// it has one, else its const, first enum value or a value of its type.
func Fill(schema gjson.Result) string {
	b, _ := json.Marshal(fill(schema, 0))
	return string(b)
}

func fill(s gjson.Result, depth int) any {
	if !s.IsObject() || depth > 16 {
		return map[string]any{}
	}
	if d := s.Get("default"); d.Exists() {
		return d.Value()
	}
	if c := s.Get("const"); c.Exists() {
		return c.Value()
	}
	if e := s.Get("enum"); e.IsArray() && len(e.Array()) > 0 {
		return e.Array()[0].Value()
	}
	for _, k := range []string{"anyOf", "oneOf", "allOf"} {
		if alts := s.Get(k); alts.IsArray() && len(alts.Array()) > 0 && !s.Get("type").Exists() {
			return fill(alts.Array()[0], depth+1)
		}
	}
	typ := s.Get("type")
	if typ.IsArray() {
		typ = typ.Get("0")
	}
	switch typ.String() {
	case "boolean":
		return true
	case "integer", "number":
		n := 1.0
		if m := s.Get("minimum"); m.Exists() {
			n = m.Float()
		} else if m := s.Get("exclusiveMinimum"); m.Exists() {
			n = m.Float() + 1
		}
		if m := s.Get("maximum"); m.Exists() && n > m.Float() {
			n = m.Float()
		}
		if typ.String() == "integer" {
			return int64(n)
		}
		return n
	case "string":
		switch s.Get("format").String() {
		case "email":
			return "golden@example.com"
		case "uri":
			return "https://example.com/golden"
		case "date":
			return "2026-01-01"
		case "date-time":
			return "2026-01-01T00:00:00Z"
		}
		v := "golden"
		if n := int(s.Get("minLength").Int()); n > len(v) {
			v += strings.Repeat("x", n-len(v))
		}
		if m := s.Get("maxLength"); m.Exists() && int(m.Int()) < len(v) {
			v = v[:m.Int()]
		}
		return v
	case "array":
		out := []any{}
		for range int(s.Get("minItems").Int()) {
			out = append(out, fill(s.Get("items"), depth+1))
		}
		return out
	case "null":
		return nil
	}
	obj := map[string]any{}
	s.Get("properties").ForEach(func(k, p gjson.Result) bool {
		obj[k.String()] = fill(p, depth+1)
		return true
	})
	return obj
}
