package config

import (
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/mcpmock/mcpmock/internal/precheck"
	"github.com/mcpmock/mcpmock/mcptest"
	"github.com/mcpmock/mcpmock/mcptest/fault"
	"github.com/mcpmock/mcpmock/mcptest/oauth"
	"github.com/tidwall/gjson"
)

// paramKind is the JSON type of a fault parameter.
type paramKind int

const (
	pString   paramKind = iota // a JSON string
	pStrings                   // an array of strings
	pAny                       // any JSON value, passed on as raw JSON
	pInt                       // a non-negative integer
	pDuration                  // a Go duration string: "250ms", "2s"
	pBool                      // true or false
)

// FaultParam is one parameter of a fault, as a file writes it.
type FaultParam struct {
	// Name is the parameter's key in the file ("method", "duration", …).
	Name string
	// Type is its JSON type, in words ("string", "duration", "any JSON").
	Type string
	// Required reports whether the fault needs it.
	Required bool
	// Doc says what it is.
	Doc string

	kind paramKind
	// arg names the mcptest constructor's argument (or refinement) the
	// parameter is given to, where the name differs ("status" for "code"),
	// so that a reason mcptest gives about it is placed at the parameter.
	arg string
}

// as returns the parameter given to the constructor's argument arg.
func (p FaultParam) as(arg string) FaultParam {
	p.arg = arg
	return p
}

// goName names the constructor's argument (or the refinement) the
// parameter is given to.
func (p FaultParam) goName() string {
	if p.arg != "" {
		return p.arg
	}
	return p.Name
}

// FaultSpec describes one fault a file can name: its name (the mcptest
// constructor's), what it does, and its parameters.
type FaultSpec struct {
	// Name is the fault's name, e.g. "Delay".
	Name string
	// Doc is one sentence on what the mock does.
	Doc string
	// Params are the fault's own parameters, in the constructor's order.
	Params []FaultParam

	build func(a args) (mcptest.Fault, error)
}

// Refinements are the trigger parameters every fault takes besides its
// own: "nth", "session", "probability", "optional".
var refinements = []FaultParam{
	{Name: "nth", Type: "integer ≥ 1", kind: pInt, Doc: "act only on the n-th message that matches, counted per server", arg: "Nth"},
	{Name: "session", Type: "integer ≥ 1", kind: pInt, Doc: "act only in the n-th session", arg: "InSession"},
	{Name: "probability", Type: "number in (0, 1]", Doc: "act with this probability, drawn from faultSeed", arg: "WithProbability"},
	{Name: "optional", Type: "boolean", Doc: "the fault may never act without failing the verdict", arg: "Optional"},
}

// Refinements returns the trigger parameters every fault takes.
func Refinements() []FaultParam { return append([]FaultParam(nil), refinements...) }

func param(name string, k paramKind, required bool, doc string) FaultParam {
	t := map[paramKind]string{pString: "string", pStrings: "array of strings", pAny: "any JSON", pInt: "integer ≥ 0", pDuration: "duration", pBool: "boolean"}[k]
	return FaultParam{Name: name, Type: t, Required: required, Doc: doc, kind: k}
}

var (
	method       = param("method", pString, true, `the method whose messages it acts on ("" for any)`)
	notifyMethod = param("method", pString, true, "the notification's (or request's) method")
	params       = param("params", pAny, false, "its params (an object; absent: none)")
)

// args reads a fault's parameters.
type args struct {
	m map[string]json.RawMessage
}

func (a args) str(name string) string {
	var s string
	_ = json.Unmarshal(a.m[name], &s)
	return s
}

func (a args) strs(name string) []string {
	var s []string
	_ = json.Unmarshal(a.m[name], &s)
	return s
}

func (a args) bool(name string) bool { return string(a.m[name]) == "true" }

func (a args) int(name string) int {
	var n int
	_ = json.Unmarshal(a.m[name], &n)
	return n
}

