package integration_test

import (
	"testing"

	"github.com/mcpmock/mcpmock/config"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestGoSDKConfigFile: the official client against the server a config
// file describes (config/testdata/full.json, which uses every feature), in
// both eras the file allows.
func TestGoSDKConfigFile(t *testing.T) {
	for _, pin := range []string{"", "2025-06-18"} {
		name := "default"
		if pin != "" {
			name = pin
		}
		t.Run(name, func(t *testing.T) {
			cfg, err := config.Load("../config/testdata/full.json")
			require.NoError(t, err)
			srv := cfg.NewServer(t)
			var sopts *mcp.ClientSessionOptions
			if pin != "" {
				sopts = &mcp.ClientSessionOptions{ProtocolVersion: pin}
			}
			cs := connectGoSDK(t, srv, nil, sopts)
			ctx := testContext(t)
			if pin != "" {
				srv.AssertNegotiatedVersion(t, pin)
			}
			init := cs.InitializeResult()
			require.NotNil(t, init)
			assert.Equal(t, "weather", init.ServerInfo.Name)
			assert.Equal(t, "1.2.3", init.ServerInfo.Version)

			var names []string
			for tool, err := range cs.Tools(ctx, nil) { // pages of 2
				require.NoError(t, err)
				names = append(names, tool.Name)
			}
			assert.Equal(t, []string{"get_forecast", "get_temperature", "radar", "broken", "raw"}, names)

			call := func(name string, args map[string]any) (*mcp.CallToolResult, error) {
				return cs.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args})
			}
			res, err := call("get_forecast", map[string]any{"city": "Paris"})
			require.NoError(t, err)
			assert.Equal(t, "rain", text(t, res.Content[0]))
			res, err = call("get_forecast", map[string]any{"city": "Atlantis"})
			require.NoError(t, err)
			assert.True(t, res.IsError)
			res, err = call("get_forecast", map[string]any{"city": "Lyon"})
			require.NoError(t, err)
			assert.Equal(t, "sunny", text(t, res.Content[0]))
			res, err = call("get_temperature", map[string]any{})
			require.NoError(t, err)
			assert.Equal(t, map[string]any{"celsius": 21.5}, res.StructuredContent)
			res, err = call("radar", map[string]any{})
			require.NoError(t, err)
			require.Len(t, res.Content, 2)
			assert.IsType(t, &mcp.ImageContent{}, res.Content[1])
			_, err = call("broken", map[string]any{})
			require.Error(t, err)
			assert.Contains(t, err.Error(), "backend down")

			read, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "weather://stations"})
			require.NoError(t, err)
			assert.Equal(t, "Paris\nLyon", read.Contents[0].Text)
			read, err = cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "weather://logo"})
			require.NoError(t, err)
			assert.Equal(t, []byte{0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'}, read.Contents[0].Blob)
			read, err = cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "weather://city/lyon"})
			require.NoError(t, err)
			assert.Equal(t, "a city", read.Contents[0].Text)
			_, err = cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "weather://city/atlantis"})
			require.Error(t, err)

			got, err := cs.GetPrompt(ctx, &mcp.GetPromptParams{Name: "plan_trip", Arguments: map[string]string{"city": "Paris"}})
			require.NoError(t, err)
			assert.Equal(t, "Pack an umbrella for Paris", text(t, got.Messages[0].Content))

			comp, err := cs.Complete(ctx, &mcp.CompleteParams{
				Ref:      &mcp.CompleteReference{Type: "ref/prompt", Name: "plan_trip"},
				Argument: mcp.CompleteParamsArgument{Name: "city", Value: "P"},
			})
			require.NoError(t, err)
			assert.Equal(t, []string{"Paris", "Prague"}, comp.Completion.Values)

			srv.AssertToolCalled(t, "get_forecast", `{"city":"Paris"}`)
			// The file's SetField fault acted on every tools/list reply.
			for _, m := range srv.Journal().All().Responses("tools/list") {
				assert.Equal(t, "added by a fault", m.Get("result._meta.note").String())
			}
		})
	}
}
