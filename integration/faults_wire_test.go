package integration_test

// Faults against real clients: for the JSON-RPC, timing and connection
// faults of mcptest, what the official Go SDK (v1.8.0) and mark3labs/mcp-go
// (v1.2.1) do when the mock misbehaves — the client's error, its hang
// ended by a context deadline, its silent acceptance — asserted as it is
// today, so that an SDK upgrade that changes it is noticed. Where a client
// mishandles a fault, the comment says so and the test pins the behaviour.
//
// Every blocked call is ended by a short context deadline (wfShort);
// every call expected to return by itself gets testContext, so that a
// hang shows up as context.DeadlineExceeded, which the tests rule out.

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand"
	"net"
	"testing"
	"time"

	m3client "github.com/mark3labs/mcp-go/client"
	m3transport "github.com/mark3labs/mcp-go/client/transport"
	m3 "github.com/mark3labs/mcp-go/mcp"
	"github.com/mcpmock/mcpmock/mcptest"
	"github.com/mcpmock/mcpmock/mcptest/fault"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// wfShort ends a call that is expected to hang.
const wfShort = 200 * time.Millisecond

func wfShortContext(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(testContext(t), wfShort)
	t.Cleanup(cancel)
	return ctx
}

// wfServer is a handshake-era mock with one tool, "gift", answering
// "a kite", and the faults.
func wfServer(t *testing.T, faults ...mcptest.Fault) *mcptest.Server {
	return legacy(mcptest.NewServer(t).WithTools(mcptest.NewTool("gift").ReturnsText("a kite"))).WithFaults(faults...)
}

// wfGoSDK connects the official client through a wireTap.
func wfGoSDK(t *testing.T, srv *mcptest.Server) (*mcp.ClientSession, *wireTap) {
	t.Helper()
	tap := dialTap(t, srv)
	c := mcp.NewClient(&mcp.Implementation{Name: "gosdk-app", Version: "1.0.0"}, nil)
	cs, err := c.Connect(testContext(t), &mcp.IOTransport{Reader: tap, Writer: tap}, nil)
	require.NoError(t, err, "go-sdk Connect")
	t.Cleanup(func() { _ = cs.Close() })
	return cs, tap
}

// wfMark3 connects and initializes the mark3labs client through a wireTap.
func wfMark3(t *testing.T, srv *mcptest.Server) (*m3client.Client, *wireTap) {
	t.Helper()
	tap := dialTap(t, srv)
	c, _ := connectMark3Over(t, tap, nil)
	return c, tap
}

func wfGoSDKCall(ctx context.Context, cs *mcp.ClientSession) (*mcp.CallToolResult, error) {
	return cs.CallTool(ctx, &mcp.CallToolParams{Name: "gift", Arguments: map[string]any{}})
}

func wfMark3Call(ctx context.Context, c *m3client.Client) (*m3.CallToolResult, error) {
	req := m3.CallToolRequest{}
	req.Params.Name = "gift"
	return c.CallTool(ctx, req)
}

// wfRepliesToCall returns what the mock sent after the client's first
// tools/call of the session, up to the next client request.
func wfRepliesToCall(t *testing.T, srv *mcptest.Server) (call mcptest.Message, replies []mcptest.Message) {
	t.Helper()
	calls := srv.Journal().All().Requests("tools/call")
	require.NotEmpty(t, calls, "the client sent tools/call")
	call = calls[0]
	for _, m := range srv.Journal().All().InSession(call.SessionNumber) {
		if m.Seq <= call.Seq {
			continue
		}
		if m.Direction == mcptest.FromClient && m.IsRequest() {
			break
		}
		if m.Direction == mcptest.FromServer {
			replies = append(replies, m)
		}
	}
	return call, replies
}

func wfText(t *testing.T, res *mcp.CallToolResult) string {
	t.Helper()
	require.NotNil(t, res)
	require.Len(t, res.Content, 1)
	return text(t, res.Content[0])
}

func wfMark3Text(t *testing.T, res *m3.CallToolResult) string {
	t.Helper()
	require.NotNil(t, res)
	require.Len(t, res.Content, 1)
	return m3.GetTextFromContent(res.Content[0])
}

// ---- JSON-RPC ----

// TestWireFaultWrongID: a reply with an id the client never used is
// dropped by both clients without a word; the call hangs until its
// deadline, the client cancels it, and the session goes on.
func TestWireFaultWrongID(t *testing.T) {
	check := func(t *testing.T, srv *mcptest.Server) {
		call, replies := wfRepliesToCall(t, srv)
		require.Len(t, replies, 1)
		assert.Equal(t, mcptest.KindResult, replies[0].Kind)
		assert.Equal(t, fmt.Sprint(replies[0].Get("id").Int()), fmt.Sprint(call.Get("id").Int()+1000), "id+1000 on the wire")
		srv.AssertCancelled(t, "tools/call")
	}
	t.Run("gosdk", func(t *testing.T) {
		srv := wfServer(t, fault.WrongID("tools/call"))
		cs, tap := wfGoSDK(t, srv)
		_, err := wfGoSDKCall(wfShortContext(t), cs)
		require.ErrorIs(t, err, context.DeadlineExceeded, "go-sdk v1.8.0 drops the unmatched reply silently")
		check(t, srv)
		require.NoError(t, cs.Ping(testContext(t), nil), "the session survives")
		assertJournalIsWire(t, srv, 1, tap)
	})
	t.Run("mark3labs", func(t *testing.T) {
		srv := wfServer(t, fault.WrongID("tools/call"))
		c, tap := wfMark3(t, srv)
		_, err := wfMark3Call(wfShortContext(t), c)
		require.ErrorIs(t, err, context.DeadlineExceeded, "mark3labs v1.2.1 drops the unmatched reply silently")
		check(t, srv)
		require.NoError(t, c.Ping(testContext(t)), "the session survives")
		assertJournalIsWire(t, srv, 1, tap)
	})
}

