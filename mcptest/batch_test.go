package mcptest_test

import (
	"context"
	"github.com/mcpmock/mcpmock/internal/spec"
	"strings"
	"testing"

	"github.com/mcpmock/mcpmock/mcptest"
	"github.com/tidwall/gjson"
)

// batchServer is ruleServer with a tool whose handler blocks until its
// context ends, reporting that on cancelled.
func batchServer(t *testing.T, cancelled chan<- string) *mcptest.Server {
	return ruleServer(t).WithTools(mcptest.NewTool("slow").HandledBy(func(ctx context.Context, req *mcptest.Request) mcptest.Reply {
		<-ctx.Done()
		cancelled <- req.Message.ID
		return mcptest.TextResult("too late")
	}))
}

// byID indexes the responses of a batch by their id's JSON text.
func byID(replies []gjson.Result) map[string]gjson.Result {
	out := map[string]gjson.Result{}
	for _, r := range replies {
		out[r.Get("id").Raw] = r
	}
	return out
}

// TestBatchesInVersionsThatHaveThem: 2024-11-05 and 2025-03-26 say a
// receiver MUST accept batches. The mock answers a batch with one batch of
// the responses to its requests (an element that is no message gets its
// -32600 inside it), journals the batch frame and then each message on its
// own, and holds the messages to the rules as if framed alone.
func TestBatchesInVersionsThatHaveThem(t *testing.T) {
	for _, version := range []string{"2024-11-05", "2025-03-26"} {
		t.Run(version, func(t *testing.T) {
			srv := ruleServer(t).ExpectViolation("jsonrpc/invalid-request")
			c := dialRaw(t, srv)
			c.handshake(t, version)
			frame := "[" + strings.Join([]string{
				rawRequest("1", "ping", ""),
				rawRequest("2", "tools/list", ""),
				rawNotification("notifications/roots/list_changed", ""),
				rawRequest(`"three"`, "tools/call", `{"name":"echo","arguments":{}}`),
				`42`,
			}, ",") + "]"
			c.send(frame)
			replies := c.recvBatch(t)
			if len(replies) != 4 {
				t.Fatalf("want a batch of 4 responses (3 requests, 1 invalid element), got %d: %v", len(replies), replies)
			}
			got := byID(replies)
			if got["1"].Get("result").Raw != "{}" || !got["2"].Get("result.tools").IsArray() ||
				got[`"three"`].Get("result.content.0.text").String() != "echoed" || got["null"].Get("error.code").Int() != spec.CodeInvalidRequest {
				t.Fatalf("want ping, tools/list, tools/call answered and the invalid element refused, got %v", replies)
			}
			c.ping(t, "9") // nothing else was sent

			j := srv.Journal().All()
			in := j.Filter(func(m mcptest.Message) bool { return m.Direction == mcptest.FromClient && m.Kind == mcptest.KindBatch })
			if len(in) != 1 || in[0].Raw() != frame {
				t.Fatalf("want the batch frame journaled as sent, got %v", in)
			}
			if calls := j.ToolCalls("echo"); len(calls) != 1 || calls[0].Batch != in[0].Seq || calls[0].Raw() != rawRequest(`"three"`, "tools/call", `{"name":"echo","arguments":{}}`) {
				t.Errorf("want the tools/call journaled on its own with Batch = #%d, got %v", in[0].Seq, calls)
			}
			srv.AssertToolCalled(t, "echo", nil)
			out := j.Filter(func(m mcptest.Message) bool { return m.Direction == mcptest.FromServer && m.Kind == mcptest.KindBatch })
			if len(out) != 1 {
				t.Fatalf("want one batch of responses journaled, got %v", out)
			}
			if rs := j.Filter(func(m mcptest.Message) bool { return m.Batch == out[0].Seq }); len(rs) != 4 || rs[0].Direction != mcptest.FromServer {
				t.Errorf("want the 4 responses journaled with Batch = #%d, got %v", out[0].Seq, rs)
			}
			if rs := j.Responses("tools/list"); len(rs) != 1 || rs[0].Batch != out[0].Seq {
				t.Errorf("want the tools/list response journaled in the batch, with its method, got %v", rs)
			}
			vs := srv.Violations()
			if len(vs) != 1 || vs[0].Message.Raw() != "42" {
				t.Errorf("want one violation, for the element 42, got %v", vs)
			}
		})
	}
}

