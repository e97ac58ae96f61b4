// Command recordserver is a real MCP server on the official Go SDK
// (go-sdk), over stdio or, with -http ADDR, Streamable HTTP: the server
// ./integration records through `mcpmock record` and replays with
// `mcpmock serve --config` (record_sdk_test.go). It has tools (text,
// structured, an isError result, a JSON-RPC error), paged lists,
// resources, a resource template, prompts and completions.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"log"
	"net"
	"net/http"
	"os"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

type forecastIn struct {
	City string `json:"city" jsonschema:"the city"`
	Days int    `json:"days,omitempty" jsonschema:"how many days"`
}

type forecastOut struct {
	City    string   `json:"city"`
	Summary []string `json:"summary"`
}

func newServer() *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "go-sdk-weather", Title: "Weather (go-sdk)", Version: "3.4.5"}, &mcp.ServerOptions{
		Instructions: "Ask for a forecast by city.",
		PageSize:     2,
		CompletionHandler: func(_ context.Context, req *mcp.CompleteRequest) (*mcp.CompleteResult, error) {
			var out []string
			for _, c := range []string{"Paris", "Oslo", "Osaka", "Lima"} {
				if strings.HasPrefix(c, req.Params.Argument.Value) {
					out = append(out, c)
				}
			}
			return &mcp.CompleteResult{Completion: mcp.CompletionResultDetails{Values: out, Total: len(out)}}, nil
		},
	})
	mcp.AddTool(s, &mcp.Tool{Name: "forecast", Description: "the forecast for a city"},
		func(_ context.Context, _ *mcp.CallToolRequest, in forecastIn) (*mcp.CallToolResult, forecastOut, error) {
			days := max(in.Days, 1)
			out := forecastOut{City: in.City}
			for i := 0; i < days; i++ {
				out.Summary = append(out.Summary, fmt.Sprintf("day %d in %s: %s", i+1, in.City, []string{"rain", "sun", "wind"}[(len(in.City)+i)%3]))
			}
			return nil, out, nil
		})
	s.AddTool(&mcp.Tool{Name: "echo", Description: "echoes its text", InputSchema: map[string]any{"type": "object", "properties": map[string]any{"text": map[string]any{"type": "string"}}}},
		func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			var args struct {
				Text string `json:"text"`
			}
			if err := json.Unmarshal(req.Params.Arguments, &args); err != nil {
				return nil, err
			}
			if args.Text == "" {
				return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: "nothing to echo"}}}, nil
			}
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: args.Text}, &mcp.TextContent{Text: strings.ToUpper(args.Text)}}}, nil
		})
	s.AddTool(&mcp.Tool{Name: "fail", Description: "always a JSON-RPC error", InputSchema: map[string]any{"type": "object"}},
		func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return nil, &jsonrpc.Error{Code: -32000, Message: "the weather service is down"}
		})
	s.AddResource(&mcp.Resource{URI: "weather://stations", Name: "stations", MIMEType: "text/plain", Description: "the stations"},
		func(_ context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
			return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: req.Params.URI, MIMEType: "text/plain", Text: "Paris\nOslo"}}}, nil
		})
	s.AddResource(&mcp.Resource{URI: "weather://logo.png", Name: "logo", MIMEType: "image/png"},
		func(_ context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
			return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: req.Params.URI, MIMEType: "image/png", Blob: []byte{0x89, 'P', 'N', 'G'}}}}, nil
		})
	s.AddResource(&mcp.Resource{URI: "weather://about", Name: "about", MIMEType: "text/markdown"},
		func(_ context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
			return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: req.Params.URI, MIMEType: "text/markdown", Text: "# About"}}}, nil
		})
	s.AddResourceTemplate(&mcp.ResourceTemplate{URITemplate: "weather://city/{name}", Name: "city", MIMEType: "application/json"},
		func(_ context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
			name := strings.TrimPrefix(req.Params.URI, "weather://city/")
			return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: req.Params.URI, MIMEType: "application/json", Text: fmt.Sprintf(`{"city":%q}`, name)}}}, nil
		})
	s.AddPrompt(&mcp.Prompt{Name: "brief", Description: "a weather brief", Arguments: []*mcp.PromptArgument{{Name: "city", Description: "the city", Required: true}}},
		func(_ context.Context, req *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
			return &mcp.GetPromptResult{Description: "brief for " + req.Params.Arguments["city"], Messages: []*mcp.PromptMessage{
				{Role: "user", Content: &mcp.TextContent{Text: "Brief me on " + req.Params.Arguments["city"]}},
				{Role: "assistant", Content: &mcp.TextContent{Text: "Here is the brief."}},
			}}, nil
		})
	s.AddPrompt(&mcp.Prompt{Name: "hello", Description: "says hello"},
		func(context.Context, *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
			return &mcp.GetPromptResult{Messages: []*mcp.PromptMessage{{Role: "user", Content: &mcp.TextContent{Text: "hello"}}}}, nil
		})
	return s
}

func main() {
	addr := flag.String("http", "", "serve Streamable HTTP on this address (e.g. 127.0.0.1:0) instead of stdio; the URL goes to stdout")
	flag.Parse()
	s := newServer()
	if *addr != "" {
		h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s }, nil)
		ln, err := net.Listen("tcp", *addr)
		if err != nil {
			log.Fatal(err)
		}
		fmt.Printf("http://%s/mcp\n", ln.Addr())
		log.Fatal(http.Serve(ln, h))
	}
	if err := s.Run(context.Background(), &mcp.StdioTransport{}); err != nil && !errors.Is(err, context.Canceled) {
		fmt.Fprintln(os.Stderr, "recordserver:", err)
		os.Exit(1)
	}
}
