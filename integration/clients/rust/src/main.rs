//! A client app on the official Rust SDK (rmcp), written the way the SDK's
//! README and examples (examples/clients: git_stdio.rs, streamable_http.rs)
//! tell an application to connect, for `mcpmock run`: serve a ClientConfig (the ClientInfo of the examples, renamed)
//! on a transport, list every tool (`list_all_tools`, which follows the
//! pages), call suggest_gifts {"age":25}, cancel the service.
//!
//! Over stdio it starts the server named in MCPMOCK_SERVER_ARGV (a JSON
//! array) with TokioChildProcess; when its last argument is an http(s) URL
//! it connects there with StreamableHttpClientTransport. By default it
//! connects as the README's "Start a client" does (`serve`: the
//! initialize handshake); with `--auto` it uses
//! `serve_with_lifecycle(ClientLifecycleMode::Auto)`, which probes
//! server/discover (2026-07-28) and falls back to the handshake. Each
//! request is given up when 70% of the scenario's deadline
//! (MCPMOCK_DEADLINE_MS) has passed, as an app with a request timeout does:
//! connect and the listing under tokio::time::timeout, the call with rmcp's
//! request timeout (PeerRequestOptions), which cancels the request.
//! Exit 0: the workflow succeeded; 1: it failed (the reason is the last
//! line on stderr).
//!
//!   mcpmock run -- rmcp-client [--auto]
//!   mcpmock run --http -- rmcp-client [--auto]

use std::time::Duration;

use rmcp::{
    model::{
        CallToolRequest, CallToolRequestParams, ClientCapabilities, ClientConfig, ClientRequest,
        Implementation, ProtocolVersion, ServerResult,
    },
    service::{
        ClientLifecycleMode, ClientServiceExt, PeerRequestOptions, RoleClient, RunningService,
        ServiceExt,
    },
    transport::{StreamableHttpClientTransport, TokioChildProcess},
};
use tokio::process::Command;

type Error = Box<dyn std::error::Error + Send + Sync>;

#[tokio::main]
async fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let deadline: u64 = std::env::var("MCPMOCK_DEADLINE_MS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(2000);
    // Leave room for the round trips before the call and for the
    // cancellation, as ts-client.mjs does.
    let timeout = Duration::from_millis(std::cmp::max(100, deadline * 7 / 10));
    let code = match run(&args, timeout).await {
        Ok(()) => 0,
        Err(err) => {
            eprintln!("rust-client: {}", describe(err.as_ref()));
            1
        }
    };
    std::process::exit(code);
}

/// The app's workflow: connect, list, call, close.
async fn run(args: &[String], timeout: Duration) -> Result<(), Error> {
    let auto = args.iter().any(|a| a == "--auto");
    let url = args
        .last()
        .filter(|a| a.starts_with("http://") || a.starts_with("https://"));
    let client = match url {
        Some(url) => connect(StreamableHttpClientTransport::from_uri(url.as_str()), auto, timeout).await?,
        None => {
            let argv: Vec<String> = match std::env::var("MCPMOCK_SERVER_ARGV") {
                Ok(v) if !v.trim().is_empty() => serde_json::from_str(&v)?,
                _ => return Err("no server: MCPMOCK_SERVER_ARGV is not set (run me with mcpmock run)".into()),
            };
            let (cmd, rest) = argv.split_first().ok_or("MCPMOCK_SERVER_ARGV is an empty array")?;
            let mut command = Command::new(cmd);
            command.args(rest);
            connect(TokioChildProcess::new(command)?, auto, timeout).await?
        }
    };
    let result = work(&client, timeout).await;
    // The examples end with cancel(): it stops the service and closes the
    // transport (over stdio the server's stdin; over HTTP the session).
    let _ = client.cancel().await;
    result
}

/// Serves the app's ClientConfig on the transport, in the lifecycle asked for.
async fn connect<T, E, A>(
    transport: T,
    auto: bool,
    timeout: Duration,
) -> Result<RunningService<RoleClient, ClientConfig>, Error>
where
    T: rmcp::transport::IntoTransport<RoleClient, E, A>,
    E: std::error::Error + Send + Sync + 'static,
{
    let info = ClientConfig::new(
        ClientCapabilities::default(),
        Implementation::new("rmcp-app", "1.0.0"),
    );
    let connecting = async {
        if auto {
            info.serve_with_lifecycle(
                transport,
                ClientLifecycleMode::Auto {
                    preferred_versions: vec![ProtocolVersion::V_2026_07_28],
                    legacy_version: Some(ProtocolVersion::V_2025_11_25),
                },
            )
            .await
        } else {
            info.serve(transport).await
        }
    };
    match tokio::time::timeout(timeout, connecting).await {
        Ok(client) => Ok(client?),
        Err(_) => Err(format!("connecting timed out after {timeout:?}").into()),
    }
}

/// Lists every tool and calls suggest_gifts, each within the timeout.
async fn work(client: &RunningService<RoleClient, ClientConfig>, timeout: Duration) -> Result<(), Error> {
    let tools = tokio::time::timeout(timeout, client.list_all_tools())
        .await
        .map_err(|_| format!("tools/list timed out after {timeout:?}"))??;
    let names: Vec<&str> = tools.iter().map(|t| t.name.as_ref()).collect();
    eprintln!("tools: {}", names.join(", "));
    let args = serde_json::json!({ "age": 25 });
    let params = CallToolRequestParams::new("suggest_gifts")
        .with_arguments(args.as_object().cloned().unwrap_or_default());
    // The call goes out with rmcp's own request timeout
    // (PeerRequestOptions::with_timeout), which on expiry sends
    // notifications/cancelled and waits until it is written before it
    // returns the timeout error. (The high-level call_tool takes no
    // timeout; dropping it under tokio::time::timeout queues the cancel
    // best-effort, and the cancel() below can end the service first.)
    let request = ClientRequest::CallToolRequest(CallToolRequest::new(params));
    let res = match client
        .send_request_with_option(request, PeerRequestOptions::with_timeout(timeout))
        .await?
        .await_response()
        .await?
    {
        ServerResult::CallToolResult(res) => res,
        other => return Err(format!("suggest_gifts: unexpected result {other:?}").into()),
    };
    if res.is_error == Some(true) {
        return Err(format!("suggest_gifts failed: {:?}", res.content).into());
    }
    eprintln!("suggest_gifts: {:?}", res.content);
    Ok(())
}

/// An error and its sources on one line.
fn describe(err: &(dyn std::error::Error + 'static)) -> String {
    let mut out = err.to_string();
    let mut src = err.source();
    while let Some(e) = src {
        out.push_str(": ");
        out.push_str(&e.to_string());
        src = e.source();
    }
    out.replace('\n', " ")
}
