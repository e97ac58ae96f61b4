package mcptest_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/mcpmock/mcpmock/internal/faketb"
	"github.com/mcpmock/mcpmock/mcptest"
	"github.com/mcpmock/mcpmock/mcptest/fault"
	"github.com/mcpmock/mcpmock/mcptest/oauth"
)

// A fault that cannot be installed fails the test naming the call the
// test made — AddFault's failures used to say WithFaults(…) — with one
// clause that says why and what to do instead (it used to read
// `… did you mean "tools/call"?, nor one a Handle serves; …`).
func TestFaultRefusedNamesTheCall(t *testing.T) {
	handled := func(context.Context, *mcptest.Request) mcptest.Reply { return mcptest.Result(`{}`) }
	for _, tc := range []struct {
		name  string
		fault mcptest.Fault
		want  string // with %s for the call
	}{
		{"misspelled method", fault.Delay("tools/cal", time.Second),
			`mcptest: %s(Delay("tools/cal", 1s)): the fault would never act: "tools/cal" is no method of any protocol version, nor one a Handle serves; did you mean "tools/call"?`},
		{"near a handled method", fault.Drop("x/custon"),
			`mcptest: %s(Drop("x/custon")): the fault would never act: "x/custon" is no method of any protocol version, nor one a Handle serves; did you mean "x/custom"?`},
		{"far from every method", fault.Hang("frobnicate/now"),
			`mcptest: %s(Hang("frobnicate/now")): the fault would never act: "frobnicate/now" is no method of any protocol version, nor one a Handle serves; name one of the protocol's methods, e.g. "tools/call", or serve it with Handle before installing the fault`},
		{"an argument the constructor cannot take", oauth.TokenStatus(200),
			`mcptest: %s(TokenStatus(200)): status 200 is not an HTTP error (400-599)`},
		{"a zero Fault", mcptest.Fault{},
			`mcptest: %s: a zero Fault; build faults with the constructors of package fault (fault.Hang, fault.Delay, …)`},
	} {
		for _, call := range []string{"WithFaults", "AddFault"} {
			t.Run(tc.name+"/"+call, func(t *testing.T) {
				fake := faketb.New(t)
				srv := mcptest.NewServer(fake).Handle("x/custom", handled)
				install := func() { srv.WithFaults(tc.fault) }
				if call == "AddFault" {
					install = func() { srv.AddFault(tc.fault) }
				}
				if fake.Run(install) {
					t.Fatalf("want %s to stop the test, it returned; got %s", call, fake.Report())
				}
				want := fmt.Sprintf(tc.want, call)
				if got := fake.FatalOutput(); got != want {
					t.Errorf("%s:\nwant %s\ngot  %s", call, want, got)
				}
			})
		}
	}
}
