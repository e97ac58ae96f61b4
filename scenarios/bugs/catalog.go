package bugs

import (
	"context"
	"fmt"
	"time"

	"github.com/mcpmock/mcpmock/mcptest"
	"github.com/mcpmock/mcpmock/mcptest/fault"
	"github.com/mcpmock/mcpmock/scenarios"
)

// ref is a bug's Source and URL.
type ref struct{ source, url string }

// issue and pr give a bug's Source and URL.
func issue(repo string, n int) ref {
	return ref{fmt.Sprintf("%s#%d", repo, n), fmt.Sprintf("https://github.com/%s/issues/%d", repo, n)}
}

func pr(repo string, n int) ref {
	return ref{fmt.Sprintf("%s#%d", repo, n), fmt.Sprintf("https://github.com/%s/pull/%d", repo, n)}
}

// scenario is a recipe that names a scenario of the catalog.
func scenario(name string) Recipe { return Recipe{Scenario: name} }

// faults is a recipe of faults on the app's server, judged by expect.
func faults(expect func() expectation, fs ...mcptest.Fault) Recipe {
	return Recipe{Faults: fs, Expect: expect()}
}

// expectation is scenarios.Expectation, for the catalog's brevity.
type expectation = scenarios.Expectation

// raw is a proof by the package's raw client (rawclient_test.go), buggy
// and fixed as described.
func raw(buggy, fixed string) Proof {
	return Proof{Kind: RawClient, Buggy: buggy, Fixed: fixed, Test: "scenarios/bugs TestProofs"}
}

// real is a proof by the released versions of a Go module, in the
// version-pinned module integration/bugs/<dir>.
func real(module, buggy, fixed, dir string) Proof {
	return Proof{Kind: RealVersion, Buggy: module + " " + buggy, Fixed: module + " " + fixed, Test: "integration/bugs/" + dir + " TestBug",
		Release: module + "@" + buggy}
}

// npm is a proof by released npm packages, run by .ci/run
// (check_bug_versions) with the app integration/bugs/ts/app.mjs; release
// is the buggy one as package@version.
func npm(release, buggy, fixed string) Proof {
	return Proof{Kind: RealVersion, Buggy: buggy, Fixed: fixed, Test: ".ci/run check_bug_versions (integration/bugs/ts/app.mjs)", Release: release}
}

// pypi is a proof by releases of the official Python SDK (the PyPI
// package mcp), run by .ci/python_clients.sh (check_python_bug_versions)
// with the app integration/bugs/py/app.py in a virtual environment of each
// release (integration/bugs/py/requirements-mcp-VERSION.txt, or the
// clients' lock for 2.3.0); fixed says what passes.
func pypi(buggy, fixed string) Proof {
	return Proof{Kind: RealVersion, Buggy: "mcp " + buggy + " (PyPI)", Fixed: fixed,
		Test: ".ci/python_clients.sh check_python_bug_versions (integration/bugs/py/app.py)", Release: "mcp@" + buggy}
}

// The tools and names of the recipes that script the server.
const (
	// long64 is a tool name of 64 characters.
	long64 = "search_the_gift_catalog_for_ideas_by_age_budget_and_occasion_now"
	// longPrefixed is 58 characters: with a host's "mcp_giftgen_" prefix it is 70.
	longPrefixed = "suggest_gifts_for_the_recipient_by_age_budget_and_occasion"
)

// manyTools returns n tools, tool_1 … tool_n, each answering "ok".
func manyTools(n int) []*mcptest.Tool {
	out := make([]*mcptest.Tool, n)
	for i := range out {
		out[i] = mcptest.NewTool(fmt.Sprintf("tool_%d", i+1)).ReturnsText("ok")
	}
	return out
}

