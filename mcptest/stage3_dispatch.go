package mcptest

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/mcpmock/mcpmock/internal/spec"
	"strconv"
	"strings"

	"github.com/tidwall/gjson"
)

// Stage 3 of 4: dispatch (stage1_receive.go lists the stages). A request
// that passed stage 2 is served here: by the test's Handler for its method
// (handle, handleModern, runHandler), or by the built-in behaviour of its
// method (dispatch: lifecycle in lifecycle.go, tools, resources, prompts,
// completion, logging; server/discover and subscriptions/listen in
// stateless.go). A Handler runs in its own goroutine (runAsync); its Reply
// goes to stage 4 (Session.reply in stage4_write.go).

// serveFaulty is serve for a request, in a function of its own so that
// the closure does not make every request escape to the heap.
func (s *Session) serveFaulty(m Message, d decoded, handle func(Message, decoded)) {
	s.serve(m, func() { handle(m, d) })
}

// handle serves a handshake-era request: a Handler of the test, or the
// built-in behaviour of its method.
func (s *Session) handle(m Message, d decoded) {
	if h, ok := s.srv.handlers[m.Method]; ok {
		s.runHandler(m, h, nil)
		return
	}
	s.dispatch(m, d)
}

// handleModern serves a stateless-era request: a Handler of the test, or
// the built-in behaviour of its method.
func (s *Session) handleModern(m Message, d decoded) {
	if h, ok := s.srv.handlers[m.Method]; ok {
		s.runHandler(m, h, nil)
		return
	}
	switch m.Method {
	case "server/discover":
		s.discover(m)
	case "subscriptions/listen":
		s.listen(m, d)
	default:
		s.dispatch(m, d)
	}
}

// runHandler runs h for m in its own goroutine, registered so that
// notifications/cancelled and Close can cancel it.
func (s *Session) runHandler(m Message, h Handler, vars map[string]string) {
	s.runAsync(m, func(ctx context.Context) Reply {
		return s.callHandler(ctx, h, &Request{Message: m, Session: s, Vars: vars})
	})
}

// runAsync computes the reply to m in its own goroutine, registered so
// that notifications/cancelled and Close can cancel it.
func (s *Session) runAsync(m Message, work func(ctx context.Context) Reply) {
	ctx, cancel := context.WithCancelCause(context.WithValue(s.ctx, viaKey{}, m.ID))
	e := s.track(m, handlerName(m), cancel)
	s.srv.wg.Add(1)
	s.srv.goTracked(func() {
		defer func() {
			s.untrack(e)
			cancel(nil)
		}()
		r := work(ctx)
		if errors.Is(context.Cause(ctx), errCancelledByClient) {
			return
		}
		s.reply(m, r)
	})
}

// handlerName says who computes the reply to m, for messages: the Handler
// of the tool, prompt or resource it names, or of its method.
func handlerName(m Message) string {
	switch m.Method {
	case "tools/call":
		return "the Handler of tool " + strconv.Quote(shorten(m.Get("params.name").String(), 80))
	case "prompts/get":
		return "the Handler of prompt " + strconv.Quote(shorten(m.Get("params.name").String(), 80))
	case "resources/read":
		return "the Handler of resource " + strconv.Quote(shorten(m.Get("params.uri").String(), 80))
	}
	return "the Handler for " + m.Method
}

func (s *Session) callHandler(ctx context.Context, h Handler, req *Request) (r Reply) {
	defer func() {
		if p := recover(); p != nil {
			s.srv.errorf("mcptest: the Handler for %s (session %d, id %s) panicked: %v", req.Message.Method, s.n, req.Message.ID, p)
			r = JSONRPCError(spec.CodeInternalError, fmt.Sprintf("mcptest: handler panicked: %v", p), nil)
		}
	}()
	return h(ctx, req)
}

