package mcptest

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/mcpmock/mcpmock/internal/spec"
	"github.com/tidwall/gjson"
)

// Stage 2 of 4: check (stage1_receive.go lists the stages). process
// journals a message from the client and checks, in this order, the rules
// every such message keeps (parse error, invalid request, "jsonrpc"); then
// request (id type, unique id, params an object, the request's own fields
// in checkRequestFields, the era's route: statelessRequest for the
// stateless era, checkLifecycle and checkCapability for the handshake
// era) or notification (params, the era's notifications, the lifecycle,
// notifications/cancelled); a response is matched to the server's request
// it answers. A request that passes goes on to stage 3 (handle,
// handleModern), or first to the faults that act on it.
//
// Checks raised elsewhere, by nature: the HTTP front's, before a POST
// reaches stage 1 (checkOrigin in http.go; the authorization gate,
// package oauth's, plugged in by http_auth.go; checkMedia, checkVersionHeader and checkStatelessHeaders in
// http_post.go, http_rules.go and stateless.go), which refuse with an HTTP
// status; a batch's (batch.go: takesBatch, noBatch, receiveBatch); those a
// method's own parameters break, raised where they are read in stage 3
// (invalidParams, checkArguments in rules.go, checkRetry in mrtr.go); and a
// response's to a server request (checkElicitation in rules.go).

// process handles one decoded message from the client, framed alone or
// in a batch: journal, check, dispatch.
func (s *Session) process(d decoded) {
	var pend pendingRequest
	var answered bool
	if d.msg.IsResponse() {
		s.mu.Lock()
		pend, answered = s.pending[d.msg.ID]
		delete(s.pending, d.msg.ID)
		s.mu.Unlock()
		d.msg.Method = pend.method
	}
	prior := phaseReady
	if d.msg.Kind == KindNotification && d.msg.Method == "notifications/initialized" {
		// Ready before the notification is in the journal, so that a test
		// that saw it there (AssertHandshakeCompleted) finds the session ready.
		prior = s.markInitialized()
	}
	m := s.srv.journal.record(d.msg)

	if d.parseError {
		s.violate(ruleParseError, m, "the frame is not valid JSON")
		s.replyError("", "", spec.CodeParseError, "Parse error", nil)
		return
	}
	if m.Kind == KindInvalid {
		s.violate(ruleInvalidRequest, m, m.Problem)
		id := ""
		if validID(d.id) {
			id = m.ID
		}
		s.replyError(id, "", spec.CodeInvalidRequest, "Invalid Request: "+m.Problem, nil)
		return
	}
	if d.jsonrpc.Type != gjson.String || d.jsonrpc.Str != "2.0" {
		what := "missing"
		if d.jsonrpc.Exists() {
			what = d.jsonrpc.Raw
		}
		s.violate(ruleJSONRPCVersion, m, `"jsonrpc" is `+what+`, want "2.0"`)
		if m.Kind == KindRequest {
			id := ""
			if validID(d.id) {
				id = m.ID
			}
			s.replyError(id, m.Method, spec.CodeInvalidRequest, `Invalid Request: "jsonrpc" must be "2.0"`, nil)
			return
		}
	}
	switch m.Kind {
	case KindRequest:
		s.request(m, d)
	case KindNotification:
		s.notification(m, d, prior)
	default:
		s.mu.Lock()
		late := s.gaveUp[m.ID]
		delete(s.gaveUp, m.ID)
		s.mu.Unlock()
		switch {
		case answered:
			if pend.method == "elicitation/create" && m.Kind == KindResult {
				s.checkElicitation(m, m.Get("result"), pend.params)
			}
			pend.reply <- m
		case late:
			// the answer to a request the mock cancelled: journaled, no violation
		case m.Kind == KindError && m.ID == "null":
			// the client could not parse something the mock sent: JSON-RPC asks for exactly this
		default:
			s.violate(ruleUnexpectedResponse, m, "no request of the server has id "+m.ID+" (or it was already answered)")
		}
	}
}

