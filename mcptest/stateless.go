package mcptest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"

	"github.com/mcpmock/mcpmock/internal/spec"
	"github.com/tidwall/gjson"
	"github.com/tidwall/sjson"
)

// Era is one of the two eras of the protocol a session can be in
// (Session.Era): EraHandshake or EraStateless. The zero value is no era yet.
type Era string

// The eras of the protocol.
const (
	// EraHandshake is the era of protocol versions 2024-11-05 to
	// 2025-11-25: initialize, then notifications/initialized; sessions have state.
	EraHandshake Era = "handshake"
	// EraStateless is the era of 2026-07-28 and later: no handshake, every
	// request carries its _meta, server/discover.
	EraStateless Era = "stateless"
)

// valid reports whether e is one of the eras.
func (e Era) valid() bool { return e == EraHandshake || e == EraStateless }

// metaPath is a gjson path to a _meta key under params.
func metaPath(key string) string { return "_meta." + gjson.Escape(key) }

var (
	pathProtocolVersion = metaPath(spec.MetaProtocolVersion)
	pathLogLevel        = metaPath(spec.MetaLogLevel)
)

// meta returns the value of key (the first, as Get reads it) in the _meta
// of d's params, reading only the _meta member: the arguments before it,
// however long, are not read again, and no path is parsed.
func (d *decoded) meta(key string) gjson.Result {
	var out gjson.Result
	if m := d.getParam(paramMeta); m.IsObject() {
		m.ForEach(func(k, v gjson.Result) bool {
			if k.Str == key {
				out = v
				return false
			}
			return true
		})
	}
	return out
}

// removedInStateless reports whether method is one a client sends in the
// handshake era and 2026-07-28 no longer has (initialize aside: a
// modern-only server answers it as the spec says, below).
func removedInStateless(method string) bool {
	m, ok := spec.Lookup(method)
	return ok && method != "initialize" && spec.RemovedInStateless(m)
}

// cacheable reports whether method's result carries ttlMs and cacheScope.
func cacheable(method string) bool {
	m, _ := spec.Lookup(method)
	return m.Cached
}

func declared(caps json.RawMessage, path string) bool {
	return declaredIn(gjson.Parse(frameString(caps)), path) // caps are replaced, never changed
}

func declaredIn(caps gjson.Result, path string) bool {
	v := caps.Get(path)
	return v.Exists() && v.Type != gjson.False && v.Type != gjson.Null
}

// noteModernRequest records the session's stateless state and the checks
// that look across requests: clientInfo sent, server/discover first. Each
// warning is recorded once per session. A request's version or clientInfo
// may differ from an earlier one's: the spec has each request stand alone.
func (s *Session) noteModernRequest(m Message, d decoded, version string, caps gjson.Result) {
	info := d.meta(spec.MetaClientInfo)
	s.mu.Lock()
	first := s.era == ""
	if s.era == "" {
		s.era = EraStateless
	}
	if s.version == "" || s.era == EraStateless {
		s.version = version
	}
	warnInfo := !info.Exists() && !s.warned[ruleClientInfo]
	// The probe is the stdio transport's way to detect the era; over HTTP
	// the stateless era has no connection to probe, and the mock's
	// grouping of requests into sessions is its own.
	warnDiscover := first && m.HTTP == nil && m.Method != "server/discover" && !s.warned[ruleDiscoverFirst]
	for _, w := range [...]struct {
		rule RuleID
		on   bool
	}{{ruleClientInfo, warnInfo}, {ruleDiscoverFirst, warnDiscover}} {
		if w.on {
			s.warned[w.rule] = true
		}
	}
	s.clientCaps = caps
	s.toldSupported = nil // a supported version was accepted: the -32022 episode is over
	s.mu.Unlock()
	if warnInfo {
		s.violate(ruleClientInfo, m, "params._meta carries no "+spec.MetaClientInfo)
	}
	if warnDiscover {
		s.violate(ruleDiscoverFirst, m, m.Method+" sent before server/discover; a client should probe first")
	}
}

