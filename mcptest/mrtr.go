package mcptest

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/mcpmock/mcpmock/internal/spec"
	"github.com/tidwall/gjson"
)

// InputRequest is one thing a server asks the client for in the middle of a
// tools/call, prompts/get or resources/read: an elicitation, a sampling
// call or the client's roots. In the stateless era it travels in an
// input_required result (the multi-round-trip pattern, MRTR); in the
// handshake era the mock sends it as a server-to-client request.
type InputRequest struct {
	key, method string
	params      json.RawMessage
	err         error
	round       int // RequiresInput: which call of it asked for this input (0 the first)
}

// capability is the client capability the request needs.
func (r InputRequest) capability() string {
	if m, _ := spec.Lookup(r.method); m.Needs.Of == spec.Client {
		return m.Needs.Path
	}
	return ""
}

// ElicitInput asks the user for structured input: an elicitation/create
// (form mode) with message and requestedSchema (a JSON object text or Go value).
func ElicitInput(key, message string, requestedSchema any) InputRequest {
	schema, err := toJSONObject(requestedSchema)
	if err == nil && schema == nil {
		err = fmt.Errorf("requestedSchema is nil")
	}
	p, _ := json.Marshal(map[string]any{"mode": "form", "message": message, "requestedSchema": json.RawMessage(schema)})
	if err != nil {
		p = nil
	}
	return InputRequest{key: key, method: "elicitation/create", params: p, err: err}
}

// SamplingInput asks the client's model for a completion: a
// sampling/createMessage with the given params (messages, maxTokens, …;
// a JSON object text or Go value).
func SamplingInput(key string, params any) InputRequest {
	p, err := toJSONObject(params)
	return InputRequest{key: key, method: "sampling/createMessage", params: p, err: err}
}

// RootsInput asks the client for its roots: a roots/list, with empty
// params (the schema allows leaving them out, but the official Go SDK
// v1.8.0 cannot decode a roots/list input request without params; send
// InputRequired with a raw request to reproduce that).
func RootsInput(key string) InputRequest {
	return InputRequest{key: key, method: "roots/list", params: json.RawMessage("{}")}
}

// wire writes the request as it travels in inputRequests:
// {"method": …, "params": …}.
func (r InputRequest) wire() (json.RawMessage, error) {
	if r.err != nil {
		return nil, r.err
	}
	m := map[string]any{"method": r.method}
	if r.params != nil {
		m["params"] = r.params
	}
	return json.Marshal(m)
}

// InputRequired answers with a stateless-era input_required result: the
// client must fulfil the input requests and retry the same request with a
// new id, its inputResponses, and requestState echoed unchanged (omitted
// when requestState is ""). Only tools/call, prompts/get and resources/read
// may answer it. A Handler reads the retry's answers with
// Request.InputResponse and Request.RequestState.
func InputRequired(requestState string, inputs ...InputRequest) Reply {
	res := map[string]any{"resultType": "input_required"}
	if len(inputs) > 0 {
		reqs := map[string]json.RawMessage{}
		for _, in := range inputs {
			if _, dup := reqs[in.key]; dup {
				return brokenReply("InputRequired", fmt.Errorf("two input requests named %q", in.key))
			}
			w, err := in.wire()
			if err != nil {
				return brokenReply("InputRequired", err)
			}
			reqs[in.key] = w
		}
		res["inputRequests"] = reqs
	}
	if requestState != "" {
		res["requestState"] = requestState
	}
	if len(inputs) == 0 && requestState == "" {
		return brokenReply("InputRequired", fmt.Errorf("give input requests, a requestState, or both"))
	}
	return resultOf(fmt.Sprintf("InputRequired(%q, %s)", requestState, plural(len(inputs), "input", "inputs")), res)
}

// inputKeys names the inputs, for messages.
func inputKeys(inputs []InputRequest) string {
	var ks []string
	for _, in := range inputs {
		ks = append(ks, strconv.Quote(in.key))
	}
	return strings.Join(ks, ", ")
}

// round is one input_required result the mock sent: what a retry must
// echo and answer.
type round struct {
	id, method, target, state string
	keys                      []string
}

// noteRound registers an input_required result sent in answer to m.
func (s *Session) noteRound(m Message, result gjson.Result) {
	r := round{id: m.ID, method: m.Method, target: mrtrTarget(m), state: result.Get("requestState").String()}
	result.Get("inputRequests").ForEach(func(k, _ gjson.Result) bool {
		r.keys = append(r.keys, k.String())
		return true
	})
	sort.Strings(r.keys)
	if r.state != "" {
		s.srv.states.noted(r.state)
	}
	s.mu.Lock()
	s.rounds = append(s.rounds, r)
	s.mu.Unlock()
}

// mrtrTarget is what a request is about: the tool or prompt name, the URI.
func mrtrTarget(m Message) string {
	if m.Method == "resources/read" {
		return m.Get("params.uri").String()
	}
	return m.Get("params.name").String()
}

