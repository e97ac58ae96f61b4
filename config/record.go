package config

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/mcpmock/mcpmock/internal/spec"
	"github.com/mcpmock/mcpmock/internal/uritemplate"
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

// isModern reports whether a request is of the stateless era.
func isModern(req gjson.Result) bool {
	return req.Get("params._meta").Get(gjson.Escape(spec.MetaProtocolVersion)).Exists()
}

// reply turns a response into a Reply: a whole result (without what the
// mock adds itself in the stateless era) or a JSON-RPC error.
func (r *Recorder) reply(what string, req, resp gjson.Result) Reply {
	if e := resp.Get("error"); e.Exists() {
		re := &JSONRPCError{Code: int(e.Get("code").Int()), Message: e.Get("message").String()}
		if d := e.Get("data"); d.Exists() {
			re.Data = json.RawMessage(d.Raw)
		}
		return Reply{JSONRPCError: re}
	}
	res := []byte(resp.Get("result").Raw)
	if isModern(req) {
		res = stripModern(res)
	}
	res = r.applyRedact(what, res)
	return Reply{Result: compact(res)}
}

// stripModern removes what the mock adds to every stateless-era result
// (resultType "complete", the serverInfo _meta key, caching hints), so
// that a recording of either era replays in both.
func stripModern(res []byte) []byte {
	if gjson.GetBytes(res, "resultType").String() == "complete" {
		res, _ = sjson.DeleteBytes(res, "resultType")
	}
	for _, k := range []string{"ttlMs", "cacheScope", "_meta." + gjson.Escape(spec.MetaServerInfo)} {
		res, _ = sjson.DeleteBytes(res, k)
	}
	if m := gjson.GetBytes(res, "_meta"); m.IsObject() && len(m.Map()) == 0 {
		res, _ = sjson.DeleteBytes(res, "_meta")
	}
	return res
}

func (r *Recorder) response(s *recSession, req, resp gjson.Result) {
	method := req.Get("method").String()
	params := req.Get("params")
	result := resp.Get("result")
	if e := resp.Get("error"); e.Exists() && !slices.Contains([]string{"tools/call", "resources/read", "prompts/get"}, method) {
		r.addFault(Fault{Name: "ReplaceWithJSONRPCError", Params: map[string]json.RawMessage{
			"method": jsonString(method), "code": json.RawMessage(strconv.FormatInt(e.Get("code").Int(), 10)),
			"message": jsonString(e.Get("message").String()), "optional": json.RawMessage("true"),
		}}, fmt.Sprintf("the server answered %s with JSON-RPC error %d %q: recorded as a ReplaceWithJSONRPCError fault", method, e.Get("code").Int(), e.Get("message").String()))
		return
	}
	if isModern(req) {
		r.hints(result)
	}
	switch method {
	case "initialize":
		r.identity(result.Get("serverInfo"), result.Get("instructions"), result.Get("capabilities"))
		r.version(result.Get("protocolVersion").String())
	case "server/discover":
		info := result.Get("serverInfo")
		if !info.Exists() {
			info = result.Get("_meta").Get(gjson.Escape(spec.MetaServerInfo))
		}
		r.identity(info, result.Get("instructions"), result.Get("capabilities"))
		result.Get("supportedVersions").ForEach(func(_, v gjson.Result) bool {
			r.version(v.String())
			return true
		})
	case "tools/list":
		r.list(r.tools, "tools", result, "name", req)
	case "resources/list":
		r.list(r.resources, "resources", result, "uri", req)
	case "resources/templates/list":
		r.list(r.templates, "resourceTemplates", result, "uriTemplate", req)
	case "prompts/list":
		r.list(r.prompts, "prompts", result, "name", req)
	case "tools/call":
		name := params.Get("name").String()
		key, args := argsKey(r.argsOf("tools/call "+name, params.Get("arguments")))
		r.tools.record(name, key, args, r.reply("tools/call "+name, req, resp))
	case "prompts/get":
		name := params.Get("name").String()
		key, args := argsKey(r.argsOf("prompts/get "+name, params.Get("arguments")))
		r.prompts.record(name, key, args, r.reply("prompts/get "+name, req, resp))
	case "resources/read":
		uri := params.Get("uri").String()
		r.resources.record(uri, "", nil, r.reply("resources/read "+uri, req, resp))
	case "completion/complete":
		r.completion(params, result)
	case "logging/setLevel":
		r.logging = true
	case "ping", "resources/subscribe", "resources/unsubscribe", "subscriptions/listen":
	default:
		r.note("the server answered %s: not replayed (the format has no entry for it; Server.Handle can script it in Go)", method)
	}
}

