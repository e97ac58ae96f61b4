package mcptest

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/mcpmock/mcpmock/internal/spec"
	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/tidwall/gjson"
)

// RuleID names a client check, e.g. "lifecycle/initialize-first". The IDs
// are stable: tests write them as they are, ExpectViolation("jsonrpc/id-type"),
// and reports print them. Rules lists every one with what the spec says of
// it (the rule table; `mcpmock list --rules` and docs/rules.md show it); a
// RuleID that is not among them (a typo) makes ExpectViolation fail the test
// at once, naming the nearest ID.
type RuleID string

// Rule IDs of the client checks.
const (
	// ruleParseError: every frame is valid JSON (answered with -32700, id null).
	ruleParseError RuleID = "jsonrpc/parse-error"
	// ruleInvalidRequest: every frame is a JSON-RPC request, notification or
	// response object (answered with -32600); a batch is one only in a
	// session of 2024-11-05 or 2025-03-26, the versions that have batches.
	ruleInvalidRequest RuleID = "jsonrpc/invalid-request"
	// ruleJSONRPCVersion: every message carries "jsonrpc": "2.0".
	ruleJSONRPCVersion RuleID = "jsonrpc/version"
	// ruleIDType: a request id is a string or an integer, never null.
	ruleIDType RuleID = "jsonrpc/id-type"
	// ruleIDUnique: a request id is not reused within a session.
	ruleIDUnique RuleID = "jsonrpc/id-unique"
	// ruleMethodNotFound: the client calls only methods the server knows (answered with -32601).
	ruleMethodNotFound RuleID = "jsonrpc/method-not-found"
	// ruleInvalidParams: params are an object and well formed for the method (answered with -32602).
	ruleInvalidParams RuleID = "jsonrpc/invalid-params"
	// ruleUnexpectedResponse: a response answers a pending request of the server.
	ruleUnexpectedResponse RuleID = "jsonrpc/unexpected-response"
	// ruleInitializeFirst: initialize is the first interaction; only ping may precede it.
	ruleInitializeFirst RuleID = "lifecycle/initialize-first"
	// ruleInitializeParams: initialize params carry protocolVersion (a
	// string), capabilities (an object) and clientInfo with name and version.
	ruleInitializeParams RuleID = "lifecycle/initialize-params"
	// ruleInitializeOnce: initialize is sent once per session.
	ruleInitializeOnce RuleID = "lifecycle/initialize-once"
	// ruleInitializedFirst: after the initialize result the client sends
	// notifications/initialized before any request but ping.
	ruleInitializedFirst RuleID = "lifecycle/initialized-before-requests"
	// ruleInitializeNotBatched: initialize is sent alone, never in a
	// JSON-RPC batch (2024-11-05, 2025-03-26: the versions with batches).
	ruleInitializeNotBatched RuleID = "lifecycle/initialize-not-batched"
	// ruleCancelInitialize: the initialize request is never cancelled.
	ruleCancelInitialize RuleID = "lifecycle/initialize-not-cancelled"
	// ruleUndeclaredMethod: the client calls only methods whose server
	// capability was declared (tools, resources, resources.subscribe,
	// prompts, logging, completions).
	ruleUndeclaredMethod RuleID = "capabilities/undeclared-method"
	// ruleInvalidCursor: a list cursor is one the server issued.
	ruleInvalidCursor RuleID = "pagination/invalid-cursor"
	// ruleArgumentsNull (a warning): tools/call and prompts/get send
	// arguments as an object or leave them out, never null. The mock treats
	// null as no arguments, as lenient servers do; strict ones reject it.
	ruleArgumentsNull RuleID = "params/arguments-null"

	// ruleMetaRequired: every stateless-era request carries params._meta with
	// io.modelcontextprotocol/protocolVersion (a string) and
	// io.modelcontextprotocol/clientCapabilities (an object) (answered with -32602).
	ruleMetaRequired RuleID = "stateless/meta-required"
	// ruleClientInfo (a warning): stateless-era requests SHOULD carry
	// io.modelcontextprotocol/clientInfo. Reported once per session.
	ruleClientInfo RuleID = "stateless/client-info"
	// ruleRemovedMethod: a stateless session uses no method 2026-07-28
	// removed (ping, logging/setLevel, resources/subscribe, …; answered with -32601).
	ruleRemovedMethod RuleID = "stateless/removed-method"
	// ruleRetrySupportedVersion (a warning): after -32022 the client
	// retries with a version from the error's supported list.
	ruleRetrySupportedVersion RuleID = "stateless/retry-supported-version"
	// ruleInitializeAfterDiscover (a warning): a client does not send
	// initialize to a modern-only server after server/discover succeeded.
	ruleInitializeAfterDiscover RuleID = "stateless/no-initialize-after-discover"
	// ruleDiscoverFirst (a warning): on stdio (and the in-memory pipe) a
	// client should probe with server/discover before other stateless
	// requests. Reported once per session, never over HTTP.
	ruleDiscoverFirst RuleID = "stateless/discover-first"
	// ruleMRTRRequestState: a retry after input_required echoes the
	// server's requestState unchanged, and never invents one.
	ruleMRTRRequestState RuleID = "mrtr/request-state-unchanged"
	// ruleMRTRNewID: a retry after input_required has a new JSON-RPC id.
	ruleMRTRNewID RuleID = "mrtr/new-id"
	// ruleMRTRComplete: a retry carries a response for every input request.
	ruleMRTRComplete RuleID = "mrtr/responses-complete"

	// ruleProtocolVersionFormat: initialize asks for a protocol version, a
	// date string such as "2025-11-25", never "" or free text (answered
	// with the newest version the mock speaks, as for an unknown one).
	ruleProtocolVersionFormat RuleID = "lifecycle/protocol-version-format"
	// ruleUnofferedVersion (a warning): the mock answered initialize with
	// a version the client did not ask for and cannot have chosen — one no
	// handshake has (unknown, empty, or of the stateless era) — and the
	// client went on with requests; a client that does not support the
	// version should disconnect. Reported once per session.
	ruleUnofferedVersion RuleID = "lifecycle/unoffered-version-accepted"
	// ruleIDPrecision (a warning): an integer id beyond ±(2^53-1), which a
	// JavaScript peer cannot hold exactly: its reply matches no request there.
	ruleIDPrecision RuleID = "jsonrpc/id-precision"
	// ruleServerRequestUnanswered: the client answers every request of the
	// server (ping, roots/list, sampling, elicitation): before its deadline
	// (Session.SendRequest's context) or, at the latest, before the session ends.
	ruleServerRequestUnanswered RuleID = "jsonrpc/server-request-unanswered"
	// ruleProgressTokenType: a progressToken is a string or an integer.
	ruleProgressTokenType RuleID = "params/progress-token-type"
	// ruleCancelRequestIDType: notifications/cancelled names its request
	// with a string or an integer, as request ids are.
	ruleCancelRequestIDType RuleID = "params/cancel-request-id-type"
	// ruleArgumentsSchema (a warning): tools/call arguments satisfy the
	// tool's inputSchema. Arguments an LLM made up reach servers that do
	// not check, but clients that validate catch them. The spec makes
	// validating the server's duty, so it never fails a test.
	ruleArgumentsSchema RuleID = "tools/arguments-schema"
	// ruleElicitationContent (a warning): an accepted elicitation's content
	// satisfies the requestedSchema, whether the server asked with
	// elicitation/create (handshake era) or an input request (stateless era).
	ruleElicitationContent RuleID = "elicitation/content-schema"
	// ruleElicitationDefaults (a warning): an accepted elicitation carries
	// the requestedSchema's defaults for the fields the user left alone
	// (SEP-1034).
	ruleElicitationDefaults RuleID = "elicitation/defaults-applied"
)

