package mcptest_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/mcpmock/mcpmock/mcptest"
)

// ruleIDs lists the IDs of every rule the mock checks. It is the one
// place that reads Rules(): when Rules returns rows of metadata instead of
// IDs, only this function changes.
func ruleIDs() []mcptest.RuleID { return mcptest.Rules() }

// wrongClients names, for each rule, the tests whose deliberately wrong
// client breaks it (and that check the mock records it): the pipe cases
// of ruleCases (TestRuleCases), the stateless cases of slCases
// (TestStatelessRuleViolations), the HTTP cases of httpRuleCases
// (TestHTTPRules), and the tests of rules whose offence is a frame the
// client never sent.
func wrongClients() map[mcptest.RuleID][]string {
	out := map[mcptest.RuleID][]string{}
	for _, tc := range ruleCases {
		out[tc.rule] = append(out[tc.rule], "TestRuleCases/"+tc.name)
	}
	for _, tc := range slCases {
		out[tc.rule] = append(out[tc.rule], "TestStatelessRuleViolations/"+tc.name)
	}
	for _, tc := range httpRuleCases {
		out[tc.rule] = append(out[tc.rule], "TestHTTPRules/"+tc.name)
	}
	// Unanswered server requests: the offence is a reply never sent.
	out[mcptest.RuleServerRequestUnanswered] = append(out[mcptest.RuleServerRequestUnanswered], "TestServerRequestUnanswered")
	return out
}

// TestEveryRuleHasAWrongClient fails when a rule of Rules() — of the pipe,
// the stateless era or the HTTP transport — has no test whose client
// breaks it on purpose, or when a wrong client names a rule Rules() does
// not list. The golden client (TestGoldenClient) is the other half: no
// rule fires for a correct client.
func TestEveryRuleHasAWrongClient(t *testing.T) {
	ids := ruleIDs()
	if len(ids) == 0 {
		t.Fatal("want Rules() to list the rules, got none")
	}
	known := map[mcptest.RuleID]bool{}
	for _, r := range ids {
		known[r] = true
	}
	wrong := wrongClients()
	for _, r := range ids {
		if len(wrong[r]) == 0 {
			t.Errorf("rule %s has no wrong-client test: add a client that breaks it to ruleCases (pipe), slCases (stateless era) or httpRuleCases (HTTP)", r)
		}
	}
	for r, tests := range wrong {
		if !known[r] {
			t.Errorf("%v break rule %q, which Rules() does not list", tests, r)
		}
	}
	if !slices.ContainsFunc(ids, func(r mcptest.RuleID) bool { return strings.HasPrefix(string(r), "http/") }) {
		t.Errorf("want the HTTP rules (http/…) among Rules(), got %v", ids)
	}
}
