// Package mcpclient is mcpmock's client kit: the one MCP client of the
// module's tests, tour and command (the golden tests, the scenario and bug
// proofs' clients, the tour's naive and OAuth clients, the command's
// reference client), written from the specification alone, with no SDK
// and nothing of mcptest (which imports it in its tests: it must not
// import mcptest back).
//
// Its zero value is the golden client: a raw client that does everything
// by the book on every transport (newline-delimited JSON over a
// connection, Streamable HTTP, the HTTP+SSE transport of 2024-11-05) and
// in every protocol version (the handshake era 2024-11-05 … 2025-11-25
// and the stateless era 2026-07-28). Its use is to prove that no rule of
// the mock blames a correct client: a session of it must leave no
// violation of any severity. Every deliberate mistake another client
// needs is a knob: Options.Bugs (the MCP session, the app's use of the
// tools) and OAuth.Bugs (the authorization flow); reading Bugs and
// OAuthBugs tells every mistake the module's tests make on purpose, and
// what catches each.
//
// The kit, from the most raw to the most complete:
//   - Request, Notification: frames as text;
//   - Wire (stdio) and HTTPWire (Streamable HTTP, with OAuth): one frame
//     out, what came back, nothing answered behind the caller's back, for
//     tests and lessons that send exactly what they mean;
//   - Client (Pipe, Stdio, HTTP, LegacySSE): a session with Connect, Call,
//     ListAll, the server's requests answered, cancellation, and the
//     golden client's Exercise; Work is an app's session (list, call, list
//     again), Run a client program's (fallback, a new session on 404);
//   - OAuth: the spec's authorization flow (PKCE S256, one WWW-Authenticate
//     parser), for Options.Auth and HTTPWire.
//
// What it does, per the spec:
//   - handshake era: initialize (never cancelled, never in a batch), a
//     check of the answered version and capabilities, notifications/initialized,
//     then only methods whose capability the server declared;
//   - stateless era: server/discover first, params._meta with protocolVersion,
//     clientCapabilities and clientInfo on every request, the same each
//     time; input_required answered by a retry with a NEW id, the
//     requestState echoed unchanged and every input answered;
//     subscriptions/listen;
//   - every list followed to its last page; integer ids counting up, never
//     reused; replies matched by the exact JSON text of the id;
//   - every request of the server answered: ping, and those of the
//     capabilities it declared (roots/list, sampling/createMessage,
//     elicitation/create); any other with -32601;
//   - a request given up on is cancelled with notifications/cancelled;
//   - over Streamable HTTP: Accept listing application/json and
//     text/event-stream, Content-Type application/json, the Mcp-Session-Id
//     the server assigned, Mcp-Protocol-Version after the handshake, SSE
//     replies, the GET stream, resumption with Last-Event-ID, and DELETE at
//     the end; in the stateless era Mcp-Protocol-Version, Mcp-Method and
//     Mcp-Name on every request and no session.
package mcpclient