// raw returns the parameter as raw JSON (nil when absent).
func (a args) raw(name string) any {
	v, ok := a.m[name]
	if !ok {
		return nil
	}
	return json.RawMessage(v)
}

// text returns the parameter's raw JSON text.
func (a args) text(name string) string { return string(a.m[name]) }

func (a args) duration(name string) (time.Duration, error) { return parseDuration(name, a.m[name]) }

func plain(f func(string) mcptest.Fault) func(a args) (mcptest.Fault, error) {
	return func(a args) (mcptest.Fault, error) { return f(a.str("method")), nil }
}

func specs() []FaultSpec {
	methodOnly := func(name, doc string, f func(string) mcptest.Fault) FaultSpec {
		return FaultSpec{Name: name, Doc: doc, Params: []FaultParam{method}, build: plain(f)}
	}
	return []FaultSpec{
		{Name: "RespondProtocolVersion", Doc: "answers initialize with this protocolVersion",
			Params: []FaultParam{param("version", pAny, true, `the version to answer: any JSON ("1999-01-01", "", 42)`).as("v")},
			build:  func(a args) (mcptest.Fault, error) { return fault.RespondProtocolVersion(a.raw("version")), nil }},
		{Name: "RespondSupportedVersions", Doc: "server/discover lists these versions",
			Params: []FaultParam{param("versions", pStrings, true, "the versions to list")},
			build: func(a args) (mcptest.Fault, error) {
				return fault.RespondSupportedVersions(a.strs("versions")...), nil
			}},
		{Name: "RejectProtocolVersionHandshake", Doc: "initialize gets -32602 Unsupported protocol version",
			build: func(args) (mcptest.Fault, error) { return fault.RejectProtocolVersionHandshake(), nil }},
		{Name: "RejectProtocolVersionStateless", Doc: "stateless requests get -32022 naming these versions",
			Params: []FaultParam{param("versions", pStrings, false, "the versions the error says are supported")},
			build: func(a args) (mcptest.Fault, error) {
				return fault.RejectProtocolVersionStateless(a.strs("versions")...), nil
			}},
		{Name: "OmitCapability", Doc: "the capability is left out, its methods still served",
			Params: []FaultParam{param("capability", pString, true, `e.g. "tools"`).as("name")},
			build:  func(a args) (mcptest.Fault, error) { return fault.OmitCapability(a.str("capability")), nil }},
		{Name: "DeclareUnservedCapability", Doc: "the capability is declared, its methods get -32601",
			Params: []FaultParam{param("capability", pString, true, `e.g. "prompts"`).as("name")},
			build: func(a args) (mcptest.Fault, error) {
				return fault.DeclareUnservedCapability(a.str("capability")), nil
			}},
		{Name: "RespondCapabilities", Doc: "the capabilities are replaced by this JSON",
			Params: []FaultParam{param("value", pAny, true, "the capabilities to send, any JSON (true, [], {…})").as("rawJSON")},
			build:  func(a args) (mcptest.Fault, error) { return fault.RespondCapabilities(a.text("value")), nil }},
		{Name: "OmitServerInfo", Doc: "serverInfo is left out",
			build: func(args) (mcptest.Fault, error) { return fault.OmitServerInfo(), nil }},
		{Name: "CorruptServerInfo", Doc: "serverInfo is replaced by this JSON",
			Params: []FaultParam{param("value", pAny, true, "the serverInfo to send, any JSON").as("rawJSON")},
			build:  func(a args) (mcptest.Fault, error) { return fault.CorruptServerInfo(a.text("value")), nil }},
		{Name: "SetField", Doc: "sets a field of the replies to method",
			Params: []FaultParam{method, param("path", pString, true, `the field, e.g. "result.protocolVersion"`), param("value", pAny, true, "its new value, any JSON")},
			build: func(a args) (mcptest.Fault, error) {
				return fault.SetField(a.str("method"), a.str("path"), a.raw("value")), nil
			}},
		{Name: "DeleteField", Doc: "deletes a field of the replies to method",
			Params: []FaultParam{method, param("path", pString, true, `the field, e.g. "result.serverInfo"`)},
			build:  func(a args) (mcptest.Fault, error) { return fault.DeleteField(a.str("method"), a.str("path")), nil }},
		{Name: "NotifyBeforeInitializeResult", Doc: "sends a notification before the initialize result",
			Params: []FaultParam{notifyMethod, params},
			build: func(a args) (mcptest.Fault, error) {
				return fault.NotifyBeforeInitializeResult(a.str("method"), a.raw("params")), nil
			}},
		{Name: "NotifyAfterInitializeResult", Doc: "sends a notification after the initialize result, before notifications/initialized",
			Params: []FaultParam{notifyMethod, params},
			build: func(a args) (mcptest.Fault, error) {
				return fault.NotifyAfterInitializeResult(a.str("method"), a.raw("params")), nil
			}},
		{Name: "RequestAfterInitializeResult", Doc: "sends a request (e.g. roots/list) before notifications/initialized",
			Params: []FaultParam{notifyMethod, params},
			build: func(a args) (mcptest.Fault, error) {
				return fault.RequestAfterInitializeResult(a.str("method"), a.raw("params")), nil
			}},
		methodOnly("Hang", "never answers method (until the server ends)", fault.Hang),
		{Name: "Delay", Doc: "answers method after a delay",
			Params: []FaultParam{method, param("duration", pDuration, true, "how long").as("d")},
			build: func(a args) (mcptest.Fault, error) {
				d, err := a.duration("duration")
				return fault.Delay(a.str("method"), d), err
			}},
		{Name: "Jitter", Doc: "answers method after a random delay in [min, max]",
			Params: []FaultParam{method, param("min", pDuration, true, "the shortest delay").as("lo"), param("max", pDuration, true, "the longest delay").as("hi")},
			build: func(a args) (mcptest.Fault, error) {
				lo, err := a.duration("min")
				if err != nil {
					return mcptest.Fault{}, err
				}
				hi, err := a.duration("max")
				if err != nil {
					return mcptest.Fault{}, err
				}
				if hi < lo {
					return mcptest.Fault{}, &paramError{"max", fmt.Sprintf("max (%v) is shorter than min (%v)", hi, lo)}
				}
				return fault.Jitter(a.str("method"), lo, hi), nil
			}},
		{Name: "ReplaceWithJSONRPCError", Doc: "answers method with a JSON-RPC error",
			Params: []FaultParam{method, param("code", pInt, true, "the error code (negative allowed)"), param("message", pString, true, "the error message"), param("data", pAny, false, "the error's data")},
			build: func(a args) (mcptest.Fault, error) {
				return fault.ReplaceWithJSONRPCError(a.str("method"), a.int("code"), a.str("message"), a.raw("data")), nil
			}},
		methodOnly("WrongID", "the reply carries another id", fault.WrongID),
		methodOnly("FlipIDType", `the reply's id changes type (3 and "3")`, fault.FlipIDType),
		methodOnly("NullID", "the reply's id is null", fault.NullID),
		methodOnly("OmitID", "the reply has no id", fault.OmitID),
		methodOnly("ReplyTwice", "the reply is sent twice", fault.ReplyTwice),
		methodOnly("UnsolicitedResponse", "a response to no request follows the reply", fault.UnsolicitedResponse),
		methodOnly("ResultAndError", "the reply has both result and error", fault.ResultAndError),
		{Name: "JSONRPCVersion", Doc: `the reply's "jsonrpc" member is this value (absent: removed)`,
			Params: []FaultParam{method, param("value", pAny, false, `e.g. "1.0"; absent removes the member`).as("v")},
			build: func(a args) (mcptest.Fault, error) {
				return fault.JSONRPCVersion(a.str("method"), a.raw("value")), nil
			}},
		methodOnly("Drop", "the reply (or notification) is never sent", fault.Drop),
		methodOnly("CloseAfter", "the connection closes after the reply", fault.CloseAfter),
		methodOnly("CloseBefore", "the connection closes instead of the reply", fault.CloseBefore),
		{Name: "Truncate", Doc: "only the first bytes of the reply are written, then the connection closes",
			Params: []FaultParam{method, param("bytes", pInt, true, "how many bytes").as("n")},
			build:  func(a args) (mcptest.Fault, error) { return fault.Truncate(a.str("method"), a.int("bytes")), nil }},
		{Name: "Banner", Doc: "a non-JSON line before the first message",
			Params: []FaultParam{param("text", pString, true, "the line")},
			build:  func(a args) (mcptest.Fault, error) { return fault.Banner(a.str("text")), nil }},
		{Name: "NonJSONLine", Doc: "a non-JSON line before the reply",
			Params: []FaultParam{method, param("text", pString, true, "the line")},
			build:  func(a args) (mcptest.Fault, error) { return fault.NonJSONLine(a.str("method"), a.str("text")), nil }},
		{Name: "Dribble", Doc: "the reply is written in small pieces with pauses",
			Params: []FaultParam{method, param("chunk", pInt, true, "bytes a write"), param("pause", pDuration, true, "the pause between writes")},
			build: func(a args) (mcptest.Fault, error) {
				d, err := a.duration("pause")
				return fault.Dribble(a.str("method"), a.int("chunk"), d), err
			}},
		methodOnly("PrettyPrint", "the reply is indented JSON on several lines", fault.PrettyPrint),
		methodOnly("TwoOnOneLine", "the reply and a notification on one line", fault.TwoOnOneLine),
		methodOnly("NoFinalNewline", "the reply without its newline", fault.NoFinalNewline),
		{Name: "Oversized", Doc: "the reply padded by this many bytes",
			Params: []FaultParam{method, param("bytes", pInt, true, "how many bytes of padding").as("n")},
			build:  func(a args) (mcptest.Fault, error) { return fault.Oversized(a.str("method"), a.int("bytes")), nil }},
		methodOnly("InvalidUTF8", "bytes that are not UTF-8 in a string of the reply", fault.InvalidUTF8),
		{Name: "GluedPrefix", Doc: "text glued to the start of the reply's line",
			Params: []FaultParam{method, param("text", pString, true, "the text, e.g. a log line without its newline")},
			build:  func(a args) (mcptest.Fault, error) { return fault.GluedPrefix(a.str("method"), a.str("text")), nil }},
		{Name: "RequestWithID", Doc: "a request to the client with a chosen id before the reply (by default the pending call's id)",
			Params: []FaultParam{method, param("request", pString, true, `the request's method, e.g. "ping"`).as("reqMethod"),
				param("id", pAny, false, "its id (absent: the id of the client's pending call)"), params},
			build: func(a args) (mcptest.Fault, error) {
				return fault.RequestWithID(a.str("method"), a.str("request"), a.raw("id"), a.raw("params")), nil
			}},
		{Name: "StringRequestIDs", Doc: `the mock's requests to the client carry string ids ("mcptest-1")`,
			build: func(args) (mcptest.Fault, error) { return fault.StringRequestIDs(), nil }},
		methodOnly("Batched", "the reply (and frames faults added before it) sent as one JSON-RPC batch", fault.Batched),
		methodOnly("AsScripted", "the reply sent as scripted, without the downgrade for the session's version", fault.AsScripted),
		methodOnly("LoopingCursor", "every page's nextCursor points back at the first page", fault.LoopingCursor),
		// Streamable HTTP only (mcpmock serve --http):
		{Name: "ExpireSession", Doc: "HTTP: the session ends at the request it matches; it and later ones get 404",
			build: func(args) (mcptest.Fault, error) { return fault.ExpireSession(), nil }},
		{Name: "HTTPStatus", Doc: "HTTP: requests of method get this HTTP status instead of a JSON-RPC reply",
			Params: []FaultParam{method, param("code", pInt, true, "the HTTP status, e.g. 502"), param("body", pString, false, "the body (absent: an HTML error page)")},
			build: func(a args) (mcptest.Fault, error) {
				return fault.HTTPStatus(a.str("method"), a.int("code"), a.str("body")), nil
			}},
		{Name: "SlowHeaders", Doc: "HTTP: the response to method starts only after a delay",
			Params: []FaultParam{method, param("duration", pDuration, true, "how long").as("d")},
			build: func(a args) (mcptest.Fault, error) {
				d, err := a.duration("duration")
				return fault.SlowHeaders(a.str("method"), d), err
			}},
		{Name: "DropStream", Doc: "HTTP: the SSE stream answering method breaks off after n events, before the reply",
			Params: []FaultParam{method, param("events", pInt, true, "how many events before the break (0: at once)").as("n"), param("resumable", pBool, false, "events carry ids, so the client can resume with Last-Event-ID")},
			build: func(a args) (mcptest.Fault, error) {
				return fault.DropStream(a.str("method"), a.int("events"), a.bool("resumable")), nil
			}},
		methodOnly("ReplyAsJSON", "HTTP: the reply to method is a JSON body, its notifications on the GET stream", fault.ReplyAsJSON),
		methodOnly("ReplyAsSSE", "HTTP: the reply to method is an SSE stream, even with only the result", fault.ReplyAsSSE),
		{Name: "OmitSessionID", Doc: "HTTP: initialize is answered without an Mcp-Session-Id header",
			build: func(args) (mcptest.Fault, error) { return fault.OmitSessionID(), nil }},
		{Name: "WrongContentType", Doc: "HTTP: the reply to method is labelled with this Content-Type",
			Params: []FaultParam{method, param("contentType", pString, true, `e.g. "text/html"`)},
			build: func(a args) (mcptest.Fault, error) {
				return fault.WrongContentType(a.str("method"), a.str("contentType")), nil
			}},
		{Name: "SSEComment", Doc: "HTTP: the reply to method is an SSE stream with a comment line before each event",
			Params: []FaultParam{method, param("text", pString, true, "the comment's text")},
			build:  func(a args) (mcptest.Fault, error) { return fault.SSEComment(a.str("method"), a.str("text")), nil }},
		// Authorization only (package oauth's, on a server with WithAuthorization; a file cannot turn it on yet, so these never act from a file):
		{Name: "ExpireToken", Doc: "auth: the token of the request it matches expires (401 invalid_token); its refresh token works",
			build: func(args) (mcptest.Fault, error) { return oauth.ExpireToken(), nil }},
		{Name: "RevokeToken", Doc: "auth: the token of the request it matches and its client's refresh tokens are revoked",
			build: func(args) (mcptest.Fault, error) { return oauth.RevokeToken(), nil }},
		{Name: "InsufficientScope", Doc: "auth: requests of method get 403 insufficient_scope until the token has scope",
			Params: []FaultParam{method, param("scope", pString, true, "the scope (space-separated) the request needs")},
			build: func(a args) (mcptest.Fault, error) {
				return oauth.InsufficientScope(a.str("method"), a.str("scope")), nil
			}},
		{Name: "WWWAuthenticate", Doc: "auth: the 401/403 challenge is this header, verbatim ({prm}: the PRM URL)",
			Params: []FaultParam{param("header", pString, true, "the WWW-Authenticate header")},
			build:  func(a args) (mcptest.Fault, error) { return oauth.WWWAuthenticate(a.str("header")), nil }},
		{Name: "AuthorizationIss", Doc: "auth: the authorization response's iss is this (\"\": none)",
			Params: []FaultParam{param("iss", pString, false, "the iss to send")},
			build:  func(a args) (mcptest.Fault, error) { return oauth.AuthorizationIss(a.str("iss")), nil }},
		{Name: "IssTrailingSlash", Doc: "auth: the authorization response's iss has a trailing slash",
			build: func(args) (mcptest.Fault, error) { return oauth.IssTrailingSlash(), nil }},
		{Name: "WrongState", Doc: "auth: the authorization response's state is not the client's",
			build: func(args) (mcptest.Fault, error) { return oauth.WrongState(), nil }},
		{Name: "MetadataIssuer", Doc: "auth: the authorization server metadata names this issuer",
			Params: []FaultParam{param("issuer", pString, true, "the issuer to name")},
			build:  func(a args) (mcptest.Fault, error) { return oauth.MetadataIssuer(a.str("issuer")), nil }},
		{Name: "NoPKCEMethods", Doc: "auth: the metadata has no code_challenge_methods_supported",
			build: func(args) (mcptest.Fault, error) { return oauth.NoPKCEMethods(), nil }},
		{Name: "PRMResource", Doc: "auth: the Protected Resource Metadata names this resource",
			Params: []FaultParam{param("resource", pString, true, "the resource to name")},
			build:  func(a args) (mcptest.Fault, error) { return oauth.PRMResource(a.str("resource")), nil }},
		{Name: "NoPRM", Doc: "auth: every Protected Resource Metadata URL answers 404",
			build: func(args) (mcptest.Fault, error) { return oauth.NoPRM(), nil }},
		{Name: "TokenError", Doc: "auth: token requests get 400 with this OAuth error",
			Params: []FaultParam{param("error", pString, true, `e.g. "invalid_grant"`).as("code")},
			build:  func(a args) (mcptest.Fault, error) { return oauth.TokenError(a.str("error")), nil }},
		{Name: "TokenStatus", Doc: "auth: token requests get this HTTP status and an HTML page",
			Params: []FaultParam{param("code", pInt, true, "the HTTP status, e.g. 500").as("status")},
			build:  func(a args) (mcptest.Fault, error) { return oauth.TokenStatus(a.int("code")), nil }},
		{Name: "SlowToken", Doc: "auth: the token endpoint answers after a delay",
			Params: []FaultParam{param("duration", pDuration, true, "how long").as("d")},
			build: func(a args) (mcptest.Fault, error) {
				d, err := a.duration("duration")
				return oauth.SlowToken(d), err
			}},
		{Name: "SwitchAuthorizationServer", Doc: "auth: once a token was revoked or expired, the PRM names the second authorization server first",
			build: func(args) (mcptest.Fault, error) { return oauth.SwitchAuthorizationServer(), nil }},
		methodOnly("EmptyPageWithCursor", "an empty first page with a nextCursor", fault.EmptyPageWithCursor),
		{Name: "ListChangedAfter", Doc: "a list_changed notification after the reply, although nothing changed",
			Params: []FaultParam{method, param("notification", pString, true, `e.g. "notifications/tools/list_changed"`)},
			build: func(a args) (mcptest.Fault, error) {
				return fault.ListChangedAfter(a.str("method"), a.str("notification")), nil
			}},
	}
}

