package integration_test

import (
	"context"
	"github.com/mcpmock/mcpmock/internal/spec"
	"testing"

	m3client "github.com/mark3labs/mcp-go/client"
	m3 "github.com/mark3labs/mcp-go/mcp"
	"github.com/mcpmock/mcpmock/mcptest"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestGoSDKElicitRequestContentRule: an elicitation/create the test sends
// with srv.SendRequest (handshake era) is held to elicitation/content-schema as
// ElicitInput's is. go-sdk v1.8.0's ElicitationHandler answers; a content
// that fits, a decline and a cancel are not blamed.
func TestGoSDKElicitRequestContentRule(t *testing.T) {
	schema := map[string]any{"type": "object", "properties": map[string]any{"age": map[string]any{"type": "integer"}}, "required": []any{"age"}}
	for _, tc := range []struct {
		name   string
		result *mcp.ElicitResult
		want   []mcptest.RuleID
	}{
		{"content that fits", &mcp.ElicitResult{Action: "accept", Content: map[string]any{"age": 30}}, nil},
		{"declined", &mcp.ElicitResult{Action: "decline"}, nil},
		{"cancelled", &mcp.ElicitResult{Action: "cancel"}, nil},
		{"content of the wrong type", &mcp.ElicitResult{Action: "accept", Content: map[string]any{"age": "thirty"}}, []mcptest.RuleID{"elicitation/content-schema"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := legacy(mcptest.NewServer(t).WithTools(mcptest.NewTool("t").ReturnsText("x")))
			connectGoSDK(t, srv, &mcp.ClientOptions{
				ElicitationHandler: func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error) { return tc.result, nil },
			}, nil)
			srv.AssertHandshakeCompleted(t)
			reply, err := srv.SendRequest(testContext(t), "elicitation/create", map[string]any{"message": "How old?", "requestedSchema": schema})
			require.NoError(t, err)
			var got []mcptest.RuleID
			for _, v := range srv.Violations() {
				got = append(got, v.Rule)
				assert.Equal(t, mcptest.SeverityWarning, v.Severity, "clients SHOULD validate: a warning")
				assert.Equal(t, reply.Seq, v.Message.Seq, "the violation names the client's answer")
			}
			if tc.want != nil {
				// go-sdk v1.8.0 validates its handler's content against the
				// requestedSchema, as the spec says a client SHOULD, and
				// answers -32602 instead: nothing accepted, nothing to blame.
				require.Equal(t, mcptest.KindError, reply.Kind, "%s", reply.Raw())
				assert.Equal(t, spec.CodeInvalidParams, reply.ErrorCode)
				assert.Empty(t, got, "an error is not an accepted content")
				return
			}
			require.Equal(t, mcptest.KindResult, reply.Kind, "%s", reply.Raw())
			assert.Equal(t, string(tc.result.Action), reply.Get("result.action").String())
			assert.Equal(t, tc.want, got)
		})
	}
}

// wrongAgeHandler accepts every elicitation with an age that is a string.
type wrongAgeHandler struct{}

func (wrongAgeHandler) Elicit(context.Context, m3.ElicitationRequest) (*m3.ElicitationResult, error) {
	return &m3.ElicitationResult{ElicitationResponse: m3.ElicitationResponse{
		Action: m3.ElicitationResponseActionAccept, Content: map[string]any{"age": "thirty"}}}, nil
}

// TestMark3ElicitRequestContentRule: mark3labs v1.2.1 passes its handler's
// content on unchecked, so an accepted content that breaks the
// requestedSchema of an elicitation/create sent with srv.SendRequest reaches
// the mock: elicitation/content-schema, a warning on the client's answer;
// the handler that fits (elicitHandler) is not blamed.
func TestMark3ElicitRequestContentRule(t *testing.T) {
	schema := map[string]any{"type": "object", "properties": map[string]any{"age": map[string]any{"type": "integer"}}, "required": []any{"age"}}
	for _, tc := range []struct {
		name    string
		handler m3client.ElicitationHandler
		want    []mcptest.RuleID
	}{
		{"content that fits", elicitHandler{}, nil},
		{"content of the wrong type", wrongAgeHandler{}, []mcptest.RuleID{"elicitation/content-schema"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := legacy(mcptest.NewServer(t).WithTools(mcptest.NewTool("t").ReturnsText("x")))
			connectMark3(t, srv, m3client.WithElicitationHandler(tc.handler))
			srv.AssertHandshakeCompleted(t)
			reply, err := srv.SendRequest(testContext(t), "elicitation/create", map[string]any{"message": "How old?", "requestedSchema": schema})
			require.NoError(t, err)
			require.Equal(t, mcptest.KindResult, reply.Kind, "%s", reply.Raw())
			assert.Equal(t, "accept", reply.Get("result.action").String())
			var got []mcptest.RuleID
			for _, v := range srv.Violations() {
				got = append(got, v.Rule)
				assert.Equal(t, mcptest.SeverityWarning, v.Severity, "clients SHOULD validate: a warning")
				assert.Equal(t, reply.Seq, v.Message.Seq, "the violation names the client's answer")
			}
			assert.Equal(t, tc.want, got)
		})
	}
}
