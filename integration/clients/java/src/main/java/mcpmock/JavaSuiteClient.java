// A client app on the official Java SDK that acts per scenario of the
// official conformance suite (MCP_CONFORMANCE_SCENARIO, and the tool calls
// MCP_CONFORMANCE_CONTEXT names), for the agreement runs of
// .ci/agreement.sh: the same program under `conformance client --command`
// and `mcpmock run --http`. It does what integration/clients/suiteapp
// does for the Go SDKs, through the SDK's sync client:
//   - connect over Streamable HTTP to the URL given last, with the
//     elicitation capability (accept: {"confirmed": true} where the form
//     has that field, else empty content with the schema's defaults
//     applied by the SDK, applyElicitationDefaults);
//   - list every page of the tools, when the server declared tools (in
//     initialize, request-metadata and json-schema-ref-no-deref, nothing
//     more);
//   - call the tools the context names; else suggest_gifts {"age":25} when
//     listed (GiftGen), with json_schema_echo beside it when listed; else
//     every listed tool with arguments made from its inputSchema
//     (json_schema_echo gets json_schema_2020_12_tool's inputSchema, as the
//     app received it);
//   - in http-standard-headers also list and read the first resource, and
//     list and get the first prompt.
// The SDK has no OAuth client, so the auth/ scenarios are not played with
// it. Exit 0: every step succeeded; 1: one failed (the reasons on stderr).
//
//   java -cp target/java-sdk-client.jar mcpmock.JavaSuiteClient URL
package mcpmock;

import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.json.TypeRef;
import io.modelcontextprotocol.spec.McpSchema;

public final class JavaSuiteClient {

	private JavaSuiteClient() {
	}

	private static final List<String> LIST_ONLY = List.of("initialize", "request-metadata", "json-schema-ref-no-deref");

	private static int failures;

	public static void main(String[] args) {
		String url = args.length > 0 ? args[args.length - 1] : "";
		if (!url.startsWith("http://") && !url.startsWith("https://")) {
			System.err.println("usage: JavaSuiteClient <server URL> (run me with mcpmock run --http or conformance client)");
			System.exit(2);
		}
		String scenario = System.getenv().getOrDefault("MCP_CONFORMANCE_SCENARIO", "");
		List<Map<String, Object>> given = toolCalls(System.getenv("MCP_CONFORMANCE_CONTEXT"));

		McpSyncClient client = null;
		try {
			URI u = URI.create(url);
			String endpoint = u.getRawPath() == null || u.getRawPath().isEmpty() ? "/" : u.getRawPath();
			client = McpClient.sync(HttpClientStreamableHttpTransport.builder(u.getScheme() + "://" + u.getRawAuthority()).endpoint(endpoint).build())
				.clientInfo(new McpSchema.Implementation("java-sdk-suite-app", "1.0.0"))
				.requestTimeout(Duration.ofSeconds(20))
				.initializationTimeout(Duration.ofSeconds(20))
				.capabilities(McpSchema.ClientCapabilities.builder().elicitation().build())
				.applyElicitationDefaults(true)
				.elicitation(req -> new McpSchema.ElicitResult(McpSchema.ElicitResult.Action.ACCEPT, content(req.requestedSchema())))
				.build();
			McpSyncClient c = client;
			if (!step("initialize", c::initialize)) {
				throw new IllegalStateException("not connected");
			}

			// Only what the server declared: a server without tools gets no
			// tools/list (the SDK would refuse it anyway).
			McpSchema.ServerCapabilities caps = c.getServerCapabilities();
			boolean hasTools = caps != null && caps.tools() != null;
			List<McpSchema.Tool> tools = new ArrayList<>();
			step("tools/list", () -> {
				if (!hasTools) {
					return tools;
				}
				String cursor = null;
				do { // every page
					McpSchema.ListToolsResult page = c.listTools(cursor);
					tools.addAll(page.tools());
					cursor = page.nextCursor();
				} while (cursor != null && !cursor.isEmpty());
				return tools;
			});
			if (!LIST_ONLY.contains(scenario)) {
				for (Map<String, Object> call : calls(given, tools)) {
					String name = (String) call.get("name");
					@SuppressWarnings("unchecked")
					Map<String, Object> arguments = (Map<String, Object>) call.getOrDefault("arguments", Map.of());
					step("tools/call " + name, () -> {
						McpSchema.CallToolResult res = c.callTool(new McpSchema.CallToolRequest(name, arguments));
						if (Boolean.TRUE.equals(res.isError())) {
							throw new IllegalStateException("the result is an error: " + res.content());
						}
						return res;
					});
				}
			}
			if (scenario.equals("http-standard-headers")) {
				step("resources", () -> {
					List<McpSchema.Resource> rs = c.listResources().resources();
					return rs.isEmpty() ? rs : c.readResource(rs.get(0));
				});
				step("prompts", () -> {
					List<McpSchema.Prompt> ps = c.listPrompts().prompts();
					return ps.isEmpty() ? ps : c.getPrompt(new McpSchema.GetPromptRequest(ps.get(0).name(), Map.of()));
				});
			}
		}
		catch (Throwable err) {
			System.err.println("java-suite-client: " + JavaSdkClient.describe(err));
			failures++;
		}
		finally {
			if (client != null) {
				try {
					client.closeGracefully();
				}
				catch (Throwable ignored) {
					// closing is best effort, as in an app's shutdown
				}
			}
		}
		System.exit(failures == 0 ? 0 : 1);
	}

