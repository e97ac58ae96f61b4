package mcptest

import (
	"fmt"
	"slices"
	"strings"
)

// Rule IDs of the client checks. They are stable: tests name them in
// ExpectViolation, and reports print them.
const (
	// RuleParseError: every frame is valid JSON (answered with -32700, id null).
	RuleParseError = "jsonrpc/parse-error"
	// RuleInvalidRequest: every frame is a JSON-RPC request, notification or
	// response object (answered with -32600); a batch is one only in a
	// session of 2024-11-05 or 2025-03-26, the versions that have batches.
	RuleInvalidRequest = "jsonrpc/invalid-request"
	// RuleJSONRPCVersion: every message carries "jsonrpc": "2.0".
	RuleJSONRPCVersion = "jsonrpc/version"
	// RuleIDType: a request id is a string or an integer, never null.
	RuleIDType = "jsonrpc/id-type"
	// RuleIDUnique: a request id is not reused within a session.
	RuleIDUnique = "jsonrpc/id-unique"
	// RuleMethodNotFound: the client calls only methods the server knows (answered with -32601).
	RuleMethodNotFound = "jsonrpc/method-not-found"
	// RuleInvalidParams: params are an object and well formed for the method (answered with -32602).
	RuleInvalidParams = "jsonrpc/invalid-params"
	// RuleUnexpectedResponse: a response answers a pending request of the server.
	RuleUnexpectedResponse = "jsonrpc/unexpected-response"
	// RuleInitializeFirst: initialize is the first interaction; only ping may precede it.
	RuleInitializeFirst = "lifecycle/initialize-first"
	// RuleInitializeParams: initialize params carry protocolVersion (a
	// string), capabilities (an object) and clientInfo with name and version.
	RuleInitializeParams = "lifecycle/initialize-params"
	// RuleInitializeOnce: initialize is sent once per session.
	RuleInitializeOnce = "lifecycle/initialize-once"
	// RuleInitializedFirst: after the initialize result the client sends
	// notifications/initialized before any request but ping.
	RuleInitializedFirst = "lifecycle/initialized-before-requests"
	// RuleInitializeNotBatched: initialize is sent alone, never in a
	// JSON-RPC batch (2024-11-05, 2025-03-26: the versions with batches).
	RuleInitializeNotBatched = "lifecycle/initialize-not-batched"
	// RuleCancelInitialize: the initialize request is never cancelled.
	RuleCancelInitialize = "lifecycle/initialize-not-cancelled"
	// RuleUndeclaredMethod: the client calls only methods whose server
	// capability was declared (tools, resources, resources.subscribe,
	// prompts, logging, completions).
	RuleUndeclaredMethod = "capabilities/undeclared-method"
	// RuleInvalidCursor: a list cursor is one the server issued.
	RuleInvalidCursor = "pagination/invalid-cursor"
	// RuleArgumentsNull (a warning): tools/call and prompts/get send
	// arguments as an object or leave them out, never null. The mock treats
	// null as no arguments, as lenient servers do; strict ones reject it.
	RuleArgumentsNull = "params/arguments-null"

	// RuleMetaRequired: every stateless-era request carries params._meta with
	// io.modelcontextprotocol/protocolVersion (a string) and
	// io.modelcontextprotocol/clientCapabilities (an object) (answered with -32602).
	RuleMetaRequired = "stateless/meta-required"
	// RuleClientInfo (a warning): stateless-era requests SHOULD carry
	// io.modelcontextprotocol/clientInfo. Reported once per session.
	RuleClientInfo = "stateless/client-info"
	// RuleMetaConsistent (a warning): the protocolVersion and clientInfo of a
	// session's requests stay the same. Reported once per session.
	RuleMetaConsistent = "stateless/meta-consistent"
	// RuleRemovedMethod: a stateless session uses no method 2026-07-28
	// removed (ping, logging/setLevel, resources/subscribe, …; answered with -32601).
	RuleRemovedMethod = "stateless/removed-method"
	// RuleRetrySupportedVersion: after -32022 the client retries with a
	// version from the error's supported list.
	RuleRetrySupportedVersion = "stateless/retry-supported-version"
	// RuleInitializeAfterDiscover: a client does not send initialize to a
	// modern-only server after server/discover succeeded.
	RuleInitializeAfterDiscover = "stateless/no-initialize-after-discover"
	// RuleDiscoverFirst (a warning): on stdio a client SHOULD probe with
	// server/discover before other stateless requests. Reported once per session.
	RuleDiscoverFirst = "stateless/discover-first"
	// RuleMRTRRequestState: a retry after input_required echoes the
	// server's requestState unchanged, and never invents one.
	RuleMRTRRequestState = "mrtr/request-state-unchanged"
	// RuleMRTRNewID: a retry after input_required has a new JSON-RPC id.
	RuleMRTRNewID = "mrtr/new-id"
	// RuleMRTRComplete: a retry carries a response for every input request.
	RuleMRTRComplete = "mrtr/responses-complete"
)