// isRetry reports whether a request answers an input_required result.
func isRetry(d decoded) bool {
	return d.getParam(paramInputResponses).Exists() || d.getParam(paramRequestState).Exists()
}

// retryReusesRoundID reports whether a retry has the id of the request
// whose input_required result it answers (found by its requestState, or
// else the latest round of the same method and target).
func (s *Session) retryReusesRoundID(m Message, d decoded) bool {
	state := d.getParam(paramRequestState)
	target := mrtrTarget(m)
	s.mu.Lock()
	defer s.mu.Unlock()
	var r *round
	for i := range s.rounds {
		x := &s.rounds[i]
		switch {
		case state.Exists() && x.state != "" && x.state == state.String():
			r = x
		case !state.Exists() && x.method == m.Method && x.target == target:
			r = x
		}
	}
	return r != nil && r.id == m.ID
}

// checkRetry holds a retry to the MRTR rules: requestState echoed exactly
// (never invented, never dropped) and a response for every input request.
func (s *Session) checkRetry(m Message, d decoded) {
	if !mrtrMethod(m.Method) {
		return
	}
	state, responses := d.getParam(paramRequestState), d.getParam(paramInputResponses)
	if !state.Exists() && !responses.Exists() {
		return
	}
	target := mrtrTarget(m)
	s.mu.Lock()
	var latest, byState *round
	for i := range s.rounds {
		r := &s.rounds[i]
		if r.method == m.Method && r.target == target {
			latest = r
		}
		if state.Exists() && r.state != "" && r.state == state.String() {
			byState = r
		}
	}
	s.mu.Unlock()
	switch {
	case state.Exists() && byState == nil && latest != nil && latest.state != "":
		s.violate(ruleMRTRRequestState, m, fmt.Sprintf("requestState %s is not the %q the server sent: it must be echoed unchanged", shorten(state.Raw, 60), latest.state))
	case state.Exists() && byState == nil:
		s.violate(ruleMRTRRequestState, m, fmt.Sprintf("requestState %s was never sent by the server: a client must not invent one", shorten(state.Raw, 60)))
	case !state.Exists() && latest != nil && latest.state != "":
		s.violate(ruleMRTRRequestState, m, fmt.Sprintf("the retry drops requestState %q: it must be echoed unchanged", latest.state))
	}
	r := byState
	if r == nil {
		r = latest
	}
	if r == nil {
		return
	}
	var missing []string
	for _, k := range r.keys {
		if !responses.Get(gjson.Escape(k)).Exists() {
			missing = append(missing, strconv.Quote(k))
		}
	}
	if len(missing) > 0 {
		s.violate(ruleMRTRComplete, m, "the retry has no inputResponses for "+strings.Join(missing, ", "))
	}
}

// clientLacks returns the capabilities, as a requiredCapabilities object,
// that the inputs need and caps does not declare; nil when none.
func clientLacks(caps gjson.Result, inputs []InputRequest) map[string]any {
	var need map[string]any
	for _, in := range inputs {
		c := in.capability()
		if c != "" && !caps.Get(c).Exists() {
			if need == nil {
				need = map[string]any{}
			}
			need[c] = map[string]any{}
		}
	}
	return need
}

func (s *Session) replyMissingCapability(m Message, need map[string]any) {
	names := make([]string, 0, len(need))
	for k := range need {
		names = append(names, k)
	}
	sort.Strings(names)
	data, _ := json.Marshal(map[string]any{"requiredCapabilities": need})
	s.replyError(m.ID, m.Method, spec.CodeMissingClientCapability,
		"Missing required client capability: "+strings.Join(names, ", "), data)
}

// askStateless answers a request whose script RequiresInput in the
// stateless era: until the answers gathered so far (the inputResponses of
// this retry and those the requestState it echoes carries from earlier
// rounds) hold a response for every input, it answers input_required for
// the missing ones of the first round that has any (each RequiresInput
// call is a round), with a fresh requestState that carries the answers.
// It returns the answers by key, and whether the request may go on to its
// scripted reply.
func (s *Session) askStateless(m Message, d decoded, inputs []InputRequest) (map[string]json.RawMessage, bool) {
	responses := d.getParam(paramInputResponses)
	answers := s.srv.states.answers(d.getParam(paramRequestState))
	var missing []InputRequest
	for _, in := range inputs {
		if r := responses.Get(gjson.Escape(in.key)); r.Exists() {
			if !r.IsObject() {
				s.invalidParams(m, fmt.Sprintf("params.inputResponses.%s is %s, want the result of %s (an object)", in.key, describe(r), in.method))
				return nil, false
			}
			if in.method == "elicitation/create" {
				s.checkElicitation(m, r, in.params)
			}
			answers[in.key] = json.RawMessage(r.Raw)
		}
		// the missing inputs of the first round that has any: a later
		// round is asked once the earlier ones are answered
		if _, ok := answers[in.key]; !ok && (len(missing) == 0 || missing[0].round == in.round) {
			missing = append(missing, in)
		}
	}
	if len(missing) == 0 {
		return answers, true
	}
	s.mu.Lock()
	caps := s.clientCaps
	s.mu.Unlock()
	if need := clientLacks(caps, missing); need != nil {
		s.replyMissingCapability(m, need)
		return nil, false
	}
	s.reply(m, InputRequired(s.srv.states.issue(answers), missing...))
	return nil, false
}

