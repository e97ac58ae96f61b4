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
func inbound(name, method string, act func(s *Session, m Message, serve func()) bool) Fault {
	return inboundH(name, method, func(_ *FaultHandle, s *Session, m Message, serve func()) bool { return act(s, m, serve) })
}

// inboundH is inbound for actions that need their registration's state.
func inboundH(name, method string, act func(h *FaultHandle, s *Session, m Message, serve func()) bool) Fault {
	return Fault{&fault{name: name, method: method, inbound: act}}
}

// outbound makes a fault that acts on the messages of the given kinds
// (nil: results and errors) the mock sends with method ("" for any).
func outbound(name, method string, kinds []Kind, act func(s *Session, e *emission)) Fault {
	return outboundH(name, method, kinds, func(_ *FaultHandle, s *Session, e *emission) bool { act(s, e); return true })
}

// outboundH is outbound for actions that need their registration's state,
// or that may decline (they report whether they acted).
func outboundH(name, method string, kinds []Kind, act func(h *FaultHandle, s *Session, e *emission) bool) Fault {
	return Fault{&fault{name: name, method: method, kinds: kinds, out: act}}
}

// edit makes an outbound fault that rewrites the message's JSON; change
// returns nil to leave a message it does not apply to alone.
func edit(name, method string, change func(s *Session, data []byte) []byte) Fault {
	return editKinds(name, method, nil, change)
}

// editResult is edit for results only: error replies are left alone.
func editResult(name, method string, change func(s *Session, data []byte) []byte) Fault {
	return editKinds(name, method, []Kind{KindResult}, change)
}

