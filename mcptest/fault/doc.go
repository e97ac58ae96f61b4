// Package fault is the catalog of faults: each constructor is one way
// real MCP servers break clients, and its doc names the symptom it
// reproduces. A fault is an mcptest.Fault value; install it on a server
// with Server.WithFaults or Server.AddFault, and refine its trigger with
// Nth, InSession, WithProbability and Optional:
//
//	srv := mcptest.NewServer(t).WithFaults(
//		fault.RespondProtocolVersion("1999-01-01"), // a version the client does not know
//		fault.Delay("tools/call", 2*time.Second).Nth(2),
//	)
//	h := srv.AddFault(fault.Hang("tools/call")) // while clients are connected
//	// … the client times out and cancels …
//	h.Release()
//
// The catalog is data: a constructor records its name and arguments, and
// mcptest's engine plays it, so a fault prints as it was written
// (`Delay("tools/call", 2s).Nth(2)`), a config file names the same faults
// by the same names, and a misbuilt one (text that is no JSON, a value JSON
// cannot encode) fails the test that installs it, naming the call
// (mcptest.Fault.Err says why beforehand). Parameters that take any JSON
// value follow mcptest's JSON rule: a Go string is a JSON string, a
// json.RawMessage is JSON text. The authorization faults are package
// oauth's.
//
// The handshake faults act at fixed points of the handshake, each named
// for where it acts relative to the initialize result. In wire order (the
// client's messages on the left, the mock's in the middle), handshake era
// first, then the stateless era, which has no handshake:
//
//	client                        mock                     faults acting there
//	initialize ------------>                               RejectProtocolVersionHandshake (-32602 instead)
//	                              before the result:       NotifyBeforeInitializeResult
//	            <-----------      initialize result        RespondProtocolVersion, RespondCapabilities,
//	                                                       OmitCapability, DeclareUnservedCapability,
//	                                                       OmitServerInfo, CorruptServerInfo (edit it)
//	                              right after the result:  NotifyAfterInitializeResult,
//	                                                       RequestAfterInitializeResult
//	notifications/initialized ->                           none: the handshake is over
//	tools/list, tools/call… ->                             every other fault, as on any request
//
//	server/discover ------->                               RejectProtocolVersionStateless (-32022 instead)
//	            <-----------      discover result          RespondSupportedVersions, RespondCapabilities,
//	                                                       OmitCapability, DeclareUnservedCapability
//	each stateless request ->                              RejectProtocolVersionStateless (-32022 instead)
//	            <-----------      each result's _meta      OmitServerInfo, CorruptServerInfo
//
// A scenario may name the same point from the client's side: the scenario
// notify-before-initialized (the tour's lesson talking-before-initialized)
// is NotifyAfterInitializeResult, after the initialize result and before
// the client's notifications/initialized; NotifyBeforeInitializeResult is
// an earlier point, before the client has the server's capabilities.
package fault