// TestWireFaultFlipIDType: "3" for 3. Both clients match ids by type and
// value, so neither sees the reply: the call hangs until its deadline.
func TestWireFaultFlipIDType(t *testing.T) {
	check := func(t *testing.T, srv *mcptest.Server) {
		call, replies := wfRepliesToCall(t, srv)
		require.Len(t, replies, 1)
		assert.Equal(t, `"`+call.ID+`"`, replies[0].ID, "the integer id comes back as a string")
		assert.Equal(t, mcptest.KindResult, replies[0].Kind)
		assert.Empty(t, srv.Journal().All().Responses("tools/call"), "the journal does not pretend it answers tools/call")
		srv.AssertCancelled(t, "tools/call")
	}
	t.Run("gosdk", func(t *testing.T) {
		srv := wfServer(t, fault.FlipIDType("tools/call"))
		cs, tap := wfGoSDK(t, srv)
		_, err := wfGoSDKCall(wfShortContext(t), cs)
		// go-sdk v1.8.0: jsonrpc2 keys pending calls by typed ID and drops
		// a response it cannot match ("TODO: How should we report
		// unexpected responses?"): the call hangs until its deadline.
		require.ErrorIs(t, err, context.DeadlineExceeded)
		check(t, srv)
		require.NoError(t, cs.Ping(testContext(t), nil), "the session survives")
		assertJournalIsWire(t, srv, 1, tap)
	})
	t.Run("mark3labs", func(t *testing.T) {
		srv := wfServer(t, fault.FlipIDType("tools/call"))
		c, tap := wfMark3(t, srv)
		_, err := wfMark3Call(wfShortContext(t), c)
		// mark3labs v1.2.1 keys pending calls by "int64:3" / "string:3":
		// the string id matches nothing, the call hangs until its deadline.
		require.ErrorIs(t, err, context.DeadlineExceeded)
		check(t, srv)
		require.NoError(t, c.Ping(testContext(t)), "the session survives")
		assertJournalIsWire(t, srv, 1, tap)
	})
}

// wfFatalToGoSDK asserts what go-sdk v1.8.0 does with a frame its
// decoder rejects: the read loop ends, the pending call fails with the
// decode error, and the connection is gone for every later call.
func wfFatalToGoSDK(t *testing.T, fault mcptest.Fault, check func(t *testing.T, err error)) {
	srv := wfServer(t, fault)
	cs, tap := wfGoSDK(t, srv)
	_, err := wfGoSDKCall(testContext(t), cs)
	require.Error(t, err)
	require.NotErrorIs(t, err, context.DeadlineExceeded, "it fails at once")
	check(t, err)
	err = cs.Ping(testContext(t), nil)
	require.ErrorIs(t, err, mcp.ErrConnectionClosed, "the bad frame was fatal to the connection")
	assertJournalIsWire(t, srv, 1, tap)
	srv.AssertNoViolations(t)
}

// TestWireFaultNullID: "id": null. go-sdk rejects the frame as an invalid
// request and drops the connection; mark3labs ignores it and hangs.
func TestWireFaultNullID(t *testing.T) {
	t.Run("gosdk", func(t *testing.T) {
		wfFatalToGoSDK(t, fault.NullID("tools/call"), func(t *testing.T, err error) {
			var rpcErr *jsonrpc.Error
			require.ErrorAs(t, err, &rpcErr)
			assert.Equal(t, int64(jsonrpc.CodeInvalidRequest), rpcErr.Code)
			assert.Equal(t, "invalid request", rpcErr.Message)
		})
	})
	t.Run("mark3labs", func(t *testing.T) {
		srv := wfServer(t, fault.NullID("tools/call"))
		c, tap := wfMark3(t, srv)
		_, err := wfMark3Call(wfShortContext(t), c)
		// mark3labs v1.2.1 looks the null id up ("<nil>"), finds nothing,
		// and drops the reply: the call hangs until its deadline.
		require.ErrorIs(t, err, context.DeadlineExceeded)
		_, replies := wfRepliesToCall(t, srv)
		require.Len(t, replies, 1)
		assert.Equal(t, "null", replies[0].ID)
		srv.AssertCancelled(t, "tools/call")
		require.NoError(t, c.Ping(testContext(t)), "the session survives")
		assertJournalIsWire(t, srv, 1, tap)
	})
}

// TestWireFaultOmitID: a reply without an id. The same as NullID: fatal
// to go-sdk, a silent hang for mark3labs.
func TestWireFaultOmitID(t *testing.T) {
	check := func(t *testing.T, srv *mcptest.Server) {
		_, replies := wfRepliesToCall(t, srv)
		require.Len(t, replies, 1)
		assert.False(t, replies[0].Get("id").Exists())
		assert.True(t, replies[0].Get("result.content").Exists())
	}
	t.Run("journal-says-invalid", func(t *testing.T) {
		// A response must have an id (JSON-RPC 2.0 §5); OmitID's doc says
		// the reply then looks like "neither a response nor a
		// notification", which the journal's KindInvalid is for.
		srv := wfServer(t, fault.OmitID("tools/call"))
		cs := connectGoSDK(t, srv, nil, nil)
		_, err := wfGoSDKCall(testContext(t), cs)
		require.Error(t, err)
		_, replies := wfRepliesToCall(t, srv)
		require.Len(t, replies, 1)
		assert.Equal(t, mcptest.KindInvalid, replies[0].Kind, "journaled as %s", replies[0])
		assert.NotEmpty(t, replies[0].Problem, "the journal says what is wrong with it")
	})
	t.Run("gosdk", func(t *testing.T) {
		wfFatalToGoSDK(t, fault.OmitID("tools/call"), func(t *testing.T, err error) {
			var rpcErr *jsonrpc.Error
			require.ErrorAs(t, err, &rpcErr)
			assert.Equal(t, int64(jsonrpc.CodeInvalidRequest), rpcErr.Code)
		})
	})
	t.Run("mark3labs", func(t *testing.T) {
		srv := wfServer(t, fault.OmitID("tools/call"))
		c, tap := wfMark3(t, srv)
		_, err := wfMark3Call(wfShortContext(t), c)
		require.ErrorIs(t, err, context.DeadlineExceeded, "mark3labs v1.2.1 drops a reply without an id")
		check(t, srv)
		srv.AssertCancelled(t, "tools/call")
		require.NoError(t, c.Ping(testContext(t)), "the session survives")
		assertJournalIsWire(t, srv, 1, tap)
	})
}

