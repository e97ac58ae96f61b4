// Package mcptest is the httptest of the Model Context Protocol: an MCP
// server that lives inside a Go test, is scripted by the test, can break
// the protocol on purpose, and reports exactly what the client under test
// did.
//
//	srv := mcptest.NewServer(t).
//		WithTools(mcptest.NewTool("suggest_gifts").ReturnsText("a board game"))
//	conn := srv.Dial() // the client's end of an in-memory stdio-style connection
//
//	client := mcp.NewClient(&mcp.Implementation{Name: "app", Version: "1.0"}, nil)
//	cs, err := client.Connect(ctx, &mcp.IOTransport{Reader: conn, Writer: conn}, nil)
//	// … the code under test lists and calls tools through cs …
//
//	srv.AssertHandshakeCompleted(t)
//	srv.AssertToolCalled(t, "suggest_gifts", `{"age":25}`)
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
// and an action (RespondProtocolVersion, OmitCapability, Hang, WrongID,
// Banner, Truncate, …). Fault values are immutable and hold no state: one
// value may be given to any number of Servers. Server.WithFault (chained)
// and Server.AddFault (which returns a *FaultHandle with Hits, Remove and
// Release) install faults, before or while clients are connected; each
// installation counts for itself. A fault that never acted fails the test
// at its end, saying why it likely did not (the client never sent that
// method, went stateless, …), unless it was marked Optional. The journal
// records exactly what went on the wire.
//
// # JSON values
//
// One rule for every parameter that takes JSON. A parameter that takes any
// JSON value (SetField, Journal.Where, RPCErrorWithData and ErrorReply's
// data, JSONRPCVersion, RespondProtocolVersion) reads a Go string as a JSON
// string and a json.RawMessage (or []byte) as JSON text; anything else is what
// encoding/json makes of it: SetField(m, p, "42") sets the string "42",
// SetField(m, p, json.RawMessage(`42`)) the number. A parameter that only
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
// # What the client did
//
// Server.Journal records every message of every session in wire order,
// both directions, with its raw bytes; its queries are those of Messages
// (Requests, Notifications, Responses, ToolCalls, Where, …), which select
// by what a message is, never by who sent it: narrow with FromClient or
// FromServer. ResponseTo and RequestOf pair a request with its response.
// The client checks hold the client to the
// spec (Rules lists them): each broken rule is a Violation with a stable
// ID, the spec section and the offending message, and fails the test at
// cleanup unless the test declared it with ExpectViolation. The Assert…
// methods and WaitFor wait on the journal (never sleep) and print the
// relevant slice of it when they fail; a failing test also logs the whole
// transcript (always, with MCPTEST_TRANSCRIPT=1). Transcript and
// SequenceDiagram (Mermaid) render a conversation.
//
// # Limits
//
// JSON-RPC batches are answered with -32600. URI templates support {name}
// and {+name} only. The transport is the in-memory stdio-style pipe of
// Dial; Streamable HTTP is not there yet.
package mcptest