// dispatch answers a request with the built-in behaviour of its method.
func (s *Session) dispatch(m Message, d decoded) {
	srv := s.srv
	switch m.Method {
	case "initialize":
		s.initialize(m, d)
	case "ping":
		s.replyResult(m, emptyObject)
	case "server/discover":
		// A legacy (handshake-era) server does not know this method: a
		// probing client falls back to initialize at once.
		s.replyError(m.ID, m.Method, spec.CodeMethodNotFound, "Method not found: server/discover", nil)
	case "logging/setLevel":
		s.setLevel(m, d)
	case "tools/list":
		s.list(m, d, "tools", &srv.tools)
	case "resources/list":
		s.list(m, d, "resources", &srv.resources)
	case "resources/templates/list":
		s.list(m, d, "resourceTemplates", &srv.templates)
	case "prompts/list":
		s.list(m, d, "prompts", &srv.prompts)
	case "tools/call":
		s.callTool(m, d)
	case "resources/read":
		s.readResource(m, d)
	case "resources/subscribe", "resources/unsubscribe":
		s.subscribe(m, d)
	case "prompts/get":
		s.getPrompt(m, d)
	case "completion/complete":
		s.complete(m, d)
	default:
		s.violate(ruleMethodNotFound, m, "the server does not know the method "+strconv.Quote(m.Method))
		s.replyError(m.ID, m.Method, spec.CodeMethodNotFound, "Method not found: "+m.Method, nil)
	}
}

// undeclared is the detail of a call of a method whose capability (path)
// the server did not declare. When nothing of that kind is scripted, the
// mistake may be the test's: it says which builder would declare it.
func (s *Session) undeclared(m Message, path string) string {
	detail := m.Method + " called, but the server did not declare the " + path + " capability"
	srv := s.srv
	srv.mu.Lock()
	defer srv.mu.Unlock()
	if srv.capsOverride != nil {
		return detail // the test chose the capabilities
	}
	var builder string
	switch path {
	case "tools":
		if len(srv.tools.items) == 0 && !srv.toolsDeclared {
			builder = "WithTools"
		}
	case "resources":
		if len(srv.resources.items)+len(srv.templates.items) == 0 && !srv.resourcesDeclared {
			builder = "WithResources or WithResourceTemplates"
		}
	case "prompts":
		if len(srv.prompts.items) == 0 && !srv.promptsDeclared {
			builder = "WithPrompts"
		}
	case "logging":
		builder = "WithOptions(Options{Logging: true})"
	case "completions":
		if len(srv.completions) == 0 {
			builder = "WithPromptCompletion or WithResourceCompletion"
		}
	}
	if builder != "" {
		detail += " (nothing of it is scripted: if the client is right to call it, did you forget " + builder + "?)"
	}
	return detail
}

// invalidParams answers -32602 and records the violation.
func (s *Session) invalidParams(m Message, detail string) {
	s.violate(ruleInvalidParams, m, detail)
	s.replyError(m.ID, m.Method, spec.CodeInvalidParams, "Invalid params: "+detail, nil)
}

// stringParam reads a required string param, answering -32602 if it is not one.
func (s *Session) stringParam(m Message, d decoded, name string) (string, bool) {
	var v gjson.Result
	if name == "name" {
		v = d.getParam(paramName)
	} else {
		v = d.params.Get(name)
	}
	if v.Type != gjson.String {
		s.invalidParams(m, "params."+name+" is "+describe(v)+", want a string")
		return "", false
	}
	return v.Str, true
}

// list answers a list method, a page at a time when a page size is set.
func (s *Session) list(m Message, d decoded, field string, c *catalog) {
	start := 0
	emptyCursor := m.modern && s.srv.emptyCursor && s.srv.pageSize > 0
	if cur := d.params.Get("cursor"); cur.Exists() {
		off, ok := decodeCursor(field, cur)
		if emptyCursor && cur.Type == gjson.String && cur.Str == "" {
			off, ok = s.srv.pageSize, true
		}
		if !ok {
			s.violate(ruleInvalidCursor, m, "cursor "+shorten(cur.Raw, 60)+" was not issued by this server")
			s.replyError(m.ID, m.Method, spec.CodeInvalidParams, "Invalid params: invalid cursor", nil)
			return
		}
		start = off
	}
	s.srv.mu.Lock()
	items := c.items
	size := s.srv.pageSize
	if start > len(items) {
		start = len(items)
	}
	end := len(items)
	if size > 0 && start+size < end {
		end = start + size
	}
	b := make([]byte, 0, 64+256*(end-start))
	b = append(b, '{', '"')
	b = append(b, field...)
	b = append(b, `":[`...)
	for i, e := range items[start:end] {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, e.def...)
	}
	b = append(b, ']')
	s.srv.mu.Unlock()
	if end < len(items) {
		next := encodeCursor(field, end)
		if emptyCursor && end == size {
			next = "" // a valid cursor in 2026-07-28, not the end
		}
		b = append(b, `,"nextCursor":`...)
		b = appendJSONString(b, next)
	}
	b = append(b, '}')
	s.replyResult(m, b)
}

