package integration_test

// Fault tests of the handshake and of capabilities: server/discover and
// initialize answered wrongly, late or never, with the two real Go clients
// (the official SDK v1.8.0 and mark3labs/mcp-go v1.2.1) on the other end.
//
// Each test asserts three things: what the client observably does (its
// error, its hang ended by a context deadline, its silent acceptance), what
// the journal shows went on the wire, and which protocol violations the
// mock recorded. Where a client mishandles a fault, the comment says so and
// the test asserts today's behaviour of that client version, so that an SDK
// upgrade that changes it is noticed.
//
// The default mock speaks both eras: both clients probe with server/discover
// and go stateless, so the faults on initialize do not act there (they are
// shown inert once). legacy(...) narrows the mock to the handshake era: the
// probe gets -32601 and both clients fall back to initialize.
//
// Helpers of this file are prefixed hs (handshake) to stay apart from the
// other fault test files of the package.

import (
	"context"
	"encoding/json"
	"fmt"
	"github.com/mcpmock/mcpmock/internal/spec"
	"io"
	"strings"
	"testing"
	"time"

	m3client "github.com/mark3labs/mcp-go/client"
	m3transport "github.com/mark3labs/mcp-go/client/transport"
	m3 "github.com/mark3labs/mcp-go/mcp"
	"github.com/mcpmock/mcpmock/mcptest"
	"github.com/mcpmock/mcpmock/mcptest/fault"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Deadlines. A call that is expected to block gets a short one; a call that
// is expected to succeed gets hsOK, which it never comes near.
const (
	hsOK      = 5 * time.Second
	hsBlocked = 300 * time.Millisecond
	hsProbe   = 200 * time.Millisecond // mark3labs' server/discover probe timeout in these tests
	hsLinger  = 200 * time.Millisecond // how long a test watches a connection a client should have closed
)

func hsCtx(t *testing.T, d time.Duration) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), d)
	t.Cleanup(cancel)
	return ctx
}

// hsGoSDK connects the official client; version pins it ("" probes with
// server/discover). A failed Connect closes the connection itself.
func hsGoSDK(t *testing.T, srv *mcptest.Server, opts *mcp.ClientOptions, version string, d time.Duration) (*mcp.ClientSession, *wireTap, error) {
	t.Helper()
	tap := dialTap(t, srv)
	var sopts *mcp.ClientSessionOptions
	if version != "" {
		sopts = &mcp.ClientSessionOptions{ProtocolVersion: version}
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "gosdk-app", Version: "1.0.0"}, opts).
		Connect(hsCtx(t, d), &mcp.IOTransport{Reader: tap, Writer: tap}, sopts)
	if err == nil {
		t.Cleanup(func() { _ = cs.Close() })
	}
	return cs, tap, err
}

// hsMark3 starts the mark3labs client and initializes it; onNote, if not
// nil, receives every notification, from before Initialize on.
func hsMark3(t *testing.T, srv *mcptest.Server, d time.Duration, onNote func(m3.JSONRPCNotification), opts ...m3client.ClientOption) (*m3client.Client, *m3.InitializeResult, *wireTap, error) {
	t.Helper()
	tap := dialTap(t, srv)
	c := m3client.NewClient(m3transport.NewIO(tap, tap, nil), opts...)
	if onNote != nil {
		c.OnNotification(onNote)
	}
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(func() { _ = c.Close(); cancel() })
	require.NoError(t, c.Start(ctx), "mark3labs Start")
	res, err := c.Initialize(hsCtx(t, d), m3.InitializeRequest{Params: m3.InitializeParams{
		ClientInfo: m3.Implementation{Name: "mark3-app", Version: "1.0.0"},
	}})
	return c, res, tap, err
}

func hsGoListTools(t *testing.T, cs *mcp.ClientSession) (*mcp.ListToolsResult, error) {
	t.Helper()
	return cs.ListTools(hsCtx(t, hsOK), nil)
}

func hsM3ListTools(t *testing.T, c *m3client.Client) (*m3.ListToolsResult, error) {
	t.Helper()
	return c.ListTools(hsCtx(t, hsOK), m3.ListToolsRequest{})
}

// hsClosedWithin reports whether the session ended (the client closed its
// end) within d.
func hsClosedWithin(t *testing.T, sess *mcptest.Session, d time.Duration) bool {
	select {
	case <-sess.Done():
		return true
	case <-hsCtx(t, d).Done():
		return false
	}
}

// hsReceive waits for a value a client handler delivers, up to d.
func hsReceive[T any](t *testing.T, ch <-chan T, d time.Duration, what string) T {
	t.Helper()
	select {
	case v := <-ch:
		return v
	case <-hsCtx(t, d).Done():
		t.Fatalf("timed out waiting for %s", what)
	}
	var zero T
	return zero
}

// hsOnly returns the single message of msgs, failing the test otherwise.
func hsOnly(t *testing.T, msgs []mcptest.Message, what string) mcptest.Message {
	t.Helper()
	require.Len(t, msgs, 1, what)
	return msgs[0]
}

func hsFromClient(msgs []mcptest.Message) []mcptest.Message {
	var out []mcptest.Message
	for _, m := range msgs {
		if m.Direction == mcptest.FromClient {
			out = append(out, m)
		}
	}
	return out
}

// hsTolerateInitializeCancel deals with a race inside go-sdk v1.8.0: when
// the context of Connect ends while initialize is unanswered, it sends
// notifications/cancelled for the initialize — which the spec forbids
// (basic/utilities/cancellation: "The initialize request MUST NOT be
// cancelled by clients") — from a goroutine racing its own Close, so the
// notification reaches the mock only sometimes. The server is closed, so
// that the journal and the violations are final, and the violation is
// expected when the mock recorded it. Today it never does: see
// TestFaultHangInitializeCancelIsViolation for the mock's bug.
func hsTolerateInitializeCancel(t *testing.T, srv *mcptest.Server) {
	t.Helper()
	srv.Close()
	initIDs := map[string]bool{}
	for _, m := range srv.Journal().All().Requests("initialize") {
		initIDs[m.ID] = true
	}
	for _, n := range srv.Journal().All().Notifications("notifications/cancelled") {
		assert.True(t, initIDs[n.Get("params.requestId").Raw], "go-sdk cancels nothing but the initialize here: %s", n.Raw())
	}
	for _, v := range srv.Violations() {
		if v.Rule == "lifecycle/initialize-not-cancelled" {
			srv.ExpectViolation("lifecycle/initialize-not-cancelled")
			continue
		}
		t.Errorf("unexpected violation %s", v)
	}
}

// ---- RespondProtocolVersion ----