	/** A step of the app, logged on stderr; false when it failed. */
	static boolean step(String what, java.util.concurrent.Callable<?> f) {
		try {
			f.call();
			System.err.println(what + ": ok");
			return true;
		}
		catch (Throwable err) {
			System.err.println(what + ": " + JavaSdkClient.describe(err));
			failures++;
			return false;
		}
	}

	/** The calls to make; see the file's comment. */
	static List<Map<String, Object>> calls(List<Map<String, Object>> given, List<McpSchema.Tool> tools) {
		if (!given.isEmpty()) {
			return given;
		}
		McpSchema.Tool echo = tools.stream().filter(t -> t.name().equals("json_schema_echo")).findFirst().orElse(null);
		List<Map<String, Object>> out = new ArrayList<>();
		if (tools.stream().anyMatch(t -> t.name().equals("suggest_gifts"))) {
			out.add(Map.of("name", "suggest_gifts", "arguments", Map.of("age", 25)));
			if (echo != null) {
				out.add(Map.of("name", echo.name(), "arguments", argsFor(echo, tools)));
			}
			return out;
		}
		for (McpSchema.Tool t : tools) {
			out.add(Map.of("name", t.name(), "arguments", argsFor(t, tools)));
		}
		return out;
	}

	/** A tool's arguments, made from its inputSchema's required properties. */
	@SuppressWarnings("unchecked")
	static Map<String, Object> argsFor(McpSchema.Tool t, List<McpSchema.Tool> tools) {
		if (t.name().equals("json_schema_echo")) {
			McpSchema.Tool focal = tools.stream().filter(o -> o.name().equals("json_schema_2020_12_tool")).findFirst()
				.orElse(tools.stream().filter(o -> !o.name().equals(t.name())).findFirst().orElse(null));
			return Map.of("schema", focal == null || focal.inputSchema() == null ? Map.of() : focal.inputSchema());
		}
		Map<String, Object> schema = t.inputSchema() == null ? Map.of() : t.inputSchema();
		Map<String, Object> props = schema.get("properties") instanceof Map<?, ?> p ? (Map<String, Object>) p : Map.of();
		List<Object> required = schema.get("required") instanceof List<?> r ? (List<Object>) r : List.of();
		Map<String, Object> args = new LinkedHashMap<>();
		for (Object r : required) {
			String name = String.valueOf(r);
			Object type = props.get(name) instanceof Map<?, ?> p ? ((Map<String, Object>) p).get("type") : null;
			if (type instanceof List<?> l && !l.isEmpty()) {
				type = l.get(0);
			}
			args.put(name, switch (String.valueOf(type)) {
				case "integer", "number" -> 1;
				case "boolean" -> true;
				case "object" -> Map.of();
				case "array" -> List.of();
				default -> "x";
			});
		}
		return args;
	}

	/** The form's content: {"confirmed": true} where it has that field, else empty. */
	@SuppressWarnings("unchecked")
	static Map<String, Object> content(Map<String, Object> schema) {
		if (schema != null && schema.get("properties") instanceof Map<?, ?> p && ((Map<String, Object>) p).containsKey("confirmed")) {
			return Map.of("confirmed", true);
		}
		return Map.of();
	}

	/** The tool calls MCP_CONFORMANCE_CONTEXT names (toolCalls), if any. */
	static List<Map<String, Object>> toolCalls(String context) {
		if (context == null || context.isBlank()) {
			return List.of();
		}
		try {
			Map<String, Object> c = McpJsonDefaults.getMapper().readValue(context, new TypeRef<Map<String, Object>>() {
			});
			@SuppressWarnings("unchecked")
			List<Map<String, Object>> calls = (List<Map<String, Object>>) c.getOrDefault("toolCalls", List.of());
			return calls;
		}
		catch (Exception err) {
			System.err.println("MCP_CONFORMANCE_CONTEXT: " + err.getMessage());
			return List.of();
		}
	}

}