func ruleStrings(rs []RuleID) []string {
	out := make([]string, len(rs))
	for i, r := range rs {
		out[i] = string(r)
	}
	return out
}

// Severity says whether a violation fails the test.
type Severity int

const (
	// SeverityError is a MUST of the spec: it fails the test unless expected.
	SeverityError Severity = iota
	// SeverityWarning is a SHOULD: it is reported, never fails the test.
	SeverityWarning
)

// String returns "error" or "warning".
func (s Severity) String() string {
	if s == SeverityWarning {
		return "warning"
	}
	return "error"
}

// Violation is one broken rule of the protocol by the client under test.
type Violation struct {
	// Rule is the stable rule ID, e.g. ruleInitializeFirst.
	Rule RuleID
	// Severity says whether it fails the test: the rule's keyword in the
	// session's version (a SHOULD is a warning).
	Severity Severity
	// Spec is the protocol version the rule was checked against.
	Spec string
	// Section is where the spec states the rule: a page and anchor of the
	// rule's spec version, e.g. "basic/lifecycle#initialization", or the
	// address of JSON-RPC 2.0 or the RFC that does.
	Section string
	// Detail says what the client did.
	Detail string
	// Message is the offending message, as journaled.
	Message Message
	// Repeats is how many more times the client broke the same rule in
	// the same session, not listed apart: under Options.JournalKeep a
	// server lists 100 violations of a rule a session, and the last one
	// counts the rest (0 otherwise).
	Repeats int
}

