package mcptest

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/mcpmock/mcpmock/internal/spec"
	"github.com/tidwall/gjson"
	"github.com/tidwall/sjson"
)

// This file is the fault catalog: each constructor is one way real MCP
// servers break clients, and its doc names the symptom it reproduces.

// inbound makes a fault that acts on the client's requests of method
// ("" for any) before the mock serves them; act reports whether it acted.
func inbound(name, method string, act func(s *Session, m Message, serve func()) bool) built {
	return inboundH(name, method, func(_ *FaultHandle, s *Session, m Message, serve func()) bool { return act(s, m, serve) })
}

// inboundH is inbound for actions that need their registration's state.
func inboundH(name, method string, act func(h *FaultHandle, s *Session, m Message, serve func()) bool) built {
	return built{&fault{name: name, method: method, inbound: act}}
}

// outbound makes a fault that acts on the messages of the given kinds
// (nil: results and errors) the mock sends with method ("" for any).
func outbound(name, method string, kinds []Kind, act func(s *Session, e *emission)) built {
	return outboundH(name, method, kinds, func(_ *FaultHandle, s *Session, e *emission) bool { act(s, e); return true })
}

// outboundH is outbound for actions that need their registration's state,
// or that may decline (they report whether they acted).
func outboundH(name, method string, kinds []Kind, act func(h *FaultHandle, s *Session, e *emission) bool) built {
	return built{&fault{name: name, method: method, kinds: kinds, out: act}}
}

// edit makes an outbound fault that rewrites the message's JSON; change
// returns nil to leave a message it does not apply to alone.
func edit(name, method string, change func(s *Session, data []byte) []byte) built {
	return editKinds(name, method, nil, change)
}

// editResult is edit for results only: error replies are left alone.
func editResult(name, method string, change func(s *Session, data []byte) []byte) built {
	return editKinds(name, method, []Kind{KindResult}, change)
}

func editKinds(name, method string, kinds []Kind, change func(s *Session, data []byte) []byte) built {
	return outboundH(name, method, kinds, func(_ *FaultHandle, s *Session, e *emission) bool {
		fr := e.first()
		d := change(s, fr.data)
		if d == nil {
			return false
		}
		fr.data, fr.changed = d, true
		return true
	})
}

func jsonValue(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		return []byte("null")
	}
	return b
}

func setRaw(data []byte, path string, raw []byte) []byte {
	out, err := sjson.SetRawBytes(data, path, raw)
	if err != nil {
		return data
	}
	return out
}

func del(data []byte, path string) []byte {
	out, err := sjson.DeleteBytes(data, path)
	if err != nil {
		return data
	}
	return out
}

// ---- Handshake and capabilities ----
//
// Where each of these acts on the handshake's timeline (the initialize
// request, the result, notifications/initialized; server/discover in the
// stateless era) is drawn in the package doc (Faults), and each
// constructor's doc says it in a sentence starting "On the timeline".

// RespondProtocolVersion: see fault.RespondProtocolVersion.
func (faultCatalog) RespondProtocolVersion(v any) built {
	raw, err := anyJSON(v)
	if err != nil {
		return brokenArg(fmt.Sprintf("RespondProtocolVersion(%#v)", v), "v", err)
	}
	return editResult(fmt.Sprintf("RespondProtocolVersion(%s)", raw), "initialize", func(_ *Session, d []byte) []byte {
		return setRaw(d, "result.protocolVersion", raw)
	})
}

// RespondSupportedVersions: see fault.RespondSupportedVersions.
func (faultCatalog) RespondSupportedVersions(versions ...string) built {
	return editResult(fmt.Sprintf("RespondSupportedVersions(%s)", quoteAll(versions)), "server/discover", func(_ *Session, d []byte) []byte {
		if versions == nil {
			versions = []string{}
		}
		return setRaw(d, "result.supportedVersions", jsonValue(versions))
	})
}

// RejectProtocolVersionHandshake: see fault.RejectProtocolVersionHandshake.
func (faultCatalog) RejectProtocolVersionHandshake() built {
	return inbound("RejectProtocolVersionHandshake()", "initialize", func(s *Session, m Message, _ func()) bool {
		data := jsonValue(map[string]any{"supported": s.srv.legacy, "requested": m.Get("params.protocolVersion").Value()})
		s.replyError(m.ID, m.Method, spec.CodeInvalidParams, "Unsupported protocol version", data)
		return true
	})
}

