package bugs

import (
	"github.com/mcpmock/mcpmock/mcptest"
	"github.com/mcpmock/mcpmock/mcptest/fault"
)

// This file holds the bugs of the official Java SDK and Rust SDK (rmcp)
// that real releases prove: .ci/jvm_rust_clients.sh (check_jvm_rust_bugs)
// plays the apps of integration/clients (and integration/bugs/rmcp-v1.1.1
// for an older rmcp API) with mcpmock run --bug.

// jvmRustTest is where the proofs by Java and Rust releases run.
const jvmRustTest = ".ci/jvm_rust_clients.sh check_jvm_rust_bugs"

// maven is a proof by releases of the official Java SDK
// (io.modelcontextprotocol.sdk:mcp), the app integration/clients/java
// built at the buggy release; fixed says what passes.
func maven(buggy, fixed string) Proof {
	return Proof{Kind: RealVersion, Buggy: "io.modelcontextprotocol.sdk:mcp " + buggy, Fixed: fixed,
		Test: jvmRustTest + " (integration/clients/java)", Release: "io.modelcontextprotocol.sdk:mcp@" + buggy}
}

// crate is a proof by releases of rmcp from crates.io: the buggy one in
// integration/bugs/rmcp-v<buggy>, the fixed one in integration/clients/rust.
func crate(buggy, fixed string) Proof {
	return Proof{Kind: RealVersion, Buggy: "rmcp " + buggy, Fixed: "rmcp " + fixed,
		Test: jvmRustTest + " (integration/bugs/rmcp-v" + buggy + ", integration/clients/rust)", Release: "rmcp@" + buggy}
}

// jvmRust adds the Java and Rust bugs to the catalog, and gives the bugs
// of those SDKs already there the proof by their releases.
func jvmRust(out []Bug) []Bug {
	handshake := func(s *mcptest.Server) *mcptest.Server { return s.WithProtocolVersions(mcptest.HandshakeVersions()...) }
	add := func(b Bug, r ref) {
		b.Source, b.URL = r.source, r.url
		out = append(out, b)
	}
	add(Bug{ID: "java-sdk-959", Client: "modelcontextprotocol/java-sdk StdioClientTransport (2.0.0-M2 to 2.2.0)",
		Symptom: "the server process exits before it answers initialize, and initialize waits for its request timeout instead of failing with the exit",
		Recipe: Recipe{Setup: handshake, Script: "srv.WithProtocolVersions(mcptest.HandshakeVersions()...)",
			Faults: []mcptest.Fault{fault.CloseBefore("initialize")}, Expect: FailsFast()},
		Fixed: "fails initialize when the server's stdout ends (PR #960)",
		Proof: maven("2.2.0", "no release yet (2.2.0 is the newest): the raw client that fails pending calls at end of file")},
		issue("modelcontextprotocol/java-sdk", 959))
	add(Bug{ID: "java-sdk-611", Client: "modelcontextprotocol/java-sdk StdioClientTransport (to 2.2.0)",
		Symptom: "a server that prints a line that is not JSON on stdout (\"running on stdio\") cannot be connected: the read loop ends at that line and initialize times out",
		Recipe:  scenario("stdout-banner"),
		Fixed:   "skips the line that is not JSON and goes on (PR #199, not merged: the maintainers hold the server at fault, which the spec's MUST NOT on the server's stdout supports)",
		Proof:   maven("2.2.0", "no release yet (2.2.0 is the newest): the raw client that skips the line")},
		issue("modelcontextprotocol/java-sdk", 611))
	add(Bug{ID: "java-sdk-1084", Client: "modelcontextprotocol/java-sdk McpSyncClient.listTools() (to 2.2.0)",
		Symptom: "a server whose nextCursor never ends the list makes listTools() page forever (Mono.expand with no bound): the calling thread never returns",
		Recipe:  scenario("looping-cursor"),
		Fixed:   "stops following a cursor chain that does not end (a cursor seen before, or a page bound) and returns",
		Proof:   maven("2.2.0", "no release yet (2.2.0 is the newest; the issue is open): the raw client that stops at a cursor it has seen")},
		issue("modelcontextprotocol/java-sdk", 1084))
	add(Bug{ID: "java-sdk-803", Client: "modelcontextprotocol/java-sdk McpClientSession (to 2.2.0)",
		Symptom: "a request that times out is dropped without notifications/cancelled: the server works on for nothing",
		Recipe:  scenario("slow-tool-timeout"),
		Fixed:   "sends notifications/cancelled for the timed-out request (PR #803, open)",
		Proof:   maven("2.2.0", "no release yet (2.2.0 is the newest): the raw client that cancels")},
		pr("modelcontextprotocol/java-sdk", 803))
	add(Bug{ID: "agentic-api-311", Client: "modelcontextprotocol/rust-sdk (rmcp) Peer::list_all_tools (1.8.0, as vllm-project/agentic-api used it; still in 3.11.0)",
		Symptom: "list_all_tools follows nextCursor until it is absent, with no guard: a server whose cursor repeats makes discovery page until the caller's timeout",
		Recipe:  scenario("looping-cursor"),
		Fixed:   "stops at a cursor it has seen (agentic-api's own loop with PaginationLoop and a page bound, PR #311)",
		Proof: Proof{Kind: RealVersion, Buggy: "rmcp 3.11.0 (still has it)", Fixed: "no release yet: the raw client that stops at a cursor it has seen",
			Test: jvmRustTest + " (integration/clients/rust)", Release: "rmcp@3.11.0"}},
		pr("vllm-project/agentic-api", 311))
	for i := range out {
		if out[i].ID == "rust-sdk-733" {
			out[i].Client = "modelcontextprotocol/rust-sdk (rmcp) streamable HTTP client (to 1.1.1)"
			out[i].Fixed += " (rmcp 1.2.0, PR #743)"
			out[i].Proof = crate("1.1.1", "3.11.0")
		}
	}
	return out
}
