package mcptest

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"

	"github.com/mcpmock/mcpmock/internal/authplug"
	"github.com/mcpmock/mcpmock/internal/spec"
	"github.com/tidwall/gjson"
)

// This file is where the authorization (package oauth) plugs into the HTTP
// front, through the one interface internal/authplug declares: the front
// hands each request to the Guard (ServeHTTP), and authHost is what the
// Guard gets of the server — the journal, the rule table, the installed
// faults, the sessions and the waiting of the assertions. The
// authorization's exchanges are journaled as KindAuth messages, which the
// sequence diagram draws here too.

// The authorization rules, rows of the rule table (rule_table.go); package
// oauth raises them. Their IDs are authplug's.
const (
	ruleAuthPKCE                 RuleID = authplug.RulePKCE
	ruleAuthPKCEMetadata         RuleID = authplug.RulePKCEMetadata
	ruleAuthResource             RuleID = authplug.RuleResource
	ruleAuthTokenHeader          RuleID = authplug.RuleTokenHeader
	ruleAuthTokenEveryRequest    RuleID = authplug.RuleTokenEveryRequest
	ruleAuthTokenAudience        RuleID = authplug.RuleTokenAudience
	ruleAuthState                RuleID = authplug.RuleState
	ruleAuthDiscoveryOrder       RuleID = authplug.RuleDiscoveryOrder
	ruleAuthScopeSelection       RuleID = authplug.RuleScopeSelection
	ruleAuthStepUpBounded        RuleID = authplug.RuleStepUpBounded
	ruleAuthStepUpUnion          RuleID = authplug.RuleStepUpUnion
	ruleAuthIss                  RuleID = authplug.RuleIss
	ruleAuthIssuer               RuleID = authplug.RuleIssuer
	ruleAuthApplicationType      RuleID = authplug.RuleApplicationType
	ruleAuthCredentialsPerServer RuleID = authplug.RuleCredentialsPerServer
)

// WithAuthorization makes the server's HTTP endpoint (URL, HTTPHandler) an
// OAuth-protected MCP server with its own authorization server on the same
// origin: a is package oauth's, oauth.New(oauth.Options{…}), which holds
// the flow's exchanges and the assertions about it. Every HTTP request to
// the MCP endpoint then needs a bearer token in its Authorization header;
// sessions of Dial and Serve are unaffected (the spec has no
// authorization on stdio). Every exchange of the flow is journaled (Kind
// KindAuth) and drawn in the transcript and the sequence diagram; what
// the spec asks of the client is checked (the auth/ rules).
func (s *Server) WithAuthorization(a authplug.Authorizer) *Server {
	s.t.Helper()
	return s.configure("WithAuthorization", func() error {
		if s.auth != nil {
			return fmt.Errorf("the server has an authorization already")
		}
		g, err := authplug.Connect(a, &authHost{s: s})
		if err != nil {
			return err
		}
		s.auth, s.authorizer = g, a
		s.t.Cleanup(g.Settle) // before NewServer's cleanup reports the violations
		return nil
	})
}

// Authorization returns what WithAuthorization installed, nil if nothing:
// package oauth's *oauth.Authorization, which oauth.Of(srv) returns, for
// code that has the server and not the authorization (a fixture, a
// scenario's decision point).
func (s *Server) Authorization() authplug.Authorizer {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.authorizer
}

// authHost is the server as the authorization sees it (authplug.Host).
type authHost struct {
	s *Server

	mu     sync.Mutex
	warned map[RuleID]bool // the rules reported once that were
}

func (h *authHost) Server() any { return h.s }

func (h *authHost) Record(x authplug.Exchange) int {
	dir := FromServer
	if x.FromClient {
		dir = FromClient
	}
	sess := x.Session.(*Session)
	m := h.s.journal.record(Message{SessionNumber: sess.n, Direction: dir, Time: x.Time, Kind: KindAuth, Method: x.Endpoint, raw: x.Raw,
		HTTP: &HTTPExchange{Method: x.Method, ContentType: x.ContentType, Status: x.Status, SessionID: x.SessionID,
			ProtocolVersion: x.ProtocolVersion, MCPMethod: x.MCPMethod, MCPName: x.MCPName}})
	return m.Seq
}

