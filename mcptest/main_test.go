package mcptest_test

import (
	"testing"

	"go.uber.org/goleak"
)

// TestMain fails the package's tests if any goroutine outlives them: every
// Server must leave nothing running after Close.
func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m)
}