func TestFaultRespondProtocolVersion(t *testing.T) {
	// Versions a correct client rejects: it fails Connect/Initialize and
	// (the spec: "If the client does not support the version in the
	// server's response, it SHOULD disconnect") closes the connection.
	rejected := []struct {
		name    string
		version any
	}{
		{"unknown", "1999-01-01"},
		{"empty", ""},
		{"number", 42},
	}
	for _, tc := range rejected {
		t.Run(tc.name+"/gosdk", func(t *testing.T) {
			t.Parallel()
			srv := legacy(mcptest.NewServer(t).WithTools(mcptest.NewTool("t").ReturnsText("x"))).
				WithFaults(fault.RespondProtocolVersion(tc.version))
			_, tap, err := hsGoSDK(t, srv, nil, "", hsOK)
			require.Error(t, err)
			if s, ok := tc.version.(string); ok {
				assert.EqualError(t, err, fmt.Sprintf("unsupported protocol version: %q", s))
			} else {
				// a number does not even decode
				assert.ErrorContains(t, err, `calling "initialize": json: cannot unmarshal`)
				assert.ErrorContains(t, err, "protocolVersion")
			}
			assert.True(t, hsClosedWithin(t, srv.Session(1), hsOK), "go-sdk closes the connection after rejecting the version")
			hsCheckRejectedVersion(t, srv, tap, tc.version)
		})
		t.Run(tc.name+"/mark3labs", func(t *testing.T) {
			t.Parallel()
			srv := legacy(mcptest.NewServer(t).WithTools(mcptest.NewTool("t").ReturnsText("x"))).
				WithFaults(fault.RespondProtocolVersion(tc.version))
			_, _, tap, err := hsMark3(t, srv, hsOK, nil)
			require.Error(t, err)
			if s, ok := tc.version.(string); ok {
				var unsupported m3.UnsupportedProtocolVersionError
				require.ErrorAs(t, err, &unsupported)
				assert.Equal(t, s, unsupported.Version)
			} else {
				assert.ErrorContains(t, err, "failed to unmarshal response")
				assert.ErrorContains(t, err, "protocolVersion")
			}
			// mark3labs v1.2.1 returns the error but leaves the connection
			// open (its own InitializeResult doc says the client "MUST
			// disconnect"): the application has to Close it.
			assert.False(t, hsClosedWithin(t, srv.Session(1), hsLinger), "mark3labs v1.2.1 keeps the connection open")
			hsCheckRejectedVersion(t, srv, tap, tc.version)
		})
	}

	// Versions both clients accept: any version they know. The spec lets a
	// server answer with another version it supports, and a client go on
	// with it if it supports it too.
	accepted := []struct {
		name, asked, answered string
		narrow                func(*mcptest.Server) *mcptest.Server
	}{
		// older: the server ignores the client's 2025-11-25
		{"older", "", "2024-11-05", legacy},
		// newer but known: the client pinned 2025-06-18; neither client
		// insists on the version it asked for
		{"newer-known", "2025-06-18", "2025-11-25", legacy},
		// a stateless-era version out of a handshake: 2026-07-28 has no
		// initialize (mark3labs' own source says "The handshake cannot
		// negotiate 2026-07-28 or later"), yet both clients v1.8.0/v1.2.1
		// accept it and switch to per-request _meta after sending
		// notifications/initialized. The mock keeps the connection in the
		// handshake era and serves them as such.
		{"stateless-version", "2025-06-18", "2026-07-28", func(s *mcptest.Server) *mcptest.Server { return s }},
	}
	for _, tc := range accepted {
		check := func(t *testing.T, srv *mcptest.Server, tap *wireTap, negotiated string) {
			t.Helper()
			assert.Equal(t, tc.answered, negotiated)
			srv.AssertHandshakeCompleted(t)
			srv.AssertNegotiatedVersion(t, tc.answered)
			init := hsOnly(t, srv.Journal().All().Requests("initialize"), "one initialize")
			want := tc.asked
			if want == "" {
				want = "2025-11-25"
			}
			assert.Equal(t, want, init.Get("params.protocolVersion").String())
			assert.Equal(t, tc.answered, srv.Journal().All().Responses("initialize")[0].Get("result.protocolVersion").String())
			assert.Equal(t, mcptest.EraHandshake, srv.Session(1).Era())
			assert.Equal(t, tc.answered, srv.Session(1).ProtocolVersion(), "the mock holds the client to the version it was told")
			list := hsOnly(t, srv.Journal().All().Requests("tools/list"), "one tools/list")
			if tc.answered == "2026-07-28" {
				assert.Equal(t, "2026-07-28", list.Get(`params._meta.io\.modelcontextprotocol/protocolVersion`).String(),
					"after a handshake that said 2026-07-28 the client sends per-request _meta")
				// the mock keeps a connection that initialized in the handshake era
				assert.False(t, srv.Journal().All().Responses("tools/list")[0].Get("result.resultType").Exists(), "served in the handshake era")
			} else {
				assert.False(t, list.Get("params._meta").Exists())
			}
			assertJournalIsWire(t, srv, 1, tap)
			if tc.answered == "2026-07-28" { // no handshake has it: the client went on regardless
				vs := srv.Violations()
				require.Len(t, vs, 1)
				assert.Equal(t, mcptest.RuleID("lifecycle/unoffered-version-accepted"), vs[0].Rule)
				assert.Equal(t, mcptest.SeverityWarning, vs[0].Severity)
			} else {
				srv.AssertNoViolations(t)
			}
		}
		t.Run(tc.name+"/gosdk", func(t *testing.T) {
			srv := tc.narrow(mcptest.NewServer(t).WithTools(mcptest.NewTool("t").ReturnsText("x"))).
				WithFaults(fault.RespondProtocolVersion(tc.answered))
			cs, tap, err := hsGoSDK(t, srv, nil, tc.asked, hsOK)
			require.NoError(t, err)
			_, err = hsGoListTools(t, cs)
			require.NoError(t, err)
			check(t, srv, tap, cs.InitializeResult().ProtocolVersion)
		})
		t.Run(tc.name+"/mark3labs", func(t *testing.T) {
			srv := tc.narrow(mcptest.NewServer(t).WithTools(mcptest.NewTool("t").ReturnsText("x"))).
				WithFaults(fault.RespondProtocolVersion(tc.answered))
			var opts []m3client.ClientOption
			if tc.asked != "" {
				opts = append(opts, m3client.WithProtocolVersion(tc.asked))
			}
			c, res, tap, err := hsMark3(t, srv, hsOK, nil, opts...)
			require.NoError(t, err)
			_, err = hsM3ListTools(t, c)
			require.NoError(t, err)
			check(t, srv, tap, res.ProtocolVersion)
		})
	}

	t.Run("error-left-alone", func(t *testing.T) {
		// A modern-only server rejects initialize with -32602; there is no
		// protocolVersion to set. The fault must leave the error as it is.
		// LIBRARY BUG: it edits every reply, errors too, and sends
		// {"error":{…},"result":{"protocolVersion":"1999-01-01"}}, which
		// JSON-RPC forbids (go-sdk happens to take it as the error).
		srv := mcptest.NewServer(t).WithProtocolVersions("2026-07-28").
			WithFaults(fault.RespondProtocolVersion("1999-01-01").Optional())
		_, tap, err := hsGoSDK(t, srv, nil, "2025-06-18", hsOK)
		assert.EqualError(t, err, `calling "initialize": Unsupported protocol version: this server speaks only 2026-07-28`)
		init := hsOnly(t, srv.Journal().All().Requests("initialize"), "one initialize")
		reply := hsOnly(t, srv.Journal().All().Filter(func(m mcptest.Message) bool {
			return m.Direction == mcptest.FromServer && m.Get("id").Raw == init.ID
		}), "one reply to initialize")
		assert.False(t, reply.Get("result").Exists(), "the -32602 must stay a plain error: %s", reply.Raw())
		assert.Empty(t, reply.Problem)
		assert.Equal(t, mcptest.KindError, reply.Kind)
		assert.Equal(t, spec.CodeInvalidParams, reply.ErrorCode)
		assertJournalIsWire(t, srv, 1, tap)
		srv.AssertNoViolations(t)
	})

	// The stateless era has no initialize: the fault never acts.
	t.Run("stateless-era-inert", func(t *testing.T) {
		srv := mcptest.NewServer(t).WithTools(mcptest.NewTool("t").ReturnsText("x")).
			WithFaults(fault.RespondProtocolVersion("1999-01-01").Optional())
		cs, _, err := hsGoSDK(t, srv, nil, "", hsOK)
		require.NoError(t, err)
		assert.Equal(t, "2026-07-28", cs.InitializeResult().ProtocolVersion)
		_, res, _, err := hsMark3(t, srv, hsOK, nil)
		require.NoError(t, err)
		assert.Equal(t, "2026-07-28", res.ProtocolVersion)
		srv.AssertNotCalled(t, "initialize")
		srv.AssertEra(t, mcptest.EraStateless)
		srv.AssertNegotiatedVersion(t, "2026-07-28")
		assert.True(t, strings.HasPrefix(srv.Transcript(), `faults on: RespondProtocolVersion("1999-01-01")`+"\n"), srv.Transcript())
		srv.AssertNoViolations(t)
	})
}

// hsCheckRejectedVersion: what the journal and the mock's state say after a
// client rejected the version of the initialize result.
func hsCheckRejectedVersion(t *testing.T, srv *mcptest.Server, tap *wireTap, version any) {
	t.Helper()
	raw, _ := json.Marshal(version)
	init := hsOnly(t, srv.Journal().All().Requests("initialize"), "one initialize")
	assert.Equal(t, "2025-11-25", init.Get("params.protocolVersion").String())
	resp := hsOnly(t, srv.Journal().All().Responses("initialize"), "one initialize result")
	assert.Equal(t, mcptest.KindResult, resp.Kind)
	assert.Equal(t, string(raw), resp.Get("result.protocolVersion").Raw, "the journal shows the version that went on the wire")
	assert.Empty(t, resp.Problem, "a wrong version is still a well-formed JSON-RPC result")
	srv.AssertNotCalled(t, "notifications/initialized")
	assert.Equal(t, mcptest.EraHandshake, srv.Session(1).Era())
	assert.False(t, srv.Session(1).Ready())
	assertJournalIsWire(t, srv, 1, tap)
	// The mock's own state follows the wire: Session.ProtocolVersion is the
	// version the journal-based assertions (AssertNegotiatedVersion, the
	// transcript header) read from the initialize result, not the
	// 2025-11-25 the mock would have said.
	assert.Equal(t, resp.Get("result.protocolVersion").String(), srv.Session(1).ProtocolVersion(),
		"Session.ProtocolVersion must agree with the journal (LIBRARY BUG for a non-string version: noteWire keeps the mock's own version)")
	srv.AssertNegotiatedVersion(t, resp.Get("result.protocolVersion").String())
	srv.AssertNoViolations(t)
}

// ---- RespondSupportedVersions ----