// hints records the caching hints of a stateless-era result, the first
// seen.
func (r *Recorder) hints(result gjson.Result) {
	ttl, scope := result.Get("ttlMs"), result.Get("cacheScope")
	if r.cacheHints != nil || !ttl.Exists() || !scope.Exists() {
		return
	}
	if s := scope.String(); s == "public" || s == "private" {
		r.cacheHints = &CacheHints{TTLMs: ttl.Int(), CacheScope: s}
	}
}

func (r *Recorder) identity(info, instructions, caps gjson.Result) {
	if info.IsObject() {
		si := ServerInfo{Name: info.Get("name").String(), Version: info.Get("version").String(), Title: info.Get("title").String()}
		if r.serverSet && (si.Name != r.server.Name || si.Version != r.server.Version) {
			r.note("the sessions met different servers (%s %s, then %s %s): the first is recorded", r.server.Name, r.server.Version, si.Name, si.Version)
		}
		if !r.serverSet {
			r.server.Name, r.server.Version, r.server.Title = si.Name, si.Version, si.Title
			r.serverSet = true
			info.ForEach(func(k, _ gjson.Result) bool {
				if k.Str != "name" && k.Str != "version" && k.Str != "title" {
					r.serverExtra = append(r.serverExtra, k.Str)
				}
				return true
			})
			if len(r.serverExtra) > 0 {
				r.note("serverInfo's %s not recorded: the format has no field for them (a CorruptServerInfo fault can send a whole serverInfo)", strings.Join(r.serverExtra, ", "))
			}
		}
	}
	if instructions.Exists() && r.server.Instructions == "" {
		r.server.Instructions = instructions.String()
	}
	if caps.IsObject() && r.caps == nil {
		r.caps = compact([]byte(caps.Raw))
		if caps.Get("logging").Exists() {
			r.logging = true
		}
	}
}

func (r *Recorder) version(v string) {
	if v == "" {
		return
	}
	if !spec.Known(v) {
		if !slices.Contains(r.unknownVer, v) {
			r.unknownVer = append(r.unknownVer, v)
			r.note("the server spoke protocol version %q, which the mock does not know: not recorded", v)
		}
		return
	}
	r.versions[v] = true
}

func (r *Recorder) list(e *entries, key string, result gjson.Result, idKey string, req gjson.Result) {
	r.listed[key] = true
	method := req.Get("method").String()
	rest := []byte(result.Raw)
	if isModern(req) {
		rest = stripModern(rest)
	}
	if extra := extraFields(rest, key, "nextCursor"); extra != nil {
		if r.resultFields == nil {
			r.resultFields = map[string]json.RawMessage{}
		}
		merged := orEmpty(r.resultFields[method])
		gjson.ParseBytes(extra).ForEach(func(k, v gjson.Result) bool {
			if !gjson.GetBytes(merged, gjson.Escape(k.String())).Exists() {
				merged, _ = sjson.SetRawBytes(merged, gjson.Escape(k.String()), []byte(v.Raw))
			}
			return true
		})
		r.resultFields[method] = merged
	}
	items := result.Get(key)
	n := 0
	items.ForEach(func(_, item gjson.Result) bool {
		n++
		e.define(item.Get(idKey).String(), compact([]byte(item.Raw)))
		return true
	})
	if result.Get("nextCursor").String() != "" && n > r.pageSize {
		r.pageSize = n
	}
}