// RejectProtocolVersionStateless: see fault.RejectProtocolVersionStateless.
func (faultCatalog) RejectProtocolVersionStateless(versions ...string) built {
	return inbound(fmt.Sprintf("RejectProtocolVersionStateless(%s)", quoteAll(versions)), "", func(s *Session, m Message, _ func()) bool {
		if !m.modern {
			return false
		}
		if versions == nil {
			versions = []string{}
		}
		data := jsonValue(map[string]any{"supported": versions, "requested": m.Get("params." + pathProtocolVersion).Value()})
		s.replyError(m.ID, m.Method, spec.CodeUnsupportedProtocolVersion, "Unsupported protocol version", data)
		return true
	})
}

// capabilityResults are the replies that declare capabilities.
func capabilityEdit(name string, change func(d []byte) []byte) built {
	return edit(name, "", func(_ *Session, d []byte) []byte {
		if !gjson.GetBytes(d, "result.capabilities").Exists() {
			return nil
		}
		return change(d)
	})
}

// OmitCapability: see fault.OmitCapability.
func (faultCatalog) OmitCapability(name string) built {
	return capabilityEdit(fmt.Sprintf("OmitCapability(%q)", name), func(d []byte) []byte {
		return del(d, "result.capabilities."+gjson.Escape(name))
	})
}

// DeclareUnservedCapability: see fault.DeclareUnservedCapability.
func (faultCatalog) DeclareUnservedCapability(name string) built {
	f := capabilityEdit(fmt.Sprintf("DeclareUnservedCapability(%q)", name), func(d []byte) []byte {
		return setRaw(d, "result.capabilities."+gjson.Escape(name), []byte("{}"))
	})
	f.f.inbound = func(_ *FaultHandle, s *Session, m Message, _ func()) bool {
		if c, ok := spec.ServerCapability(m.Method, ""); !ok || strings.Split(c, ".")[0] != name {
			return false
		}
		s.replyError(m.ID, m.Method, spec.CodeMethodNotFound, "Method not found: "+m.Method, nil)
		return true
	}
	return f
}

// RespondCapabilities: see fault.RespondCapabilities.
func (faultCatalog) RespondCapabilities(rawJSON string) built {
	name := fmt.Sprintf("RespondCapabilities(%s)", rawJSON)
	raw, err := toJSON(rawJSON)
	if err != nil || raw == nil {
		return brokenArg(name, "rawJSON", fmt.Errorf("rawJSON is not JSON text: %v", err))
	}
	return capabilityEdit(name, func(d []byte) []byte {
		return setRaw(d, "result.capabilities", raw)
	})
}

// OmitServerInfo: see fault.OmitServerInfo.
func (faultCatalog) OmitServerInfo() built {
	return edit("OmitServerInfo()", "", func(_ *Session, d []byte) []byte {
		if !gjson.GetBytes(d, "result.serverInfo").Exists() && !gjson.GetBytes(d, "result."+metaPath(spec.MetaServerInfo)).Exists() {
			return nil
		}
		d = del(d, "result.serverInfo")
		return del(d, "result."+metaPath(spec.MetaServerInfo))
	})
}

// CorruptServerInfo: see fault.CorruptServerInfo.
func (faultCatalog) CorruptServerInfo(rawJSON string) built {
	name := fmt.Sprintf("CorruptServerInfo(%s)", rawJSON)
	raw, err := toJSON(rawJSON)
	if err != nil || raw == nil {
		return brokenArg(name, "rawJSON", fmt.Errorf("rawJSON is not JSON text: %v", err))
	}
	return edit(name, "", func(_ *Session, d []byte) []byte {
		acted := false
		if gjson.GetBytes(d, "result.serverInfo").Exists() {
			d, acted = setRaw(d, "result.serverInfo", raw), true
		}
		if gjson.GetBytes(d, "result."+metaPath(spec.MetaServerInfo)).Exists() {
			d, acted = setRaw(d, "result."+metaPath(spec.MetaServerInfo), raw), true
		}
		if !acted {
			return nil
		}
		return d
	})
}

// SetField: see fault.SetField.
func (faultCatalog) SetField(method, path string, value any) built {
	raw, err := anyJSON(value)
	if err != nil {
		return brokenArg(fmt.Sprintf("SetField(%q, %q, %#v)", method, path, value), "value", err)
	}
	if path == "" {
		return brokenArg(fmt.Sprintf("SetField(%q, \"\", %s)", method, raw), "path", fmt.Errorf("an empty path; name the field, e.g. \"result.protocolVersion\""))
	}
	return edit(fmt.Sprintf("SetField(%q, %q, %s)", method, path, raw), method, func(_ *Session, d []byte) []byte {
		return setRaw(d, path, raw)
	})
}