// request checks and dispatches a request from the client.
func (s *Session) request(m Message, d decoded) {
	if !validID(d.id) {
		s.violate(ruleIDType, m, "id "+m.ID+" is not a string or an integer")
		s.replyError("", m.Method, spec.CodeInvalidRequest, "Invalid Request: id must be a string or an integer", nil)
		return
	}
	s.mu.Lock()
	dup := !s.seenIDs.add(m.ID)
	s.mu.Unlock()
	// Over Streamable HTTP the stateless era has no session: each POST
	// stands alone, and the mock groups requests by their clientInfo, so
	// two clients (or one that restarted) rightly use the same ids. There
	// only a retry that reuses the id of the round it answers breaks a rule.
	statelessHTTP := m.HTTP != nil && s.Era() == EraStateless
	switch {
	case statelessHTTP:
		if isRetry(d) && s.retryReusesRoundID(m, d) {
			s.violate(ruleMRTRNewID, m, "the retry reuses id "+m.ID+"; a retry after input_required must have a new id")
		}
	case dup && isRetry(d):
		s.violate(ruleMRTRNewID, m, "the retry reuses id "+m.ID+"; a retry after input_required must have a new id")
	case dup:
		s.violate(ruleIDUnique, m, "id "+m.ID+" was already used by an earlier request of this session")
	}
	if d.params.Exists() && !d.params.IsObject() {
		s.violate(ruleInvalidParams, m, "params is "+d.params.Type.String()+", want an object")
		s.replyError(m.ID, m.Method, spec.CodeInvalidParams, "Invalid params: params must be an object", nil)
		return
	}
	s.checkRequestFields(m, d)
	if s.modernRoute(d) {
		s.statelessRequest(m, d)
		return
	}
	s.checkLifecycle(m)
	s.checkCapability(m)
	if s.srv.faults.hasInbound(s, m) {
		s.serveFaulty(m, d, s.handle)
		return
	}
	s.handle(m, d)
}

// checkRequestFields records the rules about a request's own fields, in
// either era: an id a JavaScript peer cannot hold, a progressToken of the
// wrong type, requests going on after an initialize answered with a
// version the client did not ask for.
func (s *Session) checkRequestFields(m Message, d decoded) {
	if d.id.Type == gjson.Number {
		if n, err := strconv.ParseInt(d.id.Raw, 10, 64); err != nil || n > maxSafeInteger || n < -maxSafeInteger {
			s.violate(ruleIDPrecision, m, "id "+shorten(m.ID, 40)+" is beyond ±(2^53-1): a JavaScript peer rounds it, and the reply matches no request")
		}
	}
	if pt := d.paramPath(paramMeta, "progressToken"); pt.Exists() && !validID(pt) {
		s.violate(ruleProgressTokenType, m, "params._meta.progressToken is "+describe(pt)+", want a string or an integer")
	}
	if m.Method == "initialize" || m.Method == "ping" {
		return
	}
	s.mu.Lock()
	asked, told, era := s.askedVersion, s.version, s.era
	s.mu.Unlock()
	// A client may go on with an older or newer version it supports; none
	// supports, in a handshake, a version that does not exist or belongs
	// to the stateless era. The rule's row has it reported once a session.
	if era == EraHandshake && asked != told && !spec.Handshake.Has(told) {
		s.violate(ruleUnofferedVersion, m, fmt.Sprintf("the client asked for %q, was answered %q, which no handshake has, and went on; a client that does not support the version should disconnect", asked, told))
	}
}

// maxSafeInteger is 2^53-1, the largest integer every JSON peer holds exactly.
const maxSafeInteger = 1<<53 - 1

// versionFormat reports whether v looks like a protocol version: YYYY-MM-DD.
func versionFormat(v string) bool {
	if len(v) != 10 || v[4] != '-' || v[7] != '-' {
		return false
	}
	for i, c := range v {
		if i != 4 && i != 7 && (c < '0' || c > '9') {
			return false
		}
	}
	return true
}

// modernRoute reports whether a request is served by the stateless era:
// the server speaks it, and the request carries the per-request _meta, or
// is server/discover, or comes on a session already stateless, or the
// server speaks nothing else.
func (s *Session) modernRoute(d decoded) bool {
	srv := s.srv
	if len(srv.modern) == 0 {
		return false
	}
	if d.msg.Method == "initialize" {
		return len(srv.legacy) == 0 || statelessInitialize(d.msg)
	}
	if s.Era() == EraHandshake {
		return false // an initialize selected the handshake era for this connection
	}
	if len(srv.legacy) == 0 || d.msg.Method == "server/discover" || d.meta(spec.MetaProtocolVersion).Exists() {
		return true
	}
	return s.Era() == EraStateless
}

