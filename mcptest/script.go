package mcptest

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/mcpmock/mcpmock/internal/spec"
	"github.com/tidwall/gjson"
	"github.com/tidwall/sjson"
)

// Handler answers one request when canned replies are not enough: it runs
// in its own goroutine, may block, may send notifications and requests to
// the client through req, and returns the Reply to send (NoReply for none).
// ctx is cancelled when the client cancels the request with
// notifications/cancelled, when the session ends, and when the Server closes;
// a handler that blocks must return when ctx is done.
type Handler func(ctx context.Context, req *Request) Reply

// Request is what a Handler is given: the request as it was journaled, the
// session it came on, and helpers to read its params.
type Request struct {
	// Message is the request exactly as the client sent it.
	Message Message
	// Session is the session the request came on.
	Session *Session
	// Vars holds the variables a resource template matched in the URI of a
	// resources/read request; nil otherwise.
	Vars map[string]string

	inputs map[string]json.RawMessage // handshake era: what RequiresInput gathered
}

// InputResponse returns the client's response to the input request named
// key: in the stateless era from the retry's params.inputResponses, in the
// handshake era the reply to the server-to-client request that
// RequiresInput sent. It does not Exist when there is none.
func (r *Request) InputResponse(key string) gjson.Result {
	if raw, ok := r.inputs[key]; ok {
		return gjson.ParseBytes(raw)
	}
	return r.Message.Get("params.inputResponses." + gjson.Escape(key))
}

// RequestState returns the requestState a stateless-era retry echoed, "" if none.
func (r *Request) RequestState() string { return r.Message.Get("params.requestState").String() }

// Log sends notifications/message at level with data, if the client asked
// for that level: in the handshake era, when the session's
// logging/setLevel is at or below level (or was never set); in the
// stateless era, only when this request's _meta carried
// io.modelcontextprotocol/logLevel at or below level. It reports whether it
// sent the message.
func (r *Request) Log(level string, data any) (bool, error) {
	if !slices.Contains(logLevels, level) {
		return false, fmt.Errorf("mcptest: Log: unknown level %q; the levels are %s", level, strings.Join(logLevels, ", "))
	}
	if !r.Session.logWanted(r.Message, level) {
		return false, nil
	}
	if err := r.Session.notifyVia(r.Message.ID, "notifications/message", map[string]any{"level": level, "data": data}); err != nil {
		return false, err
	}
	return true, nil
}

// logWanted reports whether the client asked for notifications/message at
// level for the request m: in the handshake era, when the session's
// logging/setLevel is at or below level (or was never set); in the
// stateless era, only when m's _meta carried
// io.modelcontextprotocol/logLevel at or below level.
func (s *Session) logWanted(m Message, level string) bool {
	at := slices.Index(logLevels, level)
	if at < 0 {
		return false
	}
	want := s.LogLevel()
	if m.modern {
		lv := m.Get("params." + pathLogLevel)
		if !lv.Exists() {
			return false
		}
		want = lv.String()
	}
	return want == "" || at >= slices.Index(logLevels, want)
}

// sendNotes sends, before the reply to m, the notifications its script
// declares (Tool.Notifies).
func (s *Session) sendNotes(m Message, notes []notice) {
	for _, n := range notes {
		params := n.params
		if params == nil {
			params = json.RawMessage("{}")
		}
		switch {
		case n.method == "notifications/progress":
			tok := m.Get("params._meta.progressToken")
			if !tok.Exists() {
				continue // the call asked for no progress
			}
			p, err := sjson.SetRawBytes(slices.Clone(params), "progressToken", []byte(tok.Raw))
			if err == nil {
				_ = s.notifyVia(m.ID, n.method, json.RawMessage(p))
			}
		case n.method == "notifications/message":
			if s.logWanted(m, gjson.GetBytes(params, "level").String()) {
				_ = s.notifyVia(m.ID, n.method, params)
			}
		case listChangedKind(n.method) != "":
			s.srv.Broadcast(n.method, n.params)
		case n.method == "notifications/resources/updated":
			s.srv.BroadcastResourceUpdated(gjson.GetBytes(params, "uri").String())
		default:
			_ = s.notifyVia(m.ID, n.method, params)
		}
	}
}

// Arguments returns params.arguments (tools/call, prompts/get).
func (r *Request) Arguments() gjson.Result { return r.Message.Get("params.arguments") }

// Decode unmarshals the request's params into v.
func (r *Request) Decode(v any) error {
	p := r.Message.Get("params")
	if !p.Exists() {
		return fmt.Errorf("mcptest: %s request has no params", r.Message.Method)
	}
	return json.Unmarshal([]byte(p.Raw), v)
}

// Progress sends notifications/progress for this request, with the
// progressToken the client put in params._meta. It returns an error when the
// client asked for no progress or the session is gone.
func (r *Request) Progress(progress, total float64, message string) error {
	tok := r.Message.Get("params._meta.progressToken")
	if !tok.Exists() {
		return fmt.Errorf("mcptest: %s request carries no params._meta.progressToken", r.Message.Method)
	}
	p := map[string]any{"progressToken": json.RawMessage(tok.Raw), "progress": progress}
	if total > 0 {
		p["total"] = total
	}
	if message != "" {
		p["message"] = message
	}
	return r.Session.notifyVia(r.Message.ID, "notifications/progress", p)
}

// script is the scripted behaviour of one tool, resource or prompt: cases
// matched on the arguments, a default sequence, and a Handler fallback.
type script struct {
	inputs   []InputRequest // RequiresInput: asked for before any reply
	notes    []notice       // Notifies: sent before the reply
	cases    []*scriptCase
	dflt     []Reply
	dfltN    int
	handler  Handler
	problems []string
}