// discover answers server/discover as a modern server.
func (s *Session) discover(m Message) {
	srv := s.srv
	res := map[string]any{
		"resultType":        "complete",
		"supportedVersions": srv.versions,
		"capabilities":      srv.capabilities(),
	}
	if srv.instructions != "" {
		res["instructions"] = srv.instructions
	}
	b, _ := json.Marshal(res)
	s.mu.Lock()
	s.discovered = true
	s.wireCaps = gjson.ParseBytes(jsonValue(res["capabilities"]))
	s.mu.Unlock()
	s.replyResult(m, b)
}

// resultDecor is what decorate adds to results, as JSON: info is the
// server's serverInfo, meta a _meta holding only it.
type resultDecor struct{ info, meta, ttlMs, cacheScope []byte }

func newResultDecor(info map[string]string, ttlMs int64, cacheScope string) resultDecor {
	d := resultDecor{info: jsonValue(info), ttlMs: jsonValue(ttlMs), cacheScope: jsonValue(cacheScope)}
	d.meta = fmt.Appendf(nil, `{%q:%s}`, spec.MetaServerInfo, d.info)
	return d
}

var pathServerInfoKey = gjson.Escape(spec.MetaServerInfo)

// decorate adds what every stateless-era result carries and the result
// does not have yet: resultType, serverInfo in _meta, and on list, read and
// discover results the caching hints. It reports whether the result is
// input_required. The result's members are read in one pass, and the
// members to add are returned apart, with where they go (before the
// closing brace), so that the response frame is the one copy of a large
// result: the result with them is result[:at] + add + result[at:].
func (s *Session) decorate(method string, result []byte) (_ []byte, add []byte, at int, inputRequired bool) {
	r := gjson.Parse(frameString(result)) // read in place: result is changed only by copying it
	if !r.IsObject() {
		return result, nil, len(result), false
	}
	var resultType, meta gjson.Result
	count, hasTTL, hasScope := 0, false, false
	note := func(key, value string) { // the first of a repeated key, as Get reads it
		count++
		switch {
		case key == "resultType" && !resultType.Exists():
			resultType = gjson.Parse(value)
		case key == "_meta" && !meta.Exists():
			meta = gjson.Parse(value)
		case key == "ttlMs":
			hasTTL = true
		case key == "cacheScope":
			hasScope = true
		}
	}
	if !members(r.Raw, note) { // an escaped key, or text members cannot walk: gjson's walk
		resultType, meta, count, hasTTL, hasScope = gjson.Result{}, gjson.Result{}, 0, false, false
		r.ForEach(func(k, v gjson.Result) bool { note(k.Str, v.Raw); return true })
	}
	d := s.srv.decor
	inputRequired = resultType.String() == "input_required"
	add = make([]byte, 0, 64+len(d.meta))
	member := func(key string, raw []byte) {
		if count > 0 || len(add) > 0 {
			add = append(add, ',')
		}
		add = append(append(append(append(add, '"'), key...), `":`...), raw...)
	}
	if !resultType.Exists() {
		member("resultType", []byte(`"complete"`))
	}
	if !meta.Exists() { // input_required results too: every result carries it
		member("_meta", d.meta)
	}
	if cacheable(method) && !inputRequired {
		if !hasTTL {
			member("ttlMs", d.ttlMs)
		}
		if !hasScope {
			member("cacheScope", d.cacheScope)
		}
	}
	if meta.Exists() && !meta.Get(pathServerInfoKey).Exists() {
		if out, err := sjson.SetRawBytes(result, metaPath(spec.MetaServerInfo), d.info); err == nil {
			result = out
		}
	}
	if at = bytes.LastIndexByte(result, '}'); at < 0 || len(add) == 0 { // the object's closing brace
		return result, nil, len(result), inputRequired
	}
	return result, add, at, inputRequired
}

