package integration_test

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// `mcpmock record` never loses a good recording to a session in which the
// server answered nothing, and the go-sdk client is told why.

const keptRecording = `{"server":{"name":"keep-me","version":"1"}}`

// TestRecordUnreachableURLGoSDK: --url names a port nothing listens on.
// The go-sdk client's Connect fails with the proxy's JSON-RPC error,
// which names the upstream and the dial error; the command exits 1; the
// existing recording is untouched.
func TestRecordUnreachableURLGoSDK(t *testing.T) {
	bin := mcpmockBinary(t)
	dir := t.TempDir()
	rec := filepath.Join(dir, "rec.json")
	require.NoError(t, os.WriteFile(rec, []byte(keptRecording), 0o644))
	const upstream = "http://127.0.0.1:1/mcp"

	proxy := exec.Command(bin, "record", "--out", rec, "--url", upstream)
	out, err := proxy.StdoutPipe()
	require.NoError(t, err)
	var stderr strings.Builder
	proxy.Stderr = &stderr
	require.NoError(t, proxy.Start())
	t.Cleanup(func() { _ = proxy.Process.Kill(); _ = proxy.Wait() })
	url := firstLine(t, out)

	ctx := testContext(t)
	_, err = mcp.NewClient(&mcp.Implementation{Name: "gosdk-app", Version: "1.0.0"}, nil).
		Connect(ctx, &mcp.StreamableClientTransport{Endpoint: url}, nil)
	require.Error(t, err)
	t.Logf("the go-sdk client: %v", err)
	assert.Contains(t, err.Error(), "mcpmock record: cannot reach the server at "+upstream+": dial tcp 127.0.0.1:1: connect: connection refused")

	require.NoError(t, proxy.Process.Signal(syscall.SIGTERM))
	err = proxy.Wait()
	var ee *exec.ExitError
	require.True(t, errors.As(err, &ee), "exits non-zero: %v; stderr:\n%s", err, stderr.String())
	assert.Equal(t, 1, ee.ExitCode())
	assert.Contains(t, stderr.String(), "nothing recorded: the server at "+upstream+" was never reached")
	b, err := os.ReadFile(rec)
	require.NoError(t, err)
	assert.Equal(t, keptRecording, string(b))
}

// TestRecordServerExitsGoSDK: the go-sdk client spawns `mcpmock record --
// CMD` as its server, and CMD exits 3 without answering: Connect fails,
// the recorder exits 3, the existing recording is untouched.
func TestRecordServerExitsGoSDK(t *testing.T) {
	bin := mcpmockBinary(t)
	dir := t.TempDir()
	rec := filepath.Join(dir, "rec.json")
	require.NoError(t, os.WriteFile(rec, []byte(keptRecording), 0o644))

	cmd := exec.Command(bin, "record", "--out", rec, "--", "sh", "-c", "read line; exit 3")
	var stderr strings.Builder
	cmd.Stderr = &stderr
	_, err := mcp.NewClient(&mcp.Implementation{Name: "gosdk-app", Version: "1.0.0"}, nil).
		Connect(testContext(t), &mcp.CommandTransport{Command: cmd}, nil)
	require.Error(t, err)
	_ = cmd.Wait() // (the SDK's Close may have waited already)
	require.NotNil(t, cmd.ProcessState, "stderr:\n%s", stderr.String())
	assert.Equal(t, 3, cmd.ProcessState.ExitCode(), "stderr:\n%s", stderr.String())
	assert.Contains(t, stderr.String(), "nothing recorded: the server exited with status 3 before answering anything; "+rec+" is left as it was")
	b, err := os.ReadFile(rec)
	require.NoError(t, err)
	assert.Equal(t, keptRecording, string(b))
}