func TestFaultRespondSupportedVersions(t *testing.T) {
	for _, versions := range [][]string{{"2099-01-01"}, {}, {"2025-11-25"}} {
		advertised, _ := json.Marshal(versions)
		name := strings.Join(versions, ",")
		if name == "" {
			name = "none"
		}
		t.Run(name+"/gosdk", func(t *testing.T) {
			// go-sdk finds no modern version it shares and falls back to
			// initialize, which the default mock answers.
			srv := mcptest.NewServer(t).WithTools(mcptest.NewTool("t").ReturnsText("x")).
				WithFaults(fault.RespondSupportedVersions(versions...))
			cs, tap, err := hsGoSDK(t, srv, nil, "", hsOK)
			require.NoError(t, err)
			assert.Equal(t, "2025-11-25", cs.InitializeResult().ProtocolVersion)
			_, err = hsGoListTools(t, cs)
			require.NoError(t, err)
			disc := hsOnly(t, srv.Journal().All().Responses("server/discover"), "one discover reply")
			assert.JSONEq(t, string(advertised), disc.Get("result.supportedVersions").Raw)
			srv.AssertOrder(t, "server/discover", "initialize", "notifications/initialized")
			srv.AssertEra(t, mcptest.EraHandshake)
			srv.AssertNegotiatedVersion(t, "2025-11-25")
			assertJournalIsWire(t, srv, 1, tap)
			srv.AssertNoViolations(t)
		})
		t.Run(name+"/mark3labs", func(t *testing.T) {
			// mark3labs v1.2.1 never reads supportedVersions: Discover
			// succeeded, so it goes stateless at 2026-07-28, a version the
			// server did not list. The mock still serves 2026-07-28 (and
			// records nothing), so the client's calls succeed.
			srv := mcptest.NewServer(t).WithTools(mcptest.NewTool("t").ReturnsText("x")).
				WithFaults(fault.RespondSupportedVersions(versions...))
			c, res, tap, err := hsMark3(t, srv, hsOK, nil)
			require.NoError(t, err)
			assert.Equal(t, "2026-07-28", res.ProtocolVersion)
			_, err = hsM3ListTools(t, c)
			require.NoError(t, err)
			srv.AssertNotCalled(t, "initialize")
			list := hsOnly(t, srv.Journal().All().Requests("tools/list"), "one tools/list")
			used := list.Get(`params._meta.io\.modelcontextprotocol/protocolVersion`).String()
			assert.Equal(t, "2026-07-28", used)
			assert.NotContains(t, versions, used, "the version mark3labs uses is not one the server advertised")
			assert.JSONEq(t, string(advertised), srv.Journal().All().Responses("server/discover")[0].Get("result.supportedVersions").Raw)
			srv.AssertEra(t, mcptest.EraStateless)
			srv.AssertNegotiatedVersion(t, "2026-07-28")
			assertJournalIsWire(t, srv, 1, tap)
			srv.AssertNoViolations(t)
		})
	}
	t.Run("handshake-era/error-left-alone", func(t *testing.T) {
		// A legacy mock answers server/discover with -32601; there are no
		// supportedVersions to set. The fault must leave the error as it
		// is. LIBRARY BUG: it edits every reply, errors too, and sends
		// {"error":{…},"result":{"supportedVersions":[…]}}, which JSON-RPC
		// forbids (both clients happen to treat it as the error).
		srv := legacy(mcptest.NewServer(t).WithTools(mcptest.NewTool("t").ReturnsText("x"))).
			WithFaults(fault.RespondSupportedVersions("2099-01-01").Optional())
		cs, tap, err := hsGoSDK(t, srv, nil, "", hsOK)
		require.NoError(t, err)
		assert.Equal(t, "2025-11-25", cs.InitializeResult().ProtocolVersion)
		probe := hsOnly(t, srv.Journal().All().Requests("server/discover"), "one probe")
		disc := hsOnly(t, srv.Journal().All().Filter(func(m mcptest.Message) bool {
			return m.SessionNumber == 1 && m.Direction == mcptest.FromServer && m.Get("id").Raw == probe.ID
		}), "one reply to the probe")
		assert.False(t, disc.Get("result").Exists(), "the -32601 must stay a plain error: %s", disc.Raw())
		assert.Empty(t, disc.Problem)
		assert.Equal(t, mcptest.KindError, disc.Kind)
		assert.Equal(t, spec.CodeMethodNotFound, disc.ErrorCode)
		assertJournalIsWire(t, srv, 1, tap)
	})
}

// ---- RejectProtocolVersionHandshake ----

func TestFaultRejectProtocolVersionHandshake(t *testing.T) {
	checkJournal := func(t *testing.T, srv *mcptest.Server, tap *wireTap) {
		t.Helper()
		// Neither client retries with a version from data.supported (here
		// the list even names the version it asked for).
		hsOnly(t, srv.Journal().All().Requests("initialize"), "one initialize, no retry")
		resp := hsOnly(t, srv.Journal().All().Responses("initialize"), "one reply")
		assert.Equal(t, spec.CodeInvalidParams, resp.ErrorCode)
		assert.Equal(t, "Unsupported protocol version", resp.Get("error.message").String())
		assert.Equal(t, "2025-11-25", resp.Get("error.data.requested").String())
		assert.JSONEq(t, `["2024-11-05","2025-03-26","2025-06-18","2025-11-25"]`, resp.Get("error.data.supported").Raw)
		// No initialize result: the session settled in no era.
		assert.Equal(t, mcptest.Era(""), srv.Session(1).Era())
		assert.Equal(t, "", srv.Session(1).ProtocolVersion())
		srv.AssertNotCalled(t, "notifications/initialized")
		assertJournalIsWire(t, srv, 1, tap)
		srv.AssertNoViolations(t)
	}
	t.Run("gosdk", func(t *testing.T) {
		t.Parallel()
		srv := legacy(mcptest.NewServer(t)).WithFaults(fault.RejectProtocolVersionHandshake())
		_, tap, err := hsGoSDK(t, srv, nil, "", hsOK)
		require.Error(t, err)
		assert.EqualError(t, err, `calling "initialize": Unsupported protocol version`)
		var wire *jsonrpc.Error
		require.ErrorAs(t, err, &wire)
		assert.Equal(t, int64(spec.CodeInvalidParams), wire.Code)
		assert.True(t, hsClosedWithin(t, srv.Session(1), hsOK), "go-sdk closes the connection")
		checkJournal(t, srv, tap)
	})
	t.Run("mark3labs", func(t *testing.T) {
		t.Parallel()
		srv := legacy(mcptest.NewServer(t)).WithFaults(fault.RejectProtocolVersionHandshake())
		_, _, tap, err := hsMark3(t, srv, hsOK, nil)
		require.ErrorIs(t, err, m3.ErrInvalidParams)
		assert.ErrorContains(t, err, "Unsupported protocol version")
		assert.False(t, hsClosedWithin(t, srv.Session(1), hsLinger), "mark3labs v1.2.1 keeps the connection open")
		checkJournal(t, srv, tap)
	})
	t.Run("stateless-era-inert", func(t *testing.T) {
		srv := mcptest.NewServer(t).WithFaults(fault.RejectProtocolVersionHandshake().Optional())
		_, _, err := hsGoSDK(t, srv, nil, "", hsOK)
		require.NoError(t, err)
		_, _, _, err = hsMark3(t, srv, hsOK, nil)
		require.NoError(t, err)
		srv.AssertNotCalled(t, "initialize")
		srv.AssertNoViolations(t)
	})
}

// ---- RejectProtocolVersionStateless ----

func TestFaultRejectProtocolVersionStateless(t *testing.T) {
	cases := []struct {
		name       string
		versions   []string
		goDiscover int // server/discover requests go-sdk sends
		m3Discover int // and mark3labs
	}{
		// The list names the very version the client asked for. go-sdk
		// retries discover once with it, gets -32022 again and falls back;
		// mark3labs does not retry a version equal to its current one and
		// falls back at once.
		{"lists-2026-07-28", []string{"2026-07-28"}, 2, 1},
		// No modern version listed: both fall back at once.
		{"none", nil, 1, 1},
		{"handshake-only", []string{"2025-11-25"}, 1, 1},
	}
	for _, tc := range cases {
		check := func(t *testing.T, srv *mcptest.Server, tap *wireTap, discovers int) {
			t.Helper()
			supported, _ := json.Marshal(append([]string{}, tc.versions...))
			replies := srv.Journal().All().Responses("server/discover")
			require.Len(t, replies, discovers)
			for _, r := range replies {
				assert.Equal(t, spec.CodeUnsupportedProtocolVersion, r.ErrorCode)
				assert.JSONEq(t, string(supported), r.Get("error.data.supported").Raw)
				assert.Equal(t, "2026-07-28", r.Get("error.data.requested").String())
			}
			srv.AssertOrder(t, "server/discover", "initialize", "notifications/initialized")
			srv.AssertEra(t, mcptest.EraHandshake)
			srv.AssertNegotiatedVersion(t, "2025-11-25")
			assertJournalIsWire(t, srv, 1, tap)
			srv.AssertNoViolations(t)
		}
		t.Run(tc.name+"/gosdk", func(t *testing.T) {
			srv := mcptest.NewServer(t).WithTools(mcptest.NewTool("t").ReturnsText("x")).
				WithFaults(fault.RejectProtocolVersionStateless(tc.versions...))
			cs, tap, err := hsGoSDK(t, srv, nil, "", hsOK)
			require.NoError(t, err)
			assert.Equal(t, "2025-11-25", cs.InitializeResult().ProtocolVersion)
			_, err = hsGoListTools(t, cs)
			require.NoError(t, err)
			check(t, srv, tap, tc.goDiscover)
		})
		t.Run(tc.name+"/mark3labs", func(t *testing.T) {
			srv := mcptest.NewServer(t).WithTools(mcptest.NewTool("t").ReturnsText("x")).
				WithFaults(fault.RejectProtocolVersionStateless(tc.versions...))
			c, res, tap, err := hsMark3(t, srv, hsOK, nil)
			require.NoError(t, err)
			assert.Equal(t, "2025-11-25", res.ProtocolVersion)
			_, err = hsM3ListTools(t, c)
			require.NoError(t, err)
			check(t, srv, tap, tc.m3Discover)
		})
	}
	t.Run("handshake-era-inert", func(t *testing.T) {
		// A legacy mock serves no stateless-era request: the probe gets the
		// usual -32601.
		srv := legacy(mcptest.NewServer(t)).WithFaults(fault.RejectProtocolVersionStateless("2026-07-28").Optional())
		_, _, err := hsGoSDK(t, srv, nil, "", hsOK)
		require.NoError(t, err)
		assert.Equal(t, spec.CodeMethodNotFound, hsOnly(t, srv.Journal().All().Responses("server/discover"), "one probe").ErrorCode)
		srv.AssertNoViolations(t)
	})
}

// ---- Capabilities ----

// hsEras runs f against a legacy mock (handshake era) and the default mock
// (stateless era), with both clients.
func hsEras(t *testing.T, f func(t *testing.T, e eraCase, client string)) {
	for _, e := range bothEras {
		for _, client := range []string{"gosdk", "mark3labs"} {
			t.Run(e.name+"/"+client, func(t *testing.T) { f(t, e, client) })
		}
	}
}