// URL returns the address of the sentence that states the rule (the
// rule's Spec).
func (v Violation) URL() string {
	if r, ok := rulesByID[v.Rule]; ok {
		return r.specFor(v.Spec)
	}
	if strings.HasPrefix(v.Section, "https://") {
		return v.Section
	}
	sec, _, _ := strings.Cut(v.Section, " ")
	return "https://modelcontextprotocol.io/specification/" + v.Spec + "/" + sec
}

// keyword is the keyword of the rule's sentence in the version it was
// checked against: "MUST", "SHOULD", ….
func (v Violation) keyword() string {
	r, ok := rulesByID[v.Rule]
	if !ok {
		return "?"
	}
	if slices.Contains(r.SoftIn, v.Spec) {
		return "SHOULD"
	}
	return r.Keyword
}

// String is a one-line report: rule, detail, message and spec section.
func (v Violation) String() string {
	return fmt.Sprintf("%s: %s [%s; spec %s %s]", v.Rule, v.Detail, v.Message, v.Spec, v.Section)
}

// section is a rule's address as a Violation's Section: a page and anchor
// for the MCP spec, the whole address for the others.
func section(url string) string {
	const base = "https://modelcontextprotocol.io/specification/"
	if rest, ok := strings.CutPrefix(url, base); ok {
		if _, page, ok := strings.Cut(rest, "/"); ok {
			return page
		}
	}
	return url
}

// violate records a violation of rule by message m, as the rule's row in
// the rule table says: not in an era or over a transport the rule does
// not apply to, at most once per session for the rules reported so, and
// with the severity of the rule's keyword in the session's version.
func (s *Session) violate(rule RuleID, m Message, detail string) {
	r, ok := rulesByID[rule]
	if !ok {
		panic("mcptest: rule " + string(rule) + " has no row in the rule table (rule_table.go)")
	}
	era := s.Era()
	statelessEra := m.modern || era == EraStateless
	if (m.modern || era != "") && !r.inEra(statelessEra) {
		return // e.g. a reused id after its response, which 2026-07-28 allows
	}
	if r.Transport == transportStdio && m.HTTP != nil {
		return
	}
	// A session that negotiated a version of its own era is bound by that
	// version's spec only (a version of the other era, which a faulty
	// answer can force on a handshake, binds nothing more).
	if pv := s.ProtocolVersion(); spec.Known(pv) && isStateless(pv) == statelessEra && !slices.Contains(r.Versions, pv) {
		return // e.g. initialize in a batch of 2024-11-05, whose spec does not forbid it
	}
	spec := r.versionFor(s.ProtocolVersion(), statelessEra)
	v := Violation{Rule: rule, Severity: r.severityIn(spec), Spec: spec, Section: section(r.Spec), Detail: detail, Message: m}
	s.srv.mu.Lock()
	defer s.srv.mu.Unlock()
	if r.OncePerSession {
		for _, old := range s.srv.violations {
			if old.Rule == rule && old.Message.SessionNumber == m.SessionNumber {
				return
			}
		}
	}
	s.srv.addViolation(v)
}