func catalog() []Bug {
	longLine := func() Recipe {
		return faults(func() expectation { return Proceeds("a 70 KB line") }, fault.Oversized("tools/list", 70_000))
	}
	paged := func() Recipe {
		return Recipe{
			Setup: func(s *mcptest.Server) *mcptest.Server {
				return s.WithTools(manyTools(3)...).WithOptions(mcptest.Options{PageSize: 2})
			},
			Script: "srv.WithTools(tool_1, tool_2, tool_3).WithOptions(mcptest.Options{PageSize: 2})",
			Expect: PagesToEnd("tools/list"),
		}
	}
	toolCalled := func(tool *mcptest.Tool, script, why string) Recipe {
		return Recipe{
			Setup:  func(s *mcptest.Server) *mcptest.Server { return s.WithTools(tool) },
			Script: script,
			Expect: CallsTool(tool.Name(), why),
		}
	}
	// handshake narrows the server to the handshake era, so that a client
	// of both eras initializes (server/discover gets -32601).
	handshake := func(s *mcptest.Server) *mcptest.Server { return s.WithProtocolVersions(mcptest.HandshakeVersions()...) }
	const handshakeScript = "srv.WithProtocolVersions(mcptest.HandshakeVersions()...)"
	inHandshake := func(r Recipe) Recipe { r.Setup, r.Script = handshake, handshakeScript; return r }
	newer := func() Recipe {
		return inHandshake(faults(func() expectation { return AcceptsVersion("2025-11-25") }, fault.RespondProtocolVersion("2025-11-25")))
	}
	// pingInCall is a tool that pings the client and answers once the
	// client answered: a client that never answers never gets its result.
	pingInCall := func(fs ...mcptest.Fault) Recipe {
		return Recipe{
			Setup: func(s *mcptest.Server) *mcptest.Server {
				return handshake(s).WithTools(mcptest.NewTool("check_alive").HandledBy(func(ctx context.Context, r *mcptest.Request) mcptest.Reply {
					if _, err := r.Session.SendRequest(ctx, "ping", nil); err != nil {
						return mcptest.ToolErrorResult(err.Error())
					}
					return mcptest.TextResult("alive")
				}))
			},
			Script: `srv.WithProtocolVersions(mcptest.HandshakeVersions()...).WithTools(NewTool("check_alive").HandledBy(… r.Session.SendRequest(ctx, "ping", nil) …))`,
			Faults: fs,
			Expect: AnswersRequest("ping"),
		}
	}
	serverPing := func(id any) Recipe { // the stateless era has no requests from the server
		return inHandshake(faults(func() expectation { return AnswersRequest("ping") }, fault.RequestWithID("tools/list", "ping", id, nil)))
	}
	elicit := func() Recipe {
		return Recipe{
			Setup: func(s *mcptest.Server) *mcptest.Server {
				return s.WithProtocolVersions(mcptest.HandshakeVersions()...).WithTools(mcptest.NewTool("delete_wishlist").RequiresInput(
					mcptest.ElicitInput("approval", "Delete the wishlist?", `{"type":"object","properties":{"approved":{"type":"boolean"}},"required":["approved"]}`)).ReturnsText("deleted"))
			},
			Script: `srv.WithTools(NewTool("delete_wishlist").RequiresInput(ElicitInput("approval", "Delete the wishlist?", {required: ["approved"]})))`,
			Expect: AnswersElicitation(),
		}
	}

	var out []Bug
	add := func(b Bug, r ref) {
		b.Source, b.URL = r.source, r.url
		out = append(out, b)
	}

	// ---- framing: long lines, lines that are not JSON, bytes that are not UTF-8 ----
	add(Bug{ID: "mcp-go-155", Client: "mark3labs/mcp-go (stdio client; the Scanner came back with PR #464, through v0.39.1)",
		Symptom: "a reply over 64 KB fails: the client reads stdout with a bufio.Scanner and its 64 KB token limit",
		Recipe:  longLine(), Fixed: "reads lines of any length (bufio.Reader again since PR #603)",
		Proof: real("github.com/mark3labs/mcp-go", "v0.39.1", "v1.2.1", "mcpgo-v0.39.1")}, issue("mark3labs/mcp-go", 155))
	add(Bug{ID: "mcp-go-588", Client: "mark3labs/mcp-go v0.39.1 (stdio client)",
		Symptom: "\"bufio.Scanner: token too long\" on a large tool list or result; the session is lost",
		Recipe:  longLine(), Fixed: "reads lines of any length (bufio.Reader, PR #603)",
		Proof: real("github.com/mark3labs/mcp-go", "v0.39.1", "v1.2.1", "mcpgo-v0.39.1")}, issue("mark3labs/mcp-go", 588))
	add(Bug{ID: "mcp-go-462", Client: "mark3labs/mcp-go v0.32.0 (stdio client)",
		Symptom: "the client panics (slice bounds out of range in bufio) when the server writes a really long line",
		Recipe:  faults(func() expectation { return Proceeds("a 100 KB line") }, fault.Oversized("tools/list", 100_000)), Fixed: "reads the long line without panicking (PR #464, later PR #603)",
		Proof: raw("a reader that panics on a line over its 4 KB buffer", "a reader without limit")}, issue("mark3labs/mcp-go", 462))
	add(Bug{ID: "go-mcp-128", Client: "ThinkInAIXYZ/go-mcp (stdio client)",
		Symptom: "\"token too long\" when a result exceeds 64 KB, then every ping fails",
		Recipe:  faults(func() expectation { return Proceeds("a 70 KB result") }, fault.Oversized("tools/call", 70_000)), Fixed: "reads results of any length",
		Proof: raw("a reader that fails on a line over 64 KB", "a reader without limit")}, issue("ThinkInAIXYZ/go-mcp", 128))
	add(Bug{ID: "llamacloud-5", Client: "Claude Desktop",
		Symptom: "\"Unexpected token\" and a disconnect when the server prints a banner on stdout",
		Recipe:  scenario("stdout-banner"), Fixed: "skips the line that is not JSON and goes on",
		Proof: raw("a reader that ends the session on a line that is not JSON", "a reader that skips it")}, issue("run-llama/mcp-server-llamacloud", 5))
	add(Bug{ID: "firecrawl-98", Client: "an MCP host on stdio (as reported)",
		Symptom: "a parse error on the \"[dotenv@…] injecting env\" line the server logs to stdout; the server fails to start",
		Recipe: faults(func() expectation { return Proceeds("a dotenv log line") },
			fault.NonJSONLine("tools/list", "[dotenv@16.4.5] injecting env (0) from .env")),
		Fixed: "skips the line that is not JSON and goes on",
		Proof: raw("a reader that ends the session on a line that is not JSON", "a reader that skips it")}, issue("firecrawl/firecrawl-mcp-server", 98))
	add(Bug{ID: "mateclaw-227", Client: "mateaix/mateclaw",
		Symptom: "a log line that is not JSON ends the client's read loop: every later reply is lost",
		Recipe:  faults(func() expectation { return Proceeds("a log line") }, fault.NonJSONLine("tools/call", "INFO tool started")),
		Fixed:   "skips the line and keeps reading",
		Proof:   raw("a read loop that stops at a line that is not JSON", "a read loop that skips it")}, pr("mateaix/mateclaw", 227))
	dotenv := func() Recipe {
		return faults(func() expectation { return Proceeds("a dotenv log line") },
			fault.NonJSONLine("tools/list", "[dotenv@17.2.3] injecting env (0) from .env"))
	}
	add(Bug{ID: "brave-search-mcp-server-32", Client: "modelcontextprotocol/go-sdk (IOTransport, CommandTransport), Claude Desktop",
		Symptom: "a dotenv line on the server's stdout makes the client disconnect (\"Unexpected token 'd'\" in Claude Desktop)",
		Recipe:  dotenv(), Fixed: "skips the line that is not JSON and goes on",
		Proof: Proof{Kind: RealVersion, Release: "github.com/modelcontextprotocol/go-sdk@v1.8.0", Buggy: "github.com/modelcontextprotocol/go-sdk v1.8.0 (still has it)", Fixed: "no release yet: the raw client that skips the line",
			Test: "integration/bugs_real_test.go TestBugGoSDK"}}, issue("brave/brave-search-mcp-server", 32))
	add(Bug{ID: "postman-mcp-server-154", Client: "Claude Code Desktop",
		Symptom: "\"Invalid JSON-RPC message: [dotenv@17.2.2] injecting env\": the server never starts",
		Recipe:  dotenv(), Fixed: "skips the line that is not JSON and goes on",
		Proof: raw("a reader that fails on a line that is not JSON", "a reader that skips it")}, issue("postmanlabs/postman-mcp-server", 154))
	add(Bug{ID: "actual-mcp-109", Client: "OpenAI Codex CLI",
		Symptom: "\"handshaking with MCP server failed: connection closed: initialize response\" when the server prints a dotenv line",
		Recipe: inHandshake(faults(func() expectation { return Proceeds("a dotenv line before the initialize result") },
			fault.NonJSONLine("initialize", "[dotenv@17.2.3] injecting env (0) from .env"))),
		Fixed: "skips the line that is not JSON and completes the handshake",
		Proof: raw("a reader that fails on a line that is not JSON", "a reader that skips it")}, issue("s-stefanov/actual-mcp", 109))
	add(Bug{ID: "inspect-ai-3290", Client: "UKGovernmentBEIS/inspect_ai (stdio MCP client)",
		Symptom: "a line that is not JSON on the server's stdout raises a validation error instead of being skipped",
		Recipe:  faults(func() expectation { return Proceeds("a shell trace line") }, fault.NonJSONLine("tools/list", "+ exec server")),
		Fixed:   "skips blank and non-JSON lines",
		Proof:   raw("a reader that fails on a line that is not JSON", "a reader that skips it")}, pr("UKGovernmentBEIS/inspect_ai", 3290))
	add(Bug{ID: "python-sdk-2456", Client: "modelcontextprotocol/python-sdk stdio_client",
		Symptom: "bytes that are not UTF-8 on the server's stdout crash stdio_client (strict decoding)",
		Recipe:  faults(func() expectation { return Proceeds("bytes that are not UTF-8") }, fault.InvalidUTF8("tools/call")),
		Fixed:   "decodes with replacement and goes on",
		Proof:   pypi("2.3.0", "no release yet (2.3.0 is the newest): the raw client whose reader replaces them")}, pr("modelcontextprotocol/python-sdk", 2456))

	// ---- versions ----
	add(Bug{ID: "mcp-go-650", Client: "mark3labs/mcp-go v0.41.1 (kubectl-ai)",
		Symptom: "connect fails with `unsupported protocol version: \"2025-11-25\"` when the server answers the newest version",
		Recipe:  newer(), Fixed: "knows 2025-11-25 and completes the handshake in it (v0.44.0)",
		Proof: real("github.com/mark3labs/mcp-go", "v0.39.1", "v1.2.1", "mcpgo-v0.39.1")}, issue("mark3labs/mcp-go", 650))
	add(Bug{ID: "eino-ext-622", Client: "cloudwego/eino-ext (through mark3labs/mcp-go)",
		Symptom: "every connection to a 2025-11-25 server fails: unsupported protocol version",
		Recipe:  newer(), Fixed: "completes the handshake in 2025-11-25",
		Proof: real("github.com/mark3labs/mcp-go", "v0.39.1", "v1.2.1", "mcpgo-v0.39.1")}, issue("cloudwego/eino-ext", 622))
	add(Bug{ID: "bifrost-6611", Client: "maximhq/bifrost (mark3labs/mcp-go v0.43.2)",
		Symptom: "initialize with a 2025-11-25 server (Apollo MCP Server) fails: the version is not in mcp-go's list",
		Recipe:  newer(), Fixed: "completes the handshake in 2025-11-25 (mcp-go v0.44.0)",
		Proof: real("github.com/mark3labs/mcp-go", "v0.43.2", "v1.2.1", "mcpgo-v0.43.2")}, pr("maximhq/bifrost", 6611))
	add(Bug{ID: "mcp-go-687", Client: "mark3labs/mcp-go (InitializeParams without ProtocolVersion)",
		Symptom: "initialize goes out without a protocolVersion, so the server picks an old version (or one the client cannot speak)",
		Recipe:  Recipe{Setup: handshake, Script: handshakeScript, Expect: SendsVersion()},
		Fixed:   "sends the latest version it supports when the app names none",
		Proof:   real("github.com/mark3labs/mcp-go", "v0.39.1", "v1.2.1", "mcpgo-v0.39.1")}, pr("mark3labs/mcp-go", 687))
	add(Bug{ID: "mcp-golang-134", Client: "metoro-io/mcp-golang",
		Symptom: "the client sends protocolVersion \"1.0\", which no server knows",
		Recipe:  Recipe{Setup: handshake, Script: handshakeScript, Expect: SendsVersion()},
		Fixed:   "sends a version of the spec, e.g. 2025-11-25",
		Proof:   raw(`a client that asks for "1.0"`, "one that asks for 2025-11-25")}, issue("metoro-io/mcp-golang", 134))

	// ---- the handshake ----
	initialized := func() Recipe {
		return Recipe{Setup: handshake, Script: handshakeScript, Expect: KeepsRule("lifecycle/initialized-before-requests", "after the initialize result the client sends notifications/initialized (a notification: no id) before any request but ping")}
	}
	add(Bug{ID: "claude-code-59835", Client: "Claude Code 2.1.143",
		Symptom: "\"tools fetch failed\" with servers that enforce the handshake (rmcp): tools/list goes out without notifications/initialized",
		Recipe:  initialized(), Fixed: "sends notifications/initialized after the initialize result, then tools/list",
		Proof: raw("a client that skips notifications/initialized", "one that sends it")}, issue("anthropics/claude-code", 59835))
	add(Bug{ID: "mcp-hangar-881", Client: "mcp-hangar/mcp-hangar (remote upstreams)",
		Symptom: "notifications/initialized is never sent: a server that registers tools once initialized lists one tool fewer",
		Recipe:  initialized(), Fixed: "sends notifications/initialized before tools/list",
		Proof: raw("a client that skips notifications/initialized", "one that sends it")}, issue("mcp-hangar/mcp-hangar", 881))
	add(Bug{ID: "mcptools-77", Client: "posit-dev/mcptools (R client)",
		Symptom: "tools/list ends with -32602 Invalid request parameters: the client never sent notifications/initialized",
		Recipe:  initialized(), Fixed: "sends notifications/initialized after the initialize result",
		Proof: raw("a client that skips notifications/initialized", "one that sends it")}, pr("posit-dev/mcptools", 77))
	add(Bug{ID: "f-mcptools-47", Client: "f/mcptools (HTTP transport)",
		Symptom: "notifications/initialized goes out with an \"id\" member: a request the server does not know, not the notification",
		Recipe:  initialized(), Fixed: "sends notifications/initialized without an id",
		Proof: raw("a client that puts an id on notifications/initialized", "one that sends it as a notification")}, issue("f/mcptools", 47))

	// ---- tool lists a host filters or rejects ----
	add(Bug{ID: "vscode-248810", Client: "VS Code (Copilot agent mode)",
		Symptom: "\"tool parameters array type must have items\": the host rejects a tool whose array schema has no items",
		Recipe: toolCalled(mcptest.NewTool("tag_gifts").WithInputSchema(`{"type":"object","properties":{"tags":{"type":"array"}}}`).ReturnsText("tagged"),
			`srv.WithTools(NewTool("tag_gifts").WithInputSchema({"properties":{"tags":{"type":"array"}}}))`, "an array property without items"),
		Fixed: "keeps the tool (items is optional in JSON Schema)",
		Proof: raw("a host that drops a tool whose array schema has no items", "one that keeps it")}, issue("microsoft/vscode", 248810))
	add(Bug{ID: "gitlab-mcp-286", Client: "Cursor",
		Symptom: "a tool with `inputSchema: {}` makes Cursor reject the server's whole tool list",
		Recipe: Recipe{
			Setup: func(s *mcptest.Server) *mcptest.Server {
				return s.WithTools(mcptest.NewTool("list_gifts").WithInputSchema(`{}`).ReturnsText("a kite"))
			},
			Script: `srv.WithTools(NewTool("list_gifts").WithInputSchema({}))`,
			Expect: CallsTool("suggest_gifts", "another tool of the list has inputSchema {}"),
		},
		Fixed: "keeps every tool (and reads {} as any arguments)",
		Proof: raw("a host that rejects the whole list when a schema is {}", "one that keeps every tool")}, issue("zereight/gitlab-mcp", 286))
	add(Bug{ID: "atlas-ui-3-727", Client: "sandialabs/atlas-ui-3",
		Symptom: "one tool with a `type: \"string\"` input schema breaks every request to the model",
		Recipe: Recipe{
			Setup: func(s *mcptest.Server) *mcptest.Server {
				return s.WithTools(mcptest.NewTool("echo").WithInputSchema(`{"type":"string"}`).ReturnsText("ok"))
			},
			Script: `srv.WithTools(NewTool("echo").WithInputSchema({"type":"string"}))`,
			Expect: CallsTool("suggest_gifts", `another tool of the list has a {"type":"string"} schema`),
		},
		Fixed: "keeps the other tools usable (drops or repairs the odd one)",
		Proof: raw("a client that fails as a whole on a schema that is not an object", "one that skips that tool")}, issue("sandialabs/atlas-ui-3", 727))
	add(Bug{ID: "composio-2788", Client: "ComposioHQ/composio",
		Symptom: "tools whose names exceed 60 characters are silently filtered out",
		Recipe:  toolCalled(mcptest.NewTool(long64).ReturnsText("ok"), fmt.Sprintf("srv.WithTools(NewTool(%q)) // 64 characters", long64), "a 64-character name"),
		Fixed:   "keeps the tool (shortening the name it shows the model, mapping it back)",
		Proof:   raw("a client that drops names over 60 characters", "one that keeps them")}, issue("ComposioHQ/composio", 2788))
	add(Bug{ID: "mcp-playwright-145", Client: "MCP hosts with a tool-name length limit (as reported)",
		Symptom: "tools with long names are dropped by the host",
		Recipe:  toolCalled(mcptest.NewTool(long64).ReturnsText("ok"), fmt.Sprintf("srv.WithTools(NewTool(%q)) // 64 characters", long64), "a 64-character name"),
		Fixed:   "keeps the tool",
		Proof:   raw("a host that drops names over 60 characters", "one that keeps them")}, issue("executeautomation/mcp-playwright", 145))
	add(Bug{ID: "anytype-mcp-5", Client: "an MCP host that keeps 40 tools (as reported)",
		Symptom: "only the first 40 tools of a server reach the agent",
		Recipe: Recipe{
			Setup:  func(s *mcptest.Server) *mcptest.Server { return s.WithTools(manyTools(45)...) },
			Script: "srv.WithTools(tool_1 … tool_45)",
			Expect: CallsTool("tool_45", "the 46th tool of the list"),
		},
		Fixed: "keeps every tool of the list",
		Proof: raw("a host that keeps the first 40 tools", "one that keeps them all")}, issue("anyproto/anytype-mcp", 5))
	add(Bug{ID: "vscode-243602", Client: "VS Code (Copilot)",
		Symptom: "a tool name that is over 64 characters once the host prefixes it gets HTTP 400 from the model API",
		Recipe:  toolCalled(mcptest.NewTool(longPrefixed).ReturnsText("ok"), fmt.Sprintf("srv.WithTools(NewTool(%q)) // 58 characters, 70 prefixed", longPrefixed), "58 characters, over 64 once prefixed"),
		Fixed:   "keeps the tool under a name the model API accepts",
		Proof:   raw("a host whose prefixed name over 64 characters fails its request", "one that shortens it")}, issue("microsoft/vscode", 243602))
	add(Bug{ID: "chrome-devtools-mcp-1169", Client: "MCP hosts with a 64-character tool name limit",
		Symptom: "a tool name over 64 characters breaks the host's model request",
		Recipe:  toolCalled(mcptest.NewTool(long64+"_x").ReturnsText("ok"), fmt.Sprintf("srv.WithTools(NewTool(%q)) // 66 characters", long64+"_x"), "a 66-character name"),
		Fixed:   "keeps the tool under a name the model API accepts",
		Proof:   raw("a host that fails on names over 64 characters", "one that shortens them")}, issue("ChromeDevTools/chrome-devtools-mcp", 1169))
	add(Bug{ID: "typescript-sdk-1943", Client: "modelcontextprotocol/typescript-sdk 1.x Client.callTool",
		Symptom: "a tool error (isError) whose structuredContent is an error envelope becomes McpError -32602: the client checks it against the success outputSchema",
		Recipe: Recipe{
			Setup: func(s *mcptest.Server) *mcptest.Server {
				return s.WithTools(mcptest.NewTool("gift_price").WithOutputSchema(`{"type":"object","properties":{"price":{"type":"number"}},"required":["price"]}`).
					Returns(mcptest.Result(`{"content":[{"type":"text","text":"no such gift"}],"structuredContent":{"error":"NOT_FOUND"},"isError":true}`)))
			},
			Script: `srv.WithTools(NewTool("gift_price").WithOutputSchema({required: ["price"]}).Returns(Result({isError: true, structuredContent: {error: "NOT_FOUND"}, …})))`,
			Expect: CallsTool("gift_price", "it has an outputSchema and answers isError with an error envelope"),
		},
		Fixed: "hands the isError result to the app without checking it against outputSchema (PR #1945; @modelcontextprotocol/client 2.0.0)",
		Proof: npm("@modelcontextprotocol/sdk@1.32.2", "@modelcontextprotocol/sdk 1.32.2", "@modelcontextprotocol/client 2.0.0")}, issue("modelcontextprotocol/typescript-sdk", 1943))
	add(Bug{ID: "vercel-ai-14925", Client: "vercel/ai MCP client",
		Symptom: "\"Failed to parse server response\" on a tool result with resource_link content",
		Recipe: Recipe{
			Setup: func(s *mcptest.Server) *mcptest.Server {
				return s.WithTools(mcptest.NewTool("gift_card").Returns(mcptest.ContentResult(mcptest.ResourceLinkContent("gifts://catalog/1", "Gift 1", "text/plain"))))
			},
			Script: `srv.WithTools(NewTool("gift_card").Returns(ContentResult(ResourceLinkContent("gifts://catalog/1", …))))`,
			Expect: CallsTool("gift_card", "its result is a resource_link"),
		},
		Fixed: "reads every content type of the version (resource_link since 2025-06-18)",
		Proof: raw("a client that fails on a content type it does not know", "one that knows resource_link")}, issue("vercel/ai", 14925))

	// ---- pagination ----
	add(Bug{ID: "vercel-ai-19240", Client: "vercel/ai MCPClient.tools()",
		Symptom: "only the first page of tools/list is read; nextCursor is ignored",
		Recipe:  paged(), Fixed: "follows nextCursor until the last page",
		Proof: raw("a client that reads page 1 only", "one that follows nextCursor")}, issue("vercel/ai", 19240))
	add(Bug{ID: "mcp2cli-65", Client: "knowsuchagency/mcp2cli",
		Symptom: "tools past page 1 are missing from --list and the generated commands",
		Recipe:  paged(), Fixed: "lists every page",
		Proof: raw("a client that reads page 1 only", "one that follows nextCursor")}, pr("knowsuchagency/mcp2cli", 65))
	add(Bug{ID: "mcp-cli-248", Client: "philschmid/mcp-cli",
		Symptom: "tools past the first page are silently dropped",
		Recipe:  paged(), Fixed: "lists every page",
		Proof: raw("a client that reads page 1 only", "one that follows nextCursor")}, pr("philschmid/mcp-cli", 248))
	add(Bug{ID: "factory-7", Client: "Factory-AI droid",
		Symptom: "only the first page of tools registers; a page-2 tool is \"unavailable in this session\"",
		Recipe:  paged(), Fixed: "registers every page",
		Proof: raw("a client that reads page 1 only", "one that follows nextCursor")}, issue("Factory-AI/factory", 7))
	add(Bug{ID: "fastmcp-5025", Client: "PrefectHQ/fastmcp Client.list_tools",
		Symptom: "a nextCursor of \"\" is taken for the end of the list: the automatic listing returns the first page only",
		Recipe: Recipe{
			Setup: func(s *mcptest.Server) *mcptest.Server {
				return s.WithTools(manyTools(3)...).WithOptions(mcptest.Options{PageSize: 2}).WithOptions(mcptest.Options{EmptyStringCursor: true})
			},
			Script: "srv.WithTools(tool_1, tool_2, tool_3).WithOptions(mcptest.Options{PageSize: 2}).WithOptions(mcptest.Options{EmptyStringCursor: true}) // stateless sessions",
			Expect: PagesToEnd("tools/list"),
		},
		Fixed: "ends a listing only when nextCursor is absent or null; \"\" is a cursor (2026-07-28)",
		Proof: raw("a stateless client that stops at nextCursor \"\"", "one that follows it")}, issue("PrefectHQ/fastmcp", 5025))
	add(Bug{ID: "codebase-memory-mcp-1247", Client: "Claude Code",
		Symptom: "a non-advancing nextCursor makes the client page forever (the list inflates to 160 tools)",
		Recipe:  scenario("looping-cursor"), Fixed: "notices the repeated cursor and stops",
		Proof: raw("a client that follows every cursor", "one that stops at a cursor it has seen")}, issue("DeusData/codebase-memory-mcp", 1247))

	// ---- list_changed ----
	add(Bug{ID: "inspector-1292", Client: "MCP Inspector",
		Symptom: "notifications/tools/list_changed is ignored: the tool list is stale until a manual refresh",
		Recipe:  scenario("tools-list-changed"), Fixed: "lists the tools again",
		Proof: raw("a client that ignores the notification", "one that re-lists")}, issue("modelcontextprotocol/inspector", 1292))
	add(Bug{ID: "python-sdk-2107", Client: "modelcontextprotocol/python-sdk ClientSession",
		Symptom: "list_changed notifications are dropped: no callback reaches the app",
		Recipe:  scenario("tools-list-changed"), Fixed: "lists the tools again",
		Proof: raw("a client that ignores the notification", "one that re-lists")}, issue("modelcontextprotocol/python-sdk", 2107))
	add(Bug{ID: "typescript-sdk-205", Client: "modelcontextprotocol/typescript-sdk Client",
		Symptom: "no handling of tools/list_changed: the client keeps the first list",
		Recipe:  scenario("tools-list-changed"), Fixed: "lists the tools again",
		Proof: raw("a client that ignores the notification", "one that re-lists")}, issue("modelcontextprotocol/typescript-sdk", 205))
	add(Bug{ID: "claude-ai-mcp-960", Client: "Claude (claude.ai connectors)",
		Symptom: "after list_changed the new list is fetched but the new tools are never registered",
		Recipe: Recipe{
			Setup: func(s *mcptest.Server) *mcptest.Server {
				return handshake(s).WithTools(mcptest.NewTool("wrap_gift").ReturnsText("wrapped"))
			},
			Script: `srv.WithProtocolVersions(mcptest.HandshakeVersions()...).WithTools(NewTool("wrap_gift"))`,
			Faults: []mcptest.Fault{fault.DeleteField("tools/list", "result.tools.1").Nth(1),
				fault.ListChangedAfter("tools/list", "notifications/tools/list_changed").Nth(1)},
			Expect: CallsTool("wrap_gift", "it appears only in the list after notifications/tools/list_changed"),
		},
		Fixed: "registers the tools of the new list, so the app can call them",
		Proof: raw("a client that re-lists but keeps its first list", "one that registers the new list")}, issue("anthropics/claude-ai-mcp", 960))
	add(Bug{ID: "librechat-7117", Client: "danny-avila/LibreChat",
		Symptom: "notifications/tools/list_changed gets no tools/list: the tool list stays static until a restart",
		Recipe:  scenario("tools-list-changed"), Fixed: "lists the tools again",
		Proof: raw("a client that ignores the notification", "one that re-lists")}, issue("danny-avila/LibreChat", 7117))
	add(Bug{ID: "bifrost-6885", Client: "maximhq/bifrost",
		Symptom: "tool lists stay stale for 10 minutes: list_changed does not refresh the cache",
		Recipe:  scenario("tools-list-changed"), Fixed: "refreshes on the notification",
		Proof: raw("a client that ignores the notification", "one that re-lists")}, issue("maximhq/bifrost", 6885))

	// ---- a server that dies, or never answers ----
	add(Bug{ID: "python-sdk-332", Client: "modelcontextprotocol/python-sdk stdio_client",
		Symptom: "a call hangs forever when the server process dies in the middle of it",
		Recipe:  faults(FailsFast, fault.CloseBefore("tools/call")), Fixed: "fails the pending call at end of file",
		Proof: pypi("1.9.1", "mcp 1.9.2")}, issue("modelcontextprotocol/python-sdk", 332))
	add(Bug{ID: "python-sdk-434", Client: "modelcontextprotocol/python-sdk ClientSession.initialize",
		Symptom: "initialize hangs when the server exits during it",
		Recipe:  inHandshake(faults(FailsFast, fault.CloseBefore("initialize"))), Fixed: "fails initialize at end of file",
		Proof: pypi("1.9.1", "mcp 1.9.2")}, pr("modelcontextprotocol/python-sdk", 434))
	add(Bug{ID: "langchain-mcp-adapters-609", Client: "langchain-ai/langchain-mcp-adapters",
		Symptom: "no default timeout: a tool that never answers blocks the agent forever",
		Recipe:  faults(GivesUp, fault.Hang("tools/call")), Fixed: "gives up when its timeout ends",
		Proof: raw("a client without a timeout (it returns only when its connection is closed)", "one that gives up at its deadline")}, issue("langchain-ai/langchain-mcp-adapters", 609))
	add(Bug{ID: "ruby-mcp-client-178", Client: "simonx1/ruby-mcp-client",
		Symptom: "a timed-out call is not cancelled (and was re-sent under a new id)",
		Recipe:  scenario("slow-tool-timeout"), Fixed: "sends notifications/cancelled for the call and does not re-send it",
		Proof: raw("a client that gives up without notifications/cancelled", "one that cancels")}, pr("simonx1/ruby-mcp-client", 178))
	add(Bug{ID: "python-sdk-2507", Client: "modelcontextprotocol/python-sdk ClientSession.send_request",
		Symptom: "no notifications/cancelled on a request timeout: the server's work runs on",
		Recipe:  scenario("slow-tool-timeout"), Fixed: "sends notifications/cancelled before raising the timeout (PR #2514)",
		Proof: pypi("1.30.0", "mcp 2.0.0")}, issue("modelcontextprotocol/python-sdk", 2507))
	add(Bug{ID: "opencode-21701", Client: "anomalyco/opencode (TypeScript SDK without onprogress)",
		Symptom: "-32001 request timed out at 60 s although the server was sending progress: the call carried no progressToken",
		Recipe: Recipe{
			Setup: func(s *mcptest.Server) *mcptest.Server {
				return s.WithTools(mcptest.NewTool("index_repo").HandledBy(func(_ context.Context, r *mcptest.Request) mcptest.Reply {
					_ = r.Progress(1, 2, "half way")
					return mcptest.TextResult("indexed")
				}))
			},
			Script: `srv.WithTools(NewTool("index_repo").HandledBy(func(…) Reply { r.Progress(1, 2, "half way"); return TextResult("indexed") }))`,
			Expect: CarriesProgressToken(),
		},
		Fixed: "asks for progress (onprogress, resetTimeoutOnProgress) so that progress keeps the call alive",
		Proof: npm("@modelcontextprotocol/sdk@1.32.2", "an app on @modelcontextprotocol/sdk 1.32.2 calling without onprogress", "the same app with onprogress and resetTimeoutOnProgress")}, pr("anomalyco/opencode", 21701))

	// ---- ids ----
	add(Bug{ID: "mcp-go-154", Client: "mark3labs/mcp-go (client)",
		Symptom: "\"cannot unmarshal string into ... int64\": a server request with a string id breaks the client",
		Recipe:  pingInCall(fault.StringRequestIDs()), Fixed: "takes string ids and answers with the same string",
		Proof: raw("a client that decodes request ids as integers", "one that keeps the id as sent")}, issue("mark3labs/mcp-go", 154))
	add(Bug{ID: "mcp-go-201", Client: "mark3labs/mcp-go (client)",
		Symptom: "a reply with id null is matched to nothing and the call runs into its timeout",
		Recipe:  faults(GivesUp, fault.NullID("tools/call")), Fixed: "reports an error for the call instead of hanging (it can tell no reply came)",
		Proof: raw("a client without a timeout (it returns only when its connection is closed)", "one that gives up at its deadline")}, issue("mark3labs/mcp-go", 201))
	add(Bug{ID: "genie-14", Client: "kcaldas/genie",
		Symptom: "a request id above 2^53 loses its last digits (parsed as a float64), so the answer carries another id",
		Recipe:  serverPing(int64(9007199254740993)), Fixed: "keeps ids as sent (json.Number, or the raw text)",
		Proof: raw("a client that parses ids as float64", "one that keeps the raw id")}, pr("kcaldas/genie", 14))
	add(Bug{ID: "zero-942", Client: "Gitlawb/zero",
		Symptom: "a server request whose id equals a pending call's id is taken for the call's reply",
		Recipe:  serverPing(nil), Fixed: "tells requests from responses (method present) before it matches ids",
		Proof: raw("a client that routes by id alone", "one that routes requests and responses apart")}, pr("Gitlawb/zero", 942))
	add(Bug{ID: "csharp-sdk-1390", Client: "modelcontextprotocol/csharp-sdk McpClient",
		Symptom: "a ping from the server is answered -32601 Method not found",
		Recipe:  pingInCall(), Fixed: "answers ping with an empty result",
		Proof: raw("a client with no ping handler (-32601)", "one that answers {}")}, issue("modelcontextprotocol/csharp-sdk", 1390))
	add(Bug{ID: "ruby-sdk-541", Client: "modelcontextprotocol/ruby-sdk client (stdio)",
		Symptom: "a ping from the server is ignored on stdio (and -32601 over HTTP); a server checking liveness drops the session",
		Recipe:  pingInCall(), Fixed: "answers ping with an empty result on every transport",
		Proof: raw("a client that ignores requests from the server", "one that answers ping")}, pr("modelcontextprotocol/ruby-sdk", 541))

	// ---- elicitation ----
	add(Bug{ID: "hermes-agent-59208", Client: "NousResearch/hermes-agent",
		Symptom: "an approved form elicitation is answered accept with empty content; the server's required field is missing",
		Recipe:  elicit(), Fixed: "answers with content the schema accepts ({approved: true}), or declines",
		Proof: raw("a client that answers accept with {}", "one that answers accept with {approved: true}")}, pr("NousResearch/hermes-agent", 59208))

	// ---- Streamable HTTP ----
	for _, b := range []struct {
		id, repo, client string
		n                int
	}{
		{"python-sdk-3556", "modelcontextprotocol/python-sdk", "modelcontextprotocol/python-sdk streamable_http client", 3556},
		{"python-sdk-1676", "modelcontextprotocol/python-sdk", "modelcontextprotocol/python-sdk ClientSession over Streamable HTTP", 1676},
		{"rust-sdk-733", "modelcontextprotocol/rust-sdk", "modelcontextprotocol/rust-sdk (rmcp) streamable HTTP client", 733},
		{"mcp-proxy-149", "sparfenyuk/mcp-proxy", "sparfenyuk/mcp-proxy", 149},
	} {
		proof := raw("an HTTP client that reports the 404 and stops", "one that initializes again")
		if b.repo == "modelcontextprotocol/python-sdk" {
			proof = pypi("2.3.0", "no release yet (2.3.0 is the newest): the raw HTTP client that initializes again")
		}
		add(Bug{ID: b.id, Client: b.client,
			Symptom: "after a server restart every request gets 404 for the old Mcp-Session-Id, and the client never starts a new session",
			Recipe:  scenario("http-session-expired"), Fixed: "sends a new initialize without the session id and goes on in the new session",
			Proof: proof}, issue(b.repo, b.n))
	}
	add(Bug{ID: "typescript-sdk-1708", Client: "modelcontextprotocol/typescript-sdk StreamableHTTPClientTransport (1.32.2, client 2.0.0)",
		Symptom: "after a server restart every request gets 404 for the old Mcp-Session-Id, and the client never starts a new session",
		Recipe:  scenario("http-session-expired"), Fixed: "sends a new initialize without the session id and goes on in the new session",
		Proof: npm("@modelcontextprotocol/sdk@1.32.2", "@modelcontextprotocol/sdk 1.32.2 and @modelcontextprotocol/client 2.0.0 (both still have it)", "no release yet: the raw HTTP client that initializes again")}, issue("modelcontextprotocol/typescript-sdk", 1708))
	add(Bug{ID: "php-sdk-327", Client: "modelcontextprotocol/php-sdk HttpTransport",
		Symptom: "an SSE stream cut before the reply is abandoned: no GET with Last-Event-ID, the call is lost",
		Recipe:  scenario("http-stream-dropped"), Fixed: "resumes the stream with GET and Last-Event-ID",
		Proof: raw("an HTTP client that fails the call when the stream ends", "one that resumes with Last-Event-ID")}, issue("modelcontextprotocol/php-sdk", 327))
	add(Bug{ID: "python-sdk-1577", Client: "modelcontextprotocol/python-sdk streamable_http client",
		Symptom: "a call hangs when the server dies in the middle of it over Streamable HTTP",
		// 6 s: the buggy app gives up at 70% of it (4.2 s); the fixed one
		// fails at once, but a Python process under load can take over a
		// second to fail and exit, which the default 2 s (a 1 s bar) did
		// not leave.
		Recipe: Recipe{Faults: []mcptest.Fault{fault.DropStream("tools/call", 0, false)}, Expect: FailsFast(),
			Script: "srv.URL() // the client connects over Streamable HTTP", HTTP: true, Deadline: 6 * time.Second},
		Fixed: "fails the call when its stream ends without a reply and cannot be resumed",
		Proof: pypi("1.30.0", "mcp 2.0.0")}, issue("modelcontextprotocol/python-sdk", 1577))
	add(Bug{ID: "python-sdk-1672", Client: "modelcontextprotocol/python-sdk streamable_http client (mcp 1.9.1; before PR #1670)",
		Symptom: "an SSE event with empty data (the id-only priming event of a resumable stream) raises \"Error parsing SSE message\" (EOF while parsing); when the server then closes the stream the call is lost",
		Recipe:  Recipe{Scenario: "http-stream-dropped"},
		Fixed:   "skips events with empty data (PR #1670) and resumes the stream with GET and Last-Event-ID (PR #1654, SEP-1699)",
		Proof:   pypi("1.9.1", "mcp 1.30.0")}, issue("modelcontextprotocol/python-sdk", 1672))
	add(Bug{ID: "claude-code-79826", Client: "Claude Code (Streamable HTTP)",
		Symptom: "tools are never refreshed after notifications/tools/list_changed over HTTP",
		Recipe:  Recipe{Scenario: "tools-list-changed", HTTP: true}, Fixed: "lists the tools again, on every transport",
		Proof: raw("an HTTP client that ignores the notification", "one that re-lists")}, issue("anthropics/claude-code", 79826))
	add(Bug{ID: "typescript-sdk-2831", Client: "modelcontextprotocol/typescript-sdk OAuth client (auth(), 1.32.2)",
		Symptom: "authorization goes on (registers, authorizes) with an authorization server whose metadata lists no code_challenge_methods_supported, which 2025-11-25 says means no PKCE",
		Recipe:  Recipe{Scenario: "auth/no-pkce-support", HTTP: true},
		Fixed:   "refuses to proceed when code_challenge_methods_supported is absent (2025-11-25 authorization: MUST)",
		Proof: npm("@modelcontextprotocol/sdk@1.32.2", "@modelcontextprotocol/sdk 1.32.2 (still has it; the issue is open)",
			"no release yet: the raw OAuth client that refuses")}, issue("modelcontextprotocol/typescript-sdk", 2831))
	add(Bug{ID: "typescript-sdk-2344", Client: "modelcontextprotocol/typescript-sdk OAuth client (auth(), 1.x)",
		Symptom: "authorization server metadata whose issuer is not the issuer the client built the well-known URL from is used anyway: the client registers and authorizes at the endpoints it names (an OAuth mix-up)",
		Recipe:  Recipe{Scenario: "auth/metadata-issuer-mismatch", HTTP: true},
		Fixed:   "refuses the metadata when its issuer differs (RFC 8414 §3.3; PR #2344, @modelcontextprotocol/client 2.0.0)",
		Proof: npm("@modelcontextprotocol/sdk@1.32.2", "the OAuth app on @modelcontextprotocol/sdk 1.32.2",
			"the same app on @modelcontextprotocol/client 2.0.0")}, pr("modelcontextprotocol/typescript-sdk", 2344))
	add(Bug{ID: "java-sdk-324", Client: "modelcontextprotocol/java-sdk McpClientSession (HTTP+SSE client transport)",
		Symptom: "a request answered with an HTTP 4xx or 5xx waits until its timeout instead of failing",
		Recipe: Recipe{Script: "srv.URL() // the client connects over Streamable HTTP", HTTP: true,
			Faults: []mcptest.Fault{fault.HTTPStatus("tools/call", 503, "")}, Expect: FailsFast()},
		Fixed: "fails the request at once with the HTTP status",
		Proof: raw("an HTTP client that keeps waiting after an HTTP error", "one that fails the request")}, pr("modelcontextprotocol/java-sdk", 324))
	add(Bug{ID: "csharp-sdk-495", Client: "modelcontextprotocol/csharp-sdk Streamable HTTP client",
		Symptom: "requests after initialize carry no MCP-Protocol-Version header, which the spec (2025-06-18) makes a MUST",
		Recipe: Recipe{Setup: handshake, Script: "srv.URL(), srv.WithProtocolVersions(mcptest.HandshakeVersions()...)", HTTP: true,
			Expect: KeepsRule("http/protocol-version-header", "every HTTP request after initialize carries MCP-Protocol-Version with the negotiated version")},
		Fixed: "sends MCP-Protocol-Version: <negotiated version> on every request after initialize (PR #500)",
		Proof: raw("an HTTP client that sends no MCP-Protocol-Version header", "one that sends it")}, issue("modelcontextprotocol/csharp-sdk", 495))
	add(Bug{ID: "go-sdk-265", Client: "modelcontextprotocol/go-sdk ClientSession (Streamable HTTP)",
		Symptom: "Wait never returns after the server closed the session",
		Recipe: Recipe{Faults: []mcptest.Fault{fault.ExpireSession().Nth(3)}, Expect: ReturnsPromptly(), HTTP: true,
			Setup: handshake, Script: "srv.URL(), srv.WithProtocolVersions(mcptest.HandshakeVersions()...) // sessions are of the handshake era"}, Fixed: "does not wait on a session the server ended: Wait returns (or a new session starts)",
		Proof: raw("an HTTP client that keeps waiting after the 404", "one that ends the session")}, issue("modelcontextprotocol/go-sdk", 265))

	out = jvmRust(out) // catalog_jvmrust.go
	return out
}
