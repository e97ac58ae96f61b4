package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestServeConfigFaultOnAnUnknownMethod: a config file whose fault names a
// misspelled method is a mistake in the file: serve refuses it at load,
// before it serves anything (its stdin stays open and unread), with exit 2
// and the file's line, column and field. It used to load, start, and fail
// with exit 1 and mcptest's Go message (`WithFaults(Delay(…)): … did you
// mean "tools/call"?, nor one a Handle serves …`, then `0 violations; )`).
func TestServeConfigFaultOnAnUnknownMethod(t *testing.T) {
	t.Parallel()
	cfg := filepath.Join(t.TempDir(), "weather.json")
	require.NoError(t, os.WriteFile(cfg, []byte(`{
  "server": {"name": "weather", "version": "1.0.0"},
  "tools": [{"name": "get_forecast", "replies": [{"text": "sunny"}]}],
  "faults": [
    {"fault": "Delay",
     "method": "tools/cal", "duration": "2s"}
  ]
}
`), 0o644))

	// Stdin is a pipe the test holds open: a server that started would
	// wait on it; only a refusal at load ends the process on its own.
	stdinR, stdinW, err := os.Pipe()
	require.NoError(t, err)
	defer stdinW.Close()
	cmd := exec.Command(bin, "serve", "--config", cfg)
	var stdout, stderr bytes.Buffer
	cmd.Stdin, cmd.Stdout, cmd.Stderr = stdinR, &stdout, &stderr
	require.NoError(t, cmd.Start())
	stdinR.Close()
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	select {
	case <-exited:
	case <-time.After(60 * time.Second): // a failure bound only
		_ = cmd.Process.Kill()
		<-exited
		t.Fatalf("serve did not exit on its own with its stdin open: the file was not refused at load; stderr: %s", stderr.String())
	}

	assert.Equal(t, exitUsage, cmd.ProcessState.ExitCode(), "stderr: %s", stderr.String())
	assert.Equal(t, "mcpmock serve: --config "+cfg+":\n"+
		`weather.json:6:6: faults[0].method: "tools/cal" is no method of any protocol version; did you mean "tools/call"?`+"\n",
		stderr.String())
	assert.Empty(t, stdout.String())
}