// DeleteField: see fault.DeleteField.
func (faultCatalog) DeleteField(method, path string) built {
	return edit(fmt.Sprintf("DeleteField(%q, %q)", method, path), method, func(_ *Session, d []byte) []byte {
		return del(d, path)
	})
}

// paramsFault returns a broken fault when params (a JSON object by the
// package's JSON rule, or nil) cannot be encoded, and the encoding.
func paramsFault(name string, params any) ([]byte, *built) {
	p, err := toJSONObject(params)
	if err != nil {
		f := brokenArg(name, "params", fmt.Errorf("params: %v", err))
		return nil, &f
	}
	return p, nil
}

// NotifyBeforeInitializeResult: see fault.NotifyBeforeInitializeResult.
func (faultCatalog) NotifyBeforeInitializeResult(method string, params any) built {
	name := fmt.Sprintf("NotifyBeforeInitializeResult(%q)", method)
	p, broken := paramsFault(name, params)
	if broken != nil {
		return *broken
	}
	return outbound(name, "initialize", []Kind{KindResult}, func(_ *Session, e *emission) {
		e.frames = append([]outFrame{{data: appendRequest(nil, "", method, p), changed: true}}, e.frames...)
	})
}

// NotifyAfterInitializeResult: see fault.NotifyAfterInitializeResult.
func (faultCatalog) NotifyAfterInitializeResult(method string, params any) built {
	name := fmt.Sprintf("NotifyAfterInitializeResult(%q)", method)
	p, broken := paramsFault(name, params)
	if broken != nil {
		return *broken
	}
	return outbound(name, "initialize", []Kind{KindResult}, func(_ *Session, e *emission) {
		e.frames = append(e.frames, outFrame{data: appendRequest(nil, "", method, p), changed: true})
	})
}

// RequestAfterInitializeResult: see fault.RequestAfterInitializeResult.
func (faultCatalog) RequestAfterInitializeResult(method string, params any) built {
	name := fmt.Sprintf("RequestAfterInitializeResult(%q)", method)
	p, broken := paramsFault(name, params)
	if broken != nil {
		return *broken
	}
	return outbound(name, "initialize", []Kind{KindResult}, func(s *Session, e *emission) {
		s.mu.Lock()
		s.nextID++
		id := strconv.Itoa(s.nextID)
		s.pending[id] = pendingRequest{method: method, reply: make(chan Message, 1)}
		s.mu.Unlock()
		e.frames = append(e.frames, outFrame{data: appendRequest(nil, id, method, p), changed: true})
	})
}

// ---- server/discover and initialize that never come ----

// Hang: see fault.Hang.
func (faultCatalog) Hang(method string) built {
	return inboundH(fmt.Sprintf("Hang(%q)", method), method, func(h *FaultHandle, s *Session, m Message, serve func()) bool {
		release := h.release
		select {
		case <-release:
			h.hit() // released: served as usual, and the Hang was in play
			return false
		default:
		}
		s.hold(m, func(ctx context.Context) bool {
			select {
			case <-release:
				return true
			case <-ctx.Done():
				return false
			}
		}, serve)
		return true
	})
}

// Delay: see fault.Delay.
func (faultCatalog) Delay(method string, d time.Duration) built {
	return delayed(fmt.Sprintf("Delay(%q, %v)", method, d), method, func(*Server) time.Duration { return d })
}

// Jitter: see fault.Jitter.
func (faultCatalog) Jitter(method string, lo, hi time.Duration) built {
	return delayed(fmt.Sprintf("Jitter(%q, %v, %v)", method, lo, hi), method, func(s *Server) time.Duration { return s.draw(lo, hi) })
}

func delayed(name, method string, wait func(*Server) time.Duration) built {
	return inbound(name, method, func(s *Session, m Message, serve func()) bool {
		d := wait(s.srv)
		s.hold(m, func(ctx context.Context) bool { return sleep(ctx, d) }, serve)
		return true
	})
}

