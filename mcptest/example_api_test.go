package mcptest_test

import (
	"fmt"
	"os"
	"strings"

	"github.com/mcpmock/mcpmock/mcptest"
	"github.com/mcpmock/mcpmock/mcptest/fault"
)

// A program that is not a test runs a Server with a ProgramTB: the
// failures go to the writer, and Run returns the verdict.
func ExampleProgramTB() {
	p := mcptest.NewProgramTB("demo", os.Stdout)
	err := p.Run(func(t mcptest.TB) {
		srv := mcptest.NewServer(t).WithTools(mcptest.NewTool("echo").ReturnsText("hi"))
		c := dial(srv)
		defer c.close()
		// A naive client: tools/list before initialize.
		fmt.Println(c.call(`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`).Get("result.tools.0.name"))
	})
	fmt.Println("failed:", err != nil)
	// Output:
	// echo
	// demo: FAIL: mcptest: the client broke 1 protocol rule; fix the client, or declare them with ExpectViolation:
	// demo:   - lifecycle/initialize-first: tools/list sent before initialize
	// demo:       message: {"jsonrpc":"2.0","id":1,"method":"tools/list"}
	// demo:       spec (MUST): https://modelcontextprotocol.io/specification/2025-11-25/basic/lifecycle#initialization
	// demo: mcptest transcript:
	// demo: session 1
	// demo:   1 → {"jsonrpc":"2.0","id":1,"method":"tools/list"}
	// demo:   2 ← {"jsonrpc":"2.0","id":1,"result":{"tools":[{"name":"echo","inputSchema":{"type":"object"}}]}}
	// failed: true
}

// Verify returns the verdict so far as one error, as goleak.Find does.
func ExampleServer_Verify() {
	t := newExampleT()
	srv := mcptest.NewServer(t).WithFaults(fault.Delay("tools/call", 0))
	c := dial(srv)
	c.handshake("2025-11-25")
	c.close()
	srv.Close()
	err := srv.Verify()
	fmt.Println(strings.Split(err.Error(), "\n")[1])
	srv.IgnoreViolations()
	// Output:
	//   - Delay("tools/call", 0s) never acted: the client never sent tools/call (it sent initialize, notifications/initialized) (mark it Optional() if the test may legitimately not reach it)
}

// AddFault returns the registration: its counts, Remove, and Release for a
// Hang. The same Fault value may be installed on any number of servers,
// each registration counting for itself.
func ExampleServer_AddFault() {
	t := newExampleT()
	defer t.Finish()
	second := fault.ReplaceWithJSONRPCError("ping", -32000, "flaky", nil).Nth(2)
	srv := mcptest.NewServer(t)
	h := srv.AddFault(second)
	c := dial(srv)
	defer c.close()
	for id := 1; id <= 3; id++ {
		reply := c.call(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"ping"}`, id))
		if msg := reply.Get("error.message"); msg.Exists() {
			fmt.Println(id, "error:", msg)
		} else {
			fmt.Println(id, "ok")
		}
	}
	fmt.Println(h, "hits:", h.Hits())
	// Output:
	// 1 ok
	// 2 error: flaky
	// 3 ok
	// ReplaceWithJSONRPCError("ping", -32000, "flaky").Nth(2) hits: 1
}
