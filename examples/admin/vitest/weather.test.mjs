// The official TypeScript SDK client (1.32.2) against mcpmock, scripted,
// faulted and verified per test through the admin API (docs/admin.md). The
// tests run concurrently on one mcpmock process: each has its own server.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { AdminError, startMock } from "./mockadmin.mjs";

const script = {
  server: { name: "weather", version: "1.0.0" },
  tools: [{
    name: "get_forecast",
    inputSchema: { type: "object", properties: { city: { type: "string" } } },
    cases: [{ arguments: { city: "Paris" }, replies: [{ text: "rain" }] }],
    replies: [{ text: "sunny" }],
  }],
};

let mock;
beforeAll(async () => { mock = await startMock(); });
afterAll(async () => { await mock?.stop(); });

async function forecast(url, city) {
  const client = new Client({ name: "vitest-app", version: "1.0.0" });
  const transport = new StreamableHTTPClientTransport(new URL(url));
  await client.connect(transport);
  try {
    return await client.callTool({ name: "get_forecast", arguments: { city } });
  } finally {
    await transport.terminateSession();
    await client.close();
  }
}

describe.concurrent("weather app on mcpmock", () => {
  test("forecast", async () => {
    const t = await mock.newTest(script);
    const res = await forecast(t.url, "Paris");
    expect(res.content[0].text).toBe("rain");
    await t.verify({ assert: "toolCalled", tool: "get_forecast", arguments: { city: "Paris" } });
    await t.verify({ assert: "calledTimes", method: "tools/call", times: 1 });
    await t.verify({ assert: "noViolations" });
    await t.delete();
  });

  test("backend down", async () => {
    const t = await mock.newTest(script);
    const f = await t.addFault({ fault: "ReplaceWithJSONRPCError", method: "tools/call", code: -32000, message: "backend down" });
    await expect(forecast(t.url, "Lyon")).rejects.toThrow(/backend down/);
    expect((await t.fault(f.id)).hits).toBe(1);
    const calls = await t.journal({ direction: "client", method: "tools/call" });
    expect(calls).toHaveLength(1); // this test's call only, whatever runs beside it
    expect(calls[0].raw).toContain('"city":"Lyon"');
    await t.delete();
  });

  test("a failed verify reads as the Go failure", async () => {
    const t = await mock.newTest(script);
    await forecast(t.url, "Lyon");
    const err = await t.verify({ assert: "toolCalled", tool: "get_forecast", arguments: { city: "Oslo" } }).catch((e) => e);
    expect(err.message).toContain('AssertToolCalled("get_forecast"');
    expect(err.message).toContain('"city":"Lyon"'); // the transcript
    expect(err.message).not.toContain('"city":"Paris"'); // no other test's traffic
    await t.delete();
  });

  test("reset forgets the fault", async () => {
    const t = await mock.newTest(script);
    await t.addFault({ fault: "ReplaceWithJSONRPCError", method: "tools/call", code: -32000, message: "down" });
    await t.reset();
    expect((await forecast(t.url, "Paris")).content[0].text).toBe("rain");
    await t.delete();
  });

  test("bad input names the field", async () => {
    const t = await mock.newTest(script);
    const err = await t.addFault({ fault: "Delay", methd: "tools/call", duration: "1s" }).catch((e) => e);
    expect(err).toBeInstanceOf(AdminError);
    expect(err.status).toBe(400);
    expect(err.body.field).toBe("methd");
    expect(err.body.error).toContain('did you mean "method"?');
    await t.delete();
  });
});