func (r *Recorder) completion(params, result gjson.Result) {
	ref := params.Get("ref")
	c := Completion{Argument: params.Get("argument.name").String()}
	switch ref.Get("type").String() {
	case "ref/prompt":
		c.Prompt = ref.Get("name").String()
	case "ref/resource":
		c.ResourceTemplate = ref.Get("uri").String()
	default:
		r.note("completion/complete for a reference of type %q: not replayed", ref.Get("type").String())
		return
	}
	k := c.Prompt + "\x00" + c.ResourceTemplate + "\x00" + c.Argument
	i, ok := r.compIdx[k]
	if !ok {
		i = len(r.completions)
		r.compIdx[k] = i
		c.Values = []string{}
		r.completions = append(r.completions, c)
	}
	typed := params.Get("argument.value").String()
	result.Get("completion.values").ForEach(func(_, v gjson.Result) bool {
		if !strings.HasPrefix(v.String(), typed) {
			r.note("completion values that do not start with what the client typed (%q for %q): the mock completes by prefix", v.String(), typed)
		}
		if !slices.Contains(r.completions[i].Values, v.String()) {
			r.completions[i].Values = append(r.completions[i].Values, v.String())
		}
		return true
	})
	n := len(result.Get("completion.values").Array())
	if result.Get("completion.hasMore").Bool() || result.Get("completion.total").Exists() && result.Get("completion.total").Int() != int64(n) {
		r.note("completion results with more values than they list (total, hasMore): the mock lists the values it saw and computes total and hasMore from them")
	}
}

// argsKey returns the matching key of a request's arguments (their JSON
// with keys sorted) and the arguments as the file writes them.
func argsKey(args gjson.Result) (string, json.RawMessage) {
	if !args.Exists() || args.Type == gjson.Null {
		return "{}", json.RawMessage("{}")
	}
	var v any
	if err := json.Unmarshal([]byte(args.Raw), &v); err != nil {
		return args.Raw, compact([]byte(args.Raw))
	}
	b, _ := json.Marshal(v)
	return string(b), compact([]byte(args.Raw))
}

// notePlaceholderServer is the note of a recording without the server's
// identity.
const notePlaceholderServer = "the recording has no initialize or server/discover result: the server's name and version are placeholders"

// Config returns the recording as a Config, with its notes. It may be
// called at any time; it does not change the Recorder.
func (r *Recorder) Config() *Config {
	r.mu.Lock()
	defer r.mu.Unlock()
	c := &Config{Server: r.server}
	var derived []string // notes about this Config, not about what was seen
	if c.Server.Name == "" {
		c.Server.Name = "recorded"
		derived = append(derived, notePlaceholderServer)
	}
	if c.Server.Version == "" {
		c.Server.Version = "0"
	}
	for _, v := range spec.Versions() {
		if r.versions[v] {
			c.ProtocolVersions = append(c.ProtocolVersions, v)
		}
	}
	c.PageSize = r.pageSize
	c.Logging = r.logging
	c.Capabilities = r.caps

	// tools
	for _, name := range r.order(r.tools) {
		t := Tool{Name: name, Unlisted: true}
		if def, ok := r.tools.defs[name]; ok {
			t = toolFrom(def)
		} else if r.listed["tools"] && onlyErrors(r.tools.calls[name]) {
			derived = append(derived, fmt.Sprintf("tool %q, which the list does not have, was called and got JSON-RPC errors: not recorded (the mock answers an unknown tool with its own -32602)", name))
			continue
		}
		t.Cases = toCases(r.tools.calls[name])
		c.Tools = append(c.Tools, t)
	}
	c.toolsSet = r.listed["tools"] || len(c.Tools) > 0
	if c.toolsSet && c.Tools == nil {
		c.Tools = []Tool{}
	}
	// resources and templates: a read is the resource's if it is listed,
	// else a template's whose pattern matches, else an unlisted resource.
	tplReads := map[string][]VarsCase{}
	for _, uri := range r.order(r.resources) {
		cs := r.resources.calls[uri]
		if _, listed := r.resources.defs[uri]; !listed && cs != nil {
			if tpl, vars, ok := r.matchTemplate(uri); ok {
				tplReads[tpl] = append(tplReads[tpl], VarsCase{Vars: vars, Replies: trimReplies(cs.replies[""])})
				continue
			}
		}
		res := Resource{URI: uri, Name: uri, Unlisted: true}
		if def, ok := r.resources.defs[uri]; ok {
			res = resourceFrom(def)
		} else if r.listed["resources"] && onlyErrors(cs) {
			derived = append(derived, fmt.Sprintf("resource %q, which the lists do not have, was read and got JSON-RPC errors: not recorded (the mock answers an unknown resource with its own -32002)", uri))
			continue
		}
		if cs != nil {
			res.Replies = trimReplies(cs.replies[""])
		}
		c.Resources = append(c.Resources, res)
	}
	for _, uri := range r.templates.order {
		t := templateFrom(r.templates.defs[uri])
		t.Cases = tplReads[uri]
		c.ResourceTemplates = append(c.ResourceTemplates, t)
	}
	for _, name := range r.order(r.prompts) {
		p := Prompt{Name: name, Unlisted: true}
		if def, ok := r.prompts.defs[name]; ok {
			p = promptFrom(def)
		} else if r.listed["prompts"] && onlyErrors(r.prompts.calls[name]) {
			derived = append(derived, fmt.Sprintf("prompt %q, which the list does not have, was got and got JSON-RPC errors: not recorded (the mock answers an unknown prompt with its own -32602)", name))
			continue
		}
		p.Cases = toCases(r.prompts.calls[name])
		c.Prompts = append(c.Prompts, p)
	}
	c.CacheHints = r.cacheHints
	for m := range r.sse {
		c.SSEReplies = append(c.SSEReplies, m)
	}
	sort.Strings(c.SSEReplies)
	if len(r.resultFields) > 0 {
		c.ResultFields = map[string]json.RawMessage{}
		for k, v := range r.resultFields {
			c.ResultFields[k] = v
		}
	}
	c.Completions = slices.Clone(r.completions)
	c.Faults = slices.Clone(r.faults)
	c.Redacted = slices.Clone(r.redactedList)
	c.Notes = append(r.renderNotes(), derived...)
	for _, t := range c.Tools {
		if t.Unlisted {
			c.Notes = append(c.Notes, fmt.Sprintf("tool %q was called but never listed (unlisted): its definition is a placeholder", t.Name))
		}
	}
	for _, res := range c.Resources {
		if res.Unlisted {
			c.Notes = append(c.Notes, fmt.Sprintf("resource %q was read but never listed, and no listed template matches it (unlisted): the mock lists it", res.URI))
		}
	}
	for _, p := range c.Prompts {
		if p.Unlisted {
			c.Notes = append(c.Notes, fmt.Sprintf("prompt %q was got but never listed (unlisted): its definition is a placeholder", p.Name))
		}
	}
	return c
}

