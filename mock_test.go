// Package mcpmock_test is mcpmock's promises, end to end, in one file: a
// raw client written from the MCP spec (internal/mcpclient, no SDK) talks to
// the mock over both transports (the stdio framing of Server.Dial and
// Streamable HTTP at Server.URL) and in both eras (the 2025-11-25
// handshake and the stateless 2026-07-28). Each test states one promise:
//
//   - a client connects and is served the tools, resources and prompts
//     the test scripted;
//   - the journal holds every frame, in the order it crossed the wire;
//   - the assertions pass for a correct client, and no rule fires;
//   - a fault acts, and the client sees it;
//   - a wrong frame is answered with a JSON-RPC error, recorded as a
//     violation, and the session goes on;
//   - Close leaves no goroutine behind.
package mcpmock_test

import (
	"context"
	"errors"
	"github.com/mcpmock/mcpmock/internal/spec"
	"testing"
	"time"

	"github.com/mcpmock/mcpmock/internal/mcpclient"
	"github.com/mcpmock/mcpmock/mcptest"
	"github.com/mcpmock/mcpmock/mcptest/fault"
	"go.uber.org/goleak"
)

// Every test of this package ends without a goroutine left over.
func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// transports are the two ways a client reaches the mock.
var transports = []struct {
	name string
	dial func(srv *mcptest.Server, opt mcpclient.Options) *mcpclient.Client
}{
	{"pipe", func(srv *mcptest.Server, opt mcpclient.Options) *mcpclient.Client {
		return mcpclient.Pipe(srv.Dial(), opt)
	}},
	{"http", func(srv *mcptest.Server, opt mcpclient.Options) *mcpclient.Client {
		return mcpclient.HTTP(srv.URL(), opt)
	}},
}

// eras are the protocol versions the tests speak: the newest handshake,
// and the stateless era.
var eras = []struct {
	version string
	era     mcptest.Era
}{
	{"2025-11-25", mcptest.EraHandshake},
	{mcpclient.StatelessVersion, mcptest.EraStateless},
}

// each runs f for every transport and era, each a subtest with its own
// server and a connected golden client.
func each(t *testing.T, server func(t *testing.T) *mcptest.Server, f func(t *testing.T, srv *mcptest.Server, c *mcpclient.Client, era mcptest.Era)) {
	for _, tr := range transports {
		for _, e := range eras {
			t.Run(tr.name+"/"+e.version, func(t *testing.T) {
				srv := server(t)
				c := tr.dial(srv, mcpclient.Options{Version: e.version})
				defer c.Close()
				if err := c.Connect(ctx(t)); err != nil {
					t.Fatalf("Connect: %v\n%s", err, srv.Transcript())
				}
				f(t, srv, c, e.era)
			})
		}
	}
}

// ctx is a test's context: it ends with the test, or when a wait has
// taken far too long (a hang, not a timing assumption).
func ctx(t *testing.T) context.Context {
	c, cancel := context.WithTimeout(t.Context(), 10*time.Second)
	t.Cleanup(cancel)
	return c
}

// weatherServer is the app under test's world: a tool, a resource, a prompt.
func weatherServer(t *testing.T) *mcptest.Server {
	return mcptest.NewServer(t).
		WithTools(mcptest.NewTool("forecast").
			WithInputSchema(`{"type":"object","properties":{"city":{"type":"string"}},"required":["city"]}`).
			ReturnsText("sunny")).
		WithResources(mcptest.NewResource("file:///stations.txt", "stations").WithMIMEType("text/plain").ReturnsText("Oslo, Lima")).
		WithPrompts(mcptest.NewPrompt("brief").WithArgument("city", "where", true).ReturnsText("Give the weather."))
}