func (h *authHost) Raise(rule, version string, seq int, detail string) {
	s := h.s
	id := RuleID(rule)
	row := rulesByID[id]
	if row == nil {
		s.errorf("mcptest: internal error: the authorization raised rule %q, which the rule table does not have", rule)
		return
	}
	if !slices.Contains(row.Versions, version) {
		return
	}
	if row.OncePerSession {
		h.mu.Lock()
		if h.warned == nil {
			h.warned = map[RuleID]bool{}
		}
		seen := h.warned[id]
		h.warned[id] = true
		h.mu.Unlock()
		if seen {
			return
		}
	}
	var m Message
	if seq >= 1 {
		var err error
		if m, err = s.journal.at(seq); err != nil { // the rule stands; say why its message is not shown
			detail += " (its message is not shown: " + err.Error() + ")"
		}
	}
	v := Violation{Rule: id, Severity: row.severityIn(version), Spec: version, Section: section(row.specFor(version)), Detail: detail, Message: m}
	s.mu.Lock()
	s.addViolation(v)
	s.mu.Unlock()
}

func (h *authHost) Faults() []authplug.Fault {
	snap := h.s.faults.on.Load()
	if snap == nil {
		return nil
	}
	return snap.ext
}

func (h *authHost) Strays() authplug.Session {
	h.s.mu.Lock()
	f := h.s.http // made before the first request reaches the authorization
	h.s.mu.Unlock()
	return f.strays()
}

func (h *authHost) BodyLimit() int64 { return h.s.httpCfg.bodyLimit }

func (h *authHost) Settled() (string, bool) {
	sessions := h.s.Sessions()
	for i := len(sessions) - 1; i >= 0; i-- {
		switch sessions[i].Era() {
		case EraHandshake:
			if pv := sessions[i].ProtocolVersion(); spec.Known(pv) {
				return pv, true
			}
		case EraStateless:
			return spec.Stateless.Latest(), true
		}
	}
	return "", false
}

func (h *authHost) Wait(cond func() (ok bool, got, settled string)) (ok bool, got, why string) {
	s := h.s
	ctx, cancel := context.WithTimeout(s.ctx, s.waitTimeout)
	defer cancel()
	s.journal.waitView(ctx, nil, func(msgs Messages) bool {
		if ok, got, why = cond(); ok || why != "" {
			return true
		}
		if o, fresh := s.look(msgs); fresh {
			why = o.over()
		}
		return why != ""
	})
	if !ok {
		var settled string
		if ok, got, settled = cond(); settled != "" {
			why = settled
		}
	}
	if why == "" && s.ctx.Err() != nil {
		why = "the server is closed"
	}
	return ok, got, why
}

func (h *authHost) Failure(call, want, got, why string) string {
	return h.s.failure(call, want, h.s.settledGot(got, why), h.s.journal.view())
}

// extFault is an installed fault of an extension (package oauth's), as the
// authorization sees it (authplug.Fault).
type extFault struct{ h *FaultHandle }

func (e extFault) Ext() any       { return e.h.f.ext }
func (e extFault) Method() string { return e.h.f.method }
func (e extFault) Hit()           { e.h.hit() }
func (e extFault) String() string { return e.h.String() }

func (e extFault) Matches(sess authplug.Session, method string) bool {
	return e.h.matches(sess.(*Session), Message{Direction: FromClient, Kind: KindRequest, Method: method})
}

// gateRequest is an MCP request at the authorization's gate
// (authplug.Request), and its body's one decoding (ServeHTTP makes one for
// every request, whether or not the server has an authorization).
type gateRequest struct {
	f    *httpFront
	r    *http.Request
	body postBody // the body's decoding, which post takes when the request passes

	peeked bool
	peek   authplug.Peek
	p      *peeked
}

func (q *gateRequest) Session() authplug.Session {
	if c := q.f.lookup(q.r.Header.Get(spec.HeaderSessionID)); c != nil {
		return c.sess
	}
	return q.f.strays()
}

func (q *gateRequest) Peek() authplug.Peek {
	if !q.peeked {
		q.peek, q.p = readMCPRequest(q.r, q.f.srv.httpCfg.bodyLimit, &q.body)
		q.peeked = true
	}
	return q.peek
}

func (q *gateRequest) KnownClient() bool {
	q.Peek()
	info := q.p.info
	if !info.Exists() {
		return false
	}
	key := info.Raw
	if v, err := parseJSONValue([]byte(key)); err == nil {
		if b, err := json.Marshal(v); err == nil {
			key = string(b)
		}
	}
	q.f.mu.Lock()
	defer q.f.mu.Unlock()
	_, ok := q.f.stateless[key]
	return ok
}

