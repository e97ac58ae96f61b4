package mcptest_test

import (
	"errors"
	"fmt"
	"net"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/mcpmock/mcpmock/internal/mcpclient"
	"github.com/mcpmock/mcpmock/mcptest"
	"github.com/tidwall/gjson"
)

// rawClient is the kit's Wire (internal/mcpclient) with the test's Fatalf:
// it writes exactly the lines a test gives it over one connection of a
// Server and reads the mock's replies one line at a time, to send what no
// SDK would send.
type rawClient struct {
	t       testing.TB
	w       *mcpclient.Wire
	timeout time.Duration // how long recv waits; rawReadTimeout unless a test changes it
}

// rawReadTimeout bounds every read: a mock that does not answer fails the
// test instead of hanging it.
const rawReadTimeout = 5 * time.Second

// dialRaw opens a new session on srv; the connection is closed when t ends.
// t is the real test even when srv reports to a fake TB.
func dialRaw(t testing.TB, srv *mcptest.Server) *rawClient {
	t.Helper()
	conn := srv.Dial()
	if conn == nil {
		t.Fatalf("rawClient: Dial returned a nil net.Conn")
	}
	t.Cleanup(func() { _ = conn.Close() })
	return newRawClient(t, conn)
}

// newRawClient is a rawClient on conn.
func newRawClient(t testing.TB, conn net.Conn) *rawClient {
	return &rawClient{t: t, w: mcpclient.NewWire(conn), timeout: rawReadTimeout}
}

// send writes line followed by the newline that frames it.
func (c *rawClient) send(line string) {
	c.t.Helper()
	if err := c.w.Send(line); err != nil {
		c.t.Fatalf("rawClient: want to write %q, got error %v", line, err)
	}
}

// recv reads the next line the mock sent, without its newline. It fails
// the test when none arrives within c.timeout.
func (c *rawClient) recv(t testing.TB) string {
	t.Helper()
	line, err := c.w.Recv(time.Now().Add(c.timeout))
	if err != nil {
		if errors.Is(err, os.ErrDeadlineExceeded) {
			t.Fatalf("rawClient: want a line from the mock within %v, got none (partial line %q)", c.timeout, line)
		}
		t.Fatalf("rawClient: want a line from the mock, got error %v (partial line %q)", err, line)
	}
	return line
}

// recvJSON reads the next line and checks it is a JSON-RPC 2.0 object.
func (c *rawClient) recvJSON(t testing.TB) gjson.Result {
	t.Helper()
	line := c.recv(t)
	if !gjson.Valid(line) {
		t.Fatalf("rawClient: want a JSON line from the mock, got %q", line)
	}
	msg := gjson.Parse(line)
	if got := msg.Get("jsonrpc"); got.String() != "2.0" {
		t.Fatalf(`rawClient: want "jsonrpc":"2.0" in every frame of the mock, got %s in %s`, got.Raw, line)
	}
	return msg
}

// recvBatch reads the next line and checks it is a JSON-RPC batch: an
// array of JSON-RPC 2.0 objects, which it returns.
func (c *rawClient) recvBatch(t testing.TB) []gjson.Result {
	t.Helper()
	line := c.recv(t)
	if !gjson.Valid(line) || !gjson.Parse(line).IsArray() {
		t.Fatalf("rawClient: want a batch (a JSON array) from the mock, got %q", line)
	}
	elems := gjson.Parse(line).Array()
	for _, e := range elems {
		if got := e.Get("jsonrpc"); got.String() != "2.0" {
			t.Fatalf(`rawClient: want "jsonrpc":"2.0" in every message of the batch, got %s in %s`, got.Raw, line)
		}
	}
	return elems
}

// call sends a request and returns the reply, which must carry the same id.
// id and params are JSON texts; params "" sends none.
func (c *rawClient) call(t testing.TB, id, method, params string) gjson.Result {
	t.Helper()
	c.send(rawRequest(id, method, params))
	reply := c.recvJSON(t)
	if got := reply.Get("id").Raw; got != id {
		t.Fatalf("rawClient: %s id %s: want a reply with id %s, got %s", method, id, id, reply.Raw)
	}
	return reply
}

