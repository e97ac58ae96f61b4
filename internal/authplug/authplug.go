// Package authplug is the one interface between mcptest's HTTP front and
// package oauth, the mock's authorization. oauth imports mcptest; mcptest
// knows only what this package declares:
//
//   - Guard is what an authorization does at the HTTP front: serve its own
//     URLs (the metadata, the authorization server's endpoints) and gate
//     each MCP request (a bearer token, or a 401/403 challenge). oauth
//     implements it with an unexported type.
//   - Host is what mcptest offers it: the one journal (Record), the one
//     rule table (Raise), the installed faults whose action is the
//     authorization's (Faults), the session a request belongs to, and the
//     waiting of the assertions. mcptest implements it with an unexported
//     adapter.
//   - Socket joins them: an authorization embeds one (unexported, so that
//     go doc shows nothing of it), which makes it an Authorizer, the
//     parameter of mcptest's Server.WithAuthorization.
//
// Neither package exports anything for the other.
package authplug

import (
	"errors"
	"net/http"
	"reflect"
	"strings"
	"time"
)

// The endpoints of the authorization flow: the Method of its journal
// messages (mcptest.KindAuth), which the sequence diagram draws. Package
// oauth exports them as its Endpoint… constants.
const (
	Resource  = "auth/resource"                      // an MCP request the protected resource refused (401, 403)
	PRM       = "auth/protected-resource-metadata"   // Protected Resource Metadata (RFC 9728)
	Metadata  = "auth/authorization-server-metadata" // authorization server metadata (RFC 8414, OpenID Connect Discovery)
	Register  = "auth/register"                      // Dynamic Client Registration (RFC 7591)
	Authorize = "auth/authorize"                     // the authorization request (OAuth 2.1 §4.1.1)
	Token     = "auth/token"                         // a token request
)

// The authorization rules: rows of mcptest's rule table (rule_table.go),
// raised by package oauth. Their IDs are written once, here.
const (
	// RulePKCE: the authorization request carries a code_challenge with
	// code_challenge_method S256, and the token request the code_verifier
	// that matches it (answered invalid_request, invalid_grant).
	RulePKCE = "auth/pkce-s256"
	// RulePKCEMetadata: a client whose authorization server's metadata
	// lists no code_challenge_methods_supported refuses to proceed: it
	// sends no authorization request there.
	RulePKCEMetadata = "auth/pkce-metadata"
	// RuleResource: the authorization request and the token request
	// (authorization_code) carry the resource parameter (RFC 8707), the
	// canonical URI of the MCP server, the same in both.
	RuleResource = "auth/resource-parameter"
	// RuleTokenHeader: the access token goes in the Authorization
	// header as "Bearer <token>", never in the URI query string (answered 401).
	RuleTokenHeader = "auth/token-in-header"
	// RuleTokenEveryRequest: a client that holds a token sends it in
	// every HTTP request to the MCP server (answered 401).
	RuleTokenEveryRequest = "auth/token-every-request"
	// RuleTokenAudience: a client sends the MCP server only tokens its
	// authorization server issued for it (the resource they were asked for
	// is this server's), never one of another resource (answered 401).
	RuleTokenAudience = "auth/token-audience"
	// RuleState (a warning): the authorization request carries state,
	// and the client does not go on with a response whose state is not the
	// one it sent (oauth.WrongState).
	RuleState = "auth/state"
	// RuleDiscoveryOrder: Protected Resource Metadata is fetched from
	// the challenge's resource_metadata when it names one, else from the
	// path-inserted well-known URL before the root one; authorization
	// server metadata from the well-known forms in the spec's order
	// (OAuth inserted, OpenID inserted, OpenID appended). Reported once.
	RuleDiscoveryOrder = "auth/discovery-order"
	// RuleScopeSelection (a warning): the authorization request asks
	// for the challenge's scope when it had one, else for the PRM's
	// scopes_supported. Reported once.
	RuleScopeSelection = "auth/scope-selection"
	// RuleStepUpBounded (a warning): a client answered 403
	// insufficient_scope re-authorizes for the same scopes a few times at
	// most (more than 3 is reported). Reported once.
	RuleStepUpBounded = "auth/step-up-bounded"
	// RuleStepUpUnion (a warning; 2026-07-28): a step-up asks for the
	// challenged scopes together with those granted before. Reported once.
	RuleStepUpUnion = "auth/step-up-scope-union"
	// RuleIss (2026-07-28): a client rejects an authorization response
	// whose iss is not exactly the issuer (or is absent when the metadata
	// advertises it): it never sends such a code to the token endpoint.
	RuleIss = "auth/iss-check"
	// RuleIssuer (2026-07-28): a client does not use authorization
	// server metadata whose issuer is not the one it fetched it for.
	RuleIssuer = "auth/issuer-check"
	// RuleApplicationType (2026-07-28): a Dynamic Client Registration
	// request carries application_type.
	RuleApplicationType = "auth/application-type"
	// RuleCredentialsPerServer (2026-07-28): client credentials
	// registered with one authorization server are not used at another
	// (answered like an unknown client).
	RuleCredentialsPerServer = "auth/credentials-per-server"
)

