package config

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/tidwall/gjson"
	"github.com/tidwall/sjson"
)

// Redacted is the value a redacted field gets in a recording.
const Redacted = "[REDACTED]"

// Recorder turns the messages of MCP sessions between a client and a real
// server into a Config: the server's description (identity, versions,
// capabilities, every tool, resource, template and prompt the lists
// returned, all pages merged) and the replies the server gave, keyed by
// the request's arguments. What a Config cannot replay (requests the
// server sent the client, notifications the server sent on its own) is
// kept in the Config's Notes. Several sessions merge into one description.
//
// The mcpmock command's `record` feeds it what crosses its proxy;
// FromJournal feeds it what an *mcptest.Server saw. A Recorder is safe for
// concurrent use; feed each session's messages in the order they crossed
// the wire.
type Recorder struct {
	mu         sync.Mutex
	redact     []redactPath // into results
	redactArgs []redactPath // into arguments ("arguments." paths)
	redErr     []string

	server       ServerInfo
	serverSet    bool
	serverExtra  []string
	versions     map[string]bool
	unknownVer   []string
	caps         json.RawMessage
	logging      bool
	pageSize     int
	listed       map[string]bool // which lists the server answered
	tools        *entries
	resources    *entries
	templates    *entries
	prompts      *entries
	completions  []Completion
	compIdx      map[string]int
	faults       []Fault
	faultKeys    map[string]bool
	notes        []string
	noteCount    map[string]int
	noteOrder    []string
	redacted     map[string]bool
	redactedList []string
	sessions     map[int]*recSession
	dropped      []string
	cacheHints   *CacheHints
	sse          map[string]bool // methods answered with an SSE stream over HTTP
	total        map[string]int  // requests per method, all sessions: a fault's nth over HTTP
	resultFields map[string]json.RawMessage
	answered     int // the client's requests the server answered, every session
}

// recSession is one session's pending requests, by id.
type recSession struct {
	fromClient    map[string]gjson.Result // the client's requests awaiting the server's reply
	fromServer    map[string]gjson.Result // the server's requests awaiting the client's reply
	sawMessage    bool                    // the server sent a JSON message in this session
	banner        []string                // non-JSON lines before the server's first message
	stray         []string                // non-JSON lines since the server's last reply
	answered      []string                // the methods the server answered, in order
	clientBatches bool                    // the client sent batches (so may the server)
	counts        map[string]int          // requests per method, for a fault's nth
}

// entries are the definitions of one kind, in the order first seen, with
// the replies recorded for each.
type entries struct {
	order []string
	defs  map[string]json.RawMessage
	calls map[string]*calls
}

// calls are the replies recorded for one entry, per key (the canonical
// JSON of the arguments; "" for none), in the order the keys first came.
type calls struct {
	keys    []string
	args    map[string]json.RawMessage
	replies map[string][]Reply
}

func newEntries() *entries {
	return &entries{defs: map[string]json.RawMessage{}, calls: map[string]*calls{}}
}

func (e *entries) define(name string, def json.RawMessage) {
	if _, ok := e.defs[name]; ok {
		return
	}
	e.order = append(e.order, name)
	e.defs[name] = def
}

func (e *entries) record(name, key string, args json.RawMessage, rep Reply) {
	c := e.calls[name]
	if c == nil {
		c = &calls{args: map[string]json.RawMessage{}, replies: map[string][]Reply{}}
		e.calls[name] = c
	}
	if _, ok := c.args[key]; !ok {
		c.keys = append(c.keys, key)
		c.args[key] = args
	}
	c.replies[key] = append(c.replies[key], rep)
}

// NewRecorder returns a Recorder. redact are JSON paths into results
// (gjson syntax: dots between keys, numbers for array elements, "#" or
// "*" for every element or member, e.g. "structuredContent.token" or
// "content.#.text"); the values there are replaced by "[REDACTED]" and the
// recording lists where. A path that starts with "arguments." names an
// argument of calls and gets (e.g. "arguments.apiKey"): it is left out of
// the recorded case, which then matches any value there.
func NewRecorder(redact ...string) *Recorder {
	r := &Recorder{
		versions: map[string]bool{}, listed: map[string]bool{},
		tools: newEntries(), resources: newEntries(), templates: newEntries(), prompts: newEntries(),
		compIdx: map[string]int{}, faultKeys: map[string]bool{}, noteCount: map[string]int{},
		redacted: map[string]bool{}, sessions: map[int]*recSession{}, total: map[string]int{},
	}
	for _, p := range redact {
		if rest, ok := strings.CutPrefix(p, "arguments."); ok {
			r.redactArgs = append(r.redactArgs, parseRedact(rest))
			continue
		}
		r.redact = append(r.redact, parseRedact(p))
	}
	return r
}

