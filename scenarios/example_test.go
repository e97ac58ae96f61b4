package scenarios_test

import (
	"context"
	"fmt"

	"github.com/mcpmock/mcpmock/mcptest"
	"github.com/mcpmock/mcpmock/scenarios"
)

// Each scenario says what the client must have reached for its check to
// be evidence.
func ExampleAll() {
	for _, s := range scenarios.All()[:3] {
		fmt.Printf("%s: judged once %s\n", s.Name, s.Expect.DecisionPoint)
	}
	// Output:
	// giftgen-handshake: judged once the client sent its first request (a probe or initialize)
	// giftgen-stateless: judged once the client sent its first request; not applicable to a client that initializes without probing (handshake era only)
	// initialize-result-malformed: judged once the client read the initialize result
}

// Judge runs the catalog in a program, without *testing.T: here a client
// that never opens a session, which reaches no decision point.
func ExampleJudge() {
	p := mcptest.NewProgramTB("conformance", nil)
	var rep *scenarios.Report
	err := p.Run(func(t mcptest.TB) {
		rep = scenarios.Judge(t, func(context.Context, *scenarios.Endpoint) error { return nil },
			scenarios.Only("tools-capability-missing"))
	})
	fmt.Println(rep.Results[0].Status, err != nil)
	fmt.Println(rep.Results[0].Observed)
	// Output:
	// not-reached true
	// the server never sent its capabilities: no initialize or server/discover was answered with a result (it never opened a session); connect returned nil
}

// Skip leaves scenarios out without naming all the others: here an app
// that reads one page of each list, so it never meets looping-cursor's
// loop, and does nothing else in this example.
func ExampleSkip() {
	p := mcptest.NewProgramTB("conformance", nil)
	var rep *scenarios.Report
	_ = p.Run(func(t mcptest.TB) {
		rep = scenarios.Judge(t, func(context.Context, *scenarios.Endpoint) error { return nil },
			scenarios.Skip("looping-cursor"))
	})
	fmt.Println(len(rep.Results) == len(scenarios.All())-1, rep.Status("looping-cursor") == "")
	// Output:
	// true true
}