// violationsKept is how many violations of one rule in one session a
// server with a journal window (Options.JournalKeep) lists: a client that
// breaks a rule on every message would otherwise grow them with the
// session. The last one listed counts the others (Violation.Repeats), so
// the rule's verdict is the same.
const violationsKept = 100

// addViolation records v, bounded under a journal window. Called with
// s.mu held.
func (s *Server) addViolation(v Violation) {
	s.journal.mu.Lock()
	window := s.journal.keep > 0
	s.journal.mu.Unlock()
	if !window {
		s.violations = append(s.violations, v)
		return
	}
	key := violationKey{v.Rule, v.Message.SessionNumber}
	if s.violationCount == nil {
		s.violationCount = map[violationKey]*violationTally{}
	}
	c := s.violationCount[key]
	if c == nil {
		c = &violationTally{}
		s.violationCount[key] = c
	}
	c.n++
	if c.n <= violationsKept {
		c.last = len(s.violations)
		s.violations = append(s.violations, v)
		return
	}
	s.violations[c.last].Repeats++
}

type violationKey struct {
	rule    RuleID
	session int
}

type violationTally struct{ n, last int }

// Violations returns every rule the clients broke so far, in order.
func (s *Server) Violations() []Violation {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.violations)
}

// ExpectViolation declares that this test expects the client to break the
// given rules. They then do not fail the test, and each of them must be
// broken at least once before the test ends, or the test fails. It may be
// called at any time.
func (s *Server) ExpectViolation(rules ...RuleID) *Server {
	s.t.Helper()
	for _, r := range rules {
		if _, ok := rulesByID[r]; !ok {
			s.t.Fatalf("mcptest: ExpectViolation(%q): no such rule%s", r, unknownRule(r))
		}
	}
	s.mu.Lock()
	s.expected = append(s.expected, rules...)
	s.mu.Unlock()
	return s
}

// IgnoreViolations turns the client checks' verdict off: violations are
// still recorded and returned by Violations, but never fail the test.
func (s *Server) IgnoreViolations() *Server {
	s.mu.Lock()
	s.ignore = true
	s.mu.Unlock()
	return s
}

// noteUnmatched records a call no script answered and logs the near-miss report.
func (s *Server) noteUnmatched(report string) {
	s.mu.Lock()
	s.unmatched = append(s.unmatched, report)
	s.mu.Unlock()
	s.logf("mcptest: unmatched %s", report)
}

// Unmatched returns a report for each tools/call, resources/read or
// prompts/get that no script answered, naming the closest scripted match
// and how the request differed from it.
func (s *Server) Unmatched() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.unmatched)
}

// unexpectedViolations returns the error-level violations not declared
// expected, and the expected rules never broken.
func (s *Server) unexpectedViolations() (unexpected []Violation, unmet []RuleID) {
	s.mu.Lock()
	defer s.mu.Unlock()
	seen := map[RuleID]bool{}
	for _, v := range s.violations {
		seen[v.Rule] = true
		if v.Severity == SeverityError && !slices.Contains(s.expected, v.Rule) {
			unexpected = append(unexpected, v)
		}
	}
	for _, r := range s.expected {
		if !seen[r] && !slices.Contains(unmet, r) {
			unmet = append(unmet, r)
		}
	}
	return unexpected, unmet
}