// ruleSpec is where the spec states a rule, relative to
// https://modelcontextprotocol.io/specification/<version>/.
var ruleSpec = map[string]string{
	RuleArgumentsNull:           "schema#calltoolrequest (params.arguments is an object)",
	RuleMetaRequired:            "basic#per-request-protocol-fields",
	RuleClientInfo:              "basic#per-request-protocol-fields",
	RuleMetaConsistent:          "basic#per-request-protocol-fields",
	RuleRemovedMethod:           "changelog",
	RuleRetrySupportedVersion:   "basic/versioning#version-negotiation",
	RuleInitializeAfterDiscover: "basic/transports/stdio#protocol-version-detection",
	RuleDiscoverFirst:           "basic/transports/stdio#protocol-version-detection",
	RuleMRTRRequestState:        "basic/patterns/mrtr",
	RuleMRTRNewID:               "basic/patterns/mrtr",
	RuleMRTRComplete:            "basic/patterns/mrtr",
	RuleParseError:              "basic#json-rpc-2-0 (JSON-RPC 2.0 §5.1)",
	RuleInvalidRequest:          "basic#messages (JSON-RPC 2.0 §4, §5.1)",
	RuleJSONRPCVersion:          "basic#messages",
	RuleIDType:                  "basic#requests",
	RuleIDUnique:                "basic#requests",
	RuleMethodNotFound:          "basic#messages (JSON-RPC 2.0 §5.1)",
	RuleInvalidParams:           "basic#messages (JSON-RPC 2.0 §5.1)",
	RuleUnexpectedResponse:      "basic#responses",
	RuleInitializeFirst:         "basic/lifecycle#initialization",
	RuleInitializeParams:        "basic/lifecycle#initialization",
	RuleInitializeOnce:          "basic/lifecycle#initialization",
	RuleInitializedFirst:        "basic/lifecycle#initialization",
	RuleCancelInitialize:        "basic/utilities/cancellation#cancellation-flow",
	RuleInitializeNotBatched:    "basic/lifecycle#initialization",
	RuleUndeclaredMethod:        "basic/lifecycle#capability-negotiation",
	RuleInvalidCursor:           "server/utilities/pagination#error-handling",
}

// Rules returns the IDs of every client check, sorted.
func Rules() []string {
	out := make([]string, 0, len(ruleSpec))
	for r := range ruleSpec {
		out = append(out, r)
	}
	slices.Sort(out)
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
	// Rule is the stable rule ID, e.g. "lifecycle/initialize-first".
	Rule string
	// Severity says whether it fails the test.
	Severity Severity
	// Spec is the protocol version the rule was checked against.
	Spec string
	// Section is where that version of the spec states the rule.
	Section string
	// Detail says what the client did.
	Detail string
	// Message is the offending message, as journaled.
	Message Message
}

// URL returns the address of the spec section that states the rule.
func (v Violation) URL() string {
	sec, _, _ := strings.Cut(v.Section, " ")
	return "https://modelcontextprotocol.io/specification/" + v.Spec + "/" + sec
}

// String is a one-line report: rule, detail, message and spec section.
func (v Violation) String() string {
	return fmt.Sprintf("%s: %s [%s; spec %s %s]", v.Rule, v.Detail, v.Message, v.Spec, v.Section)
}

// warnings are the rules that state a SHOULD or a leniency: reported, never failing.
var warnings = map[string]bool{RuleArgumentsNull: true, RuleClientInfo: true, RuleMetaConsistent: true, RuleDiscoverFirst: true}

// violate records a violation of rule by message m.
func (s *Session) violate(rule string, m Message, detail string) {
	spec := s.ProtocolVersion()
	switch {
	case m.modern || strings.HasPrefix(rule, "stateless/") || strings.HasPrefix(rule, "mrtr/"):
		spec = StatelessVersions[0]
	case spec == "" || isStateless(spec):
		spec = HandshakeVersions[len(HandshakeVersions)-1]
	}
	v := Violation{Rule: rule, Spec: spec, Section: ruleSpec[rule], Detail: detail, Message: m}
	if warnings[rule] {
		v.Severity = SeverityWarning
	}
	s.srv.mu.Lock()
	s.srv.violations = append(s.srv.violations, v)
	s.srv.mu.Unlock()
}

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
func (s *Server) ExpectViolation(rules ...string) *Server {
	s.t.Helper()
	for _, r := range rules {
		if _, ok := ruleSpec[r]; !ok {
			s.t.Fatalf("mcptest: ExpectViolation(%q): no such rule; the rules are %s", r, strings.Join(Rules(), ", "))
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
func (s *Server) unexpectedViolations() (unexpected []Violation, unmet []string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	seen := map[string]bool{}
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

// reportViolations fails t for unexpected violations and unmet expectations.
func (s *Server) reportViolations(t TB) {
	t.Helper()
	s.mu.Lock()
	ignore := s.ignore
	s.mu.Unlock()
	if ignore {
		return
	}
	unexpected, unmet := s.unexpectedViolations()
	if len(unexpected) > 0 {
		t.Errorf("mcptest: the client broke %d protocol rule(s); fix the client, or declare them with ExpectViolation:\n%s",
			len(unexpected), formatViolations(unexpected))
	}
	if len(unmet) > 0 {
		t.Errorf("mcptest: ExpectViolation(%s) was declared, but the client never broke it", quoteAll(unmet))
	}
}

func formatViolations(vs []Violation) string {
	var b strings.Builder
	for _, v := range vs {
		fmt.Fprintf(&b, "  - %s: %s\n      message: %s\n      spec: %s\n", v.Rule, v.Detail, shorten(v.Message.Raw(), 200), v.URL())
	}
	return b.String()
}