// hsCapsReply is the reply that declared the capabilities in era e.
func hsCapsReply(t *testing.T, srv *mcptest.Server, e eraCase) mcptest.Message {
	t.Helper()
	if e.era == mcptest.EraStateless {
		return hsOnly(t, srv.Journal().All().Responses("server/discover"), "one discover reply")
	}
	return hsOnly(t, srv.Journal().All().Responses("initialize"), "one initialize reply")
}

// TestFaultOmitCapability is the classic "the app shows no tools": the
// server serves tools but does not declare them. Both clients (go-sdk
// v1.8.0, mark3labs v1.2.1) call tools/list anyway, in both eras; the mock
// answers (it does serve tools) and records capabilities/undeclared-method.
func TestFaultOmitCapability(t *testing.T) {
	hsEras(t, func(t *testing.T, e eraCase, client string) {
		srv := e.narrow(mcptest.NewServer(t).WithTools(mcptest.NewTool("t").ReturnsText("x"))).
			WithFaults(fault.OmitCapability("tools"))
		srv.ExpectViolation("capabilities/undeclared-method")
		var tap *wireTap
		switch client {
		case "gosdk":
			cs, tp, err := hsGoSDK(t, srv, nil, "", hsOK)
			require.NoError(t, err)
			tap = tp
			assert.Nil(t, cs.InitializeResult().Capabilities.Tools, "go-sdk sees no tools capability")
			list, err := hsGoListTools(t, cs)
			require.NoError(t, err, "go-sdk v1.8.0 calls tools/list without the capability")
			require.Len(t, list.Tools, 1)
		case "mark3labs":
			c, res, tp, err := hsMark3(t, srv, hsOK, nil)
			require.NoError(t, err)
			tap = tp
			assert.Nil(t, res.Capabilities.Tools, "mark3labs sees no tools capability")
			list, err := hsM3ListTools(t, c)
			require.NoError(t, err, "mark3labs v1.2.1 calls tools/list without the capability")
			require.Len(t, list.Tools, 1)
		}
		srv.AssertEra(t, e.era)
		srv.AssertNegotiatedVersion(t, e.version)
		caps := hsCapsReply(t, srv, e).Get("result.capabilities")
		assert.True(t, caps.IsObject())
		assert.False(t, caps.Get("tools").Exists(), "the wire declares no tools: %s", caps.Raw)
		vs := srv.Violations()
		require.Len(t, vs, 1)
		assert.Equal(t, mcptest.RuleID("capabilities/undeclared-method"), vs[0].Rule)
		assert.Equal(t, "tools/list", vs[0].Message.Method)
		assert.Equal(t, e.version, vs[0].Spec)
		assert.Contains(t, vs[0].Detail, "did not declare the tools capability")
		assertJournalIsWire(t, srv, 1, tap)
	})
}

// TestFaultDeclareUnservedCapability: the server declares prompts and
// answers every prompts method -32601. Both clients believe the
// declaration, list, and get the error; they broke no rule.
func TestFaultDeclareUnservedCapability(t *testing.T) {
	hsEras(t, func(t *testing.T, e eraCase, client string) {
		srv := e.narrow(mcptest.NewServer(t).WithTools(mcptest.NewTool("t").ReturnsText("x"))).
			WithFaults(fault.DeclareUnservedCapability("prompts"))
		var tap *wireTap
		switch client {
		case "gosdk":
			cs, tp, err := hsGoSDK(t, srv, nil, "", hsOK)
			require.NoError(t, err)
			tap = tp
			assert.NotNil(t, cs.InitializeResult().Capabilities.Prompts)
			_, err = cs.ListPrompts(hsCtx(t, hsOK), nil)
			var wire *jsonrpc.Error
			require.ErrorAs(t, err, &wire)
			assert.Equal(t, int64(spec.CodeMethodNotFound), wire.Code)
		case "mark3labs":
			c, res, tp, err := hsMark3(t, srv, hsOK, nil)
			require.NoError(t, err)
			tap = tp
			assert.NotNil(t, res.Capabilities.Prompts)
			_, err = c.ListPrompts(hsCtx(t, hsOK), m3.ListPromptsRequest{})
			require.ErrorIs(t, err, m3.ErrMethodNotFound)
		}
		assert.JSONEq(t, `{}`, hsCapsReply(t, srv, e).Get("result.capabilities.prompts").Raw)
		reply := hsOnly(t, srv.Journal().All().Responses("prompts/list"), "one prompts/list reply")
		assert.Equal(t, spec.CodeMethodNotFound, reply.ErrorCode)
		if e.era == mcptest.EraHandshake {
			assert.Equal(t, "Method not found: prompts/list", reply.Get("error.message").String())
		}
		assertJournalIsWire(t, srv, 1, tap)
		srv.AssertNoViolations(t)
	})
}

// TestFaultRespondCapabilities: capabilities `true`. Both clients fail to decode
// the initialize result. In the stateless era the discover result is
// malformed first: both treat the probe as failed, fall back to
// initialize, whose result is just as malformed, and fail.
func TestFaultRespondCapabilities(t *testing.T) {
	hsEras(t, func(t *testing.T, e eraCase, client string) {
		srv := e.narrow(mcptest.NewServer(t).WithTools(mcptest.NewTool("t").ReturnsText("x"))).
			WithFaults(fault.RespondCapabilities(`true`))
		var tap *wireTap
		var err error
		switch client {
		case "gosdk":
			_, tap, err = hsGoSDK(t, srv, nil, "", hsOK)
			require.Error(t, err)
			assert.ErrorContains(t, err, `calling "initialize": json: cannot unmarshal`)
		case "mark3labs":
			_, _, tap, err = hsMark3(t, srv, hsOK, nil)
			require.Error(t, err)
			assert.ErrorContains(t, err, "failed to unmarshal response")
		}
		assert.ErrorContains(t, err, "capabilities")
		init := hsOnly(t, srv.Journal().All().Responses("initialize"), "one initialize result")
		assert.Equal(t, "true", init.Get("result.capabilities").Raw)
		if e.era == mcptest.EraStateless {
			assert.Equal(t, "true", hsOnly(t, srv.Journal().All().Responses("server/discover"), "one discover").Get("result.capabilities").Raw)
			srv.AssertOrder(t, "server/discover", "initialize")
		}
		srv.AssertNotCalled(t, "notifications/initialized")
		assertJournalIsWire(t, srv, 1, tap)
		srv.AssertNoViolations(t)
	})
}

// TestFaultOmitServerInfo: serverInfo is required, but both clients accept
// a result without it silently, in both eras: go-sdk leaves ServerInfo
// nil, mark3labs an empty Implementation.
func TestFaultOmitServerInfo(t *testing.T) {
	hsEras(t, func(t *testing.T, e eraCase, client string) {
		srv := e.narrow(mcptest.NewServer(t).WithOptions(mcptest.Options{Name: "gift-genius-backend", Version: "0.2.0"}).WithTools(mcptest.NewTool("t").ReturnsText("x"))).
			WithFaults(fault.OmitServerInfo())
		var tap *wireTap
		switch client {
		case "gosdk":
			cs, tp, err := hsGoSDK(t, srv, nil, "", hsOK)
			require.NoError(t, err)
			tap = tp
			assert.Nil(t, cs.InitializeResult().ServerInfo)
			_, err = hsGoListTools(t, cs)
			require.NoError(t, err)
		case "mark3labs":
			c, res, tp, err := hsMark3(t, srv, hsOK, nil)
			require.NoError(t, err)
			tap = tp
			assert.Equal(t, m3.Implementation{}, res.ServerInfo)
			_, err = hsM3ListTools(t, c)
			require.NoError(t, err)
		}
		reply := hsCapsReply(t, srv, e)
		assert.False(t, reply.Get("result.serverInfo").Exists())
		assert.False(t, reply.Get(`result._meta.io\.modelcontextprotocol/serverInfo`).Exists())
		list := srv.Journal().All().Responses("tools/list")[0]
		assert.False(t, list.Get(`result._meta.io\.modelcontextprotocol/serverInfo`).Exists(), "stateless results lose it too")
		assert.NotContains(t, journaledWire(srv, 1), "gift-genius-backend")
		assertJournalIsWire(t, srv, 1, tap)
		srv.AssertNoViolations(t)
	})
}

// TestFaultCorruptServerInfo: serverInfo {"name":42}. In the handshake era
// both clients fail to decode the initialize result; in the stateless era,
// where serverInfo travels in _meta, both accept it silently and have no
// server info (go-sdk nil, mark3labs empty).
func TestFaultCorruptServerInfo(t *testing.T) {
	hsEras(t, func(t *testing.T, e eraCase, client string) {
		srv := e.narrow(mcptest.NewServer(t).WithTools(mcptest.NewTool("t").ReturnsText("x"))).
			WithFaults(fault.CorruptServerInfo(`{"name":42}`))
		var tap *wireTap
		switch client {
		case "gosdk":
			cs, tp, err := hsGoSDK(t, srv, nil, "", hsOK)
			tap = tp
			if e.era == mcptest.EraHandshake {
				assert.ErrorContains(t, err, `calling "initialize": json: cannot unmarshal`)
				assert.ErrorContains(t, err, "serverInfo.name")
			} else {
				require.NoError(t, err)
				assert.Nil(t, cs.InitializeResult().ServerInfo)
			}
		case "mark3labs":
			_, res, tp, err := hsMark3(t, srv, hsOK, nil)
			tap = tp
			if e.era == mcptest.EraHandshake {
				assert.ErrorContains(t, err, "failed to unmarshal response")
				assert.ErrorContains(t, err, "serverInfo.name")
			} else {
				require.NoError(t, err)
				assert.Equal(t, m3.Implementation{}, res.ServerInfo)
			}
		}
		reply := hsCapsReply(t, srv, e)
		path := "result.serverInfo"
		if e.era == mcptest.EraStateless {
			path = `result._meta.io\.modelcontextprotocol/serverInfo`
		}
		assert.Equal(t, `{"name":42}`, reply.Get(path).Raw)
		assertJournalIsWire(t, srv, 1, tap)
		srv.AssertNoViolations(t)
	})
}