// ReplaceWithJSONRPCError: see fault.ReplaceWithJSONRPCError.
func (faultCatalog) ReplaceWithJSONRPCError(method string, code int, message string, data any) built {
	name := fmt.Sprintf("ReplaceWithJSONRPCError(%q, %d, %q)", method, code, message)
	r := JSONRPCError(code, message, data)
	if r.problem != nil {
		return brokenFault(name, r.problem)
	}
	return inbound(name, method, func(s *Session, m Message, _ func()) bool {
		s.reply(m, r)
		return true
	})
}

// ---- JSON-RPC ----

func idEdit(name, method string, change func(id gjson.Result) []byte) built {
	return edit(name, method, func(_ *Session, d []byte) []byte {
		id := gjson.GetBytes(d, "id")
		if raw := change(id); raw != nil {
			return setRaw(d, "id", raw)
		}
		return del(d, "id")
	})
}

// WrongID: see fault.WrongID.
func (faultCatalog) WrongID(method string) built {
	return idEdit(fmt.Sprintf("WrongID(%q)", method), method, func(id gjson.Result) []byte {
		if id.Type == gjson.Number {
			return []byte(strconv.FormatInt(id.Int()+1000, 10))
		}
		return jsonValue(id.String() + "-wrong")
	})
}

// FlipIDType: see fault.FlipIDType.
func (faultCatalog) FlipIDType(method string) built {
	return idEdit(fmt.Sprintf("FlipIDType(%q)", method), method, func(id gjson.Result) []byte {
		if id.Type == gjson.Number {
			return jsonValue(id.Raw)
		}
		if n, err := strconv.ParseInt(id.String(), 10, 64); err == nil {
			return []byte(strconv.FormatInt(n, 10))
		}
		return []byte("0")
	})
}

// NullID: see fault.NullID.
func (faultCatalog) NullID(method string) built {
	return idEdit(fmt.Sprintf("NullID(%q)", method), method, func(gjson.Result) []byte { return []byte("null") })
}

// OmitID: see fault.OmitID.
func (faultCatalog) OmitID(method string) built {
	return idEdit(fmt.Sprintf("OmitID(%q)", method), method, func(gjson.Result) []byte { return nil })
}

// ReplyTwice: see fault.ReplyTwice.
func (faultCatalog) ReplyTwice(method string) built {
	return outbound(fmt.Sprintf("ReplyTwice(%q)", method), method, nil, func(_ *Session, e *emission) {
		e.frames = append(e.frames, outFrame{data: append([]byte(nil), e.first().data...), changed: true})
	})
}

// UnsolicitedResponse: see fault.UnsolicitedResponse.
func (faultCatalog) UnsolicitedResponse(method string) built {
	return outbound(fmt.Sprintf("UnsolicitedResponse(%q)", method), method, nil, func(_ *Session, e *emission) {
		e.frames = append(e.frames, outFrame{data: []byte(`{"jsonrpc":"2.0","id":987654321,"result":{}}`), changed: true})
	})
}

// ResultAndError: see fault.ResultAndError.
func (faultCatalog) ResultAndError(method string) built {
	return edit(fmt.Sprintf("ResultAndError(%q)", method), method, func(_ *Session, d []byte) []byte {
		if !gjson.GetBytes(d, "result").Exists() {
			d = setRaw(d, "result", []byte("{}"))
		}
		if !gjson.GetBytes(d, "error").Exists() {
			d = setRaw(d, "error", []byte(`{"code":-32603,"message":"and an error"}`))
		}
		return d
	})
}

// JSONRPCVersion: see fault.JSONRPCVersion.
func (faultCatalog) JSONRPCVersion(method string, v any) built {
	raw, err := anyJSON(v)
	name := fmt.Sprintf("JSONRPCVersion(%q, %s)", method, raw)
	if err != nil {
		return brokenArg(fmt.Sprintf("JSONRPCVersion(%q, %#v)", method, v), "v", err)
	}
	return edit(name, method, func(_ *Session, d []byte) []byte {
		if v == nil {
			return del(d, "jsonrpc")
		}
		return setRaw(d, "jsonrpc", raw)
	})
}

// ---- Timing and connection ----

// Drop: see fault.Drop.
func (faultCatalog) Drop(method string) built {
	return outbound(fmt.Sprintf("Drop(%q)", method), method, []Kind{KindResult, KindError, KindNotification, KindRequest}, func(_ *Session, e *emission) {
		e.frames = nil
	})
}

// CloseAfter: see fault.CloseAfter.
func (faultCatalog) CloseAfter(method string) built {
	return outbound(fmt.Sprintf("CloseAfter(%q)", method), method, nil, func(_ *Session, e *emission) { e.closeAfter = true })
}