// onlyErrors reports whether every reply recorded is a JSON-RPC error.
func onlyErrors(cs *calls) bool {
	if cs == nil {
		return false
	}
	for _, rs := range cs.replies {
		for _, rep := range rs {
			if rep.JSONRPCError == nil {
				return false
			}
		}
	}
	return true
}

// order is the entries listed, then the ones only called, by name.
func (r *Recorder) order(e *entries) []string {
	out := slices.Clone(e.order)
	var extra []string
	for name := range e.calls {
		if _, ok := e.defs[name]; !ok {
			extra = append(extra, name)
		}
	}
	sort.Strings(extra)
	return append(out, extra...)
}

func (r *Recorder) renderNotes() []string {
	var out []string
	for _, n := range r.noteOrder {
		if k := r.noteCount[n]; k > 1 {
			n += fmt.Sprintf(" (%d times)", k)
		}
		out = append(out, n)
	}
	return out
}

// Dropped lists what the recording could not keep at all (lines of the
// server that were not JSON in mid-session, unfinished lines), for the
// recorder's report.
func (r *Recorder) Dropped() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.dropped)
}

// toCases turns the calls of one entry into cases, the most specific
// arguments first (a case matches the calls whose arguments contain its
// own, so {"a":1,"b":2} must come before {"a":1}); each case's replies
// are the replies in the order they came, the last repeating.
func toCases(cs *calls) []Case {
	if cs == nil {
		return nil
	}
	keys := slices.Clone(cs.keys)
	sort.SliceStable(keys, func(i, j int) bool { return leaves(keys[i]) > leaves(keys[j]) })
	out := make([]Case, 0, len(keys))
	for _, k := range keys {
		out = append(out, Case{Arguments: cs.args[k], Replies: trimReplies(cs.replies[k])})
	}
	return out
}

// leaves counts the scalar values of a JSON text, a measure of how
// specific a subset is.
func leaves(s string) int {
	v := gjson.Parse(s)
	if !v.IsObject() && !v.IsArray() {
		return 1
	}
	n := 0
	v.ForEach(func(_, c gjson.Result) bool {
		n += leaves(c.Raw)
		return true
	})
	return n
}