// ---- SetField, DeleteField ----

func TestFaultSetFieldDeleteFieldToolsList(t *testing.T) {
	t.Run("DeleteField-tool-name", func(t *testing.T) {
		// A tool without its required name: both clients accept it
		// silently, as a tool named "".
		hsEras(t, func(t *testing.T, e eraCase, client string) {
			srv := e.narrow(mcptest.NewServer(t).WithTools(mcptest.NewTool("suggest_gifts").ReturnsText("x"))).
				WithFaults(fault.DeleteField("tools/list", "result.tools.0.name"))
			var tap *wireTap
			switch client {
			case "gosdk":
				cs, tp, err := hsGoSDK(t, srv, nil, "", hsOK)
				require.NoError(t, err)
				tap = tp
				list, err := hsGoListTools(t, cs)
				require.NoError(t, err, "go-sdk v1.8.0 accepts a nameless tool")
				require.Len(t, list.Tools, 1)
				assert.Equal(t, "", list.Tools[0].Name)
			case "mark3labs":
				c, _, tp, err := hsMark3(t, srv, hsOK, nil)
				require.NoError(t, err)
				tap = tp
				list, err := hsM3ListTools(t, c)
				require.NoError(t, err, "mark3labs v1.2.1 accepts a nameless tool")
				require.Len(t, list.Tools, 1)
				assert.Equal(t, "", list.Tools[0].Name)
			}
			reply := hsOnly(t, srv.Journal().All().Responses("tools/list"), "one tools/list reply")
			assert.False(t, reply.Get("result.tools.0.name").Exists())
			assert.True(t, reply.Get("result.tools.0.inputSchema").Exists(), "only the name is gone")
			assertJournalIsWire(t, srv, 1, tap)
			srv.AssertNoViolations(t)
		})
	})
	t.Run("SetField-tools-string", func(t *testing.T) {
		// "tools":"x": both clients fail to decode the result.
		hsEras(t, func(t *testing.T, e eraCase, client string) {
			srv := e.narrow(mcptest.NewServer(t).WithTools(mcptest.NewTool("suggest_gifts").ReturnsText("x"))).
				WithFaults(fault.SetField("tools/list", "result.tools", "x"))
			var tap *wireTap
			switch client {
			case "gosdk":
				cs, tp, err := hsGoSDK(t, srv, nil, "", hsOK)
				require.NoError(t, err)
				tap = tp
				_, err = hsGoListTools(t, cs)
				assert.ErrorContains(t, err, `calling "tools/list": json: cannot unmarshal`)
			case "mark3labs":
				c, _, tp, err := hsMark3(t, srv, hsOK, nil)
				require.NoError(t, err)
				tap = tp
				_, err = hsM3ListTools(t, c)
				assert.ErrorContains(t, err, "failed to unmarshal response")
			}
			reply := hsOnly(t, srv.Journal().All().Responses("tools/list"), "one tools/list reply")
			assert.Equal(t, `"x"`, reply.Get("result.tools").Raw)
			assert.Equal(t, mcptest.KindResult, reply.Kind)
			assertJournalIsWire(t, srv, 1, tap)
			srv.AssertNoViolations(t)
		})
	})
}

// ---- Messages around the handshake ----

// TestFaultNotifyBeforeInitializeResult: a log message before the
// initialize result. Both clients deliver it to the application and
// complete the handshake. The stateless era has no initialize: inert.
func TestFaultNotifyBeforeInitializeResult(t *testing.T) {
	fault := func() mcptest.Fault {
		return fault.NotifyBeforeInitializeResult("notifications/message", map[string]any{"level": "info", "data": "early"})
	}
	check := func(t *testing.T, srv *mcptest.Server, tap *wireTap) {
		t.Helper()
		srv.AssertHandshakeCompleted(t)
		srv.AssertNegotiatedVersion(t, "2025-11-25")
		note := hsOnly(t, srv.Journal().All().Notifications("notifications/message"), "one log message")
		result := hsOnly(t, srv.Journal().All().Responses("initialize"), "one initialize result")
		assert.Equal(t, mcptest.FromServer, note.Direction)
		assert.Equal(t, note.Seq+1, result.Seq, "the notification goes right before the result")
		assert.Equal(t, "early", note.Get("params.data").String())
		assert.Equal(t, "2025-11-25", srv.Session(1).ProtocolVersion())
		assertJournalIsWire(t, srv, 1, tap)
		// The client called tools/list, which the initialize result on the
		// wire declared. LIBRARY BUG: the mock records
		// capabilities/undeclared-method, because noteWire reads the
		// capabilities from the first frame of the emission — here the
		// inserted notification — and forgets them.
		assert.Empty(t, ruleIDs(srv.Violations()), "tools were declared on the wire; calling tools/list broke no rule")
		srv.IgnoreViolations() // the assertion above is the check; do not report the same violations twice
	}
	newServer := func(t *testing.T) *mcptest.Server {
		return legacy(mcptest.NewServer(t).WithOptions(mcptest.Options{Logging: true}).WithTools(mcptest.NewTool("t").ReturnsText("x"))).WithFaults(fault())
	}
	t.Run("gosdk", func(t *testing.T) {
		srv := newServer(t)
		logs := make(chan string, 4)
		cs, tap, err := hsGoSDK(t, srv, &mcp.ClientOptions{
			LoggingMessageHandler: func(_ context.Context, r *mcp.LoggingMessageRequest) { logs <- fmt.Sprint(r.Params.Data) },
		}, "", hsOK)
		require.NoError(t, err)
		assert.Equal(t, "early", hsReceive(t, logs, hsOK, "the early log message"), "go-sdk delivers a notification that precedes the initialize result")
		_, err = hsGoListTools(t, cs)
		require.NoError(t, err)
		check(t, srv, tap)
	})
	t.Run("mark3labs", func(t *testing.T) {
		srv := newServer(t)
		notes := make(chan string, 4)
		c, _, tap, err := hsMark3(t, srv, hsOK, func(n m3.JSONRPCNotification) { notes <- n.Method })
		require.NoError(t, err)
		assert.Equal(t, "notifications/message", hsReceive(t, notes, hsOK, "the early log message"))
		_, err = hsM3ListTools(t, c)
		require.NoError(t, err)
		check(t, srv, tap)
	})
	t.Run("stateless-era-inert", func(t *testing.T) {
		srv := mcptest.NewServer(t).WithOptions(mcptest.Options{Logging: true}).WithTools(mcptest.NewTool("t").ReturnsText("x")).WithFaults(fault().Optional())
		cs, _, err := hsGoSDK(t, srv, nil, "", hsOK)
		require.NoError(t, err)
		_, err = hsGoListTools(t, cs)
		require.NoError(t, err)
		assert.Empty(t, srv.Journal().All().Notifications("notifications/message"))
		srv.AssertNoViolations(t)
	})
}

// TestFaultNotifyAfterInitializeResult: a log message and a tools/list_changed
// right after the initialize result, before the client can have sent
// notifications/initialized. Both clients deliver both to the application.
func TestFaultNotifyAfterInitializeResult(t *testing.T) {
	newServer := func(t *testing.T) *mcptest.Server {
		return legacy(mcptest.NewServer(t).WithOptions(mcptest.Options{Logging: true}).WithTools(mcptest.NewTool("t").ReturnsText("x"))).WithFaults(
			fault.NotifyAfterInitializeResult("notifications/message", map[string]any{"level": "info", "data": "early"}),
			fault.NotifyAfterInitializeResult("notifications/tools/list_changed", nil))
	}
	check := func(t *testing.T, srv *mcptest.Server, tap *wireTap) {
		t.Helper()
		srv.AssertHandshakeCompleted(t)
		srv.AssertNegotiatedVersion(t, "2025-11-25")
		result := hsOnly(t, srv.Journal().All().Responses("initialize"), "one initialize result")
		msg := hsOnly(t, srv.Journal().All().Notifications("notifications/message"), "one log message")
		changed := hsOnly(t, srv.Journal().All().Notifications("notifications/tools/list_changed"), "one list_changed")
		// The faults apply in the order they were added, right after the result.
		assert.Equal(t, result.Seq+1, msg.Seq)
		assert.Equal(t, result.Seq+2, changed.Seq)
		assert.Equal(t, mcptest.FromServer, changed.Direction)
		assertJournalIsWire(t, srv, 1, tap)
		srv.AssertNoViolations(t)
	}
	t.Run("gosdk", func(t *testing.T) {
		srv := newServer(t)
		got := make(chan string, 4)
		cs, tap, err := hsGoSDK(t, srv, &mcp.ClientOptions{
			LoggingMessageHandler:  func(context.Context, *mcp.LoggingMessageRequest) { got <- "log" },
			ToolListChangedHandler: func(context.Context, *mcp.ToolListChangedRequest) { got <- "tools changed" },
		}, "", hsOK)
		require.NoError(t, err)
		seen := map[string]bool{hsReceive(t, got, hsOK, "a notification"): true, hsReceive(t, got, hsOK, "a notification"): true}
		assert.Equal(t, map[string]bool{"log": true, "tools changed": true}, seen, "go-sdk delivers both")
		_, err = hsGoListTools(t, cs)
		require.NoError(t, err)
		check(t, srv, tap)
	})
	t.Run("mark3labs", func(t *testing.T) {
		srv := newServer(t)
		got := make(chan string, 4)
		c, _, tap, err := hsMark3(t, srv, hsOK, func(n m3.JSONRPCNotification) { got <- n.Method })
		require.NoError(t, err)
		assert.Equal(t, "notifications/message", hsReceive(t, got, hsOK, "the log message"))
		assert.Equal(t, "notifications/tools/list_changed", hsReceive(t, got, hsOK, "the list_changed"))
		_, err = hsM3ListTools(t, c)
		require.NoError(t, err)
		check(t, srv, tap)
	})
}