// argsOf returns a call's arguments with the redacted ones left out: a
// case without them matches whatever value the client sends there.
func (r *Recorder) argsOf(what string, args gjson.Result) gjson.Result {
	if len(r.redactArgs) == 0 || !args.IsObject() {
		return args
	}
	raw := []byte(args.Raw)
	for _, p := range r.redactArgs {
		path := make([]string, len(p.parts))
		for i, part := range p.parts {
			path[i] = gjson.Escape(part)
		}
		jp := strings.Join(path, ".")
		if !gjson.GetBytes(raw, jp).Exists() {
			continue
		}
		if out, err := sjson.DeleteBytes(raw, jp); err == nil {
			raw = out
			entry := what + ": arguments." + p.text + " (left out of the case: any value matches)"
			if !r.redacted[entry] {
				r.redacted[entry] = true
				r.redactedList = append(r.redactedList, entry)
			}
		}
	}
	return gjson.ParseBytes(raw)
}

func (r *Recorder) session(n int) *recSession {
	s := r.sessions[n]
	if s == nil {
		s = &recSession{fromClient: map[string]gjson.Result{}, fromServer: map[string]gjson.Result{}, counts: map[string]int{}}
		r.sessions[n] = s
	}
	return s
}

// note adds a note once, counting repeats.
func (r *Recorder) note(format string, a ...any) {
	n := fmt.Sprintf(format, a...)
	if r.noteCount[n] == 0 {
		r.noteOrder = append(r.noteOrder, n)
	}
	r.noteCount[n]++
}

// Message records one message (or batch) of a session: fromClient says who
// sent it. raw is its JSON text as it crossed the wire; a line that is not
// JSON is recorded with NonJSON.
func (r *Recorder) Message(session int, fromClient bool, raw []byte) {
	r.mu.Lock()
	defer r.mu.Unlock()
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return
	}
	if !gjson.ValidBytes(raw) {
		if fromClient {
			r.note("the client sent text that is not JSON (%s): not replayable", shortText(raw))
			return
		}
		r.nonJSON(session, raw)
		return
	}
	v := gjson.ParseBytes(raw)
	if v.IsArray() {
		s := r.session(session)
		var answers []string // the methods the batch answers, for a Batched fault
		v.ForEach(func(_, m gjson.Result) bool {
			if !fromClient && !m.Get("method").Exists() {
				if req, ok := s.fromClient[m.Get("id").Raw]; ok {
					answers = append(answers, req.Get("method").String())
				}
			}
			r.message(session, fromClient, m)
			return true
		})
		if fromClient {
			s.clientBatches = true
		}
		if !fromClient && !s.clientBatches {
			for _, method := range answers {
				r.addFault(Fault{Name: "Batched", Params: map[string]json.RawMessage{
					"method": jsonString(method), "nth": json.RawMessage(strconv.Itoa(s.counts[method])),
					"session": json.RawMessage(strconv.Itoa(session)), "optional": json.RawMessage("true"),
				}}, fmt.Sprintf("session %d: the server answered %s in a JSON-RPC batch the client never sent: recorded as a Batched fault", session, method))
			}
		}
		return
	}
	r.message(session, fromClient, v)
}

// Answered returns how many of the clients' requests the server answered
// (with a result or a JSON-RPC error) in every session so far. Zero means
// the recording holds nothing the server said in reply: no recording at
// all, and a recorder should not save it over a good one.
func (r *Recorder) Answered() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.answered
}

// NonJSON records a line the server wrote that is not JSON (a banner, a
// log line on stdout).
func (r *Recorder) NonJSON(session int, line []byte) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.nonJSON(session, bytes.TrimRight(line, "\r\n"))
}

func (r *Recorder) nonJSON(session int, line []byte) {
	s := r.session(session)
	if !s.sawMessage {
		s.banner = append(s.banner, string(line))
		return
	}
	// A non-JSON line in the middle of a session: it goes with the next
	// reply, as the NonJSONLine fault writes one.
	s.stray = append(s.stray, string(line))
}

