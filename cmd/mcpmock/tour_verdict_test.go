package main

import (
	"bytes"
	"os"
	"strings"
	"testing"

	"github.com/mcpmock/mcpmock/internal/tourtable"
	"github.com/mcpmock/mcpmock/scenarios"
	"github.com/mcpmock/mcpmock/scenarios/tour"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// flat joins a wrapped text's lines: the tour wraps at 80 columns, and a
// client's command line (the test binary's path) may be cut anywhere.
func flat(s string) string { return strings.Join(strings.Fields(s), " ") }

// TestTourYourClientFails: a client program that fails mistake 3 (it lists
// and calls the tools the server did not declare) is named as the user's
// client at the top and in its verdict, the verdict is fail, and the
// command exits 1 naming the failure on stderr, as run does; the same
// lesson with a careful client passes and exits 0.
func TestTourYourClientFails(t *testing.T) {
	t.Parallel()
	env, cmd := fakeClientCmd("no-capability-check")
	out, stderr, code := runMcpmock(t, env, append([]string{"tour", "3", "--"}, cmd...)...)
	yours := "your client (" + strings.Join(cmd, " ") + ")"
	assert.Equal(t, exitVerdict, code, "stdout:\n%s\nstderr:\n%s", out, stderr)
	assert.True(t, strings.HasPrefix(flat(out), "Playing: "+yours+". "), "the top does not name the client:\n%s", out)
	assert.Contains(t, flat(out), "Your client ("+strings.Join(cmd, " ")+"): fail, it did not cope: ")
	assert.NotContains(t, flat(out), "): pass")
	assert.Contains(t, flat(stderr), "mcpmock tour: 1 of 1 verdicts failed: tools-capability-missing: "+yours+" (fail)")

	env, cmd = fakeClientCmd("careful")
	out, stderr, code = runMcpmock(t, env, append([]string{"tour", "3", "--"}, cmd...)...)
	assert.Equal(t, exitOK, code, "stdout:\n%s\nstderr:\n%s", out, stderr)
	assert.Contains(t, flat(out), "Your client ("+strings.Join(cmd, " ")+"): pass, it coped: ")
	assert.NotContains(t, stderr, "verdicts failed")
}

// TestTourBuiltInClient: without a client program the tour names the
// built-in reference client at the top and in every verdict it plays; it
// passes every scenario of the whole tour that applies to it, so the
// command exits 0.
func TestTourBuiltInClient(t *testing.T) {
	t.Parallel()
	const builtIn = "the built-in reference client (cmd/mcpmock)"
	out, stderr, code := runMcpmock(t, nil, "tour", "3")
	assert.Equal(t, exitOK, code, "stderr:\n%s", stderr)
	assert.True(t, strings.HasPrefix(flat(out), "Playing: "+builtIn+". "), "the top does not name the client:\n%s", out)
	assert.Contains(t, flat(out), "The built-in reference client (cmd/mcpmock): pass, it coped: ")

	out, stderr, code = runMcpmock(t, nil, "tour")
	assert.Equal(t, exitOK, code, "stderr:\n%s", stderr)
	f := flat(out)
	assert.Contains(t, f, "Playing: "+builtIn+". ")
	assert.GreaterOrEqual(t, strings.Count(f, "The built-in reference client (cmd/mcpmock): pass, "), 15, out)
	for _, bad := range []string{"(cmd/mcpmock): fail", "(cmd/mcpmock): not-reached", "NOT caught"} {
		assert.NotContains(t, f, bad)
	}
	assert.NotContains(t, stderr, "verdicts failed")
}

// TestTourVerdictsExit: the exit status follows the verdicts, whoever
// plays: a failed or not-reached verdict of the built-in reference client
// (or of a program) is exit 1, named on stderr, as is a naive client's
// mistake the mock did not catch; a naive client's caught mistake, a pass
// and a not-applicable are exit 0.
func TestTourVerdictsExit(t *testing.T) {
	t.Parallel()
	ok := []tour.Verdict{
		{Scenario: "tools-capability-missing", Client: refClientName, Status: scenarios.Pass},
		{Scenario: "capabilities-per-session", Client: refClientName, Status: scenarios.NotApplicable},
		{Scenario: "giftgen-handshake", Client: "a naive client", Own: true, Naive: true, Caught: true, Status: scenarios.Fail},
	}
	var stderr bytes.Buffer
	assert.NoError(t, tourVerdicts(ok, nil, &stderr))
	assert.Empty(t, stderr.String())
	for _, tc := range []struct {
		bad  tour.Verdict
		want string
	}{
		{tour.Verdict{Scenario: "wrong-id-type", Client: refClientName, Status: scenarios.Fail}, "wrong-id-type: " + refClientName + " (fail)"},
		{tour.Verdict{Scenario: "modern-only", Client: refClientName, Status: scenarios.NotReached}, "modern-only: " + refClientName + " (not-reached)"},
		{tour.Verdict{Scenario: "undeclared-methods", Client: "a naive client", Own: true, Naive: true, Status: scenarios.Pass}, "undeclared-methods: a naive client (its mistake not caught)"},
	} {
		stderr.Reset()
		err := tourVerdicts(append(ok[:len(ok):len(ok)], tc.bad), nil, &stderr)
		assert.ErrorIs(t, err, errVerdict, tc.want)
		assert.Contains(t, stderr.String(), "1 of 4 verdicts failed:\n  "+tc.want+"\n")
	}
}

// TestTourAuthNaiveNeverPass: in the authorization walk the naive OAuth
// clients make their mistakes on purpose: each verdict says the mock
// caught it, with the rule or the scenario that did, and none says pass;
// the top says whose clients play.
func TestTourAuthNaiveNeverPass(t *testing.T) {
	t.Parallel()
	out, stderr, code := runMcpmock(t, nil, "tour", "auth")
	require.Equal(t, exitOK, code, "stderr:\n%s", stderr)
	parts := strings.Split(out, "# Authorization mistake ")
	require.Len(t, parts, 4, out)
	assert.True(t, strings.HasPrefix(flat(parts[0]), "The client's own mistakes are made on purpose by the tour's naive clients: "+
		"their verdict is caught (the mock caught the mistake), never pass."), "the top does not say whose clients play:\n%s", parts[0])
	assert.NotContains(t, parts[0], "Playing: ", "tour auth plays no client of the user's")
	for i, want := range []string{
		"A naive OAuth client that skips PKCE: caught, the client sent no PKCE code_challenge (rule auth/pkce-s256).",
		"A naive OAuth client that sends no resource parameter: caught, the client sent no resource parameter (rule auth/resource-parameter).",
		"A naive OAuth client that does not step up: caught, the client gave up on the 403 insufficient_scope instead of authorizing again " +
			"(the scenario's verdict: fail, ",
	} {
		f := flat(parts[i+1])
		assert.Contains(t, f, want, "mistake %d", i+1)
		assert.NotContains(t, f, ": pass", "mistake %d: a naive client is never passed", i+1)
	}

	// The naive clients of lessons 1 and 4 too.
	out, stderr, code = runMcpmock(t, nil, "tour", "1", "4")
	require.Equal(t, exitOK, code, "stderr:\n%s", stderr)
	f := flat(out)
	assert.Contains(t, f, "A naive hand-written client that sends a malformed initialize: caught, the client sent a malformed initialize, three times "+
		"(rules jsonrpc/version, lifecycle/initialize-first, jsonrpc/method-not-found, lifecycle/initialize-params).")
	assert.Contains(t, f, "A naive hand-written client that calls undeclared methods: caught, the client called resources/list, "+
		"which the server did not declare (rule capabilities/undeclared-method).")
	assert.NotContains(t, f, ": pass")
	assert.NotContains(t, f, "Playing: ", "lessons 1 and 4 play no client of the user's")
}

// TestTourTeachingDocTable: the teaching table of docs/teaching.md says,
// in the column of the built-in reference client, the verdicts mcpmock
// tour prints for each mistake, scenario by scenario (examples/handshake
// holds the official Go SDK's column to its own output).
func TestTourTeachingDocTable(t *testing.T) {
	t.Parallel()
	out, stderr, code := runMcpmock(t, nil, "tour", "1", "2", "3", "4", "5", "6", "7")
	require.Equal(t, exitOK, code, "stderr:\n%s", stderr)
	got := tourtable.ByLesson(out, `The built-in reference client \(cmd/mcpmock\)|A naive hand-written client that [a-z/ ]+`)
	page, err := os.ReadFile("../../docs/teaching.md")
	require.NoError(t, err)
	want, err := tourtable.Column(string(page), "the built-in reference client")
	require.NoError(t, err, "docs/teaching.md")
	assert.Equal(t, want, got, "the teaching table of docs/teaching.md (want) and mcpmock tour (got)")
}
