package main

import (
	"os"
	"strings"
	"testing"

	"github.com/mcpmock/mcpmock/scenarios"
	"go.uber.org/goleak"
)

func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m)
}

// The tour of one scenario: the official Go SDK meets a server that only
// speaks 2025-03-26, and accepts it.
func Example_negotiateOlderVersion() {
	if err := tour(os.Stdout, "negotiate-older-version"); err != nil {
		panic(err)
	}
	// Output:
	// ## negotiate-older-version
	//
	// Mistake: None: the server speaks only 2025-03-26 and, as the spec says, answers
	// initialize with that version although the client asked for a newer one. It
	// catches clients that insist on getting the version they asked for, although they
	// support the older one.
	// Spec: https://modelcontextprotocol.io/specification/2025-11-25/basic/lifecycle#version-negotiation
	//
	// Transcript (→ client to server, ← server to client):
	//
	//   session 1 (handshake, protocol 2025-03-26)
	//     1 → {"jsonrpc":"2.0","id":1,"method":"server/discover","params":{"_meta":{"io.modelcontextprotocol/clientCapabilities":{"roots":{"listChanged":true}},"io.modelcontextprotocol/clientInfo":{"name":"gift-app","version":"1.0.0"},"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}}
	//     2 ← {"jsonrpc":"2.0","id":1,"error":{"code":-32601,"message":"Method not found: server/discover"}}
	//     3 → {"jsonrpc":"2.0","id":2,"method":"initialize","params":{"clientInfo":{"name":"gift-app","version":"1.0.0"},"protocolVersion":"2025-11-25","capabilities":{"roots":{"listChanged":true}}}}
	//     4 ← {"jsonrpc":"2.0","id":2,"result":{"capabilities":{"prompts":{"listChanged":true},"resources":{"listChanged":true,"subscribe":true},"tools":{"listChanged":true}},"instructions":"Suggest gifts.","protocolVersion":"2025-03-26","serverInfo":{"name":"gift-genius-backend","version":"0.2.0"}}}
	//     5 → {"jsonrpc":"2.0","method":"notifications/initialized","params":{}}
	//     6 → {"jsonrpc":"2.0","id":3,"method":"tools/list"}
	//     7 ← {"jsonrpc":"2.0","id":3,"result":{"tools":[{"name":"suggest_gifts","inputSchema":{"type":"object","properties":{"age":{"type":"integer"}},"required":["age"]},"description":"Suggests gift ideas for a recipient"}]}}
	//     8 → {"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"suggest_gifts","arguments":{"age":25}}}
	//     9 ← {"jsonrpc":"2.0","id":4,"result":{"content":[{"text":"a board game","type":"text"}]}}
	//
	// Sequence diagram:
	//
	// ```mermaid
	// sequenceDiagram
	//     participant C as Client
	//     participant S as Server (mcptest)
	//     C->>S: server/discover [id 1]
	//     S--xC: error -32601 [id 1] (server/discover)
	//     C->>S: initialize [id 2]
	//     S-->>C: result [id 2] (initialize)
	//     C-)S: notifications/initialized
	//     C->>S: tools/list [id 3]
	//     S-->>C: result [id 3] (tools/list)
	//     C->>S: tools/call [id 4]
	//     S-->>C: result [id 4] (tools/call)
	// ```
	//
	// What the client did:
	// - Connect succeeded: protocol 2025-03-26 (handshake era) with
	//   gift-genius-backend 0.2.0, which declared tools, resources, prompts
	// - ListTools returned 1 tool: suggest_gifts
	// - CallTool suggest_gifts {"age":25} returned a result "a board game"
	// - it closed the session
	//
	// A correct client: the client accepts 2025-03-26, completes the handshake in it,
	// lists the tools, and connect returns nil.
	// The official Go SDK v1.8.0: pass, it does that.
}

// TestTour runs the whole tour: every scenario of it is shown with its
// mistake, transcript, diagram, what the client did and the verdict, and
// the output is the same from one run to the next.
func TestTour(t *testing.T) {
	var first strings.Builder
	if err := tour(&first); err != nil {
		t.Fatal(err)
	}
	out := first.String()
	sections := strings.Split(strings.TrimPrefix(out, "## "), "\n## ")
	if len(sections) != len(tourNames) {
		t.Fatalf("want %d sections, got %d:\n%s", len(tourNames), len(sections), out)
	}
	// what the official Go SDK v1.8.0 does today; the rest pass
	fails := map[string]bool{"tools-capability-missing": true, "stdout-banner": true}
	seen := map[string]bool{}
	for _, sec := range sections {
		name, _, _ := strings.Cut(sec, "\n")
		seen[name] = true
		s, ok := scenarios.Lookup(name)
		if !ok {
			t.Errorf("section %q names no scenario", name)
			continue
		}
		for _, want := range []string{
			"Mistake: ", "Spec: " + s.Spec + "\n",
			"Transcript (→ client to server, ← server to client):\n\n  ",
			"  session 1 ", "    1 → ",
			"```mermaid\nsequenceDiagram\n", "```\n",
			"What the client did:\n- ",
			"A correct client: ",
		} {
			if !strings.Contains(sec, want) {
				t.Errorf("section %s has no %q:\n%s", name, want, sec)
			}
		}
		verdict := "The official Go SDK v1.8.0: pass, it does that."
		if fails[name] {
			verdict = "The official Go SDK v1.8.0: fail, "
		}
		if !strings.Contains(sec, verdict) {
			t.Errorf("section %s: want the verdict %q:\n%s", name, verdict, sec)
		}
	}
	for _, n := range tourNames {
		if !seen[n] {
			t.Errorf("the tour does not show %s", n)
		}
	}

	var second strings.Builder
	if err := tour(&second); err != nil {
		t.Fatal(err)
	}
	if second.String() != out {
		t.Errorf("the tour's output differs from one run to the next:\nfirst:\n%s\nsecond:\n%s", out, second.String())
	}
}

// TestTourUnknownScenario: a name that is not in the catalog is an error
// that lists the catalog.
func TestTourUnknownScenario(t *testing.T) {
	var out strings.Builder
	err := tour(&out, "negotiate-older-version", "handshake-mistake")
	if err == nil {
		t.Fatal("want an error for an unknown scenario")
	}
	if !strings.Contains(err.Error(), `"handshake-mistake"`) {
		t.Errorf("the error does not name the unknown scenario: %v", err)
	}
	for _, n := range scenarios.Names() {
		if !strings.Contains(err.Error(), n) {
			t.Errorf("the error does not list %s: %v", n, err)
		}
	}
	if out.Len() > 0 {
		t.Errorf("nothing is played when a name is unknown, got:\n%s", out.String())
	}
}