// CloseBefore: see fault.CloseBefore.
func (faultCatalog) CloseBefore(method string) built {
	return inbound(fmt.Sprintf("CloseBefore(%q)", method), method, func(s *Session, _ Message, _ func()) bool {
		s.close()
		return true
	})
}

// Truncate: see fault.Truncate.
func (faultCatalog) Truncate(method string, n int) built {
	return outbound(fmt.Sprintf("Truncate(%q, %d)", method, n), method, nil, func(_ *Session, e *emission) {
		e.first().truncate = max(n, 1)
	})
}

// ---- Framing (stdio) ----

// Banner: see fault.Banner.
func (faultCatalog) Banner(text string) built {
	return outboundH(fmt.Sprintf("Banner(%q)", text), "", []Kind{KindResult, KindError, KindNotification, KindRequest}, func(h *FaultHandle, s *Session, e *emission) bool {
		if !h.firstIn(s) {
			return false
		}
		e.frames = append([]outFrame{{data: []byte(text), changed: true}}, e.frames...)
		return true
	})
}

// NonJSONLine: see fault.NonJSONLine.
func (faultCatalog) NonJSONLine(method, text string) built {
	return outbound(fmt.Sprintf("NonJSONLine(%q, %q)", method, text), method, nil, func(_ *Session, e *emission) {
		e.frames = append([]outFrame{{data: []byte(text), changed: true}}, e.frames...)
	})
}

// Dribble: see fault.Dribble.
func (faultCatalog) Dribble(method string, chunk int, pause time.Duration) built {
	return outbound(fmt.Sprintf("Dribble(%q, %d, %v)", method, chunk, pause), method, nil, func(_ *Session, e *emission) {
		fr := e.first()
		fr.chunk, fr.pause = max(chunk, 1), pause
	})
}

// PrettyPrint: see fault.PrettyPrint.
func (faultCatalog) PrettyPrint(method string) built {
	return edit(fmt.Sprintf("PrettyPrint(%q)", method), method, func(_ *Session, d []byte) []byte {
		var b bytes.Buffer
		if json.Indent(&b, d, "", "  ") != nil {
			return d
		}
		return b.Bytes()
	})
}

// TwoOnOneLine: see fault.TwoOnOneLine.
func (faultCatalog) TwoOnOneLine(method string) built {
	return edit(fmt.Sprintf("TwoOnOneLine(%q)", method), method, func(_ *Session, d []byte) []byte {
		return append(append([]byte(nil), d...), appendRequest(nil, "", "notifications/message", []byte(`{"data":"on the same line","level":"info"}`))...)
	})
}

// NoFinalNewline: see fault.NoFinalNewline.
func (faultCatalog) NoFinalNewline(method string) built {
	return outbound(fmt.Sprintf("NoFinalNewline(%q)", method), method, nil, func(_ *Session, e *emission) {
		e.first().noNewline = true
	})
}

// Oversized: see fault.Oversized.
func (faultCatalog) Oversized(method string, n int) built {
	return edit(fmt.Sprintf("Oversized(%q, %d)", method, n), method, func(_ *Session, d []byte) []byte {
		if !gjson.GetBytes(d, "result").IsObject() {
			return d
		}
		return setRaw(d, "result._meta.mcptest/padding", jsonValue(strings.Repeat("x", max(n, 0))))
	})
}

// InvalidUTF8: see fault.InvalidUTF8.
func (faultCatalog) InvalidUTF8(method string) built {
	return edit(fmt.Sprintf("InvalidUTF8(%q)", method), method, func(_ *Session, d []byte) []byte {
		if !gjson.GetBytes(d, "result").IsObject() {
			return d
		}
		return setRaw(d, "result._meta.mcptest/bytes", []byte("\"caf\xe9 \xff\xfe\""))
	})
}

// ---- What client bugs on record need ----

// GluedPrefix: see fault.GluedPrefix.
func (faultCatalog) GluedPrefix(method, text string) built {
	return edit(fmt.Sprintf("GluedPrefix(%q, %q)", method, text), method, func(_ *Session, d []byte) []byte {
		return append([]byte(text), d...)
	})
}

