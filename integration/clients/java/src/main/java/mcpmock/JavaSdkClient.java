// A client app on the official Java SDK (io.modelcontextprotocol.sdk:mcp),
// written the way the SDK's docs (docs/client.md, "Sync API" and "Client
// Transport") tell an application to connect, for `mcpmock run`: build a
// transport, McpClient.sync(transport) with a request timeout, initialize,
// list every page of the tools, call suggest_gifts {"age":25}, close.
//
// Over stdio it starts the server named in MCPMOCK_SERVER_ARGV (a JSON
// array; StdioClientTransport spawns it); when its last argument is an
// http(s) URL it connects there with HttpClientStreamableHttpTransport. It
// gives up on a call when the scenario's deadline (MCPMOCK_DEADLINE_MS) is
// near, as an app with a request timeout does. Exit 0: the workflow
// succeeded; 1: it failed (the reason is the last line on stderr).
//
//   mcpmock run -- java -jar target/java-sdk-client.jar
//   mcpmock run --http -- java -jar target/java-sdk-client.jar
package mcpmock;

import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.client.transport.ServerParameters;
import io.modelcontextprotocol.client.transport.StdioClientTransport;
import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.spec.McpClientTransport;
import io.modelcontextprotocol.spec.McpSchema;

public final class JavaSdkClient {

	private JavaSdkClient() {
	}

	public static void main(String[] args) {
		long deadline = 2000;
		String d = System.getenv("MCPMOCK_DEADLINE_MS");
		if (d != null && !d.isEmpty()) {
			deadline = Long.parseLong(d);
		}
		// Leave room for the round trips before the call and for the
		// cancellation, as ts-client.mjs does.
		Duration timeout = Duration.ofMillis(Math.max(100, (long) (deadline * 0.7)));

		int code = 0;
		McpSyncClient client = null;
		try {
			client = McpClient.sync(transport(args))
				.clientInfo(new McpSchema.Implementation("java-sdk-app", "1.0.0"))
				.requestTimeout(timeout)
				.initializationTimeout(timeout)
				.build();
			client.initialize();

			// Every page of the tools: McpSyncClient.listTools() without a
			// cursor follows nextCursor itself (the docs' "List available
			// tools"), so the app gets the whole list in one call.
			McpSchema.ListToolsResult listed = client.listTools();
			List<McpSchema.Tool> tools = listed.tools();
			System.err.println("tools: " + tools.stream().map(McpSchema.Tool::name).collect(Collectors.joining(", ")));

			McpSchema.CallToolResult res = client
				.callTool(new McpSchema.CallToolRequest("suggest_gifts", Map.of("age", 25)));
			if (Boolean.TRUE.equals(res.isError())) {
				throw new IllegalStateException("suggest_gifts failed: " + res.content());
			}
			System.err.println("suggest_gifts: " + res.content());
		}
		catch (Throwable err) {
			System.err.println("java-client: " + describe(err));
			code = 1;
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
		System.exit(code);
	}

	/** The transport: Streamable HTTP at a URL given last, else stdio. */
	static McpClientTransport transport(String[] args) throws java.io.IOException {
		String last = args.length > 0 ? args[args.length - 1] : "";
		if (last.startsWith("http://") || last.startsWith("https://")) {
			URI u = URI.create(last);
			String base = u.getScheme() + "://" + u.getRawAuthority();
			String endpoint = u.getRawPath() == null || u.getRawPath().isEmpty() ? "/" : u.getRawPath();
			if (u.getRawQuery() != null) {
				endpoint += "?" + u.getRawQuery();
			}
			return HttpClientStreamableHttpTransport.builder(base).endpoint(endpoint).build();
		}
		List<String> argv = argv(System.getenv("MCPMOCK_SERVER_ARGV"));
		if (argv.isEmpty()) {
			throw new IllegalStateException("no server: MCPMOCK_SERVER_ARGV is not set (run me with mcpmock run)");
		}
		ServerParameters params = ServerParameters.builder(argv.get(0)).args(argv.subList(1, argv.size())).build();
		return new StdioClientTransport(params, McpJsonDefaults.getMapper());
	}

	/** The server's command line from MCPMOCK_SERVER_ARGV, a JSON array of strings. */
	static List<String> argv(String json) throws java.io.IOException {
		if (json == null || json.isBlank()) {
			return List.of();
		}
		return McpJsonDefaults.getMapper().readValue(json, new io.modelcontextprotocol.json.TypeRef<List<String>>() {
		});
	}

	/** An error and its causes on one line. */
	static String describe(Throwable err) {
		StringBuilder b = new StringBuilder();
		for (Throwable t = err; t != null; t = t.getCause()) {
			if (b.length() > 0) {
				b.append(": ");
			}
			b.append(t.getMessage() != null ? t.getMessage() : t.getClass().getSimpleName());
			if (t.getCause() == t) {
				break;
			}
		}
		return b.toString().replace('\n', ' ');
	}

}
