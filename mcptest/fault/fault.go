package fault

import (
	"time"

	"github.com/mcpmock/mcpmock/internal/faultkit"
	"github.com/mcpmock/mcpmock/mcptest"
)

// build returns the fault the engine's constructor op plays with args.
func build(op string, args ...any) mcptest.Fault {
	return mcptest.Fault(faultkit.Make(faultkit.Spec{Op: op, Args: args}))
}

// ---- Handshake and capabilities ----

// RespondProtocolVersion answers initialize with protocolVersion set to v,
// any JSON value by the package's JSON rule (an unknown, older or newer
// version string, "", a number, a json.RawMessage…).
// Reproduces: a server that ignores the client's version, or one the
// client does not know — a correct client disconnects (the official Go
// SDK fails Connect with "unsupported protocol version"). On the timeline:
// it edits the initialize result.
func RespondProtocolVersion(v any) mcptest.Fault { return build("RespondProtocolVersion", v) }

// RespondSupportedVersions answers server/discover with supportedVersions
// set to versions. Reproduces: a modern server whose versions the client
// does not share — the client must fall back, or give up cleanly. On the
// timeline: it edits the server/discover result (the stateless era).
func RespondSupportedVersions(versions ...string) mcptest.Fault {
	return build("RespondSupportedVersions", versions)
}

// RejectProtocolVersionHandshake answers initialize with the error the 2025 spec
// shows for a version the server does not support: -32602 "Unsupported
// protocol version", data {supported, requested}. Reproduces: a server
// that will not speak the client's version at all. On the timeline: it
// answers the client's initialize in place of the initialize result, so
// no fault of the result (nor NotifyAfterInitializeResult) acts.
func RejectProtocolVersionHandshake() mcptest.Fault { return build("RejectProtocolVersionHandshake") }

// RejectProtocolVersionStateless answers server/discover and every
// stateless-era request with -32022 "Unsupported protocol version", data
// {supported: versions, requested}. Reproduces: a modern server on a
// version the client does not ask for — the client should retry once
// with a listed version, or fall back when none is modern. On the
// timeline: it answers server/discover and each stateless request in
// place of its result; the handshake era is left alone.
func RejectProtocolVersionStateless(versions ...string) mcptest.Fault {
	return build("RejectProtocolVersionStateless", versions)
}

// OmitCapability leaves a capability (tools, resources, prompts, logging,
// completions) out of the initialize and server/discover results although
// the server serves it. Reproduces the classic "the app shows no tools":
// a correct client never calls tools/list then; the official Go SDK and
// mark3labs call it anyway. On the timeline: it edits the initialize
// result and the server/discover result.
func OmitCapability(name string) mcptest.Fault { return build("OmitCapability", name) }

// DeclareUnservedCapability declares a capability the server does not
// serve: it is in the initialize and server/discover results, and every
// method behind it is answered -32601. Reproduces: capabilities that lie —
// the client lists, gets an error, and must cope. On the timeline: it
// edits the initialize result and the server/discover result, then
// answers the capability's methods after the handshake.
func DeclareUnservedCapability(name string) mcptest.Fault {
	return build("DeclareUnservedCapability", name)
}

// RespondCapabilities replaces the whole capabilities value of the initialize
// and server/discover results with raw JSON, e.g. `true` or `[]`.
// Reproduces: a malformed initialize result the client must reject
// instead of crashing. On the timeline: it edits the initialize result and
// the server/discover result.
func RespondCapabilities(rawJSON string) mcptest.Fault { return build("RespondCapabilities", rawJSON) }

// OmitServerInfo drops serverInfo from the initialize result and from the
// _meta of stateless-era results. Reproduces: a server that forgets to
// say who it is; clients that print or log the server name must not crash.
// On the timeline: it edits the initialize result, and each stateless
// result's _meta.
func OmitServerInfo() mcptest.Fault { return build("OmitServerInfo") }