type scriptCase struct {
	wantText string
	want     any
	replies  []Reply
	n        int
}

func (s *script) add(call string, replies []Reply) {
	if len(replies) == 0 {
		s.problems = append(s.problems, call+": no replies given")
	}
	for _, r := range replies {
		if r.problem != nil {
			s.problems = append(s.problems, call+": "+r.problem.Error())
		}
	}
	s.dflt = append(s.dflt, replies...)
}

func (s *script) when(call string, subset any, replies []Reply) {
	b, err := toJSONObject(subset)
	if err == nil && b == nil {
		err = fmt.Errorf("want a JSON object, got nil")
	}
	if err != nil {
		s.problems = append(s.problems, call+": "+err.Error())
		return
	}
	want, _ := parseJSONValue(b)
	c := &scriptCase{wantText: string(b), want: want}
	if len(replies) == 0 {
		s.problems = append(s.problems, call+": no replies given")
	}
	for _, r := range replies {
		if r.problem != nil {
			s.problems = append(s.problems, call+": "+r.problem.Error())
		}
	}
	c.replies = replies
	s.cases = append(s.cases, c)
}

func (s *script) requireInput(call string, inputs []InputRequest) {
	if len(inputs) == 0 {
		s.problems = append(s.problems, call+": no input requests given")
	}
	round := 0
	if len(s.inputs) > 0 {
		round = s.inputs[len(s.inputs)-1].round + 1
	}
	for _, in := range inputs {
		in.round = round
		if in.err != nil {
			s.problems = append(s.problems, fmt.Sprintf("%s: input %q: %v", call, in.key, in.err))
		}
		for _, have := range s.inputs {
			if have.key == in.key {
				s.problems = append(s.problems, fmt.Sprintf("%s: two input requests named %q", call, in.key))
			}
		}
		s.inputs = append(s.inputs, in)
	}
}

// notice is one notification a script sends before its reply (Notifies).
type notice struct {
	method string
	params json.RawMessage // an object, or nil
}

func (s *script) notify(call, method string, params any) {
	m, ok := spec.Lookup(method)
	if !ok || !m.Notification || m.FromServer == 0 {
		var names []string
		for _, n := range spec.Methods(func(m spec.Method) bool { return m.Notification && m.FromServer != 0 }) {
			names = append(names, n.Name)
		}
		s.problems = append(s.problems, fmt.Sprintf("%s(%q): not a notification a server sends; these are: %s", call, method, strings.Join(names, ", ")))
		return
	}
	p, err := toJSONObject(params)
	if err != nil {
		s.problems = append(s.problems, fmt.Sprintf("%s(%q): params: %v", call, method, err))
		return
	}
	s.notes = append(s.notes, notice{method: method, params: p})
}

func (s *script) handle(call string, h Handler) {
	if h == nil {
		s.problems = append(s.problems, call+": nil Handler")
	}
	s.handler = h
}

// clone copies the script so the registered copy does not change when the
// builder is used again.
func (s *script) clone() *script {
	c := &script{dflt: append([]Reply(nil), s.dflt...), handler: s.handler, inputs: append([]InputRequest(nil), s.inputs...), notes: slices.Clone(s.notes)}
	for _, sc := range s.cases {
		cp := *sc
		cp.n = 0
		c.cases = append(c.cases, &cp)
	}
	return c
}

func (s *script) empty() bool { return len(s.cases) == 0 && len(s.dflt) == 0 && s.handler == nil }

// next returns the reply for the next use of a sequence, the last repeating.
func next(seq []Reply, n *int) Reply {
	i := *n
	if i >= len(seq) {
		i = len(seq) - 1
	}
	*n++
	return seq[i]
}

// pick chooses the answer for a call with the given arguments. mu guards the
// counters. It returns a reply, or a handler, or neither with a near-miss
// report saying how the closest case differed.
func (s *script) pick(mu *sync.Mutex, args gjson.Result) (Reply, Handler, string) {
	mu.Lock()
	defer mu.Unlock()
	var got any
	if len(s.cases) > 0 {
		if args.Exists() {
			got, _ = parseJSONValue([]byte(args.Raw))
		}
		if got == nil {
			got = map[string]any{}
		}
		for _, c := range s.cases {
			if ok, _ := subsetDiff(c.want, got, "", false); ok {
				return next(c.replies, &c.n), nil, ""
			}
		}
	}
	if len(s.dflt) > 0 {
		return next(s.dflt, &s.dfltN), nil, ""
	}
	if s.handler != nil {
		return Reply{}, s.handler, ""
	}
	if len(s.cases) == 0 {
		return Reply{}, nil, "nothing is scripted for it"
	}
	best, bestScore, bestWhy := -1, -1, ""
	gm, _ := got.(map[string]any)
	for i, c := range s.cases {
		score := 0
		if wm, ok := c.want.(map[string]any); ok {
			for k, wv := range wm {
				if ok, _ := subsetDiff(wv, gm[k], k, false); ok && gm != nil {
					score++
				}
			}
		}
		if score > bestScore {
			_, why := subsetDiff(c.want, got, "", false)
			best, bestScore, bestWhy = i, score, why
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "no scripted case matches arguments %s; closest is case %d, WhenArgs(%s): %s",
		shorten(args.Raw, 120), best+1, s.cases[best].wantText, bestWhy)
	if len(s.cases) > 1 {
		fmt.Fprintf(&b, " (%d cases scripted)", len(s.cases))
	}
	return Reply{}, nil, b.String()
}