// wfBothSurvive runs a tools/call and then a ping through each SDK
// against a server with fault on: both must succeed; check then looks at
// the journal, which must hold exactly what the client read.
func wfBothSurvive(t *testing.T, fault mcptest.Fault, check func(t *testing.T, srv *mcptest.Server)) {
	t.Run("gosdk", func(t *testing.T) {
		srv := wfServer(t, fault)
		cs, tap := wfGoSDK(t, srv)
		res, err := wfGoSDKCall(testContext(t), cs)
		require.NoError(t, err)
		assert.Equal(t, "a kite", wfText(t, res))
		require.NoError(t, cs.Ping(testContext(t), nil))
		check(t, srv)
		assertJournalIsWire(t, srv, 1, tap)
	})
	t.Run("mark3labs", func(t *testing.T) {
		srv := wfServer(t, fault)
		c, tap := wfMark3(t, srv)
		res, err := wfMark3Call(testContext(t), c)
		require.NoError(t, err)
		assert.Equal(t, "a kite", wfMark3Text(t, res))
		require.NoError(t, c.Ping(testContext(t)))
		check(t, srv)
		assertJournalIsWire(t, srv, 1, tap)
	})
}

// TestWireFaultReplyTwice: both clients take the first reply and ignore
// the second; the call succeeds and the session goes on.
func TestWireFaultReplyTwice(t *testing.T) {
	check := func(t *testing.T, srv *mcptest.Server) {
		call, replies := wfRepliesToCall(t, srv)
		require.Len(t, replies, 2)
		assert.Equal(t, replies[0].Raw(), replies[1].Raw(), "the same frame twice")
		assert.Equal(t, call.ID, replies[1].ID)
		srv.AssertNoViolations(t)
	}
	wfBothSurvive(t, fault.ReplyTwice("tools/call"), check)
}

// TestWireFaultUnsolicitedResponse: a response to a request nobody sent
// is ignored by both clients.
func TestWireFaultUnsolicitedResponse(t *testing.T) {
	check := func(t *testing.T, srv *mcptest.Server) {
		_, replies := wfRepliesToCall(t, srv)
		require.Len(t, replies, 2)
		assert.Equal(t, "987654321", replies[1].ID)
		assert.Equal(t, mcptest.KindResult, replies[1].Kind)
		srv.AssertNoViolations(t)
	}
	wfBothSurvive(t, fault.UnsolicitedResponse("tools/call"), check)
}

// TestWireFaultResultAndError: both clients believe the error and drop
// the result; the session goes on.
func TestWireFaultResultAndError(t *testing.T) {
	check := func(t *testing.T, srv *mcptest.Server) {
		_, replies := wfRepliesToCall(t, srv)
		require.Len(t, replies, 1)
		assert.Equal(t, mcptest.KindInvalid, replies[0].Kind)
		assert.Equal(t, "response has both result and error", replies[0].Problem)
		assert.True(t, replies[0].Get("result.content").Exists())
	}
	t.Run("gosdk", func(t *testing.T) {
		srv := wfServer(t, fault.ResultAndError("tools/call"))
		cs, tap := wfGoSDK(t, srv)
		_, err := wfGoSDKCall(testContext(t), cs)
		var rpcErr *jsonrpc.Error
		require.ErrorAs(t, err, &rpcErr)
		assert.Equal(t, int64(jsonrpc.CodeInternalError), rpcErr.Code)
		assert.Equal(t, "and an error", rpcErr.Message)
		require.NoError(t, cs.Ping(testContext(t), nil), "the session survives")
		check(t, srv)
		assertJournalIsWire(t, srv, 1, tap)
	})
	t.Run("mark3labs", func(t *testing.T) {
		srv := wfServer(t, fault.ResultAndError("tools/call"))
		c, tap := wfMark3(t, srv)
		_, err := wfMark3Call(testContext(t), c)
		require.ErrorIs(t, err, m3.ErrInternalError, "mark3labs maps -32603 to its sentinel")
		assert.Contains(t, err.Error(), "and an error")
		require.NoError(t, c.Ping(testContext(t)), "the session survives")
		check(t, srv)
		assertJournalIsWire(t, srv, 1, tap)
	})
}

