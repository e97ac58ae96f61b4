package giftgenius_test

import (
	"context"
	"net"
	"slices"
	"testing"

	"github.com/mcpmock/mcpmock/examples/giftgenius"
	"github.com/mcpmock/mcpmock/scenarios"
)

// TestConformance plays the app against the scenarios catalog: the
// GiftGen server healthy, then broken in each classic way. Where the app
// (or the Go SDK v1.8.0 under it) fails a scenario today, the deviation is
// declared, so that a fix — in the app or an SDK upgrade — is noticed.
func TestConformance(t *testing.T) {
	// Left out of the run:
	//   - discover-never-answered: the SDK's server/discover probe has no
	//     timeout of its own, so Connect waits for its context (the
	//     scenario's 10 s deadline) and fails instead of falling back.
	//   - slow-tool-timeout: on the call's deadline the SDK sends
	//     notifications/cancelled from a goroutine (v1.8.0, "best effort");
	//     closing the session right after Suggest returns usually loses it,
	//     but not always, so the outcome is not deterministic. TestToolHangs
	//     keeps the session open and sees the notification.
	//   - looping-cursor: the app reads the first page of tools/list only,
	//     so it never meets the loop (the scenario is not reached).
	skip := []string{"discover-never-answered", "slow-tool-timeout", "looping-cursor"}
	names := slices.DeleteFunc(scenarios.Names(), func(n string) bool { return slices.Contains(skip, n) })

	scenarios.Run(t, scenarios.OneSession(func(ctx context.Context, conn net.Conn) error {
		app, err := giftgenius.Connect(ctx, conn)
		if err != nil {
			return err
		}
		defer app.Close()
		_, err = app.Suggest(ctx, 25, 0)
		return err
	}),
		scenarios.Only(names...),
		scenarios.KnownDeviation("tools-list-changed",
			"the app lists the tools once per Suggest and ignores notifications/tools/list_changed"),
		scenarios.KnownDeviation("tools-schema-changed-quietly",
			"the app does not list the tools again after its call is rejected with -32602"),
		scenarios.KnownDeviation("stdout-banner",
			`go-sdk v1.8.0 drops the connection on a non-JSON line ("invalid character 'g' looking for beginning of value")`),
	)
}
