// Command gosdkclient is an app on the official Go SDK (v1.8.0) for
// mcpmock run, as a TypeScript or Python app would be: over stdio it
// starts the server of MCPMOCK_SERVER_ARGV with mcp.CommandTransport; when
// its last argument is a URL it connects with mcp.StreamableClientTransport.
// It connects with default options (-pin VERSION pins the protocol
// version), lists the first page of the tools, calls suggest_gifts
// {"age":25} within 70% of MCPMOCK_DEADLINE_MS, and closes. Exit 0: the
// workflow succeeded; 1: it failed, the reason on stderr.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func main() {
	pin := flag.String("pin", "", "pin this protocol version (skips the server/discover probe)")
	flag.Parse()
	if err := run(*pin, flag.Args()); err != nil {
		fmt.Fprintf(os.Stderr, "gosdkclient: %v\n", err)
		os.Exit(1)
	}
}

func run(pin string, args []string) error {
	deadline, _ := strconv.Atoi(os.Getenv("MCPMOCK_DEADLINE_MS"))
	if deadline <= 0 {
		deadline = 2000
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Duration(deadline)*time.Millisecond*7/10)
	defer cancel()

	var transport mcp.Transport
	if n := len(args); n > 0 && strings.HasPrefix(args[n-1], "http") {
		transport = &mcp.StreamableClientTransport{Endpoint: args[n-1]}
	} else {
		var argv []string
		if err := json.Unmarshal([]byte(os.Getenv("MCPMOCK_SERVER_ARGV")), &argv); err != nil || len(argv) == 0 {
			return fmt.Errorf("MCPMOCK_SERVER_ARGV is not a JSON array of strings (run me with mcpmock run): %v", err)
		}
		transport = &mcp.CommandTransport{Command: exec.Command(argv[0], argv[1:]...)}
	}
	var sopts *mcp.ClientSessionOptions
	if pin != "" {
		sopts = &mcp.ClientSessionOptions{ProtocolVersion: pin}
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "gosdk-app", Version: "1.0.0"}, nil).Connect(ctx, transport, sopts)
	if err != nil {
		return err
	}
	defer cs.Close()
	tools, err := cs.ListTools(ctx, nil)
	if err != nil {
		return err
	}
	if len(tools.Tools) == 1 {
		fmt.Fprintf(os.Stderr, "gosdkclient: 1 tool\n")
	} else {
		fmt.Fprintf(os.Stderr, "gosdkclient: %d tools\n", len(tools.Tools))
	}
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "suggest_gifts", Arguments: map[string]any{"age": 25}})
	if err != nil {
		return err
	}
	if res.IsError {
		return fmt.Errorf("suggest_gifts: the tool failed")
	}
	return cs.Close()
}