// TestWireFaultJSONRPCVersion: "jsonrpc":"1.0" or no "jsonrpc". go-sdk
// v1.8.0 refuses the frame and drops the connection; mark3labs v1.2.1
// never looks at the field and takes the result.
func TestWireFaultJSONRPCVersion(t *testing.T) {
	for _, c := range []struct {
		name    string
		version any
		tag     string
	}{{"1.0", "1.0", `"1.0"`}, {"missing", nil, `""`}} {
		t.Run(c.name, func(t *testing.T) {
			check := func(t *testing.T, srv *mcptest.Server) {
				_, replies := wfRepliesToCall(t, srv)
				require.Len(t, replies, 1)
				if c.version == nil {
					assert.False(t, replies[0].Get("jsonrpc").Exists())
				} else {
					assert.Equal(t, "1.0", replies[0].Get("jsonrpc").String())
				}
			}
			t.Run("gosdk", func(t *testing.T) {
				wfFatalToGoSDK(t, fault.JSONRPCVersion("tools/call", c.version), func(t *testing.T, err error) {
					assert.Contains(t, err.Error(), "invalid message version tag "+c.tag+`; expected "2.0"`)
				})
			})
			t.Run("mark3labs", func(t *testing.T) {
				srv := wfServer(t, fault.JSONRPCVersion("tools/call", c.version))
				cl, tap := wfMark3(t, srv)
				res, err := wfMark3Call(testContext(t), cl)
				require.NoError(t, err, "mark3labs v1.2.1 accepts a reply that is not JSON-RPC 2.0")
				assert.Equal(t, "a kite", wfMark3Text(t, res))
				require.NoError(t, cl.Ping(testContext(t)))
				check(t, srv)
				assertJournalIsWire(t, srv, 1, tap)
			})
		})
	}
}

// TestWireFaultReplaceWithJSONRPCError: the JSON-RPC error reaches go-sdk intact, as a
// *jsonrpc.Error with code, message and data; mark3labs keeps only the
// message of a code it does not know.
func TestWireFaultReplaceWithJSONRPCError(t *testing.T) {
	fault := func() mcptest.Fault {
		return fault.ReplaceWithJSONRPCError("tools/call", -32000, "backend down", map[string]any{"retry": true})
	}
	check := func(t *testing.T, srv *mcptest.Server) {
		resp := srv.Journal().All().Responses("tools/call")
		require.Len(t, resp, 1)
		assert.Equal(t, -32000, resp[0].ErrorCode)
		assert.JSONEq(t, `{"retry":true}`, resp[0].Get("error.data").Raw)
		srv.AssertNoViolations(t)
	}
	t.Run("gosdk", func(t *testing.T) {
		srv := wfServer(t, fault())
		cs, tap := wfGoSDK(t, srv)
		_, err := wfGoSDKCall(testContext(t), cs)
		var rpcErr *jsonrpc.Error
		require.ErrorAs(t, err, &rpcErr)
		assert.Equal(t, int64(-32000), rpcErr.Code)
		assert.Equal(t, "backend down", rpcErr.Message)
		assert.JSONEq(t, `{"retry":true}`, string(rpcErr.Data))
		require.NoError(t, cs.Ping(testContext(t), nil))
		check(t, srv)
		assertJournalIsWire(t, srv, 1, tap)
	})
	t.Run("mark3labs", func(t *testing.T) {
		srv := wfServer(t, fault())
		c, tap := wfMark3(t, srv)
		_, err := wfMark3Call(testContext(t), c)
		// mark3labs v1.2.1 (JSONRPCErrorDetails.AsError) turns a code it
		// has no sentinel for into errors.New(message): code and data are lost.
		require.EqualError(t, err, "backend down")
		require.NoError(t, c.Ping(testContext(t)))
		check(t, srv)
		assertJournalIsWire(t, srv, 1, tap)
	})
}

// TestWireFaultDeleteContent: a tools/call result without its required
// "content". go-sdk v1.8.0 accepts it as empty content; mark3labs v1.2.1
// rejects it.
func TestWireFaultDeleteContent(t *testing.T) {
	check := func(t *testing.T, srv *mcptest.Server) {
		resp := srv.Journal().All().Responses("tools/call")
		require.Len(t, resp, 1)
		assert.True(t, resp[0].Get("result").Exists())
		assert.False(t, resp[0].Get("result.content").Exists())
		srv.AssertNoViolations(t)
	}
	t.Run("gosdk", func(t *testing.T) {
		srv := wfServer(t, fault.DeleteField("tools/call", "result.content"))
		cs, tap := wfGoSDK(t, srv)
		res, err := wfGoSDKCall(testContext(t), cs)
		require.NoError(t, err, "go-sdk v1.8.0 does not require content")
		assert.Empty(t, res.Content)
		assert.False(t, res.IsError)
		check(t, srv)
		assertJournalIsWire(t, srv, 1, tap)
	})
	t.Run("mark3labs", func(t *testing.T) {
		srv := wfServer(t, fault.DeleteField("tools/call", "result.content"))
		c, tap := wfMark3(t, srv)
		_, err := wfMark3Call(testContext(t), c)
		require.EqualError(t, err, "content is missing")
		require.NoError(t, c.Ping(testContext(t)), "the session survives")
		check(t, srv)
		assertJournalIsWire(t, srv, 1, tap)
	})
}

// ---- Timing and connection ----

func wfReplyDelay(t *testing.T, srv *mcptest.Server, call mcptest.Message) time.Duration {
	t.Helper()
	for _, r := range srv.Journal().All().Responses("tools/call") {
		if r.SessionNumber == call.SessionNumber && r.ID == call.ID {
			return r.Time.Sub(call.Time)
		}
	}
	t.Fatalf("no reply to tools/call id=%s", call.ID)
	return 0
}