// TestServes: a client connects and gets what the test scripted, and the
// assertions about what it did pass.
func TestServes(t *testing.T) {
	each(t, weatherServer, func(t *testing.T, srv *mcptest.Server, c *mcpclient.Client, era mcptest.Era) {
		tools, err := c.ListAll(ctx(t), "tools/list", "tools")
		if err != nil || len(tools) != 1 || tools[0].Get("name").String() != "forecast" {
			t.Fatalf("tools/list: want the forecast tool, got %v, %v", tools, err)
		}
		res, err := c.Call(ctx(t), "tools/call", `{"name":"forecast","arguments":{"city":"Oslo"}}`)
		if got := res.Get("content.0.text").String(); err != nil || got != "sunny" {
			t.Errorf("tools/call: want sunny, got %q, %v", got, err)
		}
		res, err = c.Call(ctx(t), "resources/read", `{"uri":"file:///stations.txt"}`)
		if got := res.Get("contents.0.text").String(); err != nil || got != "Oslo, Lima" {
			t.Errorf("resources/read: want the stations, got %q, %v", got, err)
		}
		res, err = c.Call(ctx(t), "prompts/get", `{"name":"brief","arguments":{"city":"Lima"}}`)
		if got := res.Get("messages.0.content.text").String(); err != nil || got != "Give the weather." {
			t.Errorf("prompts/get: want the prompt, got %q, %v", got, err)
		}

		srv.AssertConnected(t)
		srv.AssertEra(t, era)
		srv.AssertToolCalled(t, "forecast", map[string]any{"city": "Oslo"})
		srv.AssertCalledTimes(t, "tools/call", 1)
		srv.AssertOrder(t, "tools/list", "tools/call", "resources/read", "prompts/get")
		srv.AssertNoViolations(t)
	})
}

// TestJournalInWireOrder: the journal holds every frame the client sent,
// byte for byte and in order, each reply after its request.
func TestJournalInWireOrder(t *testing.T) {
	each(t, weatherServer, func(t *testing.T, srv *mcptest.Server, c *mcpclient.Client, _ mcptest.Era) {
		if _, err := c.Exercise(ctx(t)); err != nil {
			t.Fatalf("Exercise: %v", err)
		}
		// A last call: its reply says the server has read every frame before it.
		if _, err := c.Call(ctx(t), "tools/list", ""); err != nil {
			t.Fatal(err)
		}
		sent := c.Sent()
		got := srv.Journal().All().From(mcptest.FromClient)
		if len(got) != len(sent) {
			t.Fatalf("the client sent %d frames, the journal holds %d from it:\n%s", len(sent), len(got), srv.Transcript())
		}
		for i, m := range got {
			if m.Raw() != sent[i] {
				t.Errorf("client frame %d: journaled %s, sent %s", i+1, m.Raw(), sent[i])
			}
		}
		for _, req := range srv.Journal().All().From(mcptest.FromClient).Filter(mcptest.Message.IsRequest) {
			reply, ok := srv.Journal().All().ResponseTo(req)
			if ok && reply.Seq < req.Seq {
				t.Errorf("reply %s journaled before its request %s", reply, req)
			}
		}
		srv.AssertNoViolations(t)
	})
}

// TestFaultActs: a fault breaks the protocol on purpose, and the client
// sees exactly that.
func TestFaultActs(t *testing.T) {
	var h *mcptest.FaultHandle
	withFault := func(t *testing.T) *mcptest.Server {
		srv := weatherServer(t)
		h = srv.AddFault(fault.ReplaceWithJSONRPCError("tools/call", -32603, "the weather service is down", nil))
		return srv
	}
	each(t, withFault, func(t *testing.T, srv *mcptest.Server, c *mcpclient.Client, _ mcptest.Era) {
		_, err := c.Call(ctx(t), "tools/call", `{"name":"forecast","arguments":{"city":"Oslo"}}`)
		var re *mcpclient.JSONRPCError
		if !errors.As(err, &re) || re.Code != -32603 || re.Message != "the weather service is down" {
			t.Fatalf("tools/call: want the fault's error -32603, got %v", err)
		}
		if rs := srv.Journal().All().Responses("tools/call"); len(rs) != 1 || rs[0].ErrorCode != -32603 {
			t.Errorf("want the faulty reply journaled, got %v", rs)
		}
		srv.AssertNoViolations(t) // a fault is the server's doing, never the client's
		// The count is final once the server closed (it is counted just
		// after the fault wrote its reply, which the client may read first).
		srv.Close()
		if h.Hits() != 1 {
			t.Errorf("want the fault to have acted once, got %d", h.Hits())
		}
	})
}