// stateBook is every requestState the server issued, and what each
// carries: a retry that echoes one goes on from the answers given before
// it; a requestState not in the book was invented or tampered with, and
// is rejected. The spec has a server protect its state's integrity (an
// HMAC, an AEAD); the mock, whose states never leave the process, keeps
// them instead.
type stateBook struct {
	mu     sync.Mutex
	seq    int
	issued map[string]map[string]json.RawMessage
}

// issue registers a new requestState carrying answers, and returns it.
func (b *stateBook) issue(answers map[string]json.RawMessage) string {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.seq++
	state := fmt.Sprintf("mcptest-state-%d", b.seq)
	b.note(state, answers)
	return state
}

// note registers a requestState the server sent (a script's own, in an
// InputRequired reply, carries no answers).
func (b *stateBook) note(state string, answers map[string]json.RawMessage) {
	if b.issued == nil {
		b.issued = map[string]map[string]json.RawMessage{}
	}
	if _, ok := b.issued[state]; !ok || answers != nil {
		b.issued[state] = maps.Clone(answers)
	}
}

// noted registers a requestState the server sent in an input_required result.
func (b *stateBook) noted(state string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.note(state, nil)
}

// known reports whether the server issued state.
func (b *stateBook) known(state string) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	_, ok := b.issued[state]
	return ok
}

// answers returns a copy of the answers state carries (none when the
// request echoes no requestState, or one the server did not issue).
func (b *stateBook) answers(state gjson.Result) map[string]json.RawMessage {
	out := map[string]json.RawMessage{}
	if state.Type != gjson.String {
		return out
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	maps.Copy(out, b.issued[state.Str])
	return out
}

// rejectForeignState answers a tools/call, prompts/get or resources/read
// whose requestState the server never issued with -32602 and reports
// true: the spec has a server reject state that fails verification.
func (s *Session) rejectForeignState(m Message, d decoded) bool {
	state := d.getParam(paramRequestState)
	if !state.Exists() || !mrtrMethod(m.Method) || state.Type == gjson.String && s.srv.states.known(state.Str) {
		return false
	}
	s.replyError(m.ID, m.Method, spec.CodeInvalidParams,
		"Invalid params: requestState "+shorten(state.Raw, 60)+" was not issued by this server (it fails verification: echo the requestState of the input_required result unchanged)", nil)
	return true
}

// mrtrMethod reports whether method may answer input_required.
func mrtrMethod(method string) bool {
	return method == "tools/call" || method == "prompts/get" || method == "resources/read"
}

// askHandshake gathers the inputs of a request whose script RequiresInput
// in the handshake era, as server-to-client requests, one after the other.
// It returns the responses by key, or the reply to send instead.
func (s *Session) askHandshake(ctx context.Context, m Message, inputs []InputRequest) (map[string]json.RawMessage, *Reply) {
	s.mu.Lock()
	caps, version := s.initCaps, s.version
	s.mu.Unlock()
	got := map[string]json.RawMessage{}
	var asked []InputRequest
	for _, in := range inputs {
		if sent, _ := spec.Lookup(in.method); in.method == "elicitation/create" && !sent.FromServer.Has(version) {
			// render.go: a version without elicitation is not asked; the
			// handler sees the input declined
			got[in.key] = json.RawMessage(`{"action":"decline"}`)
			s.noteDowngrades([]string{fmt.Sprintf("%s asks for elicitation %q (protocol %s), not sent: the handler sees it declined", m.Method, in.key, sent.FromServer.List()[0])})
			continue
		}
		asked = append(asked, in)
	}
	if need := clientLacks(caps, asked); need != nil {
		// -32021 is a code of the stateless era: the handshake era has
		// only the generic codes (render.go)
		data, _ := json.Marshal(map[string]any{"requiredCapabilities": need})
		r := JSONRPCError(spec.CodeInternalError, "Missing required client capability", data)
		return nil, &r
	}
	for _, in := range asked {
		var params any
		if in.params != nil {
			params = in.params
		}
		reply, err := s.SendRequest(ctx, in.method, params)
		if err != nil {
			r := JSONRPCError(spec.CodeInternalError, fmt.Sprintf("mcptest: asking the client for %q: %v", in.key, err), nil)
			return nil, &r
		}
		if reply.Kind == KindError {
			r := JSONRPCError(spec.CodeInternalError, fmt.Sprintf("mcptest: the client answered %s for %q with error %d: %s",
				in.method, in.key, reply.ErrorCode, reply.Get("error.message").String()), nil)

			return nil, &r
		}
		// the answer to elicitation/create was checked as it came in (process)
		got[in.key] = json.RawMessage(reply.Get("result").Raw)
	}
	return got, nil
}
