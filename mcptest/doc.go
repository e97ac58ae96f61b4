// Package mcptest is the httptest of the Model Context Protocol: an MCP
// server that lives inside a Go test, is scripted by the test, can break
// the protocol on purpose, and reports exactly what the client under test
// did.
//
//	srv := mcptest.NewServer(t).
//		WithTool(mcptest.NewTool("suggest_gifts").ReturnsText("a board game"))
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
// The mock speaks the handshake era of MCP (2024-11-05, 2025-03-26,
// 2025-06-18, 2025-11-25): initialize, the version negotiation of the spec,
// notifications/initialized, ping both ways, logging/setLevel, cancellation
// and progress, pagination with opaque cursors, resource subscriptions. It
// answers server/discover as a legacy server does (-32601, at once), so
// clients that probe for the 2026-07-28 stateless era fall back to
// initialize without waiting.
//
// # What the client did
//
// Server.Journal records every frame of every session in wire order, both
// directions, with its raw bytes. The client checks hold the client to the
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
// JSON-RPC batches are answered with -32600. The stateless era
// (2026-07-28), the fault catalog and the HTTP transport are not there yet.
package mcptest
