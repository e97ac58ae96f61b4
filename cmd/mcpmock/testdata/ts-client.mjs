// A client app on the official TypeScript SDK (@modelcontextprotocol/sdk),
// written the way an application uses it, for `mcpmock run`: connect, list
// every page of the tools, call suggest_gifts {"age":25}, close. Over stdio it spawns the
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
  // Every page of the tools, as an app that shows them all does; a cursor
  // seen before means the server loops: stop there.
  const tools = [];
  const seen = new Set();
  let cursor;
  do {
    const page = await client.listTools(cursor ? { cursor } : undefined, { timeout });
    tools.push(...page.tools);
    cursor = page.nextCursor;
    if (cursor !== undefined && seen.has(cursor)) {
      console.error(`tools/list: the cursor ${JSON.stringify(cursor)} came back: the server's pages loop; stopping`);
      break;
    }
    if (cursor !== undefined) seen.add(cursor);
  } while (cursor !== undefined);
  console.error(`tools: ${tools.map((t) => t.name).join(", ")}`);
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
