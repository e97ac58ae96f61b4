package mcptest_test

import (
	"strings"
	"testing"

	"github.com/mcpmock/mcpmock/internal/mcpclient"
	"github.com/mcpmock/mcpmock/mcptest"
)

// ruleIDs lists the IDs of every rule the mock checks, from the rule table.
func ruleIDs() []mcptest.RuleID {
	var ids []mcptest.RuleID
	for _, r := range mcptest.Rules() {
		ids = append(ids, r.ID)
	}
	return ids
}

// wrongClients names, for each rule, the tests whose deliberately wrong
// client breaks it (and that check the mock records it): the pipe cases
// of ruleCases (TestRuleCases), the stateless cases of slCases
// (TestStatelessRuleViolations), the HTTP cases of httpRuleCases
// (TestHTTPRules), and the tests of rules whose offence is a frame the
// client never sent. The authorization rules (auth/) are package oauth's
// to break: its TestEveryAuthRuleHasACase checks them.
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
	out["jsonrpc/server-request-unanswered"] = append(out["jsonrpc/server-request-unanswered"], "TestServerRequestUnanswered")
	return out
}

// goldenRuleApplies reports whether a rule can fire in a golden run on
// transport (pipe, http, legacy-sse) at version: the rule's era, its
// transport, the versions it exists in. A run where a rule applies and
// stays silent is a run where a correct client was not blamed by it.
func goldenRuleApplies(r mcptest.RuleID, transport, version string) bool {
	stateless := version == mcpclient.StatelessVersion
	id := string(r)
	switch {
	case r == "http/stateless-headers":
		return transport == "http" && stateless
	case r == "http/accept":
		return transport == "http" // HTTP+SSE has no Accept rule
	case r == "http/session-id", r == "http/protocol-version-header", r == "http/reinitialize-after-404", r == "http/delete-on-close":
		return transport == "http" && !stateless
	case strings.HasPrefix(id, "http/"):
		return transport != "pipe"
	case r == "stateless/discover-first":
		return transport == "pipe" && stateless // a stdio rule
	case strings.HasPrefix(id, "stateless/"), strings.HasPrefix(id, "mrtr/"):
		return stateless
	case r == "lifecycle/initialize-not-batched":
		return version == "2024-11-05" || version == "2025-03-26"
	case strings.HasPrefix(id, "lifecycle/"):
		return !stateless
	case strings.HasPrefix(id, "elicitation/"):
		return stateless || version >= "2025-06-18"
	}
	return true
}

// TestGoldenRuleCoverage counts the rule × transport × era combinations
// in which TestGoldenClient's correct client ran with the rule able to
// fire, and fails if some rule of Rules() is in none: a rule never given
// the chance to blame a correct client is not proven not to.
func TestGoldenRuleCoverage(t *testing.T) {
	triples := map[string]bool{} // rule, transport, era
	runs := 0                    // rule × TestGoldenClient run
	covered := map[mcptest.RuleID]bool{}
	for _, tr := range goldenTransports {
		for _, vr := range goldenVariants {
			if vr.httpOnly && tr.name == "pipe" || vr.noPush && tr.name == "legacy-sse" {
				continue
			}
			for _, v := range tr.versions {
				version, era := v, "handshake"
				if v == "" || v == mcpclient.StatelessVersion {
					version, era = mcpclient.StatelessVersion, "stateless"
				}
				for _, r := range ruleIDs() {
					if goldenRuleApplies(r, tr.name, version) {
						runs++
						covered[r] = true
						triples[string(r)+" "+tr.name+" "+era] = true
					}
				}
			}
		}
	}
	for _, r := range ruleIDs() {
		if !covered[r] {
			t.Errorf("rule %s applies in no golden run: add a transport, era or version where it can fire to TestGoldenClient", r)
		}
	}
	t.Logf("%d rules; %d rule × transport × era combinations; %d rule × run checks over %d golden runs", len(ruleIDs()), len(triples), runs, goldenCombos())
}