// Ended records the end of a session: the server closed its output
// (partial holds the bytes of an unfinished last line, if any) or the
// connection ended. Requests still unanswered become a CloseBefore (or,
// with partial bytes, a Truncate) fault.
func (r *Recorder) Ended(session int, partial []byte) {
	r.mu.Lock()
	defer r.mu.Unlock()
	s := r.session(session)
	if len(s.banner) > 0 && !s.sawMessage {
		r.flushBanner(session, s)
	}
	ids := make([]string, 0, len(s.fromClient))
	for id := range s.fromClient {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	partial = bytes.TrimSpace(partial)
	for _, id := range ids {
		req := s.fromClient[id]
		method := req.Get("method").String()
		if len(partial) > 0 && gjson.GetBytes(partial, "id").Raw == id || len(partial) > 0 && len(ids) == 1 {
			r.addFault(Fault{Name: "Truncate", Params: map[string]json.RawMessage{
				"method": jsonString(method), "bytes": json.RawMessage(strconv.Itoa(len(partial))),
				"nth": json.RawMessage(strconv.Itoa(s.counts[method])), "session": json.RawMessage(strconv.Itoa(session)), "optional": json.RawMessage("true"),
			}}, fmt.Sprintf("session %d: the server closed after %d bytes of its reply to %s (id %s): recorded as a Truncate fault", session, len(partial), method, id))
			partial = nil
			continue
		}
		r.addFault(Fault{Name: "CloseBefore", Params: map[string]json.RawMessage{
			"method": jsonString(method), "nth": json.RawMessage(strconv.Itoa(s.counts[method])),
			"session": json.RawMessage(strconv.Itoa(session)), "optional": json.RawMessage("true"),
		}}, fmt.Sprintf("session %d: the server closed without answering %s (id %s): recorded as a CloseBefore fault", session, method, id))
	}
	if len(s.stray) > 0 {
		text := strings.Join(s.stray, "\n")
		r.dropped = append(r.dropped, fmt.Sprintf("session %d: non-JSON lines after the server's last reply (%s)", session, shortText([]byte(text))))
		r.note("session %d: the server wrote %s after its last reply: not replayed", session, shortText([]byte(text)))
	}
	if len(partial) > 0 {
		r.dropped = append(r.dropped, fmt.Sprintf("session %d: %d bytes of an unfinished last line (%s)", session, len(partial), shortText(partial)))
		r.note("session %d: the server closed in the middle of a line that answers nothing pending (%s): dropped", session, shortText(partial))
	}
	delete(r.sessions, session)
}

// HTTPStatus records an HTTP exchange (session) whose response was an
// error status instead of JSON-RPC (a gateway's 502, an HTML page): its
// requests become HTTPStatus faults, at their count over all sessions.
func (r *Recorder) HTTPStatus(session, status int, body []byte) {
	r.mu.Lock()
	defer r.mu.Unlock()
	s := r.session(session)
	ids := make([]string, 0, len(s.fromClient))
	for id := range s.fromClient {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	for _, id := range ids {
		method := s.fromClient[id].Get("method").String()
		params := map[string]json.RawMessage{
			"method": jsonString(method), "code": json.RawMessage(strconv.Itoa(status)),
			"nth": json.RawMessage(strconv.Itoa(r.total[method])), "optional": json.RawMessage("true"),
		}
		if len(body) > 0 {
			params["body"] = jsonString(string(body))
		}
		r.addFault(Fault{Name: "HTTPStatus", Params: params},
			fmt.Sprintf("the server answered %s (id %s) with HTTP status %d: recorded as an HTTPStatus fault", method, id, status))
	}
	if len(ids) == 0 {
		r.note("the server answered an HTTP request that carried no request with status %d: not replayed", status)
	}
	delete(r.sessions, session)
}

// RepliedOverSSE records that the replies of an HTTP exchange (session)
// came as an SSE stream: their methods get SSE replies when replayed
// (sseReplies). Call it before Forget.
func (r *Recorder) RepliedOverSSE(session int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, m := range r.session(session).answered {
		r.sseReply(m)
	}
}

func (r *Recorder) sseReply(method string) {
	if r.sse == nil {
		r.sse = map[string]bool{}
	}
	r.sse[method] = true
}

// Forget ends a session whose end says nothing about the server (an HTTP
// exchange): requests still unanswered are noted, not turned into faults.
func (r *Recorder) Forget(session int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	s := r.session(session)
	for _, req := range s.fromClient {
		r.note("%s requests left unanswered when their exchange ended: not replayed", req.Get("method").String())
	}
	if lines := append(s.banner, s.stray...); len(lines) > 0 {
		text := strings.Join(lines, "\n")
		r.dropped = append(r.dropped, fmt.Sprintf("exchange %d: a body that is not JSON-RPC (%s)", session, shortText([]byte(text))))
		r.note("the server answered with a body that is not JSON-RPC (%s): not replayed", shortText([]byte(text)))
	}
	delete(r.sessions, session)
}

func (r *Recorder) flushBanner(session int, s *recSession) {
	text := strings.Join(s.banner, "\n")
	s.banner = nil
	if r.faultKeys["Banner\x00"+text] {
		return
	}
	r.faultKeys["Banner\x00"+text] = true
	r.faults = append(r.faults, Fault{Name: "Banner", Params: map[string]json.RawMessage{"text": jsonString(text)}})
	r.note("the server wrote %s on stdout before its first message: recorded as a Banner fault", shortText([]byte(text)))
}

func (r *Recorder) addFault(f Fault, note string) {
	b, _ := f.MarshalJSON()
	if r.faultKeys[string(b)] {
		return
	}
	r.faultKeys[string(b)] = true
	r.faults = append(r.faults, f)
	r.note("%s", note)
}

func (r *Recorder) message(session int, fromClient bool, m gjson.Result) {
	s := r.session(session)
	method := m.Get("method").String()
	id := m.Get("id")
	isResponse := method == "" && (m.Get("result").Exists() || m.Get("error").Exists())
	if !fromClient {
		if len(s.banner) > 0 && !s.sawMessage {
			r.flushBanner(session, s)
		}
		s.sawMessage = true
	}
	switch {
	case method != "" && id.Exists() && fromClient:
		s.fromClient[id.Raw] = m
		s.counts[method]++
		r.total[method]++
	case method != "" && id.Exists():
		s.fromServer[id.Raw] = m
		r.note("the server sent %s requests, which the client answered: not replayed", method)
	case method == "notifications/cancelled" && fromClient:
		// A cancelled request may stay unanswered: that is no crash.
		if req, ok := s.fromClient[m.Get("params.requestId").Raw]; ok {
			delete(s.fromClient, m.Get("params.requestId").Raw)
			r.note("the client cancelled %s requests: their replies, if any came, are not recorded", req.Get("method").String())
		}
	case method != "" && fromClient:
		// The client's other notifications need no answer.
	case method != "":
		r.serverNotification(method)
	case isResponse && fromClient:
		delete(s.fromServer, id.Raw)
	case isResponse:
		req, ok := s.fromClient[id.Raw]
		if !ok {
			r.note("the server answered a request the client never sent (id %s): not replayed", id.Raw)
			return
		}
		delete(s.fromClient, id.Raw)
		r.answered++
		if len(s.stray) > 0 {
			method := req.Get("method").String()
			text := strings.Join(s.stray, "\n")
			s.stray = nil
			r.addFault(Fault{Name: "NonJSONLine", Params: map[string]json.RawMessage{
				"method": jsonString(method), "text": jsonString(text),
				"nth": json.RawMessage(strconv.Itoa(s.counts[method])), "session": json.RawMessage(strconv.Itoa(session)), "optional": json.RawMessage("true"),
			}}, fmt.Sprintf("session %d: the server wrote %s before its reply to %s (id %s): recorded as a NonJSONLine fault", session, shortText([]byte(text)), method, id.Raw))
		}
		s.answered = append(s.answered, req.Get("method").String())
		r.response(s, req, m)
	default:
		if !fromClient {
			r.note("the server sent a JSON value that is not a JSON-RPC message (%s): not replayed", shortText([]byte(m.Raw)))
		}
	}
}

func (r *Recorder) serverNotification(method string) {
	switch method {
	case "notifications/progress":
		r.note("the server sent progress notifications during requests: not replayed")
	case "notifications/message":
		r.note("the server sent log messages (notifications/message): not replayed")
	case "notifications/cancelled":
		r.note("the server cancelled its own requests (notifications/cancelled): not replayed")
	default:
		r.note("the server sent %s on its own initiative: not replayed (a scenario or a ListChangedAfter fault can send list_changed)", method)
	}
}