// CorruptServerInfo replaces serverInfo (in the initialize result, and in
// the _meta of stateless-era results) with raw JSON, e.g. `"x"` or
// `{"name":42}`. Reproduces: a malformed serverInfo the client must reject
// or tolerate without crashing. On the timeline: it edits the initialize
// result, and each stateless result's _meta.
func CorruptServerInfo(rawJSON string) mcptest.Fault { return build("CorruptServerInfo", rawJSON) }

// SetField sets the value at a JSON path (sjson syntax, e.g.
// "result.tools.0.inputSchema") of every reply to method to value, any JSON
// value by the package's JSON rule: a Go value ("42" is the string "42",
// 42 the number), a json.RawMessage for JSON text — a different type too.
// Reproduces whatever malformed reply a bug report shows.
func SetField(method, path string, value any) mcptest.Fault {
	return build("SetField", method, path, value)
}

// DeleteField deletes the value at a JSON path of every reply to method,
// e.g. DeleteField("tools/list", "result.tools.0.name"). Reproduces: a
// result missing a required field.
func DeleteField(method, path string) mcptest.Fault { return build("DeleteField", method, path) }

// NotifyBeforeInitializeResult sends a notification (e.g.
// notifications/message or notifications/tools/list_changed) before the
// initialize result. Reproduces: a server that talks before the handshake;
// a correct client ignores it or copes, and does not deadlock. On the
// timeline: after the client's initialize and before the initialize
// result, so the client meets it before it has the server's capabilities
// (the earliest point; NotifyAfterInitializeResult is the next one).
func NotifyBeforeInitializeResult(method string, params any) mcptest.Fault {
	return build("NotifyBeforeInitializeResult", method, params)
}

// NotifyAfterInitializeResult sends a notification right after the initialize
// result, before the client can have sent notifications/initialized.
// Reproduces: logging or list_changed that arrives while the client is
// still in its handshake. On the timeline: right after the initialize
// result and before the client's notifications/initialized — the point
// the scenario notify-before-initialized names from the client's side.
func NotifyAfterInitializeResult(method string, params any) mcptest.Fault {
	return build("NotifyAfterInitializeResult", method, params)
}

