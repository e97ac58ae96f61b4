package mcpclient

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/tidwall/gjson"
)

// Connect opens the session: the handshake, or server/discover for the
// stateless era, as Options say.
func (c *Client) Connect(ctx context.Context) error {
	b := c.opt.Bugs
	v := c.opt.Version
	if v == "" || v == StatelessVersion {
		pctx, cancel := ctx, context.CancelFunc(func() {})
		if v == "" && c.opt.ProbeTimeout > 0 && !b.NoProbeTimeout {
			pctx, cancel = context.WithTimeout(ctx, c.opt.ProbeTimeout)
		}
		res, err := c.request(pctx, "server/discover", "", "", "")
		cancel()
		var re *JSONRPCError
		switch {
		case err == nil && slices.Contains(strs(res.Get("supportedVersions")), StatelessVersion):
			c.mu.Lock()
			c.stateless, c.version = true, StatelessVersion
			c.info = res.Get(`_meta.io\.modelcontextprotocol/serverInfo`)
			c.mu.Unlock()
			if err := c.setCapabilities(res.Get("capabilities")); err != nil {
				return err
			}
			if b.InitAfterDiscover {
				return c.handshake(ctx, HandshakeVersions[len(HandshakeVersions)-1])
			}
			return nil
		case v == StatelessVersion && err != nil:
			return err
		case v == StatelessVersion:
			return fmt.Errorf("mcpclient: server/discover offers %s, not %s", res.Get("supportedVersions").Raw, StatelessVersion)
		case ctx.Err() != nil:
			return err
		case errors.As(err, &re) && re.Code == -32022 && b.Ignore32022:
			c.mu.Lock()
			c.stateless, c.version = true, StatelessVersion
			c.mu.Unlock()
			return c.setCapabilities(gjson.Parse(`{"tools":{}}`))
		case errors.As(err, &re) && re.Code == -32022:
			// A modern server that does not speak our stateless version:
			// the handshake, if it has one of ours.
		}
		v = HandshakeVersions[len(HandshakeVersions)-1]
	}
	return c.handshake(ctx, v)
}

// knownCapabilities are the server capabilities the kit knows.
var knownCapabilities = []string{"tools", "resources", "prompts", "logging", "completions", "experimental", "tasks", "extensions"}

// setCapabilities takes the server's capabilities.
func (c *Client) setCapabilities(caps gjson.Result) error {
	b := c.opt.Bugs
	if b.StaleCapabilities != "" {
		caps = gjson.Parse(b.StaleCapabilities)
	}
	var err error
	if b.RejectUnknownCapabilities {
		caps.ForEach(func(k, _ gjson.Result) bool {
			if !slices.Contains(knownCapabilities, k.String()) {
				err = fmt.Errorf("unknown server capability %q", k.String())
			}
			return err == nil
		})
	}
	c.mu.Lock()
	c.srvCaps = caps
	c.mu.Unlock()
	return err
}

// strictPeek is how long a client with Bugs.StrictHandshake watches for a
// message of the server before it sends notifications/initialized.
const strictPeek = 50 * time.Millisecond

func (c *Client) handshake(ctx context.Context, v string) error {
	b := c.opt.Bugs
	params := `{"protocolVersion":"` + v + `","capabilities":` + c.declared(v) + `,"clientInfo":` + c.clientInfo() + `}`
	if b.OmitProtocolVersion {
		params = `{"capabilities":` + c.declared(v) + `,"clientInfo":` + c.clientInfo() + `}`
	}
	res, arrivals, err := c.requestArrivals(ctx, "initialize", params, "", "")
	if err != nil {
		return err
	}
	got := res.Get("protocolVersion")
	if !b.AcceptAnyResult {
		speaks := HandshakeVersions
		if b.OnlyVersions != nil {
			speaks = b.OnlyVersions
		}
		if got.Type != gjson.String || !slices.Contains(speaks, got.Str) {
			_ = c.t.close()
			c.say("refused the initialize result: protocolVersion %s is not a version it speaks", got.Raw)
			return fmt.Errorf("mcpclient: unsupported protocol version %s: the server answered a version this client does not speak; it disconnected", got.Raw)
		}
		if caps := res.Get("capabilities"); !caps.IsObject() {
			_ = c.t.close()
			c.say("refused the initialize result: capabilities is %s, not an object", caps.Raw)
			return fmt.Errorf("mcpclient: malformed initialize result: capabilities is %s; it disconnected", caps.Raw)
		}
	}
	c.mu.Lock()
	c.version, c.info = got.String(), res.Get("serverInfo")
	c.mu.Unlock()
	if err := c.setCapabilities(res.Get("capabilities")); err != nil {
		return err
	}
	if b.StrictHandshake {
		if err := c.peek(arrivals); err != nil {
			return err
		}
	}
	h, isHTTP := c.t.(*httpTransport)
	if isHTTP { // every HTTP request after the initialize result carries the version
		h.negotiated(got.String())
	}
	switch {
	case b.SkipInitialized:
	case b.InitializedWithID:
		if err := c.write(ctx, `{"jsonrpc":"2.0","id":1000,"method":"notifications/initialized"}`, hint{method: "notifications/initialized", id: "1000"}); err != nil {
			return err
		}
	default:
		if err := c.Notify(ctx, "notifications/initialized", ""); err != nil {
			return err
		}
	}
	c.say("initialized in %s", got.String())
	if isHTTP {
		h.openGET()
	}
	return nil
}

// peek fails the handshake when a message of the server arrived after the
// initialize result (of which arrivals had come), or arrives within
// strictPeek (Bugs.StrictHandshake).
func (c *Client) peek(arrivals int) error {
	c.mu.Lock()
	n, ch := c.arrivals, c.arrived
	c.mu.Unlock()
	if n == arrivals {
		t := time.NewTimer(strictPeek)
		defer t.Stop()
		select {
		case <-ch:
		case <-t.C:
			return nil
		}
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return fmt.Errorf("unexpected message before notifications/initialized: %s", c.lastArrival.Raw)
}

func strs(r gjson.Result) []string {
	var out []string
	for _, v := range r.Array() {
		out = append(out, v.String())
	}
	return out
}