// trimReplies drops the repeats at the end of a sequence: the last reply
// repeats anyway.
func trimReplies(rs []Reply) []Reply {
	for len(rs) > 1 && sameReply(rs[len(rs)-1], rs[len(rs)-2]) {
		rs = rs[:len(rs)-1]
	}
	return slices.Clone(rs)
}

func sameReply(a, b Reply) bool {
	x, _ := json.Marshal(a)
	y, _ := json.Marshal(b)
	return bytes.Equal(x, y)
}

// matchTemplate finds the first listed template uri is an expansion of,
// as the mock replaying the recording will (internal/uritemplate), and
// returns it with uri's variables. A template the server listed that is
// not RFC 6570 matches nothing.
func (r *Recorder) matchTemplate(uri string) (string, map[string]string, bool) {
	for _, t := range r.templates.order {
		tpl, err := uritemplate.Parse(t)
		if err != nil {
			continue
		}
		if vars, ok := tpl.Match(uri); ok {
			return t, vars, true
		}
	}
	return "", nil, false
}

// The definitions a list returns, turned into entries: the fields the
// format names go into them; the others are kept in "fields".

func toolFrom(def json.RawMessage) Tool {
	var t Tool
	_ = json.Unmarshal(def, &t)
	t.Cases, t.Replies = nil, nil
	t.InputSchema, t.OutputSchema = compact(t.InputSchema), compact(t.OutputSchema)
	t.Annotations, t.Icons = compact(t.Annotations), compact(t.Icons)
	t.Fields = extraFields(def, "name", "title", "description", "inputSchema", "outputSchema", "annotations", "icons")
	return t
}

func resourceFrom(def json.RawMessage) Resource {
	var res Resource
	_ = json.Unmarshal(def, &res)
	res.Text, res.Replies = nil, nil
	res.Fields = extraFields(def, "uri", "name", "title", "description", "mimeType", "size")
	return res
}

func templateFrom(def json.RawMessage) ResourceTemplate {
	var t ResourceTemplate
	_ = json.Unmarshal(def, &t)
	t.Text, t.Cases, t.Replies = nil, nil, nil
	t.Fields = extraFields(def, "uriTemplate", "name", "title", "description", "mimeType")
	return t
}

func promptFrom(def json.RawMessage) Prompt {
	var p Prompt
	var raw struct {
		Arguments []json.RawMessage `json:"arguments"`
	}
	_ = json.Unmarshal(def, &p)
	_ = json.Unmarshal(def, &raw)
	p.Text, p.Cases, p.Replies = nil, nil, nil
	p.Fields = extraFields(def, "name", "title", "description", "arguments")
	// Arguments the format cannot write as they came (a field it does not
	// name, "required": false, another order) are kept whole, in the
	// prompt's fields.
	again, _ := json.Marshal(p.Arguments)
	var whole0 map[string]json.RawMessage
	_ = json.Unmarshal(def, &whole0)
	exact := len(raw.Arguments) == 0 || string(again) == string(compact(whole0["arguments"]))
	for _, a := range raw.Arguments {
		if !exact || extraFields(a, "name", "description", "required") != nil {
			p.Arguments = nil
			p.Fields = extraFields(def, "name", "title", "description")
			break
		}
	}
	return p
}

func orEmpty(b json.RawMessage) []byte {
	if len(b) == 0 {
		return []byte("{}")
	}
	return b
}

// extraFields returns the members of an object other than known, in
// their order, or nil.
func extraFields(obj json.RawMessage, known ...string) json.RawMessage {
	var b bytes.Buffer
	gjson.ParseBytes(obj).ForEach(func(k, v gjson.Result) bool {
		if slices.Contains(known, k.Str) {
			return true
		}
		if b.Len() == 0 {
			b.WriteByte('{')
		} else {
			b.WriteByte(',')
		}
		b.WriteString(k.Raw)
		b.WriteByte(':')
		b.Write(compact([]byte(v.Raw)))
		return true
	})
	if b.Len() == 0 {
		return nil
	}
	b.WriteByte('}')
	return b.Bytes()
}

func compact(b []byte) json.RawMessage {
	if len(b) == 0 {
		return nil
	}
	var out bytes.Buffer
	if err := json.Compact(&out, b); err != nil {
		return json.RawMessage(b)
	}
	return out.Bytes()
}

