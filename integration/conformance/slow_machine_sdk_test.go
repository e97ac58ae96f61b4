package conformance_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/mcpmock/mcpmock/scenarios"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestSlowMachineFailsFast: a go-sdk app on a machine so slow that it
// reaches its call only after 60% of disconnect-mid-call's deadline (here
// a wait before the call plays the slow machine) still fails the call at
// once when the server closes under it, and passes: the verdict looks at
// how long the client was idle after its last request (Outcome.Idle), not
// only at how long it ran. An app that calls at once and then waits out
// its deadline after the failed call fails (idle for most of the deadline,
// however slow the machine).
func TestSlowMachineFailsFast(t *testing.T) {
	t.Parallel()
	s, ok := scenarios.Lookup("disconnect-mid-call")
	if !ok {
		t.Fatal("no scenario disconnect-mid-call")
	}
	app := func(slowMachine, waitOut bool) scenarios.ConnectFunc {
		return func(ctx context.Context, ep *scenarios.Endpoint) error {
			conn, err := ep.Open()
			if err != nil {
				return err
			}
			cs, err := mcp.NewClient(&mcp.Implementation{Name: "slow-machine-app", Version: "1.0.0"}, nil).
				Connect(ctx, &mcp.IOTransport{Reader: conn, Writer: conn}, nil)
			if err != nil {
				return err
			}
			defer cs.Close()
			if slowMachine {
				deadline, _ := ctx.Deadline()
				slow := time.NewTimer(time.Until(deadline) * 6 / 10) // the slow machine, not a synchronisation
				defer slow.Stop()
				<-slow.C
			}
			_, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "suggest_gifts", Arguments: map[string]any{"age": 25}})
			if waitOut {
				<-ctx.Done() // the bug: it waits for its deadline although the call failed
			}
			return err
		}
	}
	o := s.Play(t, app(true, false))
	if r := s.Evaluate(o); r.Status != scenarios.Pass {
		t.Errorf("a slow machine's app that failed at once: want pass, got %s: %s", r.Status, r.Observed)
	}
	if o.Elapsed < o.Deadline/2 || o.WaitedOut() {
		t.Errorf("want Elapsed past half the deadline (%v of %v) and WaitedOut false (idle %v)", o.Elapsed, o.Deadline, o.Idle())
	}
	r := s.Evaluate(s.Play(t, app(false, true)))
	if r.Status != scenarios.Fail || !strings.Contains(r.Observed, "after its last request") {
		t.Errorf("an app that waited out its deadline after the closed connection: want fail naming its idle time, got %s: %s", r.Status, r.Observed)
	}
}
