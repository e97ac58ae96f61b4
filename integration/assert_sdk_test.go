package integration_test

// Assertions with real clients: those whose answer can no longer change
// fail at once, a call of a tool nobody scripted is reported as a possible
// mistake of the test, and Notify says what a stateless client cannot get.
// The failing assertions report to a mcptest.ProgramTB, whose verdict the
// test checks; the server itself belongs to the real test.

import (
	"bytes"
	"context"
	"fmt"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/mcpmock/mcpmock/mcptest"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A one-minute wait timeout, and a bound far below it: a failure that
// comes back within the bound did not wait for the timeout.
const (
	failFastTimeout = time.Minute
	failFastBound   = 10 * time.Second
)

func failFastServer(t *testing.T) *mcptest.Server {
	return mcptest.NewServer(t).WithOptions(mcptest.Options{WaitTimeout: failFastTimeout}).
		WithTools(mcptest.NewTool("suggest_gifts").ReturnsText("a board game"))
}

// failsFast runs assertion with a ProgramTB and checks that it failed
// within failFastBound, saying each of want.
func failsFast(t *testing.T, assertion func(tb mcptest.TB) bool, want ...string) {
	t.Helper()
	p := mcptest.NewProgramTB(t.Name(), nil)
	start := time.Now()
	var held bool
	err := p.Run(func(tb mcptest.TB) { held = assertion(tb) })
	elapsed := time.Since(start)
	t.Logf("failed after %v", elapsed)
	require.False(t, held, "the assertion must fail")
	require.Error(t, err, "the assertion must fail the ProgramTB")
	assert.Less(t, elapsed, failFastBound, "a settled answer fails at once, far below the %v wait timeout", failFastTimeout)
	for _, w := range want {
		assert.Contains(t, err.Error(), w)
	}
	assert.NotContains(t, err.Error(), "(Options.WaitTimeout)", "a settled failure does not blame the wait timeout")
}

func TestFailFastWithRealClients(t *testing.T) {
	t.Run("go-sdk closed its session", func(t *testing.T) {
		srv := failFastServer(t)
		cs := connectGoSDK(t, srv, nil, nil)
		_, err := cs.CallTool(testContext(t), &mcp.CallToolParams{Name: "suggest_gifts", Arguments: map[string]any{"age": 8}})
		require.NoError(t, err)
		require.NoError(t, cs.Close())
		failsFast(t, func(tb mcptest.TB) bool { return srv.AssertToolCalled(tb, "suggest_gifts", `{"age":25}`) },
			`at "age": want 25, got 8`, "session 1 has ended")
	})
	t.Run("go-sdk went stateless: no handshake will come", func(t *testing.T) {
		srv := failFastServer(t)
		connectGoSDK(t, srv, nil, nil)
		failsFast(t, func(tb mcptest.TB) bool { return srv.AssertHandshakeCompleted(tb) },
			"session 1 is in the stateless era", "use AssertConnected", "no session can complete it any more")
		assert.True(t, srv.AssertConnected(t), "AssertConnected accepts the stateless era")
	})
	t.Run("go-sdk negotiated another version", func(t *testing.T) {
		srv := failFastServer(t)
		connectGoSDK(t, srv, nil, &mcp.ClientSessionOptions{ProtocolVersion: "2025-06-18"})
		failsFast(t, func(tb mcptest.TB) bool { return srv.AssertNegotiatedVersion(tb, "2025-11-25") },
			"session 1: handshake era, protocol 2025-06-18", "settled its era and version")
		failsFast(t, func(tb mcptest.TB) bool { return srv.AssertEra(tb, mcptest.EraStateless) },
			"session 1: handshake era", "settled its era and version")
	})
	t.Run("mark3labs and a tool nobody scripted", func(t *testing.T) {
		srv := failFastServer(t)
		connectMark3(t, srv)
		failsFast(t, func(tb mcptest.TB) bool { return srv.AssertToolCalled(tb, "suggest_gift", nil) },
			`tool "suggest_gift" is not scripted (did you forget WithTools?)`, `did you mean "suggest_gifts"?`)
		failsFast(t, func(tb mcptest.TB) bool { return srv.AssertToolCalled(tb, "suggest_gifts", `{"age":`) },
			"the argument subset is not a JSON object")
		failsFast(t, func(tb mcptest.TB) bool { return srv.AssertCalled(tb, "tools/lsit") },
			`"tools/lsit" is not a method a client sends`, `did you mean "tools/list"?`)
	})
	t.Run("WaitFor stops the program", func(t *testing.T) {
		srv := failFastServer(t)
		c, _ := connectMark3(t, srv)
		require.NoError(t, c.Close())
		reached := false
		failsFast(t, func(tb mcptest.TB) bool {
			srv.WaitFor(tb, mcptest.ClientSent("tools/list"))
			reached = true
			return true
		}, "mcptest: WaitFor failed", "session 1 has ended")
		assert.False(t, reached, "WaitFor stops the function that called it")
	})
}

// TestUnscriptedCallsWithRealClients: a tool nobody scripted is reported as
// "not scripted (did you forget WithTools?)", not only as the client's fault.
func TestUnscriptedCallsWithRealClients(t *testing.T) {
	t.Run("an unknown tool", func(t *testing.T) {
		srv := failFastServer(t)
		cs := connectGoSDK(t, srv, nil, nil)
		_, err := cs.CallTool(testContext(t), &mcp.CallToolParams{Name: "suggest_gift"})
		require.Error(t, err, "an unknown tool is a JSON-RPC error")
		require.Len(t, srv.Unmatched(), 1)
		assert.Contains(t, srv.Unmatched()[0], `tool "suggest_gift" is not scripted (did you forget WithTools?), or the client called a tool the server never listed; did you mean "suggest_gifts"?`)
	})
	for _, pin := range []string{"", "2025-11-25"} {
		name := "no tool scripted at all, default client"
		if pin != "" {
			name = "no tool scripted at all, client pinned to " + pin
		}
		t.Run(name, func(t *testing.T) {
			srv := mcptest.NewServer(t).IgnoreViolations()
			var sopts *mcp.ClientSessionOptions
			if pin != "" {
				sopts = &mcp.ClientSessionOptions{ProtocolVersion: pin}
			}
			cs := connectGoSDK(t, srv, nil, sopts)
			_, _ = cs.CallTool(testContext(t), &mcp.CallToolParams{Name: "suggest_gifts"})
			vs := srv.Violations()
			require.Len(t, vs, 1)
			assert.Equal(t, mcptest.RuleID("capabilities/undeclared-method"), vs[0].Rule)
			assert.Contains(t, vs[0].Detail, "if the client is right to call it, did you forget WithTools?")
		})
	}
}

// TestBroadcastStatelessWithRealClient: Broadcast says in the log that a
// stateless go-sdk client without a listen stream got nothing.
func TestBroadcastStatelessWithRealClient(t *testing.T) {
	var log bytes.Buffer
	p := mcptest.NewProgramTB("notify", &log)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	var sent int
	err := p.Run(func(tb mcptest.TB) {
		srv := mcptest.NewServer(tb).WithTools(mcptest.NewTool("suggest_gifts").ReturnsText("a board game"))
		conn := srv.Dial()
		cs, err := mcp.NewClient(&mcp.Implementation{Name: "app", Version: "1.0"}, nil).
			Connect(ctx, &mcp.IOTransport{Reader: conn, Writer: conn}, nil)
		if err != nil {
			tb.Fatalf("go-sdk Connect: %v", err)
		}
		defer cs.Close()
		srv.AssertEra(tb, mcptest.EraStateless)
		sent = srv.Broadcast("notifications/tools/list_changed", nil)
	})
	require.NoError(t, err)
	assert.Equal(t, 0, sent, "a stateless client without a listen stream gets no list_changed")
	assert.Contains(t, log.String(), `Broadcast("notifications/tools/list_changed") reached 0 sessions; stateless session 1 got nothing`)
	assert.True(t, strings.Contains(log.String(), "subscriptions/listen"), "the log says how a stateless client gets it: %s", log.String())
}

// TestCalledTimesIsExactWithRealClients: AssertCalledTimes means exactly n
// for the whole test. go-sdk lists the tools once, the assertion passes,
// then it lists them again: the server's verdict at the end (here the
// ProgramTB's) names the assertion's line and the extra tools/list. The
// same count reached exactly passes to the end.
func TestCalledTimesIsExactWithRealClients(t *testing.T) {
	for _, extra := range []bool{true, false} {
		name := "go-sdk lists the tools once more after the assertion"
		if !extra {
			name = "go-sdk lists the tools exactly once"
		}
		t.Run(name, func(t *testing.T) {
			p := mcptest.NewProgramTB("calledtimes", nil)
			var line int
			err := p.Run(func(tb mcptest.TB) {
				srv := mcptest.NewServer(tb).WithTools(mcptest.NewTool("suggest_gifts").ReturnsText("a board game"))
				cs := connectGoSDK(t, srv, nil, nil)
				_, err := cs.ListTools(testContext(t), nil)
				require.NoError(t, err)
				_, _, line, _ = runtime.Caller(0)
				require.True(t, srv.AssertCalledTimes(tb, "tools/list", 1), "one tools/list so far") // line+1
				if extra {
					_, err = cs.ListTools(testContext(t), nil)
					require.NoError(t, err)
				}
				require.NoError(t, cs.Close())
			})
			if !extra {
				require.NoError(t, err)
				return
			}
			require.Error(t, err)
			assert.Contains(t, err.Error(), fmt.Sprintf(`AssertCalledTimes("tools/list", 1) passed at assert_sdk_test.go:%d, but the client sent it 2 times by the end`, line+1))
			assert.Contains(t, err.Error(), "the first extra one: #")
			assert.Contains(t, err.Error(), "client→server request tools/list")
		})
	}
}

// TestNoViolationsAgreesWithVerifyWithRealClient: AssertNoViolations
// fails on what the verdict at the end (Verify) fails on, and on nothing
// else. go-sdk sends a cursor the server never issued, which the test
// declared with ExpectViolation, and arguments that break a tool's
// inputSchema, a warning: both are recorded, neither is a violation for
// AssertNoViolations or Verify. Without the declaration both fail.
func TestNoViolationsAgreesWithVerifyWithRealClient(t *testing.T) {
	for _, declared := range []bool{true, false} {
		name := "the test declared the bad cursor"
		if !declared {
			name = "the test did not declare it"
		}
		t.Run(name, func(t *testing.T) {
			p := mcptest.NewProgramTB("noviolations", nil)
			var held bool
			var verify error
			var recorded []mcptest.Violation
			err := p.Run(func(tb mcptest.TB) {
				srv := mcptest.NewServer(tb).WithTools(mcptest.NewTool("shout").
					WithInputSchema(map[string]any{"type": "object", "properties": map[string]any{"text": map[string]any{"type": "string"}}}).
					ReturnsText("HI"))
				if declared {
					srv.ExpectViolation("pagination/invalid-cursor")
				}
				cs := connectGoSDK(t, srv, nil, nil)
				_, err := cs.ListTools(testContext(t), &mcp.ListToolsParams{Cursor: "made-up"})
				require.Error(t, err, "a cursor the server never issued gets -32602")
				_, err = cs.CallTool(testContext(t), &mcp.CallToolParams{Name: "shout", Arguments: map[string]any{"text": 7}})
				require.NoError(t, err, "a warning: the mock still answers")
				recorded, verify = srv.Violations(), srv.Verify()
				held = srv.AssertNoViolations(tb)
			})
			require.Len(t, recorded, 2, "the bad cursor and the warning are recorded: %v", recorded)
			assert.Equal(t, declared, verify == nil, "Verify: %v", verify)
			assert.Equal(t, declared, held, "AssertNoViolations agrees with Verify")
			if declared {
				assert.NoError(t, err)
				return
			}
			require.Error(t, err)
			assert.Contains(t, err.Error(), "mcptest: AssertNoViolations failed")
			assert.Contains(t, err.Error(), "1 violation:")
			assert.Contains(t, err.Error(), "pagination/invalid-cursor")
		})
	}
}
