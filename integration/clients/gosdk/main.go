// Command gosdk is a client app on the official Go SDK
// (github.com/modelcontextprotocol/go-sdk v1.8.0) that acts per scenario,
// for the agreement runs (.ci/agreement.sh): the official conformance
// suite's client mode and mcpmock run --http play the same program, giving
// the server URL as its last argument and the scenario's name in
// MCP_CONFORMANCE_SCENARIO. It connects with the SDK's default
// StreamableClientTransport (for auth/ scenarios with the SDK's
// AuthorizationCodeHandler, headless: a Client ID Metadata Document URL
// where the server supports them, else dynamic registration, or the
// pre-registered client of MCP_CONFORMANCE_CONTEXT), lists the tools and
// makes the calls package suiteapp says. Exit 0: every step succeeded.
package main

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"os"
	"time"

	"github.com/mcpmock/mcpmock/integration/clients/suiteapp"
	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/modelcontextprotocol/go-sdk/oauthex"
)

func main() {
	env := suiteapp.Read()
	ctx, cancel := context.WithTimeout(context.Background(), 25*time.Second)
	defer cancel()
	hc := &http.Client{Transport: &http.Transport{}}
	tr := &mcp.StreamableClientTransport{Endpoint: env.URL, HTTPClient: hc}
	if env.Auth() {
		h, err := oauthHandler(env, hc)
		if err != nil {
			fmt.Fprintln(os.Stderr, "oauth:", err)
			os.Exit(1)
		}
		tr.OAuthHandler = h
	}
	cl := mcp.NewClient(&mcp.Implementation{Name: "gosdk-suite-app", Version: "1.0.0"}, &mcp.ClientOptions{
		ElicitationHandler: func(_ context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			return &mcp.ElicitResult{Action: "accept", Content: suiteapp.ElicitContent(req.Params.RequestedSchema)}, nil
		},
	})
	var steps suiteapp.Steps
	cs, err := cl.Connect(ctx, tr, nil)
	if err != nil {
		fmt.Fprintln(os.Stderr, "connect:", err)
		os.Exit(1)
	}
	defer steps.Exit()
	defer cs.Close()
	var tools []suiteapp.Tool
	steps.Do("tools/list", func() error {
		// Every page: Tools follows nextCursor.
		for t, err := range cs.Tools(ctx, nil) {
			if err != nil {
				return err
			}
			tools = append(tools, suiteapp.Tool{Name: t.Name, InputSchema: suiteapp.SchemaMap(t.InputSchema)})
		}
		return nil
	})
	for _, c := range env.Calls(tools) {
		steps.Do("tools/call "+c.Name, func() error {
			res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: c.Name, Arguments: c.Arguments})
			if err == nil && res.IsError {
				err = errors.New("the result is an error")
			}
			return err
		})
	}
	if env.ResourcesAndPrompts() {
		caps := cs.InitializeResult().Capabilities
		if caps.Resources != nil {
			steps.Do("resources", func() error {
				res, err := cs.ListResources(ctx, nil)
				if err != nil || len(res.Resources) == 0 {
					return err
				}
				_, err = cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: res.Resources[0].URI})
				return err
			})
		}
		if caps.Prompts != nil {
			steps.Do("prompts", func() error {
				res, err := cs.ListPrompts(ctx, nil)
				if err != nil || len(res.Prompts) == 0 {
					return err
				}
				_, err = cs.GetPrompt(ctx, &mcp.GetPromptParams{Name: res.Prompts[0].Name})
				return err
			})
		}
	}
}

// oauthHandler is the SDK's authorization-code handler, configured as the
// official suite's clients are.
func oauthHandler(env *suiteapp.Env, hc *http.Client) (auth.OAuthHandler, error) {
	fetch := func(ctx context.Context, args *auth.AuthorizationArgs) (*auth.AuthorizationResult, error) {
		code, state, iss, err := suiteapp.FollowAuthorize(ctx, hc, args.URL)
		if err != nil {
			return nil, err
		}
		return &auth.AuthorizationResult{Code: code, State: state, Iss: iss}, nil
	}
	cfg := &auth.AuthorizationCodeHandlerConfig{
		RedirectURL:              suiteapp.RedirectURL,
		AuthorizationCodeFetcher: fetch,
		Client:                   hc,
	}
	if env.Context.ClientID != "" {
		cfg.PreregisteredClient = &oauthex.ClientCredentials{ClientID: env.Context.ClientID, ClientSecretAuth: &oauthex.ClientSecretAuth{ClientSecret: env.Context.ClientSecret}}
	} else {
		cfg.ClientIDMetadataDocumentConfig = &auth.ClientIDMetadataDocumentConfig{URL: suiteapp.CIMDClientID}
		cfg.DynamicClientRegistrationConfig = &auth.DynamicClientRegistrationConfig{Metadata: &oauthex.ClientRegistrationMetadata{
			ClientName:   "gosdk-suite-app",
			RedirectURIs: []string{suiteapp.RedirectURL},
			GrantTypes:   []string{"authorization_code", "refresh_token"},
		}}
	}
	return auth.NewAuthorizationCodeHandler(cfg)
}
