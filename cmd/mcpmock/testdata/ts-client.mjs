// A client app on the official TypeScript SDK (@modelcontextprotocol/sdk),
// written the way an application uses it, for `mcpmock run`: connect, list
// the tools, call suggest_gifts {"age":25}, close. Over stdio it spawns the
// server named in MCPMOCK_SERVER_ARGV; with --http it connects to the URL
// given as its last argument (also in MCPMOCK_URL). It gives up on a call
// when the scenario's deadline (MCPMOCK_DEADLINE_MS) is near, as an app
// with a request timeout does. Exit 0: the workflow succeeded; 1: it failed
// (the reason on stderr).
//
//   NODE_PATH=<folder with node_modules> mcpmock run -- node ts-client.mjs
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

const deadline = Number(process.env.MCPMOCK_DEADLINE_MS || 2000);
// Leave room for the round trips before the call and for the cancellation.
const timeout = Math.max(100, Math.floor(deadline * 0.7));

function transport() {
  const last = process.argv[process.argv.length - 1];
  if (last.startsWith("http://") || last.startsWith("https://")) {
    return new StreamableHTTPClientTransport(new URL(last));
  }
  const argv = JSON.parse(process.env.MCPMOCK_SERVER_ARGV || "null");
  if (!argv) throw new Error("no server: MCPMOCK_SERVER_ARGV is not set (run me with mcpmock run)");
  return new StdioClientTransport({ command: argv[0], args: argv.slice(1), stderr: "inherit" });
}

const client = new Client({ name: "ts-sdk-app", version: "1.0.0" });
let code = 0;
try {
  await client.connect(transport(), { timeout });
  const tools = await client.listTools(undefined, { timeout });
  console.error(`tools: ${tools.tools.map((t) => t.name).join(", ")}`);
  const res = await client.callTool({ name: "suggest_gifts", arguments: { age: 25 } }, undefined, { timeout });
  if (res.isError) throw new Error(`suggest_gifts failed: ${JSON.stringify(res.content)}`);
  console.error(`suggest_gifts: ${JSON.stringify(res.content)}`);
} catch (err) {
  console.error(`ts-client: ${err && err.message ? err.message : err}`);
  code = 1;
} finally {
  try { await client.close(); } catch {}
}
process.exit(code);