// TestFaultRequestAfterInitializeResult: roots/list right after the initialize
// result. Both clients answer it; the reply is journaled with the method
// it answers, and the mock's request ids go on from there.
func TestFaultRequestAfterInitializeResult(t *testing.T) {
	check := func(t *testing.T, srv *mcptest.Server, tap *wireTap, root string) {
		t.Helper()
		srv.AssertHandshakeCompleted(t)
		srv.AssertNegotiatedVersion(t, "2025-11-25")
		req := hsOnly(t, srv.Journal().All().From(mcptest.FromServer).Requests("roots/list"), "one roots/list request")
		assert.Equal(t, "1", req.ID)
		result := hsOnly(t, srv.Journal().All().Responses("initialize"), "one initialize result")
		assert.Equal(t, result.Seq+1, req.Seq, "sent right after the initialize result")
		reply := srv.WaitFor(t, mcptest.Matcher{Description: "the client answers roots/list", Match: func(m mcptest.Message) bool {
			return m.Direction == mcptest.FromClient && m.IsResponse() && m.Method == "roots/list"
		}})
		assert.Equal(t, "1", reply.ID)
		assert.Equal(t, root, reply.Get("result.roots.0.uri").String())
		// The mock's next request to the client gets the next id.
		ping, err := srv.SendRequest(hsCtx(t, hsOK), "ping", nil)
		require.NoError(t, err)
		assert.Equal(t, "2", ping.ID)
		assert.Equal(t, mcptest.KindResult, ping.Kind)
		assertJournalIsWire(t, srv, 1, tap)
		srv.AssertNoViolations(t)
	}
	t.Run("gosdk", func(t *testing.T) {
		srv := legacy(mcptest.NewServer(t)).WithFaults(fault.RequestAfterInitializeResult("roots/list", nil))
		tap := dialTap(t, srv)
		client := mcp.NewClient(&mcp.Implementation{Name: "gosdk-app", Version: "1.0.0"}, nil)
		client.AddRoots(&mcp.Root{URI: "file:///home/ada", Name: "home"})
		cs, err := client.Connect(hsCtx(t, hsOK), &mcp.IOTransport{Reader: tap, Writer: tap}, nil)
		require.NoError(t, err)
		t.Cleanup(func() { _ = cs.Close() })
		check(t, srv, tap, "file:///home/ada")
	})
	t.Run("mark3labs", func(t *testing.T) {
		srv := legacy(mcptest.NewServer(t)).WithFaults(fault.RequestAfterInitializeResult("roots/list", nil))
		_, _, tap, err := hsMark3(t, srv, hsOK, nil, m3client.WithRootsHandler(rootsHandler{}))
		require.NoError(t, err)
		check(t, srv, tap, "file:///m3")
	})
}

// ---- server/discover and initialize that never come, or late ----

func TestFaultHangDiscover(t *testing.T) {
	for _, e := range bothEras {
		t.Run(e.name+"/gosdk", func(t *testing.T) {
			t.Parallel()
			// go-sdk v1.8.0 has no probe timeout of its own: a server that
			// ignores server/discover blocks Connect until the caller's
			// context ends, and it never falls back — its fallback
			// initialize is refused by its own writer, the context being
			// done.
			srv := e.narrow(mcptest.NewServer(t)).WithFaults(fault.Hang("server/discover"))
			_, _, err := hsGoSDK(t, srv, nil, "", hsBlocked)
			require.ErrorIs(t, err, context.DeadlineExceeded)
			srv.WaitFor(t, mcptest.ClientSent("server/discover"))
			srv.Close() // the journal is final
			hsOnly(t, srv.Journal().All().Requests("server/discover"), "one probe")
			assert.Empty(t, srv.Journal().All().Responses("server/discover"), "the probe was never answered")
			srv.AssertNotCalled(t, "initialize")
			srv.AssertNoViolations(t) // go-sdk may cancel the probe (racy); that is allowed
		})
		t.Run(e.name+"/mark3labs", func(t *testing.T) {
			t.Parallel()
			// mark3labs bounds the probe (5 s by default, here 200 ms) and
			// then falls back to initialize, which both mocks answer.
			srv := e.narrow(mcptest.NewServer(t).WithTools(mcptest.NewTool("t").ReturnsText("x"))).WithFaults(fault.Hang("server/discover"))
			start := time.Now()
			c, res, tap, err := hsMark3(t, srv, hsOK, nil, m3client.WithDiscoverTimeout(hsProbe))
			require.NoError(t, err)
			assert.GreaterOrEqual(t, time.Since(start), hsProbe, "it waited for the probe")
			assert.Equal(t, "2025-11-25", res.ProtocolVersion)
			_, err = hsM3ListTools(t, c)
			require.NoError(t, err)
			srv.AssertOrder(t, "server/discover", "initialize", "notifications/initialized")
			srv.AssertEra(t, mcptest.EraHandshake)
			srv.AssertNegotiatedVersion(t, "2025-11-25")
			assert.Empty(t, srv.Journal().All().Responses("server/discover"), "the probe is still held")
			srv.AssertNotCalled(t, "notifications/cancelled") // mark3labs never cancels the probe
			assertJournalIsWire(t, srv, 1, tap)
			srv.AssertNoViolations(t)
		})
	}
	t.Run("release/gosdk", func(t *testing.T) {
		t.Parallel()
		// Release serves the held probe: the blocked Connect completes, stateless.
		srv := mcptest.NewServer(t)
		f := srv.AddFault(fault.Hang("server/discover"))
		type result struct {
			cs  *mcp.ClientSession
			err error
		}
		done := make(chan result, 1)
		go func() {
			cs, _, err := hsGoSDK(t, srv, nil, "", hsOK) // Release, not the deadline, ends the wait
			done <- result{cs, err}
		}()
		srv.WaitFor(t, mcptest.ClientSent("server/discover"))
		f.Release()
		r := hsReceive(t, done, hsOK, "Connect")
		require.NoError(t, r.err)
		assert.Equal(t, "2026-07-28", r.cs.InitializeResult().ProtocolVersion)
		assert.Equal(t, mcptest.KindResult, hsOnly(t, srv.Journal().All().Responses("server/discover"), "one reply").Kind)
		srv.AssertEra(t, mcptest.EraStateless)
		srv.AssertNegotiatedVersion(t, "2026-07-28")
		srv.AssertNoViolations(t)
	})
}

// TestFaultHangInitialize: initialize never answered. Both clients hang
// until their context ends. They are pinned to 2025-11-25 so that the
// short deadline is spent on the initialize, not on the probe (which the
// legacy mock answers at once anyway).
func TestFaultHangInitialize(t *testing.T) {
	t.Run("gosdk", func(t *testing.T) {
		t.Parallel()
		srv := legacy(mcptest.NewServer(t)).WithFaults(fault.Hang("initialize"))
		_, _, err := hsGoSDK(t, srv, nil, "2025-11-25", hsBlocked)
		require.ErrorIs(t, err, context.DeadlineExceeded)
		srv.WaitFor(t, mcptest.ClientSent("initialize"))
		hsTolerateInitializeCancel(t, srv) // closes srv
		hsOnly(t, srv.Journal().All().Requests("initialize"), "one initialize")
		assert.Empty(t, srv.Journal().All().Responses("initialize"))
		assert.Equal(t, mcptest.Era(""), srv.Session(1).Era())
	})
	t.Run("mark3labs", func(t *testing.T) {
		t.Parallel()
		srv := legacy(mcptest.NewServer(t)).WithFaults(fault.Hang("initialize"))
		_, _, _, err := hsMark3(t, srv, hsBlocked, nil, m3client.WithProtocolVersion("2025-11-25"))
		require.ErrorIs(t, err, context.DeadlineExceeded)
		assert.ErrorContains(t, err, "transport error")
		srv.WaitFor(t, mcptest.ClientSent("initialize"))
		srv.Close()
		hsOnly(t, srv.Journal().All().Requests("initialize"), "one initialize")
		assert.Empty(t, srv.Journal().All().Responses("initialize"))
		srv.AssertNotCalled(t, "notifications/cancelled") // mark3labs never cancels initialize
		srv.AssertNoViolations(t)
	})
	t.Run("stateless-era-inert", func(t *testing.T) {
		srv := mcptest.NewServer(t).WithFaults(fault.Hang("initialize").Optional())
		_, _, err := hsGoSDK(t, srv, nil, "", hsOK)
		require.NoError(t, err)
		_, _, _, err = hsMark3(t, srv, hsOK, nil)
		require.NoError(t, err)
		srv.AssertNotCalled(t, "initialize")
		srv.AssertNoViolations(t)
	})
}