var faultTable = sync.OnceValue(func() map[string]FaultSpec {
	m := map[string]FaultSpec{}
	for _, s := range specs() {
		m[s.Name] = s
	}
	return m
})

func faultSpecs() map[string]FaultSpec { return faultTable() }

func faultNames() []string {
	var out []string
	for n := range faultSpecs() {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// Faults returns every fault a file can name, sorted by name.
func Faults() []FaultSpec {
	var out []FaultSpec
	for _, n := range faultNames() {
		s := faultSpecs()[n]
		s.Params = append([]FaultParam(nil), s.Params...)
		out = append(out, s)
	}
	return out
}

// String is the fault as a file writes it, e.g.
// {"fault": "Delay", "method": …, "duration": …}, and what it does.
func (s FaultSpec) String() string {
	parts := []string{fmt.Sprintf("%q", s.Name)}
	for _, p := range s.Params {
		opt := ""
		if !p.Required {
			opt = "?"
		}
		parts = append(parts, fmt.Sprintf("%s%s: %s", p.Name, opt, p.Type))
	}
	return fmt.Sprintf("{fault: %s}: %s", strings.Join(parts, ", "), s.Doc)
}

// buildFault makes the mcptest fault a file's entry describes, with its
// refinements.
func buildFault(f Fault) (mcptest.Fault, error) {
	spec, ok := faultSpecs()[f.Name]
	if !ok {
		return mcptest.Fault{}, fmt.Errorf("unknown fault %q", f.Name)
	}
	a := args{m: f.Params}
	fl, err := spec.build(a)
	if err != nil {
		return mcptest.Fault{}, err
	}
	if _, ok := f.Params["nth"]; ok {
		fl = fl.Nth(a.int("nth"))
	}
	if _, ok := f.Params["session"]; ok {
		fl = fl.InSession(a.int("session"))
	}
	if raw, ok := f.Params["probability"]; ok {
		var p float64
		_ = json.Unmarshal(raw, &p)
		fl = fl.WithProbability(p)
	}
	if raw, ok := f.Params["optional"]; ok && string(raw) == "true" {
		fl = fl.Optional()
	}
	return fl, nil
}

// faultProblem builds a file's fault and checks it as mcptest's AddFault
// will (mcptest.Fault.Err: the arguments its constructor could not take,
// a method of no protocol version), so that a file is refused at load for
// what would otherwise fail the server at its start. It returns the JSON
// pointer of the parameter at fault (the fault's own when none is) and
// why, or "" and "" when the fault can be installed.
func faultProblem(f Fault) (ptr, msg string) {
	fl, err := buildFault(f)
	if err == nil {
		err = fl.Err()
	}
	if err == nil {
		return "", ""
	}
	var pe *paramError
	if errors.As(err, &pe) {
		return f.ptr + "/" + pe.param, pe.msg
	}
	var ae *precheck.ArgError
	if errors.As(err, &ae) {
		spec := faultSpecs()[f.Name]
		for _, p := range append(append([]FaultParam(nil), spec.Params...), refinements...) {
			if p.goName() == ae.Param {
				// mcptest may name the argument first ("params: …"): the
				// field already does.
				return f.ptr + "/" + p.Name, strings.TrimPrefix(ae.Error(), ae.Param+": ")
			}
		}
	}
	return f.ptr, err.Error()
}

// located is a fault a file's field makes, with the field's JSON pointer.
type located struct {
	ptr   string
	fault mcptest.Fault
}

// sseFaults are the faults "sseReplies" makes: ReplyAsSSE for each method.
func (c *Config) sseFaults() []located {
	out := make([]located, len(c.SSEReplies))
	for i, m := range c.SSEReplies {
		out[i] = located{fmt.Sprintf("/sseReplies/%d", i), fault.ReplyAsSSE(m).Optional()}
	}
	return out
}

// resultFieldFaults are the faults "resultFields" makes: a SetField of
// each member, by method.
func (c *Config) resultFieldFaults() []located {
	var out []located
	for _, m := range sortedKeys(c.ResultFields) {
		ptr := "/resultFields/" + pointerToken(m)
		eachField(c.ResultFields[m], func(k string, v json.RawMessage) {
			out = append(out, located{ptr, fault.SetField(m, "result."+gjson.Escape(k), v).Optional()})
		})
	}
	return out
}

// Build returns the mcptest fault f describes, as NewServer builds each of
// a file's faults: for a fault decided at run time (the mcpmock command's
// admin API adds one to a running server with mcptest's AddFault). A fault
// from Parse builds; a hand-made one may not, and the error says why.
func (f Fault) Build() (mcptest.Fault, error) { return buildFault(f) }
