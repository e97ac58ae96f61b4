// Command mark3 is a client app on mark3labs/mcp-go v1.2.1 that acts per
// scenario, for the agreement runs (.ci/agreement.sh): the official
// conformance suite's client mode and mcpmock run --http play the same
// program, giving the server URL as its last argument and the scenario's
// name in MCP_CONFORMANCE_SCENARIO. It connects with the SDK's Streamable
// HTTP transport (for auth/ scenarios with WithHTTPOAuth, PKCE on, running
// the flow the SDK leaves to the app when a request fails with
// "authorization required": register unless pre-registered, authorize in a
// headless browser, exchange the code, retry), initializes, lists the tools
// and makes the calls package suiteapp says. Exit 0: every step succeeded.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"os"
	"time"

	m3client "github.com/mark3labs/mcp-go/client"
	m3transport "github.com/mark3labs/mcp-go/client/transport"
	m3 "github.com/mark3labs/mcp-go/mcp"
	"github.com/mcpmock/mcpmock/integration/clients/suiteapp"
)

// elicitor accepts every form (suiteapp.ElicitContent).
type elicitor struct{}

func (elicitor) Elicit(_ context.Context, req m3.ElicitationRequest) (*m3.ElicitationResult, error) {
	return &m3.ElicitationResult{ElicitationResponse: m3.ElicitationResponse{
		Action: m3.ElicitationResponseActionAccept, Content: suiteapp.ElicitContent(req.Params.RequestedSchema),
	}}, nil
}

func main() {
	env := suiteapp.Read()
	ctx, cancel := context.WithTimeout(context.Background(), 25*time.Second)
	defer cancel()
	hc := &http.Client{Transport: &http.Transport{}}
	opts := []m3transport.StreamableHTTPCOption{m3transport.WithHTTPBasicClient(hc)}
	cfg := m3transport.OAuthConfig{RedirectURI: suiteapp.RedirectURL, TokenStore: m3transport.NewMemoryTokenStore(), HTTPClient: hc, PKCEEnabled: true,
		ClientID: env.Context.ClientID, ClientSecret: env.Context.ClientSecret}
	if env.Auth() {
		opts = append(opts, m3transport.WithHTTPOAuth(cfg))
	}
	tr, err := m3transport.NewStreamableHTTP(env.URL, opts...)
	if err != nil {
		fmt.Fprintln(os.Stderr, "transport:", err)
		os.Exit(1)
	}
	c := m3client.NewClient(tr, m3client.WithElicitationHandler(elicitor{}))
	if err := c.Start(ctx); err != nil {
		fmt.Fprintln(os.Stderr, "start:", err)
		os.Exit(1)
	}
	var steps suiteapp.Steps
	defer steps.Exit()
	defer c.Close()

	// authorize runs the flow the SDK leaves to the app.
	authorize := func(err error) error {
		h := m3client.GetOAuthHandler(err)
		if cfg.ClientID == "" && h.GetClientID() == "" {
			if err := h.RegisterClient(ctx, "mark3-suite-app"); err != nil {
				return fmt.Errorf("register: %w", err)
			}
		}
		verifier, err := m3transport.GenerateCodeVerifier()
		if err != nil {
			return err
		}
		state, err := m3transport.GenerateState()
		if err != nil {
			return err
		}
		authURL, err := h.GetAuthorizationURL(ctx, state, m3transport.GenerateCodeChallenge(verifier))
		if err != nil {
			return fmt.Errorf("authorization URL: %w", err)
		}
		code, gotState, _, err := suiteapp.FollowAuthorize(ctx, hc, authURL)
		if err != nil {
			return err
		}
		if err := h.ProcessAuthorizationResponse(ctx, code, gotState, verifier); err != nil {
			return fmt.Errorf("token: %w", err)
		}
		return nil
	}
	// do runs a request, and once more after authorizing if it needs it.
	do := func(req func() error) error {
		err := req()
		if m3client.IsOAuthAuthorizationRequiredError(err) {
			if err := authorize(err); err != nil {
				return err
			}
			err = req()
		}
		return err
	}
	var caps m3.ServerCapabilities
	steps.Do("initialize", func() error {
		return do(func() error {
			res, err := c.Initialize(ctx, m3.InitializeRequest{Params: m3.InitializeParams{ClientInfo: m3.Implementation{Name: "mark3-suite-app", Version: "1.0.0"}}})
			if err == nil {
				caps = res.Capabilities
			}
			return err
		})
	})
	var tools []suiteapp.Tool
	steps.Do("tools/list", func() error {
		return do(func() error {
			res, err := c.ListTools(ctx, m3.ListToolsRequest{})
			if err != nil {
				return err
			}
			for _, t := range res.Tools {
				b, _ := json.Marshal(t)
				var raw struct {
					InputSchema map[string]any `json:"inputSchema"`
				}
				_ = json.Unmarshal(b, &raw)
				tools = append(tools, suiteapp.Tool{Name: t.Name, InputSchema: raw.InputSchema})
			}
			return nil
		})
	})
	for _, call := range env.Calls(tools) {
		steps.Do("tools/call "+call.Name, func() error {
			return do(func() error {
				res, err := c.CallTool(ctx, m3.CallToolRequest{Params: m3.CallToolParams{Name: call.Name, Arguments: call.Arguments}})
				if err == nil && res.IsError {
					err = errors.New("the result is an error")
				}
				return err
			})
		})
	}
	if env.ResourcesAndPrompts() {
		if caps.Resources != nil {
			steps.Do("resources", func() error {
				res, err := c.ListResources(ctx, m3.ListResourcesRequest{})
				if err != nil || len(res.Resources) == 0 {
					return err
				}
				_, err = c.ReadResource(ctx, m3.ReadResourceRequest{Params: m3.ReadResourceParams{URI: res.Resources[0].URI}})
				return err
			})
		}
		if caps.Prompts != nil {
			steps.Do("prompts", func() error {
				res, err := c.ListPrompts(ctx, m3.ListPromptsRequest{})
				if err != nil || len(res.Prompts) == 0 {
					return err
				}
				_, err = c.GetPrompt(ctx, m3.GetPromptRequest{Params: m3.GetPromptParams{Name: res.Prompts[0].Name}})
				return err
			})
		}
	}
}