func editKinds(name, method string, kinds []Kind, change func(s *Session, data []byte) []byte) Fault {
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

// RespondProtocolVersion answers initialize with protocolVersion set to v,
// any JSON value by the package's JSON rule (an unknown, older or newer
// version string, "", a number, a json.RawMessage…).
// Reproduces: a server that ignores the client's version, or one the
// client does not know — a correct client disconnects (the official Go
// SDK fails Connect with "unsupported protocol version"). On the timeline:
// it edits the initialize result.
func RespondProtocolVersion(v any) Fault {
	raw, err := anyJSON(v)
	if err != nil {
		return brokenArg(fmt.Sprintf("RespondProtocolVersion(%#v)", v), "v", err)
	}
	return editResult(fmt.Sprintf("RespondProtocolVersion(%s)", raw), "initialize", func(_ *Session, d []byte) []byte {
		return setRaw(d, "result.protocolVersion", raw)
	})
}

// RespondSupportedVersions answers server/discover with supportedVersions
// set to versions. Reproduces: a modern server whose versions the client
// does not share — the client must fall back, or give up cleanly. On the
// timeline: it edits the server/discover result (the stateless era).
func RespondSupportedVersions(versions ...string) Fault {
	return editResult(fmt.Sprintf("RespondSupportedVersions(%s)", quoteAll(versions)), "server/discover", func(_ *Session, d []byte) []byte {
		if versions == nil {
			versions = []string{}
		}
		return setRaw(d, "result.supportedVersions", jsonValue(versions))
	})
}

// RejectProtocolVersionHandshake answers initialize with the error the 2025 spec
// shows for a version the server does not support: -32602 "Unsupported
// protocol version", data {supported, requested}. Reproduces: a server
// that will not speak the client's version at all. On the timeline: it
// answers the client's initialize in place of the initialize result, so
// no fault of the result (nor NotifyAfterInitializeResult) acts.
func RejectProtocolVersionHandshake() Fault {
	return inbound("RejectProtocolVersionHandshake()", "initialize", func(s *Session, m Message, _ func()) bool {
		data := jsonValue(map[string]any{"supported": s.srv.legacy, "requested": m.Get("params.protocolVersion").Value()})
		s.replyError(m.ID, m.Method, CodeInvalidParams, "Unsupported protocol version", data)
		return true
	})
}

// RejectProtocolVersionStateless answers server/discover and every
// stateless-era request with -32022 "Unsupported protocol version", data
// {supported: versions, requested}. Reproduces: a modern server on a
// version the client does not ask for — the client should retry once
// with a listed version, or fall back when none is modern. On the
// timeline: it answers server/discover and each stateless request in
// place of its result; the handshake era is left alone.
func RejectProtocolVersionStateless(versions ...string) Fault {
	return inbound(fmt.Sprintf("RejectProtocolVersionStateless(%s)", quoteAll(versions)), "", func(s *Session, m Message, _ func()) bool {
		if !m.modern {
			return false
		}
		if versions == nil {
			versions = []string{}
		}
		data := jsonValue(map[string]any{"supported": versions, "requested": m.Get("params." + pathProtocolVersion).Value()})
		s.replyError(m.ID, m.Method, CodeUnsupportedProtocolVersion, "Unsupported protocol version", data)
		return true
	})
}

// capabilityResults are the replies that declare capabilities.
func capabilityEdit(name string, change func(d []byte) []byte) Fault {
	return edit(name, "", func(_ *Session, d []byte) []byte {
		if !gjson.GetBytes(d, "result.capabilities").Exists() {
			return nil
		}
		return change(d)
	})
}

// OmitCapability leaves a capability (tools, resources, prompts, logging,
// completions) out of the initialize and server/discover results although
// the server serves it. Reproduces the classic "the app shows no tools":
// a correct client never calls tools/list then; the official Go SDK and
// mark3labs call it anyway. On the timeline: it edits the initialize
// result and the server/discover result.
func OmitCapability(name string) Fault {
	return capabilityEdit(fmt.Sprintf("OmitCapability(%q)", name), func(d []byte) []byte {
		return del(d, "result.capabilities."+gjson.Escape(name))
	})
}

// DeclareUnservedCapability declares a capability the server does not
// serve: it is in the initialize and server/discover results, and every
// method behind it is answered -32601. Reproduces: capabilities that lie —
// the client lists, gets an error, and must cope. On the timeline: it
// edits the initialize result and the server/discover result, then
// answers the capability's methods after the handshake.
func DeclareUnservedCapability(name string) Fault {
	f := capabilityEdit(fmt.Sprintf("DeclareUnservedCapability(%q)", name), func(d []byte) []byte {
		return setRaw(d, "result.capabilities."+gjson.Escape(name), []byte("{}"))
	})
	f.f.inbound = func(_ *FaultHandle, s *Session, m Message, _ func()) bool {
		if c, ok := spec.ServerCapability(m.Method, ""); !ok || strings.Split(c, ".")[0] != name {
			return false
		}
		s.replyError(m.ID, m.Method, CodeMethodNotFound, "Method not found: "+m.Method, nil)
		return true
	}
	return f
}

// RespondCapabilities replaces the whole capabilities value of the initialize
// and server/discover results with raw JSON, e.g. `true` or `[]`.
// Reproduces: a malformed initialize result the client must reject
// instead of crashing. On the timeline: it edits the initialize result and
// the server/discover result.
func RespondCapabilities(rawJSON string) Fault {
	name := fmt.Sprintf("RespondCapabilities(%s)", rawJSON)
	raw, err := toJSON(rawJSON)
	if err != nil || raw == nil {
		return brokenArg(name, "rawJSON", fmt.Errorf("rawJSON is not JSON text: %v", err))
	}
	return capabilityEdit(name, func(d []byte) []byte {
		return setRaw(d, "result.capabilities", raw)
	})
}

// OmitServerInfo drops serverInfo from the initialize result and from the
// _meta of stateless-era results. Reproduces: a server that forgets to
// say who it is; clients that print or log the server name must not crash.
// On the timeline: it edits the initialize result, and each stateless
// result's _meta.
func OmitServerInfo() Fault {
	return edit("OmitServerInfo()", "", func(_ *Session, d []byte) []byte {
		if !gjson.GetBytes(d, "result.serverInfo").Exists() && !gjson.GetBytes(d, "result."+metaPath(MetaServerInfo)).Exists() {
			return nil
		}
		d = del(d, "result.serverInfo")
		return del(d, "result."+metaPath(MetaServerInfo))
	})
}

// CorruptServerInfo replaces serverInfo (in the initialize result, and in
// the _meta of stateless-era results) with raw JSON, e.g. `"x"` or
// `{"name":42}`. Reproduces: a malformed serverInfo the client must reject
// or tolerate without crashing. On the timeline: it edits the initialize
// result, and each stateless result's _meta.
func CorruptServerInfo(rawJSON string) Fault {
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
		if gjson.GetBytes(d, "result."+metaPath(MetaServerInfo)).Exists() {
			d, acted = setRaw(d, "result."+metaPath(MetaServerInfo), raw), true
		}
		if !acted {
			return nil
		}
		return d
	})
}