// TestFaultHangCloseUnblocks: Close ends a session whose request a Hang
// holds; the blocked client call returns an error at once (not at its
// deadline), and Close itself returns. The clients probe first; the legacy
// mock answers the probe at once unless the probe is what hangs.
func TestFaultHangCloseUnblocks(t *testing.T) {
	for _, method := range []string{"server/discover", "initialize"} {
		for _, client := range []string{"gosdk", "mark3labs"} {
			t.Run(method+"/"+client, func(t *testing.T) {
				t.Parallel()
				srv := legacy(mcptest.NewServer(t)).WithFaults(fault.Hang(method))
				errc := make(chan error, 1)
				go func() {
					var err error
					// The deadline is a safety net: Close is what must end the call.
					if client == "gosdk" {
						_, _, err = hsGoSDK(t, srv, nil, "", hsOK)
					} else {
						// the default probe timeout is 5 s as well
						_, _, _, err = hsMark3(t, srv, hsOK, nil)
					}
					errc <- err
				}()
				srv.WaitFor(t, mcptest.ClientSent(method))
				closed := make(chan struct{})
				go func() { srv.Close(); close(closed) }()
				hsReceive(t, closed, hsOK, "Server.Close to return")
				err := hsReceive(t, errc, hsOK, "the client call to return")
				require.Error(t, err)
				assert.NotErrorIs(t, err, context.DeadlineExceeded, "Close ended the call, not its deadline")
				switch {
				case client == "mark3labs":
					assert.ErrorContains(t, err, "transport closed")
				case method == "initialize":
					assert.ErrorIs(t, err, io.EOF)
				default:
					// the probe fails, the fallback initialize finds the connection closing
					assert.ErrorIs(t, err, mcp.ErrConnectionClosed)
				}
				assert.Empty(t, srv.Journal().All().Responses(method), "a held request gets no reply")
				srv.Close() // idempotent
				srv.AssertNoViolations(t)
			})
		}
	}
}

// TestFaultReplaceWithJSONRPCErrorDiscover: server/discover fails with -32000 "boom".
// Both clients take any error that is not -32022 for a legacy server and
// fall back to initialize, in both eras.
func TestFaultReplaceWithJSONRPCErrorDiscover(t *testing.T) {
	hsEras(t, func(t *testing.T, e eraCase, client string) {
		srv := e.narrow(mcptest.NewServer(t).WithTools(mcptest.NewTool("t").ReturnsText("x"))).
			WithFaults(fault.ReplaceWithJSONRPCError("server/discover", -32000, "boom", nil))
		var tap *wireTap
		switch client {
		case "gosdk":
			cs, tp, err := hsGoSDK(t, srv, nil, "", hsOK)
			require.NoError(t, err)
			tap = tp
			assert.Equal(t, "2025-11-25", cs.InitializeResult().ProtocolVersion)
			_, err = hsGoListTools(t, cs)
			require.NoError(t, err)
		case "mark3labs":
			c, res, tp, err := hsMark3(t, srv, hsOK, nil)
			require.NoError(t, err)
			tap = tp
			assert.Equal(t, "2025-11-25", res.ProtocolVersion)
			_, err = hsM3ListTools(t, c)
			require.NoError(t, err)
		}
		reply := hsOnly(t, srv.Journal().All().Responses("server/discover"), "one discover reply")
		assert.Equal(t, -32000, reply.ErrorCode)
		assert.Equal(t, "boom", reply.Get("error.message").String())
		assert.False(t, reply.Get("error.data").Exists())
		srv.AssertOrder(t, "server/discover", "initialize", "notifications/initialized")
		srv.AssertEra(t, mcptest.EraHandshake)
		srv.AssertNegotiatedVersion(t, "2025-11-25")
		assertJournalIsWire(t, srv, 1, tap)
		srv.AssertNoViolations(t)
	})
}

// TestFaultDelayInitialize: initialize answered after 100 ms. A client
// whose deadline is longer completes the handshake; one whose deadline is
// shorter fails. The clients are pinned to 2025-11-25 so that the probe
// takes none of the deadline.
func TestFaultDelayInitialize(t *testing.T) {
	const delay = 100 * time.Millisecond
	newServer := func(t *testing.T) *mcptest.Server {
		return legacy(mcptest.NewServer(t).WithTools(mcptest.NewTool("t").ReturnsText("x"))).WithFaults(fault.Delay("initialize", delay))
	}
	waited := func(t *testing.T, srv *mcptest.Server) {
		t.Helper()
		req := hsOnly(t, srv.Journal().All().Requests("initialize"), "one initialize")
		resp := hsOnly(t, srv.Journal().All().Responses("initialize"), "one initialize result")
		assert.GreaterOrEqual(t, resp.Time.Sub(req.Time), delay)
	}
	t.Run("longer-deadline/gosdk", func(t *testing.T) {
		t.Parallel()
		srv := newServer(t)
		cs, tap, err := hsGoSDK(t, srv, nil, "2025-11-25", 20*delay)
		require.NoError(t, err)
		_, err = hsGoListTools(t, cs)
		require.NoError(t, err)
		srv.AssertHandshakeCompleted(t)
		srv.AssertNegotiatedVersion(t, "2025-11-25")
		waited(t, srv)
		assertJournalIsWire(t, srv, 1, tap)
		srv.AssertNoViolations(t)
	})
	t.Run("longer-deadline/mark3labs", func(t *testing.T) {
		t.Parallel()
		srv := newServer(t)
		c, _, tap, err := hsMark3(t, srv, 20*delay, nil, m3client.WithProtocolVersion("2025-11-25"))
		require.NoError(t, err)
		_, err = hsM3ListTools(t, c)
		require.NoError(t, err)
		srv.AssertHandshakeCompleted(t)
		srv.AssertNegotiatedVersion(t, "2025-11-25")
		waited(t, srv)
		assertJournalIsWire(t, srv, 1, tap)
		srv.AssertNoViolations(t)
	})
	t.Run("shorter-deadline/gosdk", func(t *testing.T) {
		t.Parallel()
		srv := newServer(t)
		_, _, err := hsGoSDK(t, srv, nil, "2025-11-25", delay/2)
		require.ErrorIs(t, err, context.DeadlineExceeded)
		srv.WaitFor(t, mcptest.ClientSent("initialize"))
		hsTolerateInitializeCancel(t, srv) // closes srv
		srv.AssertNotCalled(t, "notifications/initialized")
	})
	t.Run("shorter-deadline/mark3labs", func(t *testing.T) {
		t.Parallel()
		srv := newServer(t)
		_, _, tap, err := hsMark3(t, srv, delay/2, nil, m3client.WithProtocolVersion("2025-11-25"))
		require.ErrorIs(t, err, context.DeadlineExceeded)
		// mark3labs keeps the connection open, so the late result still
		// goes on the wire (and mark3labs drops it): the mock's session is
		// in the handshake era but never Ready.
		late := srv.WaitFor(t, mcptest.Matcher{Description: "the late initialize result", Match: func(m mcptest.Message) bool {
			return m.Direction == mcptest.FromServer && m.Kind == mcptest.KindResult && m.Method == "initialize"
		}})
		assert.Equal(t, "2025-11-25", late.Get("result.protocolVersion").String())
		waited(t, srv)
		assert.Equal(t, mcptest.EraHandshake, srv.Session(1).Era())
		assert.False(t, srv.Session(1).Ready())
		srv.AssertNotCalled(t, "notifications/initialized")
		srv.Close()
		assertWirePrefix(t, srv, 1, tap)
		srv.AssertNoViolations(t)
	})
}

// ---- Composition, String, transcript ----

// TestFaultHandshakeComposition: two faults at once — the server says its
// tool list never changes (listChanged false) and then sends
// tools/list_changed after the first tools/list anyway. Both clients
// deliver the notification to the application regardless of the
// capability, and, in the stateless era, regardless of its missing
// subscriptionId.
func TestFaultHandshakeComposition(t *testing.T) {
	faults := func(e eraCase) []mcptest.Fault {
		method := "initialize"
		if e.era == mcptest.EraStateless {
			method = "server/discover"
		}
		return []mcptest.Fault{
			fault.SetField(method, "result.capabilities.tools.listChanged", false),
			fault.ListChangedAfter("tools/list", "notifications/tools/list_changed"),
		}
	}
	hsEras(t, func(t *testing.T, e eraCase, client string) {
		fs := faults(e)
		srv := e.narrow(mcptest.NewServer(t).WithTools(mcptest.NewTool("t").ReturnsText("x"))).WithFaults(fs...)
		got := make(chan string, 4)
		var tap *wireTap
		var list func() error
		switch client {
		case "gosdk":
			cs, tp, err := hsGoSDK(t, srv, &mcp.ClientOptions{
				ToolListChangedHandler: func(context.Context, *mcp.ToolListChangedRequest) { got <- "notifications/tools/list_changed" },
			}, "", hsOK)
			require.NoError(t, err)
			tap = tp
			assert.False(t, cs.InitializeResult().Capabilities.Tools.ListChanged)
			list = func() error { _, err := hsGoListTools(t, cs); return err }
		case "mark3labs":
			c, res, tp, err := hsMark3(t, srv, hsOK, func(n m3.JSONRPCNotification) { got <- n.Method })
			require.NoError(t, err)
			tap = tp
			assert.False(t, res.Capabilities.Tools.ListChanged)
			list = func() error { _, err := hsM3ListTools(t, c); return err }
		}
		require.NoError(t, list())
		assert.Equal(t, "notifications/tools/list_changed", hsReceive(t, got, hsOK, "the spurious list_changed"),
			"the client delivers list_changed although the server declared listChanged false")
		// Nth(1): the second and third lists bring no notification. The
		// third reply cannot overtake a notification the second would have
		// brought, so the count below is final.
		require.NoError(t, list())
		require.NoError(t, list())
		note := hsOnly(t, srv.Journal().All().Notifications("notifications/tools/list_changed"), "one list_changed")
		assert.Equal(t, "false", hsCapsReply(t, srv, e).Get("result.capabilities.tools.listChanged").Raw)
		assert.Equal(t, srv.Journal().All().Responses("tools/list")[0].Seq+1, note.Seq, "right after the first tools/list result")
		assert.False(t, note.Get(`params._meta.io\.modelcontextprotocol/subscriptionId`).Exists())
		if e.era == mcptest.EraStateless {
			// go-sdk opens a listen stream only when tools.listChanged is declared
			srv.AssertNotCalled(t, "subscriptions/listen")
		}
		want := "faults on: " + fs[0].String() + ", " + fs[1].String() + "\n"
		assert.True(t, strings.HasPrefix(srv.Transcript(), want), "transcript starts with %q:\n%s", want, srv.Transcript())
		assertJournalIsWire(t, srv, 1, tap)
		srv.AssertNoViolations(t)
	})
}