const cursorPrefix = "mcptest/"

func encodeCursor(list string, offset int) string {
	return base64.RawURLEncoding.EncodeToString([]byte(cursorPrefix + list + "/" + strconv.Itoa(offset)))
}

func decodeCursor(list string, cur gjson.Result) (int, bool) {
	if cur.Type != gjson.String {
		return 0, false
	}
	raw, err := base64.RawURLEncoding.DecodeString(cur.Str)
	if err != nil {
		return 0, false
	}
	rest, ok := strings.CutPrefix(string(raw), cursorPrefix+list+"/")
	if !ok {
		return 0, false
	}
	n, err := strconv.Atoi(rest)
	return n, err == nil && n >= 0
}

// answer sends what a script picks for m, or reports a miss. kind and
// name say what was called ("tool", "suggest_gifts").
func (s *Session) answer(m Message, d decoded, e entry, args gjson.Result, vars map[string]string, kind, name string) {
	var inputs map[string]json.RawMessage
	if len(e.script.inputs) > 0 {
		if !m.modern {
			s.answerAsking(m, e, args, vars, kind, name)
			return
		}
		var ok bool
		if inputs, ok = s.askStateless(m, d, e.script.inputs); !ok {
			return
		}
	}
	s.sendNotes(m, e.script.notes)
	r, h, miss := e.script.pick(&s.srv.scriptMu, args)
	switch {
	case h != nil:
		s.runAsync(m, func(ctx context.Context) Reply {
			return s.callHandler(ctx, h, &Request{Message: m, Session: s, Vars: vars, inputs: inputs})
		})
	case miss != "":
		s.reply(m, s.miss(m, kind, name, miss))
	default:
		s.reply(m, r)
	}
}

// answerAsking answers a request whose script RequiresInput in the
// handshake era: it asks the client first, in its own goroutine.
func (s *Session) answerAsking(m Message, e entry, args gjson.Result, vars map[string]string, kind, name string) {
	s.runAsync(m, func(ctx context.Context) Reply {
		inputs, instead := s.askHandshake(ctx, m, e.script.inputs)
		if instead != nil {
			return *instead
		}
		s.sendNotes(m, e.script.notes)
		r, h, miss := e.script.pick(&s.srv.scriptMu, args)
		switch {
		case h != nil:
			return s.callHandler(ctx, h, &Request{Message: m, Session: s, Vars: vars, inputs: inputs})
		case miss != "":
			return s.miss(m, kind, name, miss)
		}
		return r
	})
}

// miss notes a call no script answers and returns the error reply for it.
func (s *Session) miss(m Message, kind, name, why string) Reply {
	what := kind + " " + strconv.Quote(name)
	s.srv.noteUnmatched(fmt.Sprintf("%s %s (session %d, id %s): %s", m.Method, what, s.n, m.ID, why))
	return JSONRPCError(spec.CodeInvalidParams, "mcptest: "+what+": "+why, nil)
}

// arguments reads params.arguments: an object, or absent; null is taken as
// absent with a warning; anything else is invalid params.
func (s *Session) arguments(m Message, d decoded) (gjson.Result, bool) {
	args := d.getParam(paramArguments)
	switch {
	case args.Type == gjson.Null && args.Exists():
		s.violate(ruleArgumentsNull, m, "params.arguments is null; send an object or leave it out")
		return gjson.Result{}, true
	case args.Exists() && !args.IsObject():
		s.invalidParams(m, "params.arguments is "+describe(args)+", want an object")
		return args, false
	}
	return args, true
}

// named reads the name and arguments of a tools/call or prompts/get and
// finds the entry, answering the request itself when it cannot.
func (s *Session) named(m Message, d decoded, c *catalog, kind string) (e entry, name string, args gjson.Result, ok bool) {
	if name, ok = s.stringParam(m, d, "name"); !ok {
		return e, name, args, false
	}
	if args, ok = s.arguments(m, d); !ok {
		return e, name, args, false
	}
	s.srv.mu.Lock()
	e, found := c.get(name)
	var names []string
	if !found {
		names = c.keys() // only for the did-you-mean of a miss: a hit touches no other entry
	}
	s.srv.mu.Unlock()
	if !found {
		s.unknown(m, kind, name, names)
		return e, name, args, false
	}
	return e, name, args, true
}