// statelessInitialize reports whether m is an initialize sent over HTTP as
// a request of the stateless era: its Mcp-Protocol-Version header names a
// version of that era, which removed initialize. The streamable HTTP
// transport answers a method the requested version does not implement
// with 404 and -32601; an initialize without that header selects the
// handshake era, as the spec has a dual-era server do.
func statelessInitialize(m Message) bool {
	return m.Method == "initialize" && m.HTTP != nil && isStateless(m.HTTP.ProtocolVersion)
}

// statelessRequest checks and dispatches a request of the stateless era.
func (s *Session) statelessRequest(m Message, d decoded) {
	m.modern = true
	srv := s.srv
	if removedInStateless(m.Method) {
		s.violate(ruleRemovedMethod, m, m.Method+" does not exist in protocol 2026-07-28")
		s.replyError(m.ID, m.Method, spec.CodeMethodNotFound, "Method not found: "+m.Method+" is not part of protocol 2026-07-28", nil)
		return
	}
	if statelessInitialize(m) {
		s.violate(ruleRemovedMethod, m, "initialize sent as a request of protocol "+m.HTTP.ProtocolVersion+" (its Mcp-Protocol-Version header), which has no initialize")
		s.replyError(m.ID, m.Method, spec.CodeMethodNotFound, "Method not found: initialize is not part of protocol "+m.HTTP.ProtocolVersion+"; this server speaks "+strings.Join(srv.versions, ", "), nil)
		return
	}
	if m.Method == "initialize" { // only here on a modern-only server
		s.mu.Lock()
		discovered := s.discovered
		s.mu.Unlock()
		if discovered {
			s.violate(ruleInitializeAfterDiscover, m, "initialize sent to a modern-only server after server/discover succeeded")
		}
		data, _ := json.Marshal(map[string]any{"supported": srv.versions, "requested": d.params.Get("protocolVersion").Value()})
		s.replyError(m.ID, m.Method, spec.CodeInvalidParams, "Unsupported protocol version: this server speaks only "+strings.Join(srv.versions, ", "), data)
		return
	}
	pv, caps := d.meta(spec.MetaProtocolVersion), d.meta(spec.MetaClientCapabilities)
	var missing []string
	if pv.Type != gjson.String {
		missing = append(missing, spec.MetaProtocolVersion)
	}
	if !caps.IsObject() {
		missing = append(missing, spec.MetaClientCapabilities)
	}
	if len(missing) > 0 {
		s.violate(ruleMetaRequired, m, "params._meta lacks "+strings.Join(missing, " and "))
		s.replyError(m.ID, m.Method, spec.CodeInvalidParams, "Invalid params: missing or invalid _meta field "+strings.Join(missing, ", "), nil)
		return
	}
	if !slices.Contains(srv.modern, pv.Str) {
		s.mu.Lock()
		told := s.toldSupported
		s.toldSupported = srv.versions
		s.mu.Unlock()
		if told != nil && !slices.Contains(told, pv.Str) {
			s.violate(ruleRetrySupportedVersion, m, fmt.Sprintf("retried with %q after -32022 listed %s", pv.Str, strings.Join(told, ", ")))
		}
		data, _ := json.Marshal(map[string]any{"supported": srv.versions, "requested": pv.Str})
		s.replyError(m.ID, m.Method, spec.CodeUnsupportedProtocolVersion, "Unsupported protocol version", data)
		return
	}
	if lvl := d.meta(spec.MetaLogLevel); lvl.Exists() && (lvl.Type != gjson.String || !slices.Contains(logLevels, lvl.Str)) {
		s.invalidParams(m, "_meta "+spec.MetaLogLevel+" is "+describe(lvl)+", want one of debug … emergency")
		return
	}
	s.noteModernRequest(m, d, pv.Str, caps)
	if path, ok := spec.ServerCapability(m.Method, pv.Str); ok {
		real := srv.capabilities()
		s.mu.Lock()
		told := s.wireCaps
		s.mu.Unlock()
		if told.Exists() && !declaredIn(told, path) || !told.Exists() && !declared(real, path) {
			s.violate(ruleUndeclaredMethod, m, s.undeclared(m, path))
		}
		if !declared(real, path) {
			s.replyError(m.ID, m.Method, spec.CodeMethodNotFound, "Method not found: the server does not declare the "+path+" capability", nil)
			return
		}
	}
	s.checkRetry(m, d)
	if s.rejectForeignState(m, d) {
		return
	}
	if srv.faults.hasInbound(s, m) {
		s.serveFaulty(m, d, s.handleModern)
		return
	}
	s.handleModern(m, d)
}