// SetField sets the value at a JSON path (sjson syntax, e.g.
// "result.tools.0.inputSchema") of every reply to method to value, any JSON
// value by the package's JSON rule: a Go value ("42" is the string "42",
// 42 the number), a json.RawMessage for JSON text — a different type too.
// Reproduces whatever malformed reply a bug report shows.
func SetField(method, path string, value any) Fault {
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

// DeleteField deletes the value at a JSON path of every reply to method,
// e.g. DeleteField("tools/list", "result.tools.0.name"). Reproduces: a
// result missing a required field.
func DeleteField(method, path string) Fault {
	return edit(fmt.Sprintf("DeleteField(%q, %q)", method, path), method, func(_ *Session, d []byte) []byte {
		return del(d, path)
	})
}

// paramsFault returns a broken fault when params (a JSON object by the
// package's JSON rule, or nil) cannot be encoded, and the encoding.
func paramsFault(name string, params any) ([]byte, *Fault) {
	p, err := toJSONObject(params)
	if err != nil {
		f := brokenArg(name, "params", fmt.Errorf("params: %v", err))
		return nil, &f
	}
	return p, nil
}

// NotifyBeforeInitializeResult sends a notification (e.g.
// notifications/message or notifications/tools/list_changed) before the
// initialize result. Reproduces: a server that talks before the handshake;
// a correct client ignores it or copes, and does not deadlock. On the
// timeline: after the client's initialize and before the initialize
// result, so the client meets it before it has the server's capabilities
// (the earliest point; NotifyAfterInitializeResult is the next one).
func NotifyBeforeInitializeResult(method string, params any) Fault {
	name := fmt.Sprintf("NotifyBeforeInitializeResult(%q)", method)
	p, broken := paramsFault(name, params)
	if broken != nil {
		return *broken
	}
	return outbound(name, "initialize", []Kind{KindResult}, func(_ *Session, e *emission) {
		e.frames = append([]outFrame{{data: appendRequest(nil, "", method, p), changed: true}}, e.frames...)
	})
}

// NotifyAfterInitializeResult sends a notification right after the initialize
// result, before the client can have sent notifications/initialized.
// Reproduces: logging or list_changed that arrives while the client is
// still in its handshake. On the timeline: right after the initialize
// result and before the client's notifications/initialized — the point
// the scenario notify-before-initialized names from the client's side.
func NotifyAfterInitializeResult(method string, params any) Fault {
	name := fmt.Sprintf("NotifyAfterInitializeResult(%q)", method)
	p, broken := paramsFault(name, params)
	if broken != nil {
		return *broken
	}
	return outbound(name, "initialize", []Kind{KindResult}, func(_ *Session, e *emission) {
		e.frames = append(e.frames, outFrame{data: appendRequest(nil, "", method, p), changed: true})
	})
}

// RequestAfterInitializeResult sends a server-to-client request (e.g.
// roots/list) right after the initialize result, before
// notifications/initialized. Reproduces: a server that asks for roots
// during the handshake; the client's answer is journaled. On the
// timeline: the same point as NotifyAfterInitializeResult, right after
// the initialize result and before the client's notifications/initialized.
func RequestAfterInitializeResult(method string, params any) Fault {
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

// Hang never answers requests of method until the test calls Release on
// its registration (FaultHandle.Release: they are then served) or the
// Server closes; a request the client cancels meanwhile is never
// answered. Each request it holds is a hit, and so is each one it lets
// through once released: a test that releases as soon as it sees the
// request in the journal may release it before the Hang had held it, and
// the Hang still came into play. Reproduces: a
// server that never answers — Hang("server/discover") is the legacy server
// a probing client must time out on and fall back; Hang("tools/call") the
// slow tool a client must time out and cancel.
func Hang(method string) Fault {
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

// Delay serves requests of method after d. Reproduces: a slow server —
// Delay("initialize", …) a late handshake, Delay("tools/call", …) a tool
// slower than the client's timeout.
func Delay(method string, d time.Duration) Fault {
	return delayed(fmt.Sprintf("Delay(%q, %v)", method, d), method, func(*Server) time.Duration { return d })
}

// Jitter serves requests of method after a delay drawn from [lo, hi) by
// the server's seeded source (WithFaultSeed). Reproduces: a server whose
// latency varies, so replies can overtake each other.
func Jitter(method string, lo, hi time.Duration) Fault {
	return delayed(fmt.Sprintf("Jitter(%q, %v, %v)", method, lo, hi), method, func(s *Server) time.Duration { return s.draw(lo, hi) })
}

func delayed(name, method string, wait func(*Server) time.Duration) Fault {
	return inbound(name, method, func(s *Session, m Message, serve func()) bool {
		d := wait(s.srv)
		s.hold(m, func(ctx context.Context) bool { return sleep(ctx, d) }, serve)
		return true
	})
}

// ReplaceWithJSONRPCError answers requests of method with a JSON-RPC error instead of
// serving them; data is any JSON value by the package's JSON rule (a Go
// value; a json.RawMessage for JSON text), nil for none.
// Reproduces: a server that fails a method with an error the client must
// surface rather than hang or crash on; ReplaceWithJSONRPCError("server/discover",
// -32000, "boom") is a discover that fails with an error a client must not
// rely on the code of (the spec's fallback must not depend on one code).
func ReplaceWithJSONRPCError(method string, code int, message string, data any) Fault {
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

func idEdit(name, method string, change func(id gjson.Result) []byte) Fault {
	return edit(name, method, func(_ *Session, d []byte) []byte {
		id := gjson.GetBytes(d, "id")
		if raw := change(id); raw != nil {
			return setRaw(d, "id", raw)
		}
		return del(d, "id")
	})
}

// WrongID answers requests of method with an id the client never used.
// Reproduces: a reply the client cannot match — the official Go SDK drops
// it silently and the call hangs until its context ends.
func WrongID(method string) Fault {
	return idEdit(fmt.Sprintf("WrongID(%q)", method), method, func(id gjson.Result) []byte {
		if id.Type == gjson.Number {
			return []byte(strconv.FormatInt(id.Int()+1000, 10))
		}
		return jsonValue(id.String() + "-wrong")
	})
}

// FlipIDType answers with the same id in the other type: "1" for 1, and 1
// for "1". Reproduces: a server that stringifies ids — clients that match
// by typed id (both Go SDKs) never see the reply.
func FlipIDType(method string) Fault {
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

// NullID answers with "id": null. Reproduces: a server that loses the id.
func NullID(method string) Fault {
	return idEdit(fmt.Sprintf("NullID(%q)", method), method, func(gjson.Result) []byte { return []byte("null") })
}

// OmitID answers without an id, which makes the reply look like neither a
// response nor a notification. Reproduces: a server that drops the id
// field; a client that routes by id must not crash, and its call times out.
func OmitID(method string) Fault {
	return idEdit(fmt.Sprintf("OmitID(%q)", method), method, func(gjson.Result) []byte { return nil })
}

// ReplyTwice sends every reply to method twice. Reproduces: a server that
// answers twice (a retry bug); the second reply has no pending request.
func ReplyTwice(method string) Fault {
	return outbound(fmt.Sprintf("ReplyTwice(%q)", method), method, nil, func(_ *Session, e *emission) {
		e.frames = append(e.frames, outFrame{data: append([]byte(nil), e.first().data...), changed: true})
	})
}

// UnsolicitedResponse sends, after every reply to method, a response to a
// request the client never sent. Reproduces: stray responses from a
// confused server.
func UnsolicitedResponse(method string) Fault {
	return outbound(fmt.Sprintf("UnsolicitedResponse(%q)", method), method, nil, func(_ *Session, e *emission) {
		e.frames = append(e.frames, outFrame{data: []byte(`{"jsonrpc":"2.0","id":987654321,"result":{}}`), changed: true})
	})
}

// ResultAndError answers with both result and error, which JSON-RPC forbids.
// Reproduces: a server that sets both fields; a client must not take the
// result as success without noticing the error.
func ResultAndError(method string) Fault {
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

// JSONRPCVersion sets "jsonrpc" of every reply to method to v (any JSON
// value, e.g. "1.0" or 2); nil leaves the field out. Reproduces: a server
// that is not quite JSON-RPC 2.0 — the official Go SDK drops the connection.
func JSONRPCVersion(method string, v any) Fault {
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

// Drop never sends the mock's messages with method (replies to it, or
// notifications of it), although the request was served. Reproduces: a
// lost reply — the client waits until its own timeout.
func Drop(method string) Fault {
	return outbound(fmt.Sprintf("Drop(%q)", method), method, []Kind{KindResult, KindError, KindNotification, KindRequest}, func(_ *Session, e *emission) {
		e.frames = nil
	})
}

// CloseAfter closes the connection right after the mock sent its reply to
// method. Reproduces: a server that exits after answering — the client's
// next call fails with EOF.
func CloseAfter(method string) Fault {
	return outbound(fmt.Sprintf("CloseAfter(%q)", method), method, nil, func(_ *Session, e *emission) { e.closeAfter = true })
}

// CloseBefore closes the connection when a request of method arrives,
// without answering it. Reproduces: a server that crashes mid-call — the
// client's pending call fails with EOF instead of hanging.
func CloseBefore(method string) Fault {
	return inbound(fmt.Sprintf("CloseBefore(%q)", method), method, func(s *Session, _ Message, _ func()) bool {
		s.close()
		return true
	})
}

// Truncate writes only the first n bytes of the reply to method, then
// closes the connection. Reproduces: a server killed in the middle of
// writing a frame.
func Truncate(method string, n int) Fault {
	return outbound(fmt.Sprintf("Truncate(%q, %d)", method, n), method, nil, func(_ *Session, e *emission) {
		e.first().truncate = max(n, 1)
	})
}

// ---- Framing (stdio) ----

// Banner writes a non-JSON line (e.g. "Server started on stdio") before
// the first message the mock sends in each session, as a server prints a
// banner each time it starts. Reproduces: a server that prints a banner or
// logs to stdout — mark3labs skips the line, the official Go SDK drops the
// connection.
func Banner(text string) Fault {
	return outboundH(fmt.Sprintf("Banner(%q)", text), "", []Kind{KindResult, KindError, KindNotification, KindRequest}, func(h *FaultHandle, s *Session, e *emission) bool {
		if !h.firstIn(s) {
			return false
		}
		e.frames = append([]outFrame{{data: []byte(text), changed: true}}, e.frames...)
		return true
	})
}

// NonJSONLine writes a non-JSON line before every reply to method.
// Reproduces: log output interleaved with protocol messages on stdout.
func NonJSONLine(method, text string) Fault {
	return outbound(fmt.Sprintf("NonJSONLine(%q, %q)", method, text), method, nil, func(_ *Session, e *emission) {
		e.frames = append([]outFrame{{data: []byte(text), changed: true}}, e.frames...)
	})
}

// Dribble writes the reply to method in pieces of chunk bytes with a pause
// between them. Reproduces: a slow pipe or a server that flushes in small
// writes — a client must assemble the frame, not parse each read.
func Dribble(method string, chunk int, pause time.Duration) Fault {
	return outbound(fmt.Sprintf("Dribble(%q, %d, %v)", method, chunk, pause), method, nil, func(_ *Session, e *emission) {
		fr := e.first()
		fr.chunk, fr.pause = max(chunk, 1), pause
	})
}

// PrettyPrint writes the reply to method as indented, multi-line JSON.
// Reproduces: a server that breaks the one-message-per-line rule of stdio;
// the official Go SDK's streaming decoder copes, line-based clients do not.
func PrettyPrint(method string) Fault {
	return edit(fmt.Sprintf("PrettyPrint(%q)", method), method, func(_ *Session, d []byte) []byte {
		var b bytes.Buffer
		if json.Indent(&b, d, "", "  ") != nil {
			return d
		}
		return b.Bytes()
	})
}

// TwoOnOneLine writes the reply to method and a notifications/message on
// the same line. Reproduces: a server that forgets a newline between two
// messages — the official Go SDK fails with "invalid trailing data".
func TwoOnOneLine(method string) Fault {
	return edit(fmt.Sprintf("TwoOnOneLine(%q)", method), method, func(_ *Session, d []byte) []byte {
		return append(append([]byte(nil), d...), appendRequest(nil, "", "notifications/message", []byte(`{"data":"on the same line","level":"info"}`))...)
	})
}

// NoFinalNewline writes the reply to method without its newline, so it
// runs into whatever the mock writes next. Reproduces: a server that
// forgets to terminate its frames.
func NoFinalNewline(method string) Fault {
	return outbound(fmt.Sprintf("NoFinalNewline(%q)", method), method, nil, func(_ *Session, e *emission) {
		e.first().noNewline = true
	})
}

// Oversized pads the reply to method with n bytes of text in
// result._meta["mcptest/padding"], e.g. past the official Go SDK's 16 MiB
// frame limit. Reproduces: a huge tool result or resource.
func Oversized(method string, n int) Fault {
	return edit(fmt.Sprintf("Oversized(%q, %d)", method, n), method, func(_ *Session, d []byte) []byte {
		if !gjson.GetBytes(d, "result").IsObject() {
			return d
		}
		return setRaw(d, "result._meta.mcptest/padding", jsonValue(strings.Repeat("x", max(n, 0))))
	})
}

// InvalidUTF8 puts bytes that are not UTF-8 into a string of the reply to
// method (result._meta["mcptest/bytes"]). Reproduces: a server that writes
// raw bytes of a binary file into text.
func InvalidUTF8(method string) Fault {
	return edit(fmt.Sprintf("InvalidUTF8(%q)", method), method, func(_ *Session, d []byte) []byte {
		if !gjson.GetBytes(d, "result").IsObject() {
			return d
		}
		return setRaw(d, "result._meta.mcptest/bytes", []byte("\"caf\xe9 \xff\xfe\""))
	})
}

// ---- What client bugs on record need ----

// GluedPrefix writes text at the start of the line of the reply to method,
// glued to the frame: "INFO ready{"jsonrpc":"2.0",…}". Reproduces: a server
// whose logging writes to stdout without a newline, so the next frame does
// not start its line — a client that parses whole lines loses the reply.
func GluedPrefix(method, text string) Fault {
	return edit(fmt.Sprintf("GluedPrefix(%q, %q)", method, text), method, func(_ *Session, d []byte) []byte {
		return append([]byte(text), d...)
	})
}

// RequestWithID sends the client a request of reqMethod (e.g. "ping" or
// "roots/list", with params, a JSON object or nil) with the given id each
// time a request of method arrives, then serves that request. id is any
// JSON value by the package's JSON rule (1, "abc", json.RawMessage…); nil
// uses the id of the client's request, which is then still pending.
// Reproduces: a client that routes an incoming message by its id alone and
// takes the server's request for the response to its own call; the
// client's answer to the request is journaled and taken as an answer.
func RequestWithID(method, reqMethod string, id, params any) Fault {
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

// StringRequestIDs gives the mock's requests to the client (ping,
// roots/list, sampling, elicitation) string ids, "mcptest-1" for 1, as
// many servers do. Reproduces: a client that assumes a server's request
// ids are numbers, as the mock's usually are.
func StringRequestIDs() Fault {
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

// Batched sends the frames of the reply to method — the reply and any
// frames faults added before it in the chain (NotifyBefore…, ReplyTwice) —
// as one JSON-RPC batch. 2024-11-05 and 2025-03-26 say a receiver MUST
// accept batches; 2025-06-18 removed them. Reproduces: a server of those
// versions that batches its messages, against a client that cannot read a
// batch.
func Batched(method string) Fault {
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

// AsScripted sends the reply to method as the script holds it, without the
// downgrade for the session's version (see Session's rendering in the
// package doc): a resource_link to a 2024-11-05 client, an outputSchema to
// a 2025-03-26 one. Reproduces: a server that ignores the negotiated
// version — mark3labs v0.32 fails on the unknown content type. It acts only
// on replies that a downgrade changed.
func AsScripted(method string) Fault {
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

// LoopingCursor makes every page of the list method (tools/list,
// prompts/list, resources/list, resources/templates/list) point its
// nextCursor back at the first page. Reproduces: a pagination loop — a
// client must notice the repeated cursor (mark3labs does) instead of
// looping forever.
func LoopingCursor(method string) Fault {
	return edit(fmt.Sprintf("LoopingCursor(%q)", method), method, func(_ *Session, d []byte) []byte {
		if !gjson.GetBytes(d, "result").IsObject() {
			return d
		}
		return setRaw(d, "result.nextCursor", jsonValue(encodeCursor(listField(method), 0)))
	})
}

// EmptyPageWithCursor answers the first page of the list method with no
// items but a nextCursor to the rest. Reproduces: a server whose first
// page is empty — a client must keep paging, not stop at the empty page.
func EmptyPageWithCursor(method string) Fault {
	f := edit(fmt.Sprintf("EmptyPageWithCursor(%q)", method), method, func(_ *Session, d []byte) []byte {
		field := listField(method)
		if !gjson.GetBytes(d, "result."+field).IsArray() {
			return d
		}
		// the cursor leads to the real first page, so no item is lost
		d = setRaw(d, "result.nextCursor", jsonValue(encodeCursor(field, 0)))
		return setRaw(d, "result."+field, []byte("[]"))
	})
	return f.Nth(1)
}

// ListChangedAfter sends notification (e.g.
// notifications/tools/list_changed) after the first reply to method,
// although nothing changed. Reproduces: spurious list_changed — the client
// re-lists and must not loop or lose state. On a stateless session it is
// sent as written, without a subscriptionId.
func ListChangedAfter(method, notification string) Fault {
	f := outbound(fmt.Sprintf("ListChangedAfter(%q, %q)", method, notification), method, []Kind{KindResult}, func(_ *Session, e *emission) {
		e.frames = append(e.frames, outFrame{data: appendRequest(nil, "", notification, nil), changed: true})
	})
	return f.Nth(1)
}