// TestWireFaultDelay: a deadline longer than the delay gets the result,
// a shorter one ends the call, and the client cancels it.
func TestWireFaultDelay(t *testing.T) {
	t.Run("longer-deadline-gets-the-result", func(t *testing.T) {
		const d = 150 * time.Millisecond
		srv := wfServer(t, fault.Delay("tools/call", d))
		cs := connectGoSDK(t, srv, nil, nil)
		res, err := wfGoSDKCall(testContext(t), cs)
		require.NoError(t, err)
		assert.Equal(t, "a kite", wfText(t, res))
		calls := srv.Journal().All().Requests("tools/call")
		require.Len(t, calls, 1)
		assert.GreaterOrEqual(t, wfReplyDelay(t, srv, calls[0]), d)
	})
	t.Run("shorter-deadline-cancels", func(t *testing.T) {
		srv := wfServer(t, fault.Delay("tools/call", time.Hour))
		cs := connectGoSDK(t, srv, nil, nil)
		_, err := wfGoSDKCall(wfShortContext(t), cs)
		require.ErrorIs(t, err, context.DeadlineExceeded)
		srv.AssertCancelled(t, "tools/call")
	})
	t.Run("cancelled-while-delayed-is-not-answered", func(t *testing.T) {
		// The spec says a server SHOULD NOT answer a request the client
		// cancelled: a request Delay holds when notifications/cancelled
		// arrives is never served. The client cancels by hand once the
		// call reached the mock, so no timer races the reply.
		const d = 300 * time.Millisecond
		served := make(chan string, 2)
		srv := legacy(mcptest.NewServer(t).WithTools(mcptest.NewTool("gift").HandledBy(
			func(_ context.Context, req *mcptest.Request) mcptest.Reply {
				served <- req.Message.ID
				return mcptest.TextResult("a kite")
			}))).WithFaults(fault.Delay("tools/call", d))
		cs := connectGoSDK(t, srv, nil, nil)
		ctx, cancel := context.WithCancel(testContext(t))
		errc := make(chan error, 1)
		go func() {
			_, err := wfGoSDKCall(ctx, cs)
			errc <- err
		}()
		srv.WaitFor(t, mcptest.ToolCall("gift", nil))
		cancel()
		require.ErrorIs(t, <-errc, context.Canceled)
		srv.AssertCancelled(t, "tools/call")
		// A second call, delayed as long, reaches the mock after the
		// first: when it is answered, the first one's delay is over.
		res, err := wfGoSDKCall(testContext(t), cs)
		require.NoError(t, err)
		assert.Equal(t, "a kite", wfText(t, res))
		srv.Close() // waits for every goroutine: nothing is served later
		close(served)
		calls := srv.Journal().All().Requests("tools/call")
		require.Len(t, calls, 2)
		var handled, answered []string
		for id := range served {
			handled = append(handled, id)
		}
		for _, r := range srv.Journal().All().Responses("tools/call") {
			answered = append(answered, r.ID)
		}
		assert.Equal(t, []string{calls[1].ID}, handled, "only the call that was not cancelled is served")
		assert.Equal(t, []string{calls[1].ID}, answered, "only the call that was not cancelled is answered")
	})
}

// TestWireFaultJitter: Jitter draws each delay from [lo, hi) with the
// server's seeded source (math/rand, seeded by Options.FaultSeed), in the
// order the calls reach it, so a run can be repeated exactly. Only lower
// bounds are asserted: a timer never fires early, but how late a reply
// goes out, and so the order of replies to concurrent calls, depends on
// scheduling, which a test on a busy machine cannot hold the mock to.
// Seed 8424 draws four delays of 400 ms or more: a mock that ignored the
// seed (seed 1 draws 86 ms for the third call) or the delay fails.
func TestWireFaultJitter(t *testing.T) {
	const (
		lo, hi = 20 * time.Millisecond, 420 * time.Millisecond
		calls  = 4
	)
	for _, seed := range []int64{8424, 1} {
		t.Run(fmt.Sprint("seed-", seed), func(t *testing.T) {
			src := rand.New(rand.NewSource(seed))
			var want []time.Duration
			for range calls {
				want = append(want, lo+time.Duration(src.Int63n(int64(hi-lo))))
			}
			srv := legacy(mcptest.NewServer(t).WithTools(mcptest.NewTool("echo").HandledBy(
				func(_ context.Context, req *mcptest.Request) mcptest.Reply {
					return mcptest.TextResult(req.Message.Get("params.arguments.n").String())
				}))).WithOptions(mcptest.Options{FaultSeed: seed}).WithFaults(fault.Jitter("tools/call", lo, hi))
			cs := connectGoSDK(t, srv, nil, nil)
			errc := make(chan error, calls)
			for i := range calls {
				go func() {
					res, err := cs.CallTool(testContext(t), &mcp.CallToolParams{Name: "echo", Arguments: map[string]any{"n": i}})
					if err == nil {
						if tc, ok := res.Content[0].(*mcp.TextContent); !ok || tc.Text != fmt.Sprint(i) {
							err = fmt.Errorf("call %d: wrong result %+v", i, res.Content)
						}
					}
					errc <- err
				}()
				// the next call starts once this one reached the mock: the
				// delays are drawn in call order
				srv.WaitFor(t, mcptest.ToolCall("echo", map[string]any{"n": i}))
			}
			for range calls {
				require.NoError(t, <-errc)
			}
			reqs := srv.Journal().All().Requests("tools/call")
			require.Len(t, reqs, calls)
			for i, c := range reqs {
				require.Equal(t, int64(i), c.Get("params.arguments.n").Int(), "the calls reach the mock in order")
				assert.GreaterOrEqual(t, wfReplyDelay(t, srv, c), want[i], "call %d: the delay seed %d draws %d-th", i, seed, i+1)
			}
		})
	}
}

