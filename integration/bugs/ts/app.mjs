// A client app on the official TypeScript SDK, for the bug catalog's
// proofs by released versions (scenarios/bugs; .ci/run runs it with
// `mcpmock run --bug ID`): connect, list the tools, call one, close.
//
//   BUG_SDK=v1 (default): @modelcontextprotocol/sdk (1.x)
//   BUG_SDK=v2:           @modelcontextprotocol/client (2.x)
//   BUG_TOOL:             the tool to call (default suggest_gifts {"age":25})
//   BUG_PROGRESS=1:       ask for progress (onprogress), as a fixed app does
//
// Over stdio it spawns the server in MCPMOCK_SERVER_ARGV; with --http it
// connects to the URL given as its last argument. Exit 0: the work
// succeeded (a tool error, isError, is the app's business, not a failure);
// 1: it failed, the reason on stderr.
const v2 = process.env.BUG_SDK === "v2";
const { Client, StreamableHTTPClientTransport, StdioClientTransport } = v2
  ? { ...(await import("@modelcontextprotocol/client")), ...(await import("@modelcontextprotocol/client/stdio")) }
  : {
      ...(await import("@modelcontextprotocol/sdk/client/index.js")),
      ...(await import("@modelcontextprotocol/sdk/client/streamableHttp.js")),
      ...(await import("@modelcontextprotocol/sdk/client/stdio.js")),
    };

const deadline = Number(process.env.MCPMOCK_DEADLINE_MS || 2000);
const timeout = Math.max(100, Math.floor(deadline * 0.7));
const tool = process.env.BUG_TOOL || "suggest_gifts";

function transport() {
  const last = process.argv[process.argv.length - 1];
  if (last.startsWith("http://")) return new StreamableHTTPClientTransport(new URL(last));
  const argv = JSON.parse(process.env.MCPMOCK_SERVER_ARGV || "null");
  if (!argv) throw new Error("no server: MCPMOCK_SERVER_ARGV is not set (run me with mcpmock run)");
  return new StdioClientTransport({ command: argv[0], args: argv.slice(1), stderr: "inherit" });
}

const client = new Client({ name: "bugs-ts-app", version: "1.0.0" });
let code = 0;
try {
  await client.connect(transport(), { timeout });
  const { tools } = await client.listTools(undefined, { timeout });
  console.error(`tools: ${tools.map((t) => t.name).join(", ")}`);
  const options = { timeout };
  if (process.env.BUG_PROGRESS) {
    options.onprogress = (p) => console.error(`progress: ${JSON.stringify(p)}`);
    options.resetTimeoutOnProgress = true;
  }
  const args = tool === "suggest_gifts" ? { age: 25 } : {};
  const res = await client.callTool({ name: tool, arguments: args }, undefined, options);
  console.error(`${tool}: ${JSON.stringify(res)}`);
} catch (err) {
  console.error(`bugs-ts-app: ${err && err.message ? err.message : err}`);
  code = 1;
} finally {
  try { await client.close(); } catch {}
}
process.exit(code);
