package mcpclient

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/tidwall/gjson"
)

// Task is what an app built on the client does once connected, the
// session the scenarios, the tour's reference client and the bug proofs
// judge: list the tools (every page), call one, and list them again when
// the server says they changed or rejects the call's arguments. The
// client's Bugs bend it.
type Task struct {
	// Tool is the tool the app calls; "" calls the first one listed.
	Tool string
	// AwaitTool, when Tool is not listed, waits for a
	// notifications/tools/list_changed that may bring it (until ctx ends);
	// without it the work ends there, calling nothing.
	AwaitTool bool
	// Args are the arguments by tool name (JSON object texts); a tool not
	// named here gets what its inputSchema asks for (Fill).
	Args map[string]string
	// AllLists also lists the resources and prompts the server declared.
	AllLists bool
	// AwaitChange, after the call, waits for a list_changed the server
	// said would come (until ctx ends), then lists the tools again.
	AwaitChange bool
}

const toolsChanged = "notifications/tools/list_changed"

// Work does the task on the connected session.
func (c *Client) Work(ctx context.Context, t Task) error {
	b := c.opt.Bugs
	var tools []gjson.Result
	var listErr error
	if c.Has("tools") {
		tools, listErr = c.ListTools(ctx)
		var re *JSONRPCError
		switch {
		case errors.As(listErr, &re) && re.Code == -32601:
			c.say("tools/list got -32601 although the server declared tools: it calls no tool")
		case listErr == nil:
			c.say("listed the tools: %s", strings.Join(names(tools), ", "))
		}
		if listErr != nil && !b.CallDespiteListError {
			return listErr
		}
	} else {
		c.say("read the capabilities: no tools, so it calls none")
	}
	if t.AllLists {
		for _, kind := range []string{"resources", "prompts"} {
			if !c.Has(kind) {
				continue
			}
			if _, err := c.ListAll(ctx, kind+"/list", kind); err != nil && !b.IgnoreCapabilities {
				return err
			}
		}
	}
	if c.Changed(toolsChanged) { // told before it used the list
		if err := c.relist(ctx, &tools); err != nil {
			return err
		}
	}
	name := t.Tool
	if listErr == nil && name != "" && !slices.Contains(names(tools), name) {
		if !t.AwaitTool {
			return nil
		}
		if c.awaitChange(ctx) {
			if err := c.relist(ctx, &tools); err != nil {
				return err
			}
		}
	}
	if name == "" && len(tools) > 0 {
		name = tools[0].Get("name").String()
	}
	if name == "" {
		return nil
	}
	var tool gjson.Result
	for _, x := range tools {
		if x.Get("name").String() == name {
			tool = x
		}
	}
	if !tool.Exists() && listErr == nil {
		return fmt.Errorf("tool %q is not available in this session", name)
	}
	args := t.Args[name]
	if args == "" {
		args = Fill(tool.Get("inputSchema"))
	}
	if b.StringArguments {
		args = numbersAsStrings(args)
	}
	if err := c.suiteCalls(ctx, tools); err != nil {
		return err
	}
	params := `{"name":` + strconv.Quote(name) + `,"arguments":` + args + `}`
	var res gjson.Result
	var err error
	if b.NoProgress {
		res, err = c.Call(ctx, "tools/call", params)
	} else {
		res, err = c.CallWithProgress(ctx, "tools/call", params, "progress-"+name)
	}
	var re *JSONRPCError
	var te *TransportError
	switch {
	case errors.As(err, &re) && re.Code == -32602 && b.RetryStale:
		_, _ = c.Call(ctx, "tools/call", params)
		return err
	case errors.As(err, &re) && re.Code == -32602:
		c.say("its call was rejected with -32602: it lists the tools again, their schemas may have changed")
		if _, lerr := c.ListTools(ctx); lerr != nil {
			return lerr
		}
		return err
	case errors.As(err, &te) && te.Status != 0 && b.SwallowHTTPErrors:
		return nil
	case err != nil:
		return err
	}
	c.say("called %s: %q", name, res.Get("content.0.text").String())
	if err := c.read(tool, res); err != nil {
		return err
	}
	switch {
	case t.AwaitChange && !b.IgnoreListChanged:
		if c.awaitChange(ctx) {
			_, err := c.ListTools(ctx)
			return err
		}
	case c.Changed(toolsChanged):
		if _, err := c.ListTools(ctx); err != nil {
			return err
		}
		c.say("listed the tools again, as the server said they changed")
	}
	return nil
}

// read is what the app makes of a tool's result; a buggy app fails on
// what it cannot read (Bugs.StrictOutput, Bugs.KnownContent).
func (c *Client) read(tool, res gjson.Result) error {
	b := c.opt.Bugs
	if b.StrictOutput && tool.Get("outputSchema").Exists() {
		for _, req := range tool.Get("outputSchema.required").Array() {
			if !res.Get("structuredContent." + req.String()).Exists() {
				return fmt.Errorf("MCP error -32602: Structured content does not match the tool's output schema: missing %s", req)
			}
		}
	}
	for _, x := range res.Get("content").Array() {
		if b.KnownContent != nil && !slices.Contains(b.KnownContent, x.Get("type").String()) {
			return fmt.Errorf("failed to parse server response: unknown content type %q", x.Get("type").String())
		}
	}
	return nil
}

// relist lists the tools again after a list_changed; a client with
// Bugs.KeepFirstList keeps the tools it had.
func (c *Client) relist(ctx context.Context, tools *[]gjson.Result) error {
	again, err := c.ListTools(ctx)
	if err != nil {
		return err
	}
	if !c.opt.Bugs.KeepFirstList {
		*tools = again
	}
	return nil
}