// readMCPRequest reads what the gate needs of an MCP request. A POST's
// body is decoded into in, where the MCP endpoint (post) finds it when the
// request passes: the body is decoded once.
func readMCPRequest(r *http.Request, limit int64, in *postBody) (authplug.Peek, *peeked) {
	var q authplug.Peek
	var p *peeked
	if r.Body != nil && r.Method == http.MethodPost {
		q.Body, _ = io.ReadAll(io.LimitReader(r.Body, limit))
		r.Body = io.NopCloser(bytes.NewReader(q.Body))
		p = in.decode(q.Body)
	} else {
		var none postBody // no body: nothing the endpoint reads
		p = none.decode(nil)
	}
	q.Method = p.method.String()
	if q.Method == "tools/call" {
		q.Tool = p.name().String()
	}
	q.Version = r.Header.Get(spec.HeaderProtocolVersion)
	if q.Version == "" && p.pv.Type != 0 {
		q.Version = p.pv.String()
	}
	if q.Version == "" && q.Method == "initialize" {
		q.Version = gjson.GetBytes(q.Body, "params.protocolVersion").String()
	}
	return q, p
}

// authDiagramLine draws a KindAuth message in the sequence diagram: between
// the client's lane and the server (the protected resource and its
// metadata) or the authorization server.
func authDiagramLine(b *strings.Builder, lane string, m Message) {
	peer := "S"
	if m.Method != authplug.Resource && m.Method != authplug.PRM {
		peer = "AS"
	}
	from, to, arrow := lane, peer, "->>"
	if m.Direction == FromServer {
		from, to, arrow = peer, lane, "-->>"
	}
	text := m.raw
	if m.Direction == FromClient && m.Method == authplug.Resource {
		// the request line, the JSON-RPC method, and why it was refused
		line, rest, _ := strings.Cut(text, " {")
		line, _, _ = strings.Cut(line, " (")
		why := ""
		if i := strings.LastIndex(text, " ("); i >= 0 {
			why = strings.TrimSuffix(text[i+2:], ")")
		}
		if method := gjson.Get("{"+rest, "method"); method.Type == gjson.String {
			line += " " + method.Str
		}
		text = line
		if why != "" {
			text += ": " + why
		}
		fmt.Fprintf(b, "    %s->>S: %s\n", lane, mermaidText(shorten(text, 80)))
		return
	}
	if m.Direction == FromClient {
		// the request line, without the body
		if i := strings.IndexByte(text, ' '); i >= 0 {
			if j := strings.IndexByte(text[i+1:], ' '); j >= 0 {
				text = text[:i+1+j]
			}
		}
		if u, err := url.Parse(strings.TrimPrefix(text, m.HTTP.methodOr()+" ")); err == nil && u.RawQuery != "" {
			text = m.HTTP.methodOr() + " " + u.Path + "?…"
		}
	} else {
		status, rest, _ := strings.Cut(text, " ")
		text = status
		switch {
		case strings.HasPrefix(rest, "Location: "):
			text += " redirect"
			if u, err := url.Parse(strings.TrimPrefix(rest, "Location: ")); err == nil {
				for _, k := range []string{"code", "error", "iss"} {
					if u.Query().Has(k) {
						text += " " + k
					}
				}
			}
		case strings.HasPrefix(rest, "WWW-Authenticate: "):
			if e := authplug.ChallengeParam(rest, "error"); e != "" {
				text += " " + e
			} else {
				text += " challenge"
			}
		default:
			if e := gjson.Get(rest, "error"); e.Type == gjson.String {
				text += " " + e.Str
			} else if gjson.Get(rest, "access_token").Exists() {
				text += " token"
			} else if gjson.Get(rest, "client_id").Exists() {
				text += " client_id"
			} else if gjson.Valid(rest) {
				text += " metadata"
			}
		}
	}
	fmt.Fprintf(b, "    %s%s%s: %s\n", from, arrow, to, mermaidText(shorten(text, 80)))
}

// hasAuthLane reports whether the diagram needs the authorization server's lane.
func hasAuthLane(msgs []Message) bool {
	for i := range msgs {
		if msgs[i].Kind == KindAuth && msgs[i].Method != authplug.Resource && msgs[i].Method != authplug.PRM {
			return true
		}
	}
	return false
}

func (x *HTTPExchange) methodOr() string {
	if x == nil {
		return ""
	}
	return x.Method
}