// listen answers subscriptions/listen: it acknowledges the subset of the
// filter the server honours and keeps the subscription until the client
// cancels it or the test ends it (Session.EndListen).
func (s *Session) listen(m Message, d decoded) {
	f := d.params.Get("notifications")
	if !f.IsObject() {
		s.invalidParams(m, "params.notifications is "+describe(f)+", want an object")
		return
	}
	caps := s.srv.capabilities()
	agreed := map[string]any{}
	sub := &listener{id: m.ID, uris: map[string]bool{}}
	for _, n := range spec.Methods(func(m spec.Method) bool { return m.ListenKey != "" }) {
		if key := n.ListenKey; f.Get(key).Bool() && declared(caps, n.Needs.Path) {
			agreed[key] = true
			sub.kinds = append(sub.kinds, key)
		}
	}
	if uris := f.Get("resourceSubscriptions").Array(); len(uris) > 0 && declared(caps, "resources.subscribe") {
		var list []string
		for _, u := range uris {
			list = append(list, u.String())
			sub.uris[u.String()] = true
		}
		agreed["resourceSubscriptions"] = list
	}
	s.mu.Lock()
	s.listeners = append(s.listeners, sub)
	s.mu.Unlock()
	params, _ := json.Marshal(map[string]any{"notifications": agreed})
	params, _ = sjson.SetRawBytes(params, metaPath(spec.MetaSubscriptionID), []byte(m.ID))
	frame := appendRequest(nil, "", "notifications/subscriptions/acknowledged", params)
	_ = s.write(Message{Kind: KindNotification, Method: "notifications/subscriptions/acknowledged"}, frame)
}

// listener is one subscriptions/listen stream of a session.
type listener struct {
	id    string // the listen request's id, JSON text
	kinds []string
	uris  map[string]bool
}

// listChangedKind is the subscriptions/listen filter key that asks for a
// list_changed notification ("" for another method).
func listChangedKind(method string) string {
	m, _ := spec.Lookup(method)
	return m.ListenKey
}

// notifyListeners sends a notification on every listen stream of the
// session that asked for it, with its subscriptionId, and returns how many
// were sent. uri is for notifications/resources/updated.
func (s *Session) notifyListeners(method string, params any, uri string) int {
	s.mu.Lock()
	var ids []string
	for _, l := range s.listeners {
		if (uri != "" && l.uris[uri]) || (uri == "" && slices.Contains(l.kinds, listChangedKind(method))) {
			ids = append(ids, l.id)
		}
	}
	s.mu.Unlock()
	p, err := toJSONObject(params)
	if err != nil || p == nil {
		p = []byte("{}")
	}
	n := 0
	for _, id := range ids {
		withID, err := sjson.SetRawBytes(p, metaPath(spec.MetaSubscriptionID), []byte(id))
		if err != nil {
			continue
		}
		frame := appendRequest(nil, "", method, withID)
		if s.write(Message{Kind: KindNotification, Method: method}, frame) == nil {
			n++
		}
	}
	return n
}

// Listening returns the ids (JSON text) of the session's open
// subscriptions/listen streams, in the order they were opened.
func (s *Session) Listening() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	var ids []string
	for _, l := range s.listeners {
		ids = append(ids, l.id)
	}
	return ids
}

// EndListen ends the subscriptions/listen stream with the given id (JSON
// text, e.g. "2" or `"listen-1"`) the way the spec says a server does: it
// answers the listen request with a result carrying the subscriptionId.
func (s *Session) EndListen(id string) error {
	if !s.dropListener(id) {
		return fmt.Errorf("mcptest: EndListen(%s): no open subscriptions/listen with that id; open: %v", id, s.Listening())
	}
	result, _ := sjson.SetRawBytes([]byte(`{"resultType":"complete"}`), metaPath(spec.MetaSubscriptionID), []byte(id))
	s.replyResult(Message{Method: "subscriptions/listen", ID: id, modern: true}, result)
	return nil
}

func (s *Session) dropListener(id string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	for i, l := range s.listeners {
		if l.id == id {
			s.listeners = slices.Delete(s.listeners, i, i+1)
			return true
		}
	}
	return false
}

// sameJSON reports whether two JSON texts hold equal values, whatever
// their key order and spacing.
func sameJSON(a, b string) bool {
	if a == b {
		return true
	}
	va, errA := parseJSONValue([]byte(a))
	vb, errB := parseJSONValue([]byte(b))
	if errA != nil || errB != nil {
		return a == b
	}
	ok, _ := subsetDiff(va, vb, "", true)
	return ok
}