// awaitChange waits for notifications/tools/list_changed (and forgets
// it); false when ctx or the connection ended first.
func (c *Client) awaitChange(ctx context.Context) bool {
	for {
		if c.Changed(toolsChanged) {
			return true
		}
		c.mu.Lock()
		ch := c.noteCh
		c.mu.Unlock()
		select {
		case <-ch:
		case <-ctx.Done():
			return false
		case <-c.loopDone:
			return false
		}
	}
}

// ListTools lists every page of the tools and keeps those the app can take
// (Bugs.DropTool, RejectToolList, MaxToolName, MaxTools bend it).
func (c *Client) ListTools(ctx context.Context) ([]gjson.Result, error) {
	all, err := c.ListAll(ctx, "tools/list", "tools")
	if err != nil {
		return nil, err
	}
	b := c.opt.Bugs
	var kept []gjson.Result
	for _, t := range all {
		if b.FetchRefs {
			fetchRefs(ctx, t.Get("inputSchema"))
		}
		_, valid := paramHeadersOf(t.Get("inputSchema"))
		switch {
		case !valid && !b.KeepInvalidTools:
			// An invalid x-mcp-header annotation: the spec has the client
			// exclude the tool (2026-07-28 Streamable HTTP).
			c.say("left out the tool %s: its x-mcp-header annotations are invalid", t.Get("name").String())
		case b.RejectToolList != nil && b.RejectToolList(t):
			return nil, fmt.Errorf("tool %s: invalid input schema %s: the tool list is rejected", t.Get("name"), t.Get("inputSchema").Raw)
		case b.DropTool != nil && b.DropTool(t):
		case b.MaxToolName > 0 && len(t.Get("name").String()) > b.MaxToolName:
		case b.MaxTools > 0 && len(kept) >= b.MaxTools:
		default:
			kept = append(kept, t)
		}
	}
	return kept, nil
}

func names(tools []gjson.Result) []string {
	var out []string
	for _, t := range tools {
		out = append(out, t.Get("name").String())
	}
	return out
}

// Dialer says where a session goes: a stdio-framed connection Open
// returns, or Streamable HTTP at URL.
type Dialer struct {
	Open func() (io.ReadWriteCloser, error)
	URL  string
}

func (d Dialer) dial(opt Options) (*Client, error) {
	if d.URL != "" {
		return HTTP(d.URL, opt), nil
	}
	conn, err := d.Open()
	if err != nil {
		return nil, err
	}
	return Pipe(conn, opt), nil
}

// Run runs a session as a client program does: it dials, connects, does
// work and closes. Over HTTP it falls back to the HTTP+SSE transport of
// 2024-11-05 when its first POST gets 400, 404 or 405, and starts a new
// session (once) when the server answers 404 for its own, as the spec's
// transport section says (Bugs.NoFallback, GiveUpOn404 and HangOn404 bend
// it).
func Run(ctx context.Context, d Dialer, opt Options, work func(context.Context, *Client) error) error {
	b := opt.Bugs
	session := func(attempt int) error {
		c, err := d.dial(opt)
		if err != nil {
			return err
		}
		defer func() { _ = c.Close() }()
		err = c.Connect(ctx)
		if d.URL != "" && attempt == 0 && oldServer(err) && !b.NoFallback {
			_ = c.Close()
			legacy := opt
			legacy.Version = HandshakeVersions[0]
			c = LegacySSE(d.URL, legacy)
			err = c.Connect(ctx)
		}
		if err != nil {
			return err
		}
		return work(ctx, c)
	}
	for attempt := 0; ; attempt++ {
		err := session(attempt)
		if errors.Is(err, ErrSessionExpired) && attempt == 0 {
			switch {
			case b.HangOn404:
				<-ctx.Done()
				return fmt.Errorf("%w (then it waited for its deadline)", err)
			case !b.GiveUpOn404:
				continue // a new session, with initialize
			}
		}
		return err
	}
}

// oldServer reports whether err is the HTTP status that failed the
// initialize POST of a server of the HTTP+SSE transport: 400, 404, 405.
func oldServer(err error) bool {
	var te *TransportError
	if !errors.As(err, &te) || te.Method != "initialize" {
		return false
	}
	return te.Status == 400 || te.Status == 404 || te.Status == 405
}

// suiteCalls makes the calls the official suite's scenarios ask of a
// client program beside the app's own: the schema echo of
// json-schema-2020-12-preservation (json_schema_echo with the inputSchema
// it holds of json_schema_2020_12_tool) and, with Bugs.KeepInvalidTools,
// a call of each tool with invalid x-mcp-header annotations.
func (c *Client) suiteCalls(ctx context.Context, tools []gjson.Result) error {
	var focal gjson.Result
	echo := false
	for _, t := range tools {
		switch name := t.Get("name").String(); {
		case name == "json_schema_2020_12_tool":
			focal = t.Get("inputSchema")
		case name == "json_schema_echo":
			echo = true
		}
	}
	if echo && focal.Exists() {
		schema := focal.Raw
		if c.opt.Bugs.StripSchema {
			schema = stripSchema(focal)
		}
		if _, err := c.Call(ctx, "tools/call", `{"name":"json_schema_echo","arguments":{"schema":`+schema+`}}`); err != nil {
			return err
		}
	}
	if c.opt.Bugs.KeepInvalidTools {
		for _, t := range tools {
			if _, ok := paramHeadersOf(t.Get("inputSchema")); !ok {
				_, _ = c.Call(ctx, "tools/call", `{"name":`+t.Get("name").Raw+`,"arguments":`+Fill(t.Get("inputSchema"))+`}`)
			}
		}
	}
	return nil
}