// TestWireFaultHangRelease: a held call completes once the test releases
// the fault, and later calls pass straight through.
func TestWireFaultHangRelease(t *testing.T) {
	srv := wfServer(t)
	h := srv.AddFault(fault.Hang("tools/call"))
	cs := connectGoSDK(t, srv, nil, nil)
	type result struct {
		res *mcp.CallToolResult
		err error
	}
	done := make(chan result, 1)
	go func() {
		res, err := wfGoSDKCall(testContext(t), cs)
		done <- result{res, err}
	}()
	srv.WaitFor(t, mcptest.ToolCall("gift", nil))
	assert.Empty(t, srv.Journal().All().Responses("tools/call"), "held: no reply yet")
	h.Release()
	h.Release() // idempotent
	r := <-done
	require.NoError(t, r.err)
	assert.Equal(t, "a kite", wfText(t, r.res))
	assert.Len(t, srv.Journal().All().Responses("tools/call"), 1)

	res, err := wfGoSDKCall(testContext(t), cs)
	require.NoError(t, err, "after Release every call passes")
	assert.Equal(t, "a kite", wfText(t, res))
}

// TestWireFaultDrop: the reply is never sent; the request was journaled
// and served, the call hangs until its deadline.
func TestWireFaultDrop(t *testing.T) {
	served := make(chan struct{}, 1)
	srv := legacy(mcptest.NewServer(t).WithTools(mcptest.NewTool("gift").HandledBy(
		func(context.Context, *mcptest.Request) mcptest.Reply {
			served <- struct{}{}
			return mcptest.TextResult("a kite")
		}))).WithFaults(fault.Drop("tools/call"))
	cs, tap := wfGoSDK(t, srv)
	_, err := wfGoSDKCall(wfShortContext(t), cs)
	require.ErrorIs(t, err, context.DeadlineExceeded)
	select {
	case <-served:
	case <-testContext(t).Done():
		t.Fatal("the request was never served")
	}
	srv.AssertCalledTimes(t, "tools/call", 1)
	_, replies := wfRepliesToCall(t, srv)
	assert.Empty(t, replies, "nothing was sent, nothing journaled")
	assert.Empty(t, srv.Journal().All().Responses("tools/call"))
	srv.AssertCancelled(t, "tools/call")
	require.NoError(t, cs.Ping(testContext(t), nil))
	assertJournalIsWire(t, srv, 1, tap)
}

// TestWireFaultDropNotification: a dropped tools/list_changed never
// reaches the client's handler.
func TestWireFaultDropNotification(t *testing.T) {
	srv := wfServer(t, fault.Drop("notifications/tools/list_changed"))
	changed := make(chan struct{}, 1)
	logged := make(chan struct{}, 1)
	cs := connectGoSDK(t, srv, &mcp.ClientOptions{
		ToolListChangedHandler: func(context.Context, *mcp.ToolListChangedRequest) { changed <- struct{}{} },
		LoggingMessageHandler:  func(context.Context, *mcp.LoggingMessageRequest) { logged <- struct{}{} },
	}, nil)
	// A round trip first: once it is answered the mock has processed
	// notifications/initialized, so the session is Ready and SetTools does
	// send the notification (to the fault).
	_, err := cs.ListTools(testContext(t), nil)
	require.NoError(t, err)
	require.True(t, srv.Session(1).Ready())
	srv.SetTools(mcptest.ListChanged, mcptest.NewTool("new").ReturnsText("n"))
	// go-sdk handles notifications one at a time, in order: once the next
	// notification's handler ran, a list_changed before it would have too.
	require.NoError(t, srv.Session(1).Notify("notifications/message", map[string]any{"level": "info", "data": "after"}))
	select {
	case <-logged:
	case <-testContext(t).Done():
		t.Fatal("notifications/message never reached the client")
	}
	select {
	case <-changed:
		t.Fatal("a dropped tools/list_changed reached the client")
	default:
	}
	assert.Empty(t, srv.Journal().All().Notifications("notifications/tools/list_changed"), "nothing went on the wire")
	list, err := cs.ListTools(testContext(t), nil)
	require.NoError(t, err)
	require.Len(t, list.Tools, 1)
	assert.Equal(t, "new", list.Tools[0].Name, "the change itself happened")

	// The control: without the fault the same change reaches the handler.
	srv.Faults()[0].Remove()
	srv.SetTools(mcptest.ListChanged, mcptest.NewTool("newer").ReturnsText("n"))
	select {
	case <-changed:
	case <-testContext(t).Done():
		t.Fatal("tools/list_changed never reached the client")
	}
	assert.Len(t, srv.Journal().All().Notifications("notifications/tools/list_changed"), 1)
}

// TestWireFaultCloseAfter: the reply to tools/list arrives, then the
// connection closes; the next call fails instead of hanging.
func TestWireFaultCloseAfter(t *testing.T) {
	t.Run("gosdk", func(t *testing.T) {
		srv := wfServer(t, fault.CloseAfter("tools/list"))
		cs, tap := wfGoSDK(t, srv)
		list, err := cs.ListTools(testContext(t), nil)
		require.NoError(t, err, "the reply went out before the close")
		require.Len(t, list.Tools, 1)
		wfSessionEnded(t, srv)
		_, err = wfGoSDKCall(testContext(t), cs)
		require.Error(t, err)
		require.NotErrorIs(t, err, context.DeadlineExceeded)
		// go-sdk v1.8.0: `connection closed: calling "tools/call": client is
		// closing: EOF` — or the write error, should the call be written
		// before the client's reader saw the EOF.
		assert.True(t, wfClosedError(err), "%v", err)
		srv.AssertNotCalled(t, "tools/call")
		assertJournalIsWire(t, srv, 1, tap)
	})
	t.Run("mark3labs", func(t *testing.T) {
		srv := wfServer(t, fault.CloseAfter("tools/list"))
		c, tap := wfMark3(t, srv)
		list, err := c.ListTools(testContext(t), m3.ListToolsRequest{})
		require.NoError(t, err)
		require.Len(t, list.Tools, 1)
		wfSessionEnded(t, srv)
		_, err = wfMark3Call(testContext(t), c)
		require.Error(t, err)
		require.NotErrorIs(t, err, context.DeadlineExceeded)
		// mark3labs v1.2.1: "transport error: transport closed" — or the
		// write error, should it write before its reader saw the EOF.
		assert.True(t, errors.Is(err, m3transport.ErrTransportClosed) || wfClosedError(err), "%v", err)
		srv.AssertNotCalled(t, "tools/call")
		assertJournalIsWire(t, srv, 1, tap)
	})
}

