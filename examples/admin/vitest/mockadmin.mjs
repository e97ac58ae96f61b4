// A small client of mcpmock's admin API (docs/admin.md), for vitest: plain
// fetch and JSON. startMock() runs `mcpmock serve --http --admin` and reads
// the URL it prints; mock.newTest(script) opens a test of its own (a server
// at /t/TAG/mcp, the script in the config file's language).
import { spawn } from "node:child_process";
import { createInterface } from "node:readline";

/** A 4xx or 5xx of the admin API: its status, message and field. */
export class AdminError extends Error {
  constructor(status, body) {
    super(`${status}: ${body.error} (field ${JSON.stringify(body.field)})`);
    this.status = status;
    this.body = body;
  }
}

async function call(method, url, body) {
  const res = await fetch(url, {
    method,
    headers: { "Content-Type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const out = await res.json();
  if (!res.ok) throw new AdminError(res.status, out);
  return out;
}

/** One test's server: its MCP URL and the admin operations on it. */
export class MockTest {
  constructor(admin, info) {
    this.base = `${admin}/tests/${info.tag}`;
    this.tag = info.tag;
    this.url = info.url;
  }
  /** Adds a fault (a config file's faults entry); returns its handle. */
  addFault(fault) { return call("POST", `${this.base}/faults`, fault); }
  /** The fault's handle now: its hit count. */
  fault(id) { return call("GET", `${this.base}/faults/${id}`); }
  /** The journal's messages; query: session, method, direction, kind, since. */
  async journal(query = {}) {
    return (await call("GET", `${this.base}/journal?${new URLSearchParams(query)}`)).messages;
  }
  /** Runs an assertion of mcptest's; throws the Go failure text. */
  async verify(assertion) {
    const v = await call("POST", `${this.base}/verify`, assertion);
    if (!v.pass) throw new Error(v.failure);
  }
  reset(keepScript = true) { return call("POST", `${this.base}/reset`, { keepScript }); }
  delete() { return call("DELETE", this.base); }
}

/** Starts `mcpmock serve --http --admin` ($MCPMOCK, else mcpmock on the PATH). */
export async function startMock(binary = process.env.MCPMOCK ?? "mcpmock") {
  const proc = spawn(binary, ["serve", "--http", "--admin"], { stdio: ["ignore", "pipe", "inherit"] });
  const lines = createInterface({ input: proc.stdout });
  const url = await new Promise((resolve, reject) => {
    lines.once("line", resolve);
    proc.once("exit", (code) => reject(new Error(`mcpmock serve exited ${code} before printing its URL`)));
  });
  const admin = url.replace(/\/mcp$/, "") + "/__mcpmock";
  return {
    admin,
    async newTest(script) {
      return new MockTest(admin, await call("POST", `${admin}/tests`, script ? { script } : {}));
    },
    async stop() {
      const exited = new Promise((resolve) => proc.once("exit", resolve));
      proc.kill("SIGTERM");
      await exited;
    },
  };
}
