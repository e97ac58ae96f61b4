package mcptest_test

import (
	"encoding/json"
	"testing"

	"github.com/mcpmock/mcpmock/mcptest"
)

// TestJSONRPCErrorData: nil data sends no data member (as the error
// objects of servers without data do); json.RawMessage("null") sends
// "data": null, and a Go string a JSON string.
func TestJSONRPCErrorData(t *testing.T) {
	for _, tc := range []struct {
		name string
		data any
		want string // the error's data member, "" for none
	}{
		{"nil", nil, ""},
		{"explicit null", json.RawMessage("null"), "null"},
		{"string", "not JSON text", `"not JSON text"`},
		{"object", json.RawMessage(`{"a":1}`), `{"a":1}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := mcptest.NewServer(t).WithTools(mcptest.NewTool("t").Returns(mcptest.JSONRPCError(-32602, "bad", tc.data)))
			c := dialRaw(t, srv)
			c.handshake(t, "2025-11-25")
			resp := c.call(t, "2", "tools/call", `{"name":"t","arguments":{}}`)
			data := resp.Get("error.data")
			if got := data.Raw; got != tc.want {
				t.Errorf("error.data = %q, want %q (reply %s)", got, tc.want, resp.Raw)
			}
		})
	}
}