// Session is a session of the server (an *mcptest.Session): the one an MCP
// request names, or the one that journals what belongs to none (number 0).
type Session interface{ Number() int }

// Exchange is one half of an HTTP exchange of the flow, journaled as a
// message of Kind KindAuth.
type Exchange struct {
	Session    Session
	FromClient bool
	Endpoint   string // Resource, PRM, …
	Raw        string // the request line (and body, and why it was refused), or the status and a summary
	Time       time.Time
	// the HTTP exchange (mcptest.HTTPExchange)
	Method, ContentType                            string
	Status                                         int    // an answer's
	SessionID, ProtocolVersion, MCPMethod, MCPName string // an MCP request's headers
}

// Peek is what the gate reads of an MCP request.
type Peek struct {
	Body    []byte
	Method  string // the JSON-RPC method
	Tool    string // params.name of a tools/call
	Version string // the protocol version: the header, _meta's, or an initialize's params.protocolVersion
}

// Request is an MCP request at the gate.
type Request interface {
	// Session is the session the request names (Mcp-Session-Id), or the
	// strays' one.
	Session() Session
	// Peek reads and decodes the body (a POST's), once: the MCP endpoint
	// takes the same decoding when the request passes.
	Peek() Peek
	// KnownClient reports whether the request's _meta clientInfo is that
	// of stateless-era requests the endpoint served before.
	KnownClient() bool
}

// Fault is an installed fault whose action is the authorization's: an
// *mcptest.FaultHandle of a fault built with faultkit.Spec.Ext.
type Fault interface {
	// Ext is the fault's action, faultkit.Spec.Ext.
	Ext() any
	// Method is the fault's method ("" for any).
	Method() string
	// Matches reports whether the fault acts on a request of method in
	// sess (its method, session, Nth and probability), counting it.
	Matches(sess Session, method string) bool
	// Hit records that the fault acted.
	Hit()
	// String names the fault and its trigger.
	String() string
}

// Host is what mcptest offers the authorization of one server.
type Host interface {
	// Server is the *mcptest.Server.
	Server() any
	// Record journals x and returns its Seq.
	Record(x Exchange) int
	// Raise records a violation of rule (one of the Rule… constants) by
	// the journaled message seq, judged against protocol version: nothing
	// when the rule does not exist in that version, or when it is reported
	// once and was.
	Raise(rule, version string, seq int, detail string)
	// Faults are the installed faults whose action is an Ext, in the
	// order they were installed.
	Faults() []Fault
	// Strays is the session that journals what belongs to none.
	Strays() Session
	// BodyLimit is the largest request body read.
	BodyLimit() int64
	// Settled is the protocol version of the client's newest session that
	// has an era (its handshake's, or the stateless era's latest); ok is
	// false while none has.
	Settled() (version string, ok bool)
	// Wait evaluates cond each time the journal grows until it holds, the
	// wait timeout passes, or the answer is settled (cond says so, the
	// server closed, every session ended). It returns whether cond held,
	// what it last said, and why it is settled ("" when the wait timed
	// out).
	Wait(cond func() (ok bool, got, settled string)) (ok bool, got, why string)
	// Failure is the text of a failed assertion: want, got, why it is
	// settled, and the journal's tail.
	Failure(call, want, got, why string) string
}

// Guard is what an authorization does at the HTTP front.
type Guard interface {
	// Serve answers a request to one of the authorization's own URLs (a
	// metadata document, an authorization server's endpoint) and reports
	// true; false leaves the request to the MCP endpoint.
	Serve(w http.ResponseWriter, r *http.Request) bool
	// Gate lets an MCP request with a valid token through (false), or
	// answers it, 401 or 403 with the challenge, and reports true.
	Gate(w http.ResponseWriter, r *http.Request, q Request) bool
	// Settle decides the violations still waiting for the client's
	// protocol version: the test is ending.
	Settle()
}

// Socket makes its embedder an Authorizer: the function that plugs it into
// a server, set with Bind.
type Socket struct {
	connect func(Host) (Guard, error)
}

func (s *Socket) socket() *Socket { return s }

// Authorizer is a value that embeds a Socket: package oauth's
// *oauth.Authorization.
type Authorizer interface{ socket() *Socket }

// Bind sets what Connect calls for the Socket's embedder.
func Bind(s *Socket, connect func(Host) (Guard, error)) { s.connect = connect }

// Connect plugs a into a server, whose Host is h, and returns its Guard.
func Connect(a Authorizer, h Host) (Guard, error) {
	if v := reflect.ValueOf(a); a == nil || v.Kind() == reflect.Pointer && v.IsNil() {
		return nil, errors.New("no authorization (nil); build one with oauth.New(oauth.Options{…})")
	}
	s := a.socket()
	if s.connect == nil {
		return nil, errors.New("an authorization not built by oauth.New; build it with oauth.New(oauth.Options{…})")
	}
	return s.connect(h)
}

// ChallengeParam reads a parameter of a Bearer challenge the mock wrote
// (the WWW-Authenticate header of a 401 or 403): "" when it has none.
func ChallengeParam(header, name string) string {
	_, rest, ok := strings.Cut(header, name+`="`)
	if !ok {
		return ""
	}
	v, _, _ := strings.Cut(rest, `"`)
	return v
}
