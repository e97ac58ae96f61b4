package mcptest_test

import (
	"testing"

	"github.com/mcpmock/mcpmock/mcptest"
)

// TestInitializeBatchedOnlyWhereForbidden: 2025-03-26 says initialize MUST
// NOT be part of a JSON-RPC batch; 2024-11-05, which has batches too, says
// nothing of it, so a client of 2024-11-05 that batches its initialize
// alone breaks no rule.
func TestInitializeBatchedOnlyWhereForbidden(t *testing.T) {
	for _, tc := range []struct {
		version string
		want    bool
	}{{"2024-11-05", false}, {"2025-03-26", true}} {
		t.Run(tc.version, func(t *testing.T) {
			srv := mcptest.NewServer(t).IgnoreViolations()
			c := dialRaw(t, srv)
			c.send(`[{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"` + tc.version + `","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}]`)
			if got := c.recvBatch(t); len(got) != 1 || got[0].Get("result.protocolVersion").String() != tc.version {
				t.Fatalf("want one initialize result of %s, got %v", tc.version, got)
			}
			srv.Close()
			var got bool
			for _, v := range srv.Violations() {
				if v.Rule != "lifecycle/initialize-not-batched" {
					t.Errorf("another violation: %s", v)
				}
				got = true
			}
			if got != tc.want {
				t.Errorf("initialize-not-batched recorded: %v, want %v (violations %v)", got, tc.want, srv.Violations())
			}
		})
	}
}