// RequestWithID: see fault.RequestWithID.
func (faultCatalog) RequestWithID(method, reqMethod string, id, params any) built {
	name := fmt.Sprintf("RequestWithID(%q, %q, %s)", method, reqMethod, jsonValue(id))
	var raw []byte
	if id != nil {
		var err error
		if raw, err = anyJSON(id); err != nil {
			return brokenArg(name, "id", err)
		}
		if r := gjson.ParseBytes(raw); !validID(r) {
			return brokenArg(name, "id", fmt.Errorf("id %s: a request id is a string or an integer", raw))
		}
	}
	p, err := toJSONObject(params)
	if err != nil {
		return brokenArg(name, "params", fmt.Errorf("params: %v", err))
	}
	return inbound(name, method, func(s *Session, m Message, serve func()) bool {
		rid := string(raw)
		if raw == nil {
			rid = m.ID
		}
		s.mu.Lock()
		s.pending[rid] = pendingRequest{method: reqMethod, reply: make(chan Message, 1)}
		s.mu.Unlock()
		_ = s.write(Message{Kind: KindRequest, Method: reqMethod, ID: rid}, appendRequest(nil, rid, reqMethod, p))
		serve()
		return true
	})
}

// StringRequestIDs: see fault.StringRequestIDs.
func (faultCatalog) StringRequestIDs() built {
	return outboundH("StringRequestIDs()", "", []Kind{KindRequest}, func(_ *FaultHandle, s *Session, e *emission) bool {
		fr := e.first()
		id := gjson.GetBytes(fr.data, "id")
		if id.Type != gjson.Number {
			return false
		}
		str := string(jsonValue("mcptest-" + id.Raw))
		s.mu.Lock()
		if p, ok := s.pending[id.Raw]; ok { // the answer will carry the new id
			delete(s.pending, id.Raw)
			s.pending[str] = p
		}
		s.mu.Unlock()
		fr.data, fr.changed = setRaw(fr.data, "id", []byte(str)), true
		return true
	})
}

// Batched: see fault.Batched.
func (faultCatalog) Batched(method string) built {
	return outbound(fmt.Sprintf("Batched(%q)", method), method, nil, func(_ *Session, e *emission) {
		b := []byte{'['}
		for i, fr := range e.frames {
			if i > 0 {
				b = append(b, ',')
			}
			b = append(b, fr.data...)
		}
		e.frames = []outFrame{{data: append(b, ']'), changed: true}}
	})
}

// AsScripted: see fault.AsScripted.
func (faultCatalog) AsScripted(method string) built {
	return outboundH(fmt.Sprintf("AsScripted(%q)", method), method, []Kind{KindResult}, func(_ *FaultHandle, _ *Session, e *emission) bool {
		if e.scripted == nil {
			return false
		}
		fr := e.first()
		fr.data, fr.changed = e.scripted, true
		return true
	})
}

// ---- Tools and lists ----

// listField is the array a list method returns (spec: Method.ListField).
func listField(method string) string {
	m, _ := spec.Lookup(method)
	return m.ListField
}

// LoopingCursor: see fault.LoopingCursor.
func (faultCatalog) LoopingCursor(method string) built {
	return edit(fmt.Sprintf("LoopingCursor(%q)", method), method, func(_ *Session, d []byte) []byte {
		if !gjson.GetBytes(d, "result").IsObject() {
			return d
		}
		return setRaw(d, "result.nextCursor", jsonValue(encodeCursor(listField(method), 0)))
	})
}

// EmptyPageWithCursor: see fault.EmptyPageWithCursor.
func (faultCatalog) EmptyPageWithCursor(method string) built {
	f := edit(fmt.Sprintf("EmptyPageWithCursor(%q)", method), method, func(_ *Session, d []byte) []byte {
		field := listField(method)
		if !gjson.GetBytes(d, "result."+field).IsArray() {
			return d
		}
		// the cursor leads to the real first page, so no item is lost
		d = setRaw(d, "result.nextCursor", jsonValue(encodeCursor(field, 0)))
		return setRaw(d, "result."+field, []byte("[]"))
	})
	f.f.nth = 1
	return f
}

// ListChangedAfter: see fault.ListChangedAfter.
func (faultCatalog) ListChangedAfter(method, notification string) built {
	f := outbound(fmt.Sprintf("ListChangedAfter(%q, %q)", method, notification), method, []Kind{KindResult}, func(_ *Session, e *emission) {
		e.frames = append(e.frames, outFrame{data: appendRequest(nil, "", notification, nil), changed: true})
	})
	f.f.nth = 1
	return f
}