// Verify returns the server's verdict so far as one error, nil when there
// is nothing to report: every error-level violation the test did not
// expect (ExpectViolation), every expected rule never broken, and every
// installed fault that never acted (unless Optional), each with what to do,
// and every AssertCalledTimes that passed but whose method the client sent
// again later (the count must be exact). IgnoreViolations turns the first
// two off. It is the goleak.Find of
// mcptest: a program (with ProgramTB, or none) calls it to get the
// verdict; in a test, NewServer's cleanup reports the same after Close,
// and a test may call it earlier to fail at a point of its choosing.
func (s *Server) Verify() error {
	s.mu.Lock()
	ignore := s.ignore
	s.mu.Unlock()
	var parts []string
	if !ignore {
		unexpected, unmet := s.unexpectedViolations()
		if len(unexpected) > 0 {
			parts = append(parts, fmt.Sprintf("the client broke %s; fix the client, or declare them with ExpectViolation:\n%s",
				plural(len(unexpected), "protocol rule", "protocol rules"), strings.TrimRight(formatViolations(unexpected), "\n")))
		}
		if len(unmet) > 0 {
			parts = append(parts, fmt.Sprintf("ExpectViolation(%s) was declared, but the client never broke it", quoteAll(ruleStrings(unmet))))
		}
	}
	parts = append(parts, s.countFindings()...)
	if p := s.journal.spillProblem(); p != "" {
		parts = append(parts, p)
	}
	if unfired := s.unfiredFaults(); len(unfired) > 0 {
		parts = append(parts, fmt.Sprintf("%s never came into play, so the test did not test what it says:\n  - %s",
			plural(len(unfired), "fault", "faults"), strings.Join(unfired, "\n  - ")))
	}
	if len(parts) == 0 {
		return nil
	}
	return &VerifyError{parts: parts}
}

// VerifyError is the error Verify returns: each finding on its own lines.
type VerifyError struct{ parts []string }

// Error returns every finding, each prefixed with "mcptest: ".
func (e *VerifyError) Error() string {
	return "mcptest: " + strings.Join(e.parts, "\nmcptest: ")
}

// Findings returns the findings one by one.
func (e *VerifyError) Findings() []string { return slices.Clone(e.parts) }

// reportViolations fails t with the verdict of Verify.
func (s *Server) reportViolations(t TB) {
	t.Helper()
	if err := s.Verify(); err != nil {
		t.Errorf("%v", err)
	}
}

// plural renders n with the singular or the plural noun: "1 protocol
// rule", "2 protocol rules".
func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + many
}

func formatViolations(vs []Violation) string {
	var b strings.Builder
	for _, v := range vs {
		more := ""
		if v.Repeats > 0 {
			more = fmt.Sprintf(" (and %s in session %d, not listed: Options.JournalKeep)", plural(v.Repeats, "more time", "more times"), v.Message.SessionNumber)
		}
		fmt.Fprintf(&b, "  - %s: %s%s\n      message: %s\n      spec (%s): %s\n", v.Rule, v.Detail, more, shorten(v.Message.Raw(), 200), v.keyword(), v.URL())
	}
	return b.String()
}

// schemas compiles JSON Schemas (a tool's inputSchema, an elicitation's
// requestedSchema) once per distinct schema text.
type schemas struct{ m sync.Map } // schema text → *jsonschema.Schema, or nil when it does not compile

func (c *schemas) get(text string) *jsonschema.Schema {
	if v, ok := c.m.Load(text); ok {
		sch, _ := v.(*jsonschema.Schema)
		return sch
	}
	var sch *jsonschema.Schema
	if doc, err := jsonschema.UnmarshalJSON(strings.NewReader(text)); err == nil {
		comp := jsonschema.NewCompiler()
		if comp.AddResource("mcptest:schema.json", doc) == nil {
			sch, _ = comp.Compile("mcptest:schema.json")
		}
	}
	c.m.Store(text, sch)
	return sch
}

// validate checks a JSON text against a schema text; it returns the first
// reason it fails, "" when it passes or the schema does not compile.
func (c *schemas) validate(schema, instance string) string {
	sch := c.get(schema)
	if sch == nil {
		return ""
	}
	v, ok := anyValue(instance) // the arguments' own strings, not copies
	if !ok {
		_, err := jsonschema.UnmarshalJSON(strings.NewReader(instance))
		return fmt.Sprintf("not JSON: %v", err)
	}
	if err := sch.Validate(v); err != nil {
		if ve, ok := err.(*jsonschema.ValidationError); ok {
			return shorten(strings.ReplaceAll(ve.Error(), "\n", "; "), 300)
		}
		return shorten(err.Error(), 300)
	}
	return ""
}