func wfSessionEnded(t *testing.T, srv *mcptest.Server) {
	t.Helper()
	select {
	case <-srv.Session(1).Done():
	case <-testContext(t).Done():
		t.Fatal("the session never ended")
	}
}

// wfClosedError reports whether err says the connection is gone.
func wfClosedError(err error) bool {
	return errors.Is(err, mcp.ErrConnectionClosed) || errors.Is(err, io.EOF) ||
		errors.Is(err, io.ErrClosedPipe) || errors.Is(err, net.ErrClosed)
}

// TestWireFaultCloseBefore: the connection closes instead of the reply;
// the pending call fails at once, it does not hang.
func TestWireFaultCloseBefore(t *testing.T) {
	t.Run("gosdk", func(t *testing.T) {
		srv := wfServer(t, fault.CloseBefore("tools/call"))
		cs, tap := wfGoSDK(t, srv)
		_, err := wfGoSDKCall(testContext(t), cs)
		require.ErrorIs(t, err, io.EOF, `go-sdk v1.8.0: calling "tools/call": EOF`)
		require.ErrorIs(t, cs.Ping(testContext(t), nil), mcp.ErrConnectionClosed)
		srv.AssertCalledTimes(t, "tools/call", 1)
		assert.Empty(t, srv.Journal().All().Responses("tools/call"))
		assertJournalIsWire(t, srv, 1, tap)
	})
	t.Run("mark3labs", func(t *testing.T) {
		srv := wfServer(t, fault.CloseBefore("tools/call"))
		c, tap := wfMark3(t, srv)
		_, err := wfMark3Call(testContext(t), c)
		require.ErrorIs(t, err, m3transport.ErrTransportClosed, "mark3labs v1.2.1")
		srv.AssertCalledTimes(t, "tools/call", 1)
		assert.Empty(t, srv.Journal().All().Responses("tools/call"))
		assertJournalIsWire(t, srv, 1, tap)
	})
}

// TestWireFaultTruncate: 25 bytes of the reply, then the close. The
// journal holds exactly those 25 bytes; the clients' calls fail.
func TestWireFaultTruncate(t *testing.T) {
	check := func(t *testing.T, srv *mcptest.Server) {
		call, replies := wfRepliesToCall(t, srv)
		require.Len(t, replies, 1)
		cut := replies[0]
		assert.Len(t, cut.Raw(), 25)
		full := `{"jsonrpc":"2.0","id":` + call.ID + `,"result":{`
		assert.Equal(t, full[:25], cut.Raw())
		assert.Contains(t, cut.Problem, "truncated after 25 bytes")
		assert.Equal(t, mcptest.KindInvalid, cut.Kind)
		assert.Empty(t, srv.Journal().All().Responses("tools/call"), "no complete reply went out")
	}
	t.Run("gosdk", func(t *testing.T) {
		srv := wfServer(t, fault.Truncate("tools/call", 25))
		cs, tap := wfGoSDK(t, srv)
		_, err := wfGoSDKCall(testContext(t), cs)
		require.ErrorIs(t, err, io.ErrUnexpectedEOF, "go-sdk v1.8.0 reports the cut frame")
		check(t, srv)
		assertJournalIsWire(t, srv, 1, tap)
	})
	t.Run("mark3labs", func(t *testing.T) {
		srv := wfServer(t, fault.Truncate("tools/call", 25))
		c, tap := wfMark3(t, srv)
		_, err := wfMark3Call(testContext(t), c)
		// mark3labs v1.2.1 drops the partial line and reports only the close.
		require.ErrorIs(t, err, m3transport.ErrTransportClosed)
		check(t, srv)
		assertJournalIsWire(t, srv, 1, tap)
	})
}

// ---- Triggers ----

func wfFailed(t *testing.T, cs *mcp.ClientSession, n int) []int {
	t.Helper()
	var failed []int
	for i := 1; i <= n; i++ {
		_, err := wfGoSDKCall(testContext(t), cs)
		if err != nil {
			var rpcErr *jsonrpc.Error
			require.ErrorAs(t, err, &rpcErr, "call %d", i)
			require.Equal(t, int64(-32000), rpcErr.Code, "call %d", i)
			failed = append(failed, i)
		}
	}
	return failed
}

// TestWireFaultNth: only the second call is faulted.
func TestWireFaultNth(t *testing.T) {
	srv := wfServer(t, fault.ReplaceWithJSONRPCError("tools/call", -32000, "second", nil).Nth(2))
	cs := connectGoSDK(t, srv, nil, nil)
	assert.Equal(t, []int{2}, wfFailed(t, cs, 4))
}

// TestWireFaultInSession: only the second Dial is faulted.
func TestWireFaultInSession(t *testing.T) {
	srv := wfServer(t, fault.ReplaceWithJSONRPCError("tools/call", -32000, "session two", nil).InSession(2))
	first := connectGoSDK(t, srv, nil, nil)
	second := connectGoSDK(t, srv, nil, nil)
	assert.Empty(t, wfFailed(t, first, 2))
	assert.Equal(t, []int{1, 2}, wfFailed(t, second, 2))
	assert.Empty(t, wfFailed(t, first, 1), "session 1 stays clean")
}