// TestWrongFrame: a frame no correct client sends is answered with the
// JSON-RPC error the spec asks for, recorded as a violation of the rule
// it breaks, and the session goes on.
func TestWrongFrame(t *testing.T) {
	each(t, weatherServer, func(t *testing.T, srv *mcptest.Server, c *mcpclient.Client, era mcptest.Era) {
		// params must be an object; a list is no params the spec knows.
		rule, frame := mcptest.RuleID("jsonrpc/invalid-params"), `{"jsonrpc":"2.0","id":900,"method":"tools/list","params":[1]}`
		if era == mcptest.EraStateless {
			// the stateless era's tools/list, with its _meta and a cursor the server never issued
			rule, frame = "pagination/invalid-cursor", `{"jsonrpc":"2.0","id":900,"method":"tools/list","params":{"cursor":"made-up","_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{"roots":{},"sampling":{},"elicitation":{}},"io.modelcontextprotocol/clientInfo":{"name":"`+mcpclient.Name+`","version":"`+mcpclient.Version+`"}}}}`
		}
		srv.ExpectViolation(rule)
		if err := c.Raw(ctx(t), frame); err != nil {
			t.Fatal(err)
		}
		reply, err := srv.Await(ctx(t), mcptest.Matcher{Description: "the reply to id 900", Match: func(m mcptest.Message) bool {
			return m.Direction == mcptest.FromServer && m.ID == "900"
		}})
		if err != nil || reply.ErrorCode != spec.CodeInvalidParams {
			t.Fatalf("want -32602 for the wrong frame, got %v, %v\n%s", reply, err, srv.Transcript())
		}
		vs := srv.Violations()
		if len(vs) != 1 || vs[0].Rule != rule || vs[0].Message.Raw() != frame {
			t.Fatalf("want one %s violation naming the frame, got %v", rule, vs)
		}
		// The session goes on.
		res, err := c.Call(ctx(t), "tools/call", `{"name":"forecast","arguments":{"city":"Lima"}}`)
		if err != nil || res.Get("content.0.text").String() != "sunny" {
			t.Errorf("after the wrong frame: want the tool's result, got %s, %v", res.Raw, err)
		}
	})
}

// TestCloseLeavesNoGoroutine: closing the server while a client is
// connected and a call is in flight ends every goroutine of both.
func TestCloseLeavesNoGoroutine(t *testing.T) {
	for _, tr := range transports {
		for _, e := range eras {
			t.Run(tr.name+"/"+e.version, func(t *testing.T) {
				before := goleak.IgnoreCurrent()
				func() {
					srv := mcptest.NewServer(t).WithTools(mcptest.NewTool("wait").HandledBy(func(ctx context.Context, _ *mcptest.Request) mcptest.Reply {
						<-ctx.Done()
						return mcptest.NoReply()
					}))
					c := tr.dial(srv, mcpclient.Options{Version: e.version})
					defer c.Close()
					if err := c.Connect(ctx(t)); err != nil {
						t.Fatal(err)
					}
					done := make(chan error, 1)
					go func() {
						_, err := c.Call(ctx(t), "tools/call", `{"name":"wait","arguments":{}}`)
						done <- err
					}()
					if _, err := srv.Await(ctx(t), mcptest.ToolCall("wait", nil)); err != nil {
						t.Fatal(err)
					}
					srv.Close()
					c.Close()
					<-done
				}()
				goleak.VerifyNone(t, before)
			})
		}
	}
}