// checkArguments records tools/call arguments that do not satisfy the
// tool's inputSchema (a warning).
func (s *Session) checkArguments(m Message, def []byte, args gjson.Result) {
	schema := gjson.GetBytes(def, "inputSchema")
	if !schema.IsObject() || schema.Raw == `{"type":"object"}` {
		return // NewTool's schema accepts every object, which the arguments already are
	}
	instance := args.Raw
	if !args.Exists() || args.Type == gjson.Null {
		instance = "{}"
	}
	if why := s.srv.schemas.validate(schema.Raw, instance); why != "" {
		s.violate(ruleArgumentsSchema, m, "the arguments do not satisfy the tool's inputSchema: "+why)
	}
}

// checkElicitation records an accepted elicitation whose content does not
// satisfy the requestedSchema, or lacks the defaults of fields it leaves
// out: resp is the client's answer (the result of any elicitation/create
// the mock sent in the handshake era, Session.SendRequest's as ElicitInput's,
// or an inputResponses entry in the stateless era), carried by message m;
// params are the request's. A client that declines or cancels is never
// blamed: only an accepted content is checked.
func (s *Session) checkElicitation(m Message, resp gjson.Result, params json.RawMessage) {
	if resp.Get("action").String() != "accept" {
		return
	}
	schema := gjson.GetBytes(params, "requestedSchema")
	content := resp.Get("content")
	instance := content.Raw
	if !content.Exists() {
		instance = "{}"
	}
	if why := s.srv.schemas.validate(schema.Raw, instance); why != "" {
		s.violate(ruleElicitationContent, m, "the accepted content does not satisfy the requestedSchema: "+why)
		return
	}
	if v := s.ProtocolVersion(); !m.modern && v != "" && v < spec.V20251125 {
		return // defaults came with 2025-11-25 (SEP-1034)
	}
	var missing []string
	schema.Get("properties").ForEach(func(k, p gjson.Result) bool {
		if p.Get("default").Exists() && !content.Get(gjson.Escape(k.String())).Exists() {
			missing = append(missing, strconv.Quote(k.String()))
		}
		return true
	})
	if len(missing) > 0 {
		s.violate(ruleElicitationDefaults, m, "the accepted content leaves out "+strings.Join(missing, ", ")+", which have defaults; a client should pre-populate them (SEP-1034)")
	}
}

// unanswered records a request of the server the client never answered:
// its deadline passed, or the session ended first.
func (s *Session) unanswered(id, method, why string) {
	req := Message{SessionNumber: s.n, Direction: FromServer, Kind: KindRequest, Method: method, ID: id}
	for _, m := range s.srv.journal.view().Filter(func(m Message) bool {
		return m.SessionNumber == s.n && m.Direction == FromServer && m.Kind == KindRequest && m.ID == id
	}) {
		req = m
	}
	d, ok := s.conn.(interface{ undelivered(seq int) bool })
	if strings.Contains(req.Problem, "never delivered") || ok && req.Seq > 0 && d.undelivered(req.Seq) {
		// Over HTTP a request sent outside any client request waits for a
		// GET stream, which a client may never open (the spec's MAY): the
		// client never saw it, so it owes no answer.
		s.srv.journal.amend(req.Seq, func(j *Message) {
			if strings.Contains(j.Problem, "never delivered") {
				return // said already (the backlog overflowed)
			}
			j.Problem = strings.TrimPrefix(j.Problem+"; never delivered: no HTTP stream of the session was open for it (the client opened no GET stream), so "+why+" without an answer owed", "; ")
		})
		return
	}
	s.violate(ruleServerRequestUnanswered, req, fmt.Sprintf("the client never answered %s id %s: %s", method, id, why))
}
