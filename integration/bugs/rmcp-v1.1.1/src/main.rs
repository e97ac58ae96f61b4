//! A client app on rmcp 1.1.1 over Streamable HTTP, as the release's
//! examples/clients/src/streamable_http.rs connects: serve a ClientInfo on
//! StreamableHttpClientTransport::from_uri(URL), list every tool, call
//! suggest_gifts {"age":25}, cancel. The URL is the last argument (mcpmock
//! run --http gives it); each step is given up at 70% of
//! MCPMOCK_DEADLINE_MS. Exit 0: the workflow succeeded; 1: it failed (the
//! reason is the last line on stderr).

use std::time::Duration;

use rmcp::{
    model::{CallToolRequestParams, ClientCapabilities, ClientInfo, Implementation},
    transport::StreamableHttpClientTransport,
    ServiceExt,
};

type Error = Box<dyn std::error::Error + Send + Sync>;

#[tokio::main]
async fn main() {
    let deadline: u64 = std::env::var("MCPMOCK_DEADLINE_MS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(2000);
    let timeout = Duration::from_millis(std::cmp::max(100, deadline * 7 / 10));
    let code = match run(timeout).await {
        Ok(()) => 0,
        Err(err) => {
            eprintln!("rmcp-1.1.1-client: {err}");
            1
        }
    };
    std::process::exit(code);
}

async fn run(timeout: Duration) -> Result<(), Error> {
    let url = std::env::args()
        .last()
        .filter(|a| a.starts_with("http://") || a.starts_with("https://"))
        .ok_or("no URL: run me with mcpmock run --http")?;
    let info = ClientInfo::new(
        ClientCapabilities::default(),
        Implementation::new("rmcp-1.1.1-app", "1.0.0"),
    );
    let client = tokio::time::timeout(timeout, info.serve(StreamableHttpClientTransport::from_uri(url)))
        .await
        .map_err(|_| "connecting timed out")??;
    let work = async {
        let tools = client.list_all_tools().await?;
        let names: Vec<&str> = tools.iter().map(|t| t.name.as_ref()).collect();
        eprintln!("tools: {}", names.join(", "));
        let args = serde_json::json!({ "age": 25 });
        let res = client
            .call_tool(
                CallToolRequestParams::new("suggest_gifts")
                    .with_arguments(args.as_object().cloned().unwrap_or_default()),
            )
            .await?;
        if res.is_error == Some(true) {
            return Err::<(), Error>(format!("suggest_gifts failed: {:?}", res.content).into());
        }
        Ok(())
    };
    let result = match tokio::time::timeout(timeout, work).await {
        Ok(r) => r,
        Err(_) => Err("timed out".into()),
    };
    let _ = client.cancel().await;
    result
}