func jsonString(s string) json.RawMessage {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s)
	return bytes.TrimRight(b.Bytes(), "\n")
}

func shortText(b []byte) string {
	s := string(b)
	if len(s) > 60 {
		cut := 60
		for cut > 0 && !utf8.RuneStart(s[cut]) {
			cut--
		}
		s = s[:cut] + "…"
	}
	return strconv.Quote(s)
}

// redactPath is one --redact path, split into its components.
type redactPath struct {
	text  string
	parts []string
}

func parseRedact(p string) redactPath {
	var parts []string
	var cur strings.Builder
	for i := 0; i < len(p); i++ {
		switch {
		case p[i] == '\\' && i+1 < len(p):
			i++
			cur.WriteByte(p[i])
		case p[i] == '.':
			parts = append(parts, cur.String())
			cur.Reset()
		default:
			cur.WriteByte(p[i])
		}
	}
	parts = append(parts, cur.String())
	if len(parts) > 0 && parts[0] == "result" {
		parts = parts[1:]
	}
	return redactPath{text: p, parts: parts}
}

// applyRedact replaces the values at the redact paths in a result and
// notes where.
func (r *Recorder) applyRedact(what string, res []byte) []byte {
	var secrets []string
	for _, p := range r.redact {
		var concrete []string
		var walk func(v gjson.Result, parts []string, prefix string)
		walk = func(v gjson.Result, parts []string, prefix string) {
			if len(parts) == 0 {
				concrete = append(concrete, prefix)
				return
			}
			join := func(k string) string {
				if prefix == "" {
					return k
				}
				return prefix + "." + k
			}
			if parts[0] == "#" || parts[0] == "*" {
				v.ForEach(func(k, c gjson.Result) bool {
					key := k.String()
					if v.IsArray() {
						key = strconv.Itoa(int(k.Int()))
					}
					walk(c, parts[1:], join(gjson.Escape(key)))
					return true
				})
				return
			}
			c := v.Get(gjson.Escape(parts[0]))
			if c.Exists() {
				walk(c, parts[1:], join(gjson.Escape(parts[0])))
			}
		}
		// walk needs positions of array elements.
		walk(gjson.ParseBytes(res), p.parts, "")
		for _, path := range concrete {
			if v := gjson.GetBytes(res, path); v.Type == gjson.String && len(v.Str) >= 4 {
				secrets = append(secrets, v.Str)
			}
			if out, err := sjson.SetBytes(res, path, Redacted); err == nil {
				res = out
				entry := what + ": result." + path
				if !r.redacted[entry] {
					r.redacted[entry] = true
					r.redactedList = append(r.redactedList, entry)
				}
			}
		}
	}
	// A redacted string elsewhere in the result's strings (a structured
	// result is often repeated as text) is replaced too, as it appears
	// there (itself, or JSON-escaped inside a JSON text). Keys are left
	// alone.
	if len(secrets) > 0 {
		var paths []string
		var walk func(v gjson.Result, prefix string)
		walk = func(v gjson.Result, prefix string) {
			switch {
			case v.IsObject() || v.IsArray():
				v.ForEach(func(k, c gjson.Result) bool {
					key := gjson.Escape(k.String())
					if v.IsArray() {
						key = strconv.Itoa(int(k.Int()))
					}
					if prefix != "" {
						key = prefix + "." + key
					}
					walk(c, key)
					return true
				})
			case v.Type == gjson.String && prefix != "":
				paths = append(paths, prefix)
			}
		}
		walk(gjson.ParseBytes(res), "")
		for _, path := range paths {
			v := gjson.GetBytes(res, path).Str
			out := v
			for _, sec := range secrets {
				q, _ := json.Marshal(sec)
				out = strings.ReplaceAll(strings.ReplaceAll(out, sec, Redacted), string(q[1:len(q)-1]), Redacted)
			}
			if out == v {
				continue
			}
			if b, err := sjson.SetBytes(res, path, out); err == nil {
				res = b
				entry := fmt.Sprintf("%s: every other occurrence of a redacted value in the result", what)
				if !r.redacted[entry] {
					r.redacted[entry] = true
					r.redactedList = append(r.redactedList, entry)
				}
			}
		}
	}
	return res
}
