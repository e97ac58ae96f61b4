package conformance_test

// The HTTP scenarios (scenarios.HTTP) against the two real clients on their
// Streamable HTTP transports: today's verdicts, asserted.

import (
	"context"
	"testing"

	m3client "github.com/mark3labs/mcp-go/client"
	m3transport "github.com/mark3labs/mcp-go/client/transport"
	m3 "github.com/mark3labs/mcp-go/mcp"
	"github.com/mcpmock/mcpmock/scenarios"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// gosdkHTTPApp is gosdkApp on the Streamable HTTP transport.
func gosdkHTTPApp(ctx context.Context, ep *scenarios.Endpoint) error {
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "gosdk-http-app", Version: "1.0.0"}, nil).
		Connect(ctx, &mcp.StreamableClientTransport{Endpoint: ep.URL()}, nil)
	if err != nil {
		return err
	}
	defer cs.Close()
	if _, err := cs.ListTools(ctx, nil); err != nil {
		return err
	}
	_, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "suggest_gifts", Arguments: map[string]any{"age": 25}})
	return err
}

// mark3HTTPApp is mark3App on the Streamable HTTP transport.
func mark3HTTPApp(ctx context.Context, ep *scenarios.Endpoint) error {
	tr, err := m3transport.NewStreamableHTTP(ep.URL())
	if err != nil {
		return err
	}
	c := m3client.NewClient(tr)
	defer c.Close()
	if err := c.Start(ctx); err != nil {
		return err
	}
	if _, err := c.Initialize(ctx, m3.InitializeRequest{Params: m3.InitializeParams{ClientInfo: m3.Implementation{Name: "mark3-http-app", Version: "1.0.0"}}}); err != nil {
		return err
	}
	if _, err := c.ListTools(ctx, m3.ListToolsRequest{}); err != nil {
		return err
	}
	_, err = c.CallTool(ctx, m3.CallToolRequest{Params: m3.CallToolParams{Name: "suggest_gifts", Arguments: map[string]any{"age": 25}}})
	return err
}

func TestHTTPScenarios(t *testing.T) {
	for _, app := range []struct {
		name    string
		connect scenarios.ConnectFunc
		want    map[string]scenarios.Status
	}{
		{"gosdk", gosdkHTTPApp, map[string]scenarios.Status{
			"http-session-expired": scenarios.Fail, // go-sdk v1.8.0: the session is gone (ErrSessionMissing); the app must reconnect itself
			"http-error-page":      scenarios.Pass,
			"http-stream-dropped":  scenarios.Pass, // resumes with Last-Event-ID
			"http-legacy-sse-only": scenarios.Fail, // no fallback from StreamableClientTransport to the old transport
		}},
		{"mark3labs", mark3HTTPApp, map[string]scenarios.Status{
			"http-session-expired": scenarios.Fail, // mark3labs v1.2.1: "session terminated (404). need to re-initialize", left to the app
			"http-error-page":      scenarios.Pass,
			"http-stream-dropped":  scenarios.Pass, // resumes with Last-Event-ID too
			"http-legacy-sse-only": scenarios.Fail, // no fallback either
		}},
	} {
		t.Run(app.name, func(t *testing.T) {
			for _, s := range scenarios.HTTP() {
				t.Run(s.Name, func(t *testing.T) {
					r := s.Evaluate(s.Play(t, app.connect))
					t.Logf("%s: %s: %s", s.Name, r.Status, r.Observed)
					if want := app.want[s.Name]; r.Status != want {
						t.Errorf("want %s, got %s: %s", want, r.Status, r.Observed)
					}
				})
			}
		})
	}
	t.Run("app-falls-back", func(t *testing.T) {
		// An app that does what the spec asks of the client itself: on a
		// failed Streamable HTTP connect it uses go-sdk's SSE transport.
		fallback := func(ctx context.Context, ep *scenarios.Endpoint) error {
			if err := gosdkHTTPApp(ctx, ep); err == nil {
				return nil
			}
			cs, err := mcp.NewClient(&mcp.Implementation{Name: "gosdk-sse-app", Version: "1.0.0"}, nil).
				Connect(ctx, &mcp.SSEClientTransport{Endpoint: ep.URL()}, nil)
			if err != nil {
				return err
			}
			defer cs.Close()
			_, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "suggest_gifts", Arguments: map[string]any{"age": 25}})
			return err
		}
		s := scenarios.HTTP()[3]
		if r := s.Evaluate(s.Play(t, fallback)); r.Status != scenarios.Pass {
			t.Errorf("%s: want pass, got %s: %s", s.Name, r.Status, r.Observed)
		}
	})
	t.Run("over-dial-not-applicable", func(t *testing.T) {
		s := scenarios.HTTP()[0]
		r := s.Evaluate(s.Play(t, scenarios.OneSession(gosdkApp)))
		if r.Status != scenarios.NotApplicable {
			t.Errorf("want not-applicable for a stdio client, got %s: %s", r.Status, r.Observed)
		}
	})
}