func (s *Session) callTool(m Message, d decoded) {
	if e, name, args, ok := s.named(m, d, &s.srv.tools, "tool"); ok {
		s.checkArguments(m, e.def, args)
		s.answer(m, d, e, args, nil, "tool", name)
	}
}

// unknown answers a call of a tool or prompt that is not registered, naming
// the closest registered one. The report says both ways it can be wrong:
// the test did not script it, or the client called something the server
// never listed.
func (s *Session) unknown(m Message, kind, name string, names []string) {
	hint := ""
	if c, near := closest(name, names); near {
		hint = fmt.Sprintf("; did you mean %q?", c)
	} else if len(names) == 0 {
		hint = "; none is registered"
	}
	builder := map[string]string{"tool": "WithTools", "prompt": "WithPrompts"}[kind]
	s.srv.noteUnmatched(fmt.Sprintf("%s (session %d, id %s): %s %q is not scripted (did you forget %s?), or the client called a %s the server never listed%s",
		m.Method, s.n, m.ID, kind, name, builder, kind, hint))
	s.replyError(m.ID, m.Method, spec.CodeInvalidParams, fmt.Sprintf("Unknown %s: %s%s", kind, name, hint), nil)
}

func (s *Session) readResource(m Message, d decoded) {
	uri, ok := s.stringParam(m, d, "uri")
	if !ok {
		return
	}
	s.srv.mu.Lock()
	e, found := s.srv.resources.get(uri)
	var vars map[string]string
	if !found {
		for _, t := range s.srv.templates.items {
			if t.tmpl == nil {
				continue // it did not parse: the test failed at WithResourceTemplates
			}
			if v, ok := t.tmpl.Match(uri); ok {
				e, vars, found = t, v, true
				break
			}
		}
	}
	s.srv.mu.Unlock()
	if !found {
		s.srv.noteUnmatched(fmt.Sprintf("resources/read (session %d, id %s): no resource or template matches %q: it is not scripted (did you forget WithResources or WithResourceTemplates?), or the client read a URI the server never listed", s.n, m.ID, uri))
		data, _ := toJSON(map[string]string{"uri": uri})
		code := spec.CodeResourceNotFound
		if m.modern {
			code = spec.CodeInvalidParams // 2026-07-28 must not send -32002
		}
		s.replyError(m.ID, m.Method, code, "Resource not found", data)
		return
	}
	var args gjson.Result
	if vars != nil {
		b, _ := toJSON(vars)
		args = gjson.ParseBytes(b)
	}
	s.answer(m, d, e, args, vars, "resource", uri)
}

func (s *Session) subscribe(m Message, d decoded) {
	uri, ok := s.stringParam(m, d, "uri")
	if !ok {
		return
	}
	s.mu.Lock()
	if m.Method == "resources/subscribe" {
		s.subscriptions[uri] = true
	} else {
		delete(s.subscriptions, uri)
	}
	s.mu.Unlock()
	s.replyResult(m, emptyObject)
}

func (s *Session) getPrompt(m Message, d decoded) {
	e, name, args, ok := s.named(m, d, &s.srv.prompts, "prompt")
	if !ok {
		return
	}
	for _, req := range e.required {
		if _, ok := args.Map()[req]; !ok {
			s.invalidParams(m, fmt.Sprintf("missing required argument %q of prompt %q", req, name))
			return
		}
	}
	s.answer(m, d, e, args, nil, "prompt", name)
}

func (s *Session) complete(m Message, d decoded) {
	ref := d.params.Get("ref")
	argName := d.params.Get("argument.name")
	if !ref.IsObject() || argName.Type != gjson.String {
		s.invalidParams(m, "completion/complete needs params.ref (an object) and params.argument.name")
		return
	}
	key := ref.Get("name").String()
	if ref.Get("type").String() == "ref/resource" {
		key = ref.Get("uri").String()
	}
	typed := d.params.Get("argument.value").String()
	values := []string{}
	for _, c := range s.srv.completions {
		if c.refType == ref.Get("type").String() && c.ref == key && c.arg == argName.Str {
			for _, v := range c.values {
				if strings.HasPrefix(v, typed) {
					values = append(values, v)
				}
			}
		}
	}
	s.reply(m, CompletionResult(values...))
}