// TestBatchOfNotifications: a batch with nothing to answer gets no reply,
// as JSON-RPC says; the client's answers to the server's requests in it are
// taken as answers.
func TestBatchOfNotifications(t *testing.T) {
	srv := ruleServer(t)
	c := dialRaw(t, srv)
	c.handshake(t, "2025-03-26")
	c.send("[" + rawNotification("notifications/roots/list_changed", "") + "," + rawNotification("notifications/progress", `{"progressToken":"p","progress":1}`) + "]")
	c.ping(t, "1") // the next line is the ping's answer: no reply to the batch
	if n := len(srv.Journal().All().Notifications("notifications/roots/list_changed")); n != 1 {
		t.Errorf("want the notification journaled, got %d", n)
	}
	srv.AssertNoViolations(t)
}

// TestBatchWaitsForEveryReply: the batch of responses goes out once the
// last request is answered; a request the client cancels meanwhile is left
// out of it, as it is never answered.
func TestBatchWaitsForEveryReply(t *testing.T) {
	cancelled := make(chan string, 1)
	srv := batchServer(t, cancelled)
	c := dialRaw(t, srv)
	c.handshake(t, "2024-11-05")
	c.send("[" + rawRequest("1", "tools/call", `{"name":"slow"}`) + "," + rawRequest("2", "ping", "") + "]")
	srv.WaitFor(t, mcptest.ToolCall("slow", nil))
	c.notify("notifications/cancelled", `{"requestId":1}`)
	if id := await(t, cancelled, "the slow call to be cancelled"); id != "1" {
		t.Fatalf("want request 1 cancelled, got %s", id)
	}
	replies := c.recvBatch(t)
	if len(replies) != 1 || replies[0].Get("id").Raw != "2" {
		t.Fatalf("want a batch with only the ping's response, got %v", replies)
	}
	c.ping(t, "3")
}

// TestBatchRefused: from 2025-06-18 on there are no batches: the frame is
// invalid (-32600, naming the version), as before initialize unless the
// batch is the initialize of a version that has them; an empty batch is
// invalid in every version.
func TestBatchRefused(t *testing.T) {
	for _, tc := range []struct {
		name, version, frame, says string
	}{
		{"2025-06-18", "2025-06-18", "[" + rawRequest("1", "ping", "") + "]", "protocol 2025-06-18 does not have"},
		{"2025-11-25", "2025-11-25", "[" + rawRequest("1", "ping", "") + "]", "protocol 2025-11-25 does not have"},
		{"before initialize", "", "[" + rawRequest("1", "ping", "") + "]", "before initialize"},
		{"initialize of a version without batches", "", "[" + rawRequest(rawInitID, "initialize", initializeParams("2025-11-25")) + "]", "before initialize"},
		{"empty", "2025-03-26", "[]", "empty"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := ruleServer(t).ExpectViolation("jsonrpc/invalid-request")
			c := dialRaw(t, srv)
			if tc.version != "" {
				c.handshake(t, tc.version)
			}
			c.send(tc.frame)
			reply := c.recvJSON(t)
			checkReply(t, reply, wantError(spec.CodeInvalidRequest, "null"))
			if msg := reply.Get("error.message").String(); !strings.Contains(msg, tc.says) {
				t.Errorf("want the error to say %q, got %q", tc.says, msg)
			}
			if inv := srv.Journal().All().Invalid(); len(inv) != 1 || inv[0].Raw() != tc.frame {
				t.Errorf("want the frame journaled as one invalid message, got %v", inv)
			}
			stillServing(t, srv, c)
		})
	}
}
