package mcptest_test

import (
	"strings"
	"testing"

	"github.com/mcpmock/mcpmock/mcptest"
)

// TestStatelessTasksRemoved: the tasks methods of 2025-11-25 are not in
// 2026-07-28 (its schema has none of them), so a stateless session that
// sends one breaks stateless/removed-method as a ping does: -32601 for a
// request, nothing for a notification. Before the protocol table, the mock
// kept a list of removed methods of its own that lacked them, and tasks/get
// got a bare -32601 with no violation.
func TestStatelessTasksRemoved(t *testing.T) {
	for _, tc := range []struct {
		method, params string
		notification   bool
	}{
		{method: "tasks/get", params: `"taskId":"t1"`},
		{method: "tasks/result", params: `"taskId":"t1"`},
		{method: "tasks/list"},
		{method: "tasks/cancel", params: `"taskId":"t1"`},
		{method: "notifications/tasks/status", params: `"taskId":"t1","status":"working","createdAt":"2025-11-25T00:00:00Z","lastUpdatedAt":"2025-11-25T00:00:00Z","ttl":null`, notification: true},
	} {
		t.Run(tc.method, func(t *testing.T) {
			t.Parallel()
			srv := slFullServer(t)
			srv.ExpectViolation("stateless/removed-method")
			c := dialRaw(t, srv)
			defer c.close()
			slDiscover(t, c, `"discover"`)
			var frame string
			if tc.notification {
				frame = rawNotification(tc.method, slOK(tc.params))
				c.send(frame)
				slStillServing(t, c, `"after"`)
			} else {
				frame = rawRequest(`"t"`, tc.method, slOK(tc.params))
				c.send(frame)
				reply := c.recvJSON(t)
				if reply.Get("error.code").Int() != slCodeMethodNotFound || !strings.Contains(reply.Get("error.message").String(), "2026-07-28") {
					t.Errorf("%s in a stateless session: want -32601 naming 2026-07-28, got %s", tc.method, reply.Raw)
				}
			}
			slCheckOnly(t, srv, "stateless/removed-method", mcptest.SeverityError, slFindClientFrame(t, srv, frame))
		})
	}
}
