package scenarios_test

import (
	"os"
	"os/exec"
	"regexp"
	"testing"

	"github.com/mcpmock/mcpmock/scenarios"
)

// TestHelperProbe is run by TestAttributedToCaller in a child process: a
// failing Run.
func TestHelperProbe(t *testing.T) {
	if os.Getenv("SCENARIOS_HELPER_PROBE") == "" {
		t.Skip("run by TestAttributedToCaller")
	}
	scenarios.Run(t, connectWith(bugs{NonJSONFatal: true}), scenarios.Only("stdout-banner")) // the line the failure names
}

// TestAttributedToCaller: a failing scenario's failure and its transcript
// are attributed to the test's line that called Run (t.Helper through the
// call chain, the server's cleanup included), not to run.go or server.go.
func TestAttributedToCaller(t *testing.T) {
	cmd := exec.Command(os.Args[0], "-test.run=^TestHelperProbe$", "-test.v")
	cmd.Env = append(os.Environ(), "SCENARIOS_HELPER_PROBE=1")
	out, err := cmd.CombinedOutput()
	if err == nil {
		t.Fatalf("the probe should fail:\n%s", out)
	}
	for _, want := range []string{
		// stdout-banner's basis is robustness, and the first line says so.
		`(?m)^\s+helper_test\.go:18: scenario stdout-banner failed: the client did not survive a server that breaks the spec`,
		`(?m)^\s+helper_test\.go:18: mcptest transcript:$`,
	} {
		if !regexp.MustCompile(want).Match(out) {
			t.Errorf("no %s in:\n%s", want, out)
		}
	}
}
