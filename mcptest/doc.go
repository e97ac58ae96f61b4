// Package mcptest is the httptest of the Model Context Protocol: an MCP
// server that lives inside a Go test, is scripted by the test, can break
// the protocol on purpose, and reports exactly what the client under test
// did.
//
//	func TestGiftApp(t *testing.T) {
//		srv := mcptest.NewServer(t).
//			WithTools(mcptest.NewTool("suggest_gifts").ReturnsText("a board game"))
//		conn := srv.Dial() // the client's end of an in-memory stdio-style connection
//
//		client := mcp.NewClient(&mcp.Implementation{Name: "app", Version: "1.0"}, nil)
//		cs, err := client.Connect(t.Context(), &mcp.IOTransport{Reader: conn, Writer: conn}, nil)
//		if err != nil {
//			t.Fatal(err)
//		}
//		defer cs.Close()
//		// the code under test lists and calls tools through cs, such as:
//		if _, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: "suggest_gifts", Arguments: map[string]any{"age": 25}}); err != nil {
//			t.Fatal(err)
//		}
//
//		srv.AssertConnected(t) // in whichever era the client chose
//		srv.AssertToolCalled(t, "suggest_gifts", `{"age":25}`)
//	}
//
// # Scripting
//
// Tools, resources, resource templates and prompts are data: a definition
// (NewTool, NewResource, NewResourceTemplate, NewPrompt with chained With…
// methods) and scripted replies — a sequence (Returns, the last reply
// repeating), cases matched on a JSON subset of the arguments (WhenArgs),
// and a Handler as the escape hatch. Server.Handle answers any method,
// including ones the spec does not know. A call that nothing answers gets a
// JSON-RPC error, and the test log gets a near-miss report naming the
// closest scripted case and how the arguments differed (Server.Unmatched).
//
// # Protocol
//
// The mock speaks both eras of MCP at once, as the spec allows. The
// handshake era (2024-11-05, 2025-03-26, 2025-06-18, 2025-11-25):
// initialize with the spec's version negotiation, notifications/initialized,
// ping both ways, logging/setLevel, server-to-client requests, resource
// subscriptions. The stateless era (2026-07-28): server/discover,
// per-request _meta checked on every request, -32022 and -32021,
// resultType and caching hints on results, subscriptions/listen, and
// multi-round-trip input_required results (RequiresInput, InputRequired).
// Both: cancellation, progress, pagination with opaque cursors.
// WithProtocolVersions narrows the server to a legacy-only or a
// modern-only one; AssertEra says where a session ended up.
//
// # Faults
//
// A Fault is one way a real server breaks clients, as a value: a trigger
// and an action. The catalog is package
// github.com/mcpmock/mcpmock/mcptest/fault (fault.RespondProtocolVersion,
// fault.OmitCapability, fault.Hang, fault.WrongID, fault.Banner,
// fault.Truncate, …; its doc draws where each handshake fault acts).
// Fault values are immutable and hold no state: one value may be given to
// any number of Servers.
// Server.WithFaults (chained) and Server.AddFault (which returns a
// *FaultHandle with Hits, Remove and Release) install faults, before or
// while clients are connected; each installation counts for itself. A
// fault that never acted fails the test at its end, saying why it likely
// did not (the client never sent that method, went stateless, …), unless
// it was marked Optional. The journal records exactly what went on the
// wire.
//
// # JSON values
//
// One rule for every parameter that takes JSON. A parameter that takes any
// JSON value (Messages.Where, JSONRPCError's data; package fault's SetField,
// ReplaceWithJSONRPCError's data, JSONRPCVersion, RespondProtocolVersion) reads a Go string as a JSON
// string and a json.RawMessage (or []byte) as JSON text; anything else is what
// encoding/json makes of it: fault.SetField(m, p, "42") sets the string
// "42", fault.SetField(m, p, json.RawMessage(`42`)) the number. A parameter that only
// takes a JSON object or schema (params, results, argument subsets,
// capabilities, input and output schemas) also accepts JSON text in a
// string or []byte: WhenArgs(`{"age":8}`, …). A value JSON cannot encode
// fails the test, naming the call.
//
// # Verdicts outside tests
//
// Server.Verify returns the verdict (unexpected violations, unmet
// ExpectViolation, faults that never acted) as one error, and ProgramTB is
// a TB for programs that are not tests (examples, the mcpmock command):
// its Run returns the verdict instead of failing a test. Server.Serve runs
// one session over any io.ReadWriteCloser, as a server does on stdio.
//
// # Streamable HTTP
//
// URL starts a real HTTP server on 127.0.0.1 (once, stopped by Close) and
// returns the MCP endpoint for a Streamable HTTP client, e.g.
// &mcp.StreamableClientTransport{Endpoint: srv.URL()}; Server.HTTPHandler is
// the same endpoint to mount yourself. Each MCP session there is a Session
// like one of Dial, and everything else works unchanged; Message.HTTP
// records each message's HTTP exchange. Both eras are served as the
// spec's transport section says (session ids, JSON or SSE replies, the
// standalone GET stream, Last-Event-ID replay; the stateless era's headers
// checked against the body), and the legacy HTTP+SSE transport of
// 2024-11-05 too.
// The http/… rules check the client's side of HTTP, and the HTTP faults
// (fault.ExpireSession, fault.HTTPStatus, fault.DropStream, fault.ReplyAsSSE,
// …) break the server's.
// WithAuthorization makes the endpoint OAuth-protected, with its
// authorization server on the same origin: that is package
// github.com/mcpmock/mcpmock/mcptest/oauth.
//
// # What the client did
//
// Server.Journal records every message of every session in wire order,
// both directions, with its raw bytes; its queries are those of Messages
// (Requests, Notifications, Responses, ToolCalls, Where, …), which select
// by what a message is, never by who sent it: narrow with From(FromClient)
// or From(FromServer). ResponseTo and RequestOf pair a request with its
// response. The client checks hold the client to the
// spec (Rules lists them): each broken rule is a Violation with a stable
// ID, the spec section and the offending message, and fails the test at
// cleanup unless the test declared it with ExpectViolation. Server.Transcript
// and Messages.SequenceDiagram (Mermaid) render a conversation.
//
// # Assertions
//
// The Assert… methods take t first, report with t.Errorf and return
// whether they held, as testify's assert does; WaitFor stops the test
// (t.Fatalf) like testify's require; Await waits without a test to fail.
// They wait on the journal, never sleeping, up to Options.WaitTimeout (10 s by
// default), but only for what can still happen: an assertion whose answer
// can no longer change fails at once. That is when every session has
// ended (a client that reconnects opens a new session: wait for it with
// Await), when each session has settled on another era or version
// (AssertEra, AssertNegotiatedVersion, AssertHandshakeCompleted), when the
// tool is not scripted (AssertToolCalled, ToolCall: with the closest
// name), when the method is a near miss of one of MCP's or of a Handled
// one (AssertCalled, ClientSent: a typo such as "tools/lsit"), and when the
// argument subset is not a JSON object. A failure says what was wanted, what happened and why it can no
// longer change, with the last messages of the journal one line each; the
// transcript, every message in full, is logged once when a test fails
// (always, with MCPTEST_TRANSCRIPT=1). AssertConnected accepts a client in
// either era, as a default client picks the stateless one when the server
// offers it.
//
// Which wait and which only read: an assertion of something the client
// will do waits for it (a client acts on its own goroutine, after Dial or
// a call returns); an assertion that something did not happen reads the
// journal as it is, since no wait can prove a client never will.
//
//	assertion                waits (WaitTimeout)      fails at once when
//	AssertConnected          yes                      every session ended
//	AssertHandshakeCompleted yes                      every session ended or is stateless; no handshake version offered
//	AssertEra                yes                      every session settled or ended; no version of the era offered
//	AssertNegotiatedVersion  yes                      every session settled or ended
//	AssertCalled             yes                      every session ended; a typo of a method
//	AssertCalledTimes        yes, until the count     the count is past n; ended short; n < 0; a typo;
//	                         reaches n                and again at Verify: a later call fails the test
//	AssertToolCalled         yes                      every session ended; tool not scripted; subset not an object
//	AssertOrder              yes                      every session ended; a typo
//	AssertCancelled          yes                      every session ended; a typo
//	WaitFor (t.Fatalf)       yes                      every session ended; a matcher that can never match
//	Await (no test)          until ctx or Close       a matcher that can never match (it outlives sessions:
//	                                                  a client may reconnect)
//	AssertNotCalled          no: reads so far         (AssertCalledTimes(t, m, 0) holds it to the end)
//	AssertNoViolations       no: reads so far         (Verify, at cleanup, reads the end)
//	ExpectViolation, Verify  no: read at the end      (NewServer's cleanup, after Close)
//
// # Promises and limits
//
// Bad client input never crashes the mock: every frame is journaled byte
// for byte and answered as the spec says, and the session goes on. A frame
// is read up to 64 MiB; one nested deeper than 1000 levels is answered
// -32600 without being parsed. Close always ends: from a handler too, with
// every caller waiting for the same end; a handler that ignores its
// context past Options.CloseGrace fails the test, named with its method.
// JSON-RPC batches are accepted in 2024-11-05 and 2025-03-26 sessions.
// What a session receives is rendered for its
// negotiated version, with a line in the test log for each downgrade.
// Resource templates are RFC 6570 URI templates of every level; a {name}
// variable matches what simple expansion writes (letters, digits, -._~ and
// percent-encoded characters), so a value with ":" or "@" needs {+name}.
package mcptest