// result is call for a request that must succeed; it returns the result.
func (c *rawClient) result(t testing.TB, id, method, params string) gjson.Result {
	t.Helper()
	reply := c.call(t, id, method, params)
	if !reply.Get("result").Exists() {
		t.Fatalf("rawClient: %s id %s: want a result, got %s", method, id, reply.Raw)
	}
	return reply.Get("result")
}

// notify sends a notification; params "" sends none.
func (c *rawClient) notify(method, params string) {
	c.t.Helper()
	c.send(rawNotification(method, params))
}

// ping sends a ping with the given id and checks the answer is the empty
// result: proof that the session still serves, and that nothing else was
// queued before it.
func (c *rawClient) ping(t testing.TB, id string) {
	t.Helper()
	if got := c.result(t, id, "ping", "").Raw; got != "{}" {
		t.Fatalf("rawClient: want ping answered with {}, got %s", got)
	}
}

// rawInitID is the id of the initialize request handshake sends.
const rawInitID = `"init"`

// initializeParams are well-formed initialize params asking for version.
func initializeParams(version string) string {
	return fmt.Sprintf(`{"protocolVersion":%s,"capabilities":{"roots":{"listChanged":true}},"clientInfo":{"name":"rawclient","version":"1.0.0"}}`,
		strconv.Quote(version))
}

// initialize sends initialize (id "init") and checks the mock answers with
// version; it does not send notifications/initialized.
func (c *rawClient) initialize(t testing.TB, version string) gjson.Result {
	t.Helper()
	res := c.result(t, rawInitID, "initialize", initializeParams(version))
	if got := res.Get("protocolVersion").String(); got != version {
		t.Fatalf("rawClient: want initialize answered with protocolVersion %q, got %q in %s", version, got, res.Raw)
	}
	return res
}

// handshake performs the handshake correctly: initialize, its result, then
// notifications/initialized. It returns the initialize result.
func (c *rawClient) handshake(t testing.TB, version string) gjson.Result {
	t.Helper()
	res := c.initialize(t, version)
	c.notify("notifications/initialized", "")
	return res
}

// statelessVersion is the protocol version of the stateless era.
const statelessVersion = mcpclient.StatelessVersion

// rawMeta is the per-request _meta a correct stateless-era client sends.
const rawMeta = `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28",` +
	`"io.modelcontextprotocol/clientCapabilities":{"elicitation":{},"roots":{}},` +
	`"io.modelcontextprotocol/clientInfo":{"name":"rawclient","version":"1.0.0"}}`

// modernParams renders stateless-era params: the given members (a JSON object's
// members without braces, "" for none) and the per-request _meta.
func modernParams(members string) string {
	if members == "" {
		return "{" + rawMeta + "}"
	}
	return "{" + members + "," + rawMeta + "}"
}

// discover sends server/discover as a correct stateless-era client does
// first, and checks the mock offers the stateless version.
func (c *rawClient) discover(t testing.TB, id string) gjson.Result {
	t.Helper()
	res := c.result(t, id, "server/discover", modernParams(""))
	if !strings.Contains(res.Get("supportedVersions").Raw, strconv.Quote(statelessVersion)) {
		t.Fatalf("rawClient: want server/discover to offer %s, got %s", statelessVersion, res.Raw)
	}
	return res
}

// close closes the client's end; the mock reads EOF and ends the session.
func (c *rawClient) close() { _ = c.w.Close() }

// rawRequest renders a request line; id and params are JSON texts.
func rawRequest(id, method, params string) string { return mcpclient.Request(id, method, params) }

// rawNotification renders a notification line; params is a JSON text.
func rawNotification(method, params string) string { return mcpclient.Notification(method, params) }