// TestWireFaultProbability: the calls a WithProbability fault hits are
// drawn from the seeded source: the same seed, the same calls.
func TestWireFaultProbability(t *testing.T) {
	run := func(t *testing.T, seed int64) []int {
		srv := wfServer(t).WithOptions(mcptest.Options{FaultSeed: seed}).
			WithFaults(fault.ReplaceWithJSONRPCError("tools/call", -32000, "unlucky", nil).WithProbability(0.5))
		cs := connectGoSDK(t, srv, nil, nil)
		return wfFailed(t, cs, 20)
	}
	a, b := run(t, 7), run(t, 7)
	t.Logf("seed 7 faults calls %v", a)
	assert.Equal(t, a, b, "the same seed, the same faulted calls")
	assert.NotEmpty(t, a)
	assert.Less(t, len(a), 20)
	assert.NotEqual(t, a, run(t, 8), "another seed, other calls")
}

// TestWireFaultRemoveWhileConnected: after the fault is removed (its handle, from Faults) the next call is clean.
func TestWireFaultRemoveWhileConnected(t *testing.T) {
	f := fault.WrongID("tools/call")
	srv := wfServer(t, f)
	cs := connectGoSDK(t, srv, nil, nil)
	_, err := wfGoSDKCall(wfShortContext(t), cs)
	require.ErrorIs(t, err, context.DeadlineExceeded)
	srv.Faults()[0].Remove()
	assert.Empty(t, srv.Faults())
	res, err := wfGoSDKCall(testContext(t), cs)
	require.NoError(t, err)
	assert.Equal(t, "a kite", wfText(t, res))
	resp := srv.Journal().All().Responses("tools/call")
	require.Len(t, resp, 1)
	assert.Equal(t, srv.Journal().All().Requests("tools/call")[1].ID, resp[0].ID, "the reply carries the right id again")
}

// ---- Close never hangs ----

// TestWireFaultCloseNeverHangs: with a client blocked on a fault that
// holds, delays, drops or dribbles the reply, Close returns (if it hung,
// the test would time out) and the client's call fails.
func TestWireFaultCloseNeverHangs(t *testing.T) {
	for _, c := range []struct {
		name  string
		fault func() mcptest.Fault
		// waitReply: wait until the mock is writing the reply
		waitReply bool
	}{
		{"Hang", func() mcptest.Fault { return fault.Hang("tools/call") }, false},
		{"Delay", func() mcptest.Fault { return fault.Delay("tools/call", time.Hour) }, false},
		{"Jitter", func() mcptest.Fault { return fault.Jitter("tools/call", time.Hour, 2*time.Hour) }, false},
		{"Drop", func() mcptest.Fault { return fault.Drop("tools/call") }, false},
		{"Dribble", func() mcptest.Fault { return fault.Dribble("tools/call", 1, time.Second) }, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Run("gosdk", func(t *testing.T) {
				srv := wfServer(t, c.fault())
				cs := connectGoSDK(t, srv, nil, nil)
				errc := make(chan error, 1)
				go func() {
					_, err := wfGoSDKCall(testContext(t), cs)
					errc <- err
				}()
				wfCloseWhileBlocked(t, srv, c.waitReply, errc)
			})
			t.Run("mark3labs", func(t *testing.T) {
				srv := wfServer(t, c.fault())
				cl, _ := connectMark3(t, srv)
				errc := make(chan error, 1)
				go func() {
					_, err := wfMark3Call(testContext(t), cl)
					errc <- err
				}()
				wfCloseWhileBlocked(t, srv, c.waitReply, errc)
			})
		})
	}
}

func wfCloseWhileBlocked(t *testing.T, srv *mcptest.Server, waitReply bool, errc <-chan error) {
	t.Helper()
	srv.WaitFor(t, mcptest.ToolCall("gift", nil))
	if waitReply {
		srv.WaitFor(t, mcptest.Matcher{Description: "the mock starts writing the reply", Match: func(m mcptest.Message) bool {
			return m.Direction == mcptest.FromServer && m.IsResponse() && m.Method == "tools/call"
		}})
	}
	srv.Close()
	select {
	case err := <-errc:
		require.Error(t, err, "the call fails when the server goes away")
		require.NotErrorIs(t, err, context.DeadlineExceeded)
	case <-testContext(t).Done():
		t.Fatal("the client's call still hangs after Close")
	}
}

// TestWireFaultDribbleCutByClose: a reply that Close cuts in the middle of
// a Dribble did not go on the wire whole; the journal must hold the bytes
// that did, as it does for Truncate.
func TestWireFaultDribbleCutByClose(t *testing.T) {
	srv := wfServer(t, fault.Dribble("tools/call", 1, time.Second))
	cs, tap := wfGoSDK(t, srv)
	errc := make(chan error, 1)
	go func() {
		_, err := wfGoSDKCall(testContext(t), cs)
		errc <- err
	}()
	call := srv.WaitFor(t, mcptest.ToolCall("gift", nil))
	before := len(journaledWireBefore(srv, 1, call.Seq)) // what the client had before the reply
	tap.waitLonger(t, before)                            // the reply's first byte went out; the next comes in a second
	srv.Close()
	select {
	case err := <-errc:
		require.ErrorIs(t, err, io.ErrUnexpectedEOF, "go-sdk v1.8.0 reports the cut frame")
	case <-testContext(t).Done():
		t.Fatal("the client's call still hangs after Close")
	}
	got := tap.received()[before:]
	require.NotEmpty(t, got)
	_, replies := wfRepliesToCall(t, srv)
	require.Len(t, replies, 1)
	assert.Equal(t, got, replies[0].Raw(), "the journal holds the bytes that went on the wire, not the whole frame")
	assert.NotEmpty(t, replies[0].Problem, "the journal says the frame was cut")
}