// TestFaultHandshakeCompositionKinds: ListChangedAfter acts on results
// only (it passes []Kind{KindResult}). Composed with a ReplaceWithJSONRPCError that
// fails the first tools/list, the spurious notification must follow the
// first result — the second tools/list — and not the error.
//
// LIBRARY BUG: fault.matches checks an outbound fault's kinds only when
// m.Direction == FromServer, but writeFaulty passes the logical message
// without a Direction, so the kinds of every outbound fault are ignored:
// ListChangedAfter fires after the error (and its Nth(1) is used up), and
// edits meant for results (RespondProtocolVersion,
// RespondSupportedVersions) rewrite error replies too.
func TestFaultHandshakeCompositionKinds(t *testing.T) {
	srv := legacy(mcptest.NewServer(t).WithTools(mcptest.NewTool("t").ReturnsText("x"))).WithFaults(
		fault.ReplaceWithJSONRPCError("tools/list", -32000, "down", nil).Nth(1),
		fault.ListChangedAfter("tools/list", "notifications/tools/list_changed"))
	cs, tap, err := hsGoSDK(t, srv, nil, "", hsOK)
	require.NoError(t, err)
	_, err = hsGoListTools(t, cs)
	assert.ErrorContains(t, err, "down")
	_, err = hsGoListTools(t, cs)
	require.NoError(t, err)
	require.NoError(t, cs.Ping(hsCtx(t, hsOK), nil)) // its reply cannot overtake a notification sent before it
	replies := srv.Journal().All().Responses("tools/list")
	require.Len(t, replies, 2)
	assert.Equal(t, mcptest.KindError, replies[0].Kind)
	assert.Equal(t, mcptest.KindResult, replies[1].Kind)
	note := hsOnly(t, srv.Journal().All().Notifications("notifications/tools/list_changed"), "one list_changed")
	assert.Equal(t, replies[1].Seq+1, note.Seq, "list_changed follows the first result, not the error")
	assertJournalIsWire(t, srv, 1, tap)
	srv.AssertNoViolations(t)
}

func TestFaultHandshakeStringAndTranscript(t *testing.T) {
	for _, tc := range []struct {
		f    mcptest.Fault
		want string
	}{
		{fault.RespondProtocolVersion("1999-01-01"), `RespondProtocolVersion("1999-01-01")`},
		{fault.RespondProtocolVersion(""), `RespondProtocolVersion("")`},
		{fault.RespondProtocolVersion(42), `RespondProtocolVersion(42)`},
		{fault.RespondSupportedVersions("2099-01-01", "2026-07-28"), `RespondSupportedVersions("2099-01-01", "2026-07-28")`},
		{fault.RespondSupportedVersions(), `RespondSupportedVersions()`},
		{fault.RejectProtocolVersionHandshake(), `RejectProtocolVersionHandshake()`},
		{fault.RejectProtocolVersionStateless("2026-07-28"), `RejectProtocolVersionStateless("2026-07-28")`},
		{fault.OmitCapability("tools"), `OmitCapability("tools")`},
		{fault.DeclareUnservedCapability("prompts"), `DeclareUnservedCapability("prompts")`},
		{fault.RespondCapabilities(`true`), `RespondCapabilities(true)`},
		{fault.OmitServerInfo(), `OmitServerInfo()`},
		{fault.CorruptServerInfo(`{"name":42}`), `CorruptServerInfo({"name":42})`},
		{fault.SetField("tools/list", "result.tools", "x"), `SetField("tools/list", "result.tools", "x")`},
		{fault.SetField("initialize", "result.capabilities.tools.listChanged", false), `SetField("initialize", "result.capabilities.tools.listChanged", false)`},
		{fault.DeleteField("tools/list", "result.tools.0.name"), `DeleteField("tools/list", "result.tools.0.name")`},
		{fault.NotifyBeforeInitializeResult("notifications/message", nil), `NotifyBeforeInitializeResult("notifications/message")`},
		{fault.NotifyAfterInitializeResult("notifications/tools/list_changed", nil), `NotifyAfterInitializeResult("notifications/tools/list_changed")`},
		{fault.RequestAfterInitializeResult("roots/list", nil), `RequestAfterInitializeResult("roots/list")`},
		{fault.Hang("server/discover"), `Hang("server/discover")`},
		{fault.Delay("initialize", 100*time.Millisecond), `Delay("initialize", 100ms)`},
		{fault.ReplaceWithJSONRPCError("server/discover", -32000, "boom", nil), `ReplaceWithJSONRPCError("server/discover", -32000, "boom")`},
		{fault.ListChangedAfter("tools/list", "notifications/tools/list_changed"), `ListChangedAfter("tools/list", "notifications/tools/list_changed").Nth(1)`},
		{fault.Hang("initialize").Nth(2).InSession(3).WithProbability(0.5), `Hang("initialize").Nth(2).InSession(3).WithProbability(0.5)`},
		{mcptest.Fault{}, `Fault(nil)`},
	} {
		assert.Equal(t, tc.want, tc.f.String())
	}

	t.Run("refining-copies", func(t *testing.T) {
		base := fault.Hang("initialize")
		_ = base.Nth(2)
		assert.Equal(t, `Hang("initialize")`, base.String(), "Nth returns a new fault")
	})

	t.Run("transcript-and-InSession", func(t *testing.T) {
		// Only the second session is told an unknown version: the first
		// go-sdk client connects, the second fails.
		bad := fault.RespondProtocolVersion("1999-01-01").InSession(2)
		late := fault.Delay("initialize", time.Millisecond)
		srv := legacy(mcptest.NewServer(t)).WithFaults(bad, late)
		_, _, err := hsGoSDK(t, srv, nil, "", hsOK)
		require.NoError(t, err)
		_, _, err = hsGoSDK(t, srv, nil, "", hsOK)
		assert.EqualError(t, err, `unsupported protocol version: "1999-01-01"`)
		results := srv.Journal().All().Responses("initialize")
		require.Len(t, results, 2)
		assert.Equal(t, "2025-11-25", results[0].Get("result.protocolVersion").String())
		assert.Equal(t, 2, results[1].SessionNumber)
		assert.Equal(t, "1999-01-01", results[1].Get("result.protocolVersion").String())

		var on []string
		for _, h := range srv.Faults() {
			on = append(on, h.Fault().String())
		}
		assert.Equal(t, []string{bad.String(), late.String()}, on)
		tr := srv.Transcript()
		assert.True(t, strings.HasPrefix(tr, `faults on: RespondProtocolVersion("1999-01-01").InSession(2), Delay("initialize", 1ms)`+"\n"), tr)
		assert.Contains(t, tr, "session 2 (handshake, protocol 1999-01-01)")
		srv.Faults()[1].Remove() // late
		assert.True(t, strings.HasPrefix(srv.Transcript(), `faults on: RespondProtocolVersion("1999-01-01").InSession(2)`+"\n"), srv.Transcript())
		srv.Faults()[0].Remove() // bad
		assert.True(t, strings.HasPrefix(srv.Transcript(), "session 1"), "no faults, no header")
		srv.AssertNoViolations(t)
	})
}

// ---- Library bugs shown with frames the test writes itself ----

// TestFaultHangInitializeCancelIsViolation: a client that cancels its
// initialize breaks basic/utilities/cancellation ("The initialize request
// MUST NOT be cancelled by clients"). The case that matters is an
// initialize still unanswered — Hang("initialize"), Delay, a slow Handle —
// and go-sdk v1.8.0 does send that cancel (racily; see
// hsTolerateInitializeCancel), so the frames are written by hand here to
// be deterministic.
//
// LIBRARY BUG: Session.cancelled compares the request id with s.initID,
// which initialized() sets only when the initialize result is built; for a
// pending initialize initID is "" and no violation is recorded.
func TestFaultHangInitializeCancelIsViolation(t *testing.T) {
	srv := legacy(mcptest.NewServer(t)).WithFaults(fault.Hang("initialize"))
	conn := srv.Dial()
	defer conn.Close()
	_, err := io.WriteString(conn, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`+"\n")
	require.NoError(t, err)
	srv.WaitFor(t, mcptest.ClientSent("initialize"))
	_, err = io.WriteString(conn, `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1,"reason":"timeout"}}`+"\n")
	require.NoError(t, err)
	srv.WaitFor(t, mcptest.ClientSent("notifications/cancelled"))
	srv.Close() // the notification has been handled
	assert.Equal(t, []mcptest.RuleID{"lifecycle/initialize-not-cancelled"}, ruleIDs(srv.Violations()),
		"cancelling a pending initialize is a violation")
	srv.IgnoreViolations() // the assertion above is the check
}