// RequestAfterInitializeResult sends a server-to-client request (e.g.
// roots/list) right after the initialize result, before
// notifications/initialized. Reproduces: a server that asks for roots
// during the handshake; the client's answer is journaled. On the
// timeline: the same point as NotifyAfterInitializeResult, right after
// the initialize result and before the client's notifications/initialized.
func RequestAfterInitializeResult(method string, params any) mcptest.Fault {
	return build("RequestAfterInitializeResult", method, params)
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
func Hang(method string) mcptest.Fault { return build("Hang", method) }

// Delay serves requests of method after d. Reproduces: a slow server —
// Delay("initialize", …) a late handshake, Delay("tools/call", …) a tool
// slower than the client's timeout.
func Delay(method string, d time.Duration) mcptest.Fault { return build("Delay", method, d) }

// Jitter serves requests of method after a delay drawn from [lo, hi) by
// the server's seeded source (Options.FaultSeed). Reproduces: a server whose
// latency varies, so replies can overtake each other.
func Jitter(method string, lo, hi time.Duration) mcptest.Fault {
	return build("Jitter", method, lo, hi)
}

// ReplaceWithJSONRPCError answers requests of method with a JSON-RPC error instead of
// serving them; data is any JSON value by the package's JSON rule (a Go
// value; a json.RawMessage for JSON text), nil for none.
// Reproduces: a server that fails a method with an error the client must
// surface rather than hang or crash on; ReplaceWithJSONRPCError("server/discover",
// -32000, "boom") is a discover that fails with an error a client must not
// rely on the code of (the spec's fallback must not depend on one code).
func ReplaceWithJSONRPCError(method string, code int, message string, data any) mcptest.Fault {
	return build("ReplaceWithJSONRPCError", method, code, message, data)
}

// ---- JSON-RPC ----

// WrongID answers requests of method with an id the client never used.
// Reproduces: a reply the client cannot match — the official Go SDK drops
// it silently and the call hangs until its context ends.
func WrongID(method string) mcptest.Fault { return build("WrongID", method) }

// FlipIDType answers with the same id in the other type: "1" for 1, and 1
// for "1". Reproduces: a server that stringifies ids — clients that match
// by typed id (both Go SDKs) never see the reply.
func FlipIDType(method string) mcptest.Fault { return build("FlipIDType", method) }

// NullID answers with "id": null. Reproduces: a server that loses the id.
func NullID(method string) mcptest.Fault { return build("NullID", method) }

// OmitID answers without an id, which makes the reply look like neither a
// response nor a notification. Reproduces: a server that drops the id
// field; a client that routes by id must not crash, and its call times out.
func OmitID(method string) mcptest.Fault { return build("OmitID", method) }

// ReplyTwice sends every reply to method twice. Reproduces: a server that
// answers twice (a retry bug); the second reply has no pending request.
func ReplyTwice(method string) mcptest.Fault { return build("ReplyTwice", method) }

// UnsolicitedResponse sends, after every reply to method, a response to a
// request the client never sent. Reproduces: stray responses from a
// confused server.
func UnsolicitedResponse(method string) mcptest.Fault { return build("UnsolicitedResponse", method) }

// ResultAndError answers with both result and error, which JSON-RPC forbids.
// Reproduces: a server that sets both fields; a client must not take the
// result as success without noticing the error.
func ResultAndError(method string) mcptest.Fault { return build("ResultAndError", method) }

// JSONRPCVersion sets "jsonrpc" of every reply to method to v (any JSON
// value, e.g. "1.0" or 2); nil leaves the field out. Reproduces: a server
// that is not quite JSON-RPC 2.0 — the official Go SDK drops the connection.
func JSONRPCVersion(method string, v any) mcptest.Fault { return build("JSONRPCVersion", method, v) }

// ---- Timing and connection ----

// Drop never sends the mock's messages with method (replies to it, or
// notifications of it), although the request was served. Reproduces: a
// lost reply — the client waits until its own timeout.
func Drop(method string) mcptest.Fault { return build("Drop", method) }

// CloseAfter closes the connection right after the mock sent its reply to
// method. Reproduces: a server that exits after answering — the client's
// next call fails with EOF.
func CloseAfter(method string) mcptest.Fault { return build("CloseAfter", method) }

// CloseBefore closes the connection when a request of method arrives,
// without answering it. Reproduces: a server that crashes mid-call — the
// client's pending call fails with EOF instead of hanging.
func CloseBefore(method string) mcptest.Fault { return build("CloseBefore", method) }

// Truncate writes only the first n bytes of the reply to method, then
// closes the connection. Reproduces: a server killed in the middle of
// writing a frame.
func Truncate(method string, n int) mcptest.Fault { return build("Truncate", method, n) }

// ---- Framing (stdio) ----

// Banner writes a non-JSON line (e.g. "Server started on stdio") before
// the first message the mock sends in each session, as a server prints a
// banner each time it starts. Reproduces: a server that prints a banner or
// logs to stdout — mark3labs skips the line, the official Go SDK drops the
// connection.
func Banner(text string) mcptest.Fault { return build("Banner", text) }

// NonJSONLine writes a non-JSON line before every reply to method.
// Reproduces: log output interleaved with protocol messages on stdout.
func NonJSONLine(method, text string) mcptest.Fault { return build("NonJSONLine", method, text) }

// Dribble writes the reply to method in pieces of chunk bytes with a pause
// between them. Reproduces: a slow pipe or a server that flushes in small
// writes — a client must assemble the frame, not parse each read.
func Dribble(method string, chunk int, pause time.Duration) mcptest.Fault {
	return build("Dribble", method, chunk, pause)
}

// PrettyPrint writes the reply to method as indented, multi-line JSON.
// Reproduces: a server that breaks the one-message-per-line rule of stdio;
// the official Go SDK's streaming decoder copes, line-based clients do not.
func PrettyPrint(method string) mcptest.Fault { return build("PrettyPrint", method) }

// TwoOnOneLine writes the reply to method and a notifications/message on
// the same line. Reproduces: a server that forgets a newline between two
// messages — the official Go SDK fails with "invalid trailing data".
func TwoOnOneLine(method string) mcptest.Fault { return build("TwoOnOneLine", method) }

// NoFinalNewline writes the reply to method without its newline, so it
// runs into whatever the mock writes next. Reproduces: a server that
// forgets to terminate its frames.
func NoFinalNewline(method string) mcptest.Fault { return build("NoFinalNewline", method) }

// Oversized pads the reply to method with n bytes of text in
// result._meta["mcptest/padding"], e.g. past the official Go SDK's 16 MiB
// frame limit. Reproduces: a huge tool result or resource.
func Oversized(method string, n int) mcptest.Fault { return build("Oversized", method, n) }

// InvalidUTF8 puts bytes that are not UTF-8 into a string of the reply to
// method (result._meta["mcptest/bytes"]). Reproduces: a server that writes
// raw bytes of a binary file into text.
func InvalidUTF8(method string) mcptest.Fault { return build("InvalidUTF8", method) }

// ---- What client bugs on record need ----

// GluedPrefix writes text at the start of the line of the reply to method,
// glued to the frame: "INFO ready{"jsonrpc":"2.0",…}". Reproduces: a server
// whose logging writes to stdout without a newline, so the next frame does
// not start its line — a client that parses whole lines loses the reply.
func GluedPrefix(method, text string) mcptest.Fault { return build("GluedPrefix", method, text) }

// RequestWithID sends the client a request of reqMethod (e.g. "ping" or
// "roots/list", with params, a JSON object or nil) with the given id each
// time a request of method arrives, then serves that request. id is any
// JSON value by the package's JSON rule (1, "abc", json.RawMessage…); nil
// uses the id of the client's request, which is then still pending.
// Reproduces: a client that routes an incoming message by its id alone and
// takes the server's request for the response to its own call; the
// client's answer to the request is journaled and taken as an answer.
func RequestWithID(method, reqMethod string, id, params any) mcptest.Fault {
	return build("RequestWithID", method, reqMethod, id, params)
}

// StringRequestIDs gives the mock's requests to the client (ping,
// roots/list, sampling, elicitation) string ids, "mcptest-1" for 1, as
// many servers do. Reproduces: a client that assumes a server's request
// ids are numbers, as the mock's usually are.
func StringRequestIDs() mcptest.Fault { return build("StringRequestIDs") }

// Batched sends the frames of the reply to method — the reply and any
// frames faults added before it in the chain (NotifyBefore…, ReplyTwice) —
// as one JSON-RPC batch. 2024-11-05 and 2025-03-26 say a receiver MUST
// accept batches; 2025-06-18 removed them. Reproduces: a server of those
// versions that batches its messages, against a client that cannot read a
// batch.
func Batched(method string) mcptest.Fault { return build("Batched", method) }

// AsScripted sends the reply to method as the script holds it, without the
// downgrade for the session's version (see Session's rendering in the
// package doc): a resource_link to a 2024-11-05 client, an outputSchema to
// a 2025-03-26 one. Reproduces: a server that ignores the negotiated
// version — mark3labs v0.32 fails on the unknown content type. It acts only
// on replies that a downgrade changed.
func AsScripted(method string) mcptest.Fault { return build("AsScripted", method) }

// ---- Tools and lists ----

// LoopingCursor makes every page of the list method (tools/list,
// prompts/list, resources/list, resources/templates/list) point its
// nextCursor back at the first page. Reproduces: a pagination loop — a
// client must notice the repeated cursor (mark3labs does) instead of
// looping forever.
func LoopingCursor(method string) mcptest.Fault { return build("LoopingCursor", method) }

// EmptyPageWithCursor answers the first page of the list method with no
// items but a nextCursor to the rest. Reproduces: a server whose first
// page is empty — a client must keep paging, not stop at the empty page.
func EmptyPageWithCursor(method string) mcptest.Fault { return build("EmptyPageWithCursor", method) }

// ListChangedAfter sends notification (e.g.
// notifications/tools/list_changed) after the first reply to method,
// although nothing changed. Reproduces: spurious list_changed — the client
// re-lists and must not loop or lose state. On a stateless session it is
// sent as written, without a subscriptionId.
func ListChangedAfter(method, notification string) mcptest.Fault {
	return build("ListChangedAfter", method, notification)
}

// ExpireSession ends the session when the client sends the request the
// fault matches (any request; choose which with Nth or InSession): that
// request and every later one with the session's id get 404 Not Found, as
// from a server that restarted or timed the session out. Reproduces: a
// client that does not start a new session (initialize without the old
// Mcp-Session-Id) after 404, as the spec says it MUST.
func ExpireSession() mcptest.Fault { return build("ExpireSession") }

// HTTPStatus answers requests of method with an HTTP error instead of a
// JSON-RPC reply: code with body, which, when empty, is an HTML error
// page as proxies and frameworks write (500, 502, 503), or for 401 a
// WWW-Authenticate challenge, for 429 a Retry-After. The session goes on.
// Reproduces: a gateway error or rate limit in front of the server — the
// client must surface the error to the app and keep the session.
func HTTPStatus(method string, code int, body string) mcptest.Fault {
	return build("HTTPStatus", method, code, body)
}

// SlowHeaders waits d before the mock starts answering a request of
// method over HTTP: the client sees no status line for that long.
// Reproduces: a slow backend behind the endpoint — a client with a short
// response-header timeout fails the call.
func SlowHeaders(method string, d time.Duration) mcptest.Fault {
	return build("SlowHeaders", method, d)
}

// DropStream answers a request of method with an SSE stream and cuts it
// after the first n events (n = 0: right after the stream opens), before
// the reply. With resumable, the events carry ids (and a priming event
// opens the stream), so the client can reconnect with GET and
// Last-Event-ID, and the mock replays what it missed, the reply included;
// without, they carry none and the reply is lost. Reproduces: a proxy
// that cuts long responses — a client that does not resume loses the call.
func DropStream(method string, n int, resumable bool) mcptest.Fault {
	return build("DropStream", method, n, resumable)
}

// ReplyAsJSON answers requests of method with a JSON body even when the
// mock sends notifications or requests before the result: those go on the
// standalone GET stream instead (or wait for one). Reproduces: a server
// that never streams — progress arrives late, or never.
func ReplyAsJSON(method string) mcptest.Fault { return build("ReplyAsJSON", method) }

// ReplyAsSSE answers requests of method (every request when method is "")
// with an SSE stream even when only the result goes on it. By default a
// request is answered with a JSON body, and with SSE when the mock sends a
// notification or a request before the result. Reproduces: a server that always streams — a
// client that handles only JSON bodies fails.
func ReplyAsSSE(method string) mcptest.Fault { return build("ReplyAsSSE", method) }

// OmitSessionID answers initialize without an Mcp-Session-Id header, as a
// server that keeps no sessions does (the spec makes the header a MAY):
// the mock then takes the session's later requests without one. Reproduces:
// a client that insists on a session id, or sends an empty one.
func OmitSessionID() mcptest.Fault { return build("OmitSessionID") }

// WrongContentType labels the reply to method with contentType (e.g.
// "text/plain" or "text/html") instead of application/json or
// text/event-stream; the body is unchanged. Reproduces: a framework that
// sets its default content type — a strict client rejects the reply.
func WrongContentType(method, contentType string) mcptest.Fault {
	return build("WrongContentType", method, contentType)
}

// SSEComment answers requests of method with an SSE stream and writes the
// comment line ": text" before each of its events, as servers and proxies
// send keep-alives. Reproduces: a client whose SSE parser chokes on
// comments, which the SSE format says to ignore.
func SSEComment(method, text string) mcptest.Fault { return build("SSEComment", method, text) }