// checkLifecycle records the lifecycle rules a request breaks: initialize
// first (only ping may come before it), initialize only once, and no
// request but ping between the initialize result and
// notifications/initialized.
func (s *Session) checkLifecycle(m Message) {
	s.mu.Lock()
	ph := s.phase
	s.mu.Unlock()
	switch {
	case m.Method == "ping" || m.Method == "server/discover":
	case m.Method == "initialize":
		if ph != phaseNew {
			s.violate(ruleInitializeOnce, m, "initialize sent again in a session that is already initialized")
		} else {
			s.mu.Lock()
			s.initID = m.ID // known at once, so cancelling a pending initialize is caught
			s.mu.Unlock()
		}
	case ph == phaseNew:
		s.violate(ruleInitializeFirst, m, m.Method+" sent before initialize")
	case ph == phaseInitializing:
		s.violate(ruleInitializedFirst, m, m.Method+" sent before notifications/initialized")
	}
}

// checkCapability records a call of a method whose capability the server
// did not declare to this session (the capability each method needs, in
// each version, is the protocol table's: internal/spec).
func (s *Session) checkCapability(m Message) {
	s.mu.Lock()
	caps, version := s.caps, s.version
	s.mu.Unlock()
	if version == "" {
		return // before initialize: ruleInitializeFirst says it
	}
	path, ok := spec.ServerCapability(m.Method, version) // none for completion/complete in 2024-11-05
	if ok && !declaredIn(caps, path) {
		s.violate(ruleUndeclaredMethod, m, s.undeclared(m, path))
	}
}

// markInitialized moves the session to ready if it was waiting for
// notifications/initialized, and returns the phase it was in.
func (s *Session) markInitialized() phase {
	s.mu.Lock()
	defer s.mu.Unlock()
	ph := s.phase
	if ph == phaseInitializing && s.era == EraHandshake {
		s.phase = phaseReady
	}
	return ph
}

// notification handles a notification from the client; prior is the phase
// the session was in before a notifications/initialized.
func (s *Session) notification(m Message, d decoded, prior phase) {
	if d.params.Exists() && !d.params.IsObject() {
		s.violate(ruleInvalidParams, m, "params is "+d.params.Type.String()+", want an object")
		return
	}
	if mm, _ := spec.Lookup(m.Method); mm.FromClient&spec.Stateless == 0 && s.Era() == EraStateless {
		sent := spec.Names(func(n spec.Method) bool { return n.Notification && n.FromClient&spec.Stateless != 0 })
		s.violate(ruleRemovedMethod, m, m.Method+" does not exist in protocol 2026-07-28, whose client notifications are "+strings.Join(sent, ", "))
		return
	}
	switch m.Method {
	case "notifications/initialized":
		if prior == phaseNew {
			s.violate(ruleInitializeFirst, m, "notifications/initialized sent before the initialize result")
		}
		return
	case "notifications/cancelled":
		s.cancelled(m, d)
		return
	}
	if s.currentPhase() == phaseNew {
		s.violate(ruleInitializeFirst, m, m.Method+" sent before initialize")
	}
}

func (s *Session) currentPhase() phase {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.phase
}

// cancelled handles notifications/cancelled: the handler of that request,
// if any is running, has its context cancelled and sends no reply.
func (s *Session) cancelled(m Message, d decoded) {
	id := d.params.Get("requestId")
	if !id.Exists() {
		s.violate(ruleInvalidParams, m, "notifications/cancelled without params.requestId")
		return
	}
	if !validID(id) {
		s.violate(ruleCancelRequestIDType, m, "params.requestId is "+describe(id)+", want a string or an integer")
		return
	}
	s.mu.Lock()
	isInit := s.initID != "" && id.Raw == s.initID
	running := slices.Clone(s.inflight[id.Raw])
	s.mu.Unlock()
	if isInit {
		s.violate(ruleCancelInitialize, m, "the initialize request must not be cancelled")
	}
	for _, inf := range running { // every request with that id: none may be answered now
		inf.cancel(errCancelledByClient)
	}
	s.dropListener(id.Raw) // a cancelled subscriptions/listen ends, with no reply
}
