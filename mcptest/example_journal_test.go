package mcptest_test

import (
	"context"
	"fmt"
	"time"

	"github.com/mcpmock/mcpmock/mcptest"
)

// The journal's queries select by what a message is, both ways; FromClient
// and FromServer narrow to one side. ResponseTo pairs a request with its
// answer, whoever asked.
func ExampleMessages() {
	t := newExampleT()
	defer t.Finish()
	srv := mcptest.NewServer(t).WithTools(mcptest.NewTool("echo").ReturnsText("hi"))
	c := dial(srv)
	defer c.close()
	c.handshake("2025-11-25")
	c.call(`{"jsonrpc":"2.0","id":2,"method":"ping"}`)
	go func() { // the client answers the mock's ping
		ping := c.recv()
		c.send(`{"jsonrpc":"2.0","id":` + ping.Get("id").Raw + `,"result":{}}`)
	}()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if _, err := srv.SendRequest(ctx, "ping", nil); err != nil {
		fmt.Println(err)
	}

	j := srv.Journal().All()
	fmt.Println("pings:", len(j.Requests("ping")))
	fmt.Println("from the client:", len(j.From(mcptest.FromClient).Requests("ping")))
	mine := j.From(mcptest.FromServer).Requests("ping")[0]
	answer, _ := j.ResponseTo(mine)
	fmt.Println("the mock's ping was answered by the", answer.Direction, "side with", answer.Get("result").Raw)
	// Output:
	// pings: 2
	// from the client: 1
	// the mock's ping was answered by the client→server side with {}
}
