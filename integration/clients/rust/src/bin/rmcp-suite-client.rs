//! A client app on the official Rust SDK (rmcp) that acts per scenario, for
//! the agreement runs (.ci/agreement.sh): the official conformance suite's
//! client mode (`conformance client --command rmcp-suite-client --scenario
//! X`) and `mcpmock run --http --scenario X -- rmcp-suite-client` play the
//! same program, giving the server URL as its last argument and the
//! scenario's name in MCP_CONFORMANCE_SCENARIO (pre-registered credentials
//! and the tool calls to make in MCP_CONFORMANCE_CONTEXT). It does what the
//! other agreement programs do (integration/clients/suiteapp says it for the
//! Go ones; cmd/mcpmock/testdata/ts-suite-client.mjs and python/suite_app.py
//! for theirs), through rmcp:
//!
//! - connect with StreamableHttpClientTransport and
//!   `serve_with_lifecycle(ClientLifecycleMode::Auto)` (server/discover,
//!   2026-07-28, with a fall back to the 2025-11-25 handshake);
//! - in auth/ scenarios, rmcp's reactive OAuth flow: the connect fails with
//!   the server's challenge (`ClientInitializeError::auth_challenge`), which
//!   goes to `OAuthState::start_authorization` in an `AuthorizationRequest`
//!   (`with_challenge`; a pre-registered client from the context, else a
//!   Client ID Metadata Document URL where the server supports them, else
//!   dynamic registration); a headless browser GETs the authorization URL
//!   without following its redirect and hands the Location to
//!   `handle_callback_url` (which checks state and iss); the app connects
//!   again through an `AuthClient`. A call answered 403 insufficient_scope
//!   is stepped up through that client's AuthorizationManager
//!   (`request_scope_upgrade`: the granted scopes and the challenged one,
//!   bounded by the SDK's ScopeUpgradeConfig), authorized in the headless
//!   browser (`exchange_code_for_token_with_issuer`) and retried, at most
//!   MAX_STEP_UPS times per call (the app's own bound: the SDK's counts
//!   only failed upgrades, and resets with every token it gets);
//! - list every tool (`list_all_tools`), make the calls (`call_tool`, which
//!   answers input_required rounds through the handler): those the context
//!   names; else suggest_gifts {"age":25} when listed, with json_schema_echo
//!   beside it when listed; else every tool, with arguments made from its
//!   inputSchema; in http-standard-headers also the first resource and
//!   prompt;
//! - answer elicitation/create by accepting, with {"confirmed": true} when
//!   the form has that field, else empty content.
//!
//! Exit 0: every step succeeded; 1: one failed (the reasons on stderr).

use std::time::Duration;

use rmcp::{
    model::{
        CallToolRequestParams, ClientCapabilities, ClientConfig, ElicitRequestParams, ElicitResult,
        ElicitationAction, ElicitationCapability, FormElicitationCapability,
        GetPromptRequestParams, Implementation, ProtocolVersion, ReadResourceRequestParams,
    },
    service::{ClientLifecycleMode, ClientServiceExt, RequestContext, RoleClient, RunningService},
    transport::{
        auth::{AuthClient, AuthorizationCallback, AuthorizationRequest, OAuthState},
        streamable_http_client::{InsufficientScopeError, StreamableHttpClientTransportConfig},
        StreamableHttpClientTransport,
    },
    ClientHandler, ErrorData,
};
use serde_json::{json, Map, Value};

type Error = Box<dyn std::error::Error + Send + Sync>;

/// The app's (never served) OAuth redirect URI; the authorization response
/// is read from the Location header instead.
const REDIRECT_URL: &str = "http://127.0.0.1:1/callback";
/// The official suite's Client ID Metadata Document URL.
const CIMD_CLIENT_ID: &str = "https://conformance-test.local/client-metadata.json";
/// Step-ups of one call before the app gives up on it.
const MAX_STEP_UPS: usize = 3;

/// What the runner gave the program.
struct Env {
    url: String,
    scenario: String,
    context: Value,
}

/// The app's client handler: its ClientConfig and elicitation answers.
#[derive(Clone)]
struct App;

impl ClientHandler for App {
    fn get_info(&self) -> ClientConfig {
        let mut caps = ClientCapabilities::default();
        let mut elicitation = ElicitationCapability::new();
        elicitation.form = Some(FormElicitationCapability::new());
        caps.elicitation = Some(elicitation);
        ClientConfig::new(caps, Implementation::new("rmcp-suite-app", "1.0.0"))
    }

    async fn create_elicitation(
        &self,
        request: ElicitRequestParams,
        _cx: RequestContext<RoleClient>,
    ) -> Result<ElicitResult, ErrorData> {
        let mut content = json!({});
        if let ElicitRequestParams::FormElicitationParams {
            requested_schema, ..
        } = &request
        {
            let schema = serde_json::to_value(requested_schema).unwrap_or_default();
            if schema.pointer("/properties/confirmed").is_some() {
                content = json!({ "confirmed": true });
            }
        }
        Ok(ElicitResult::new(ElicitationAction::Accept).with_content(content))
    }
}

type Client = RunningService<RoleClient, App>;
type Auth = AuthClient<reqwest::Client>;

#[tokio::main]
async fn main() {
    let env = match read_env() {
        Some(env) => env,
        None => {
            eprintln!("usage: rmcp-suite-client <server URL> (run me with mcpmock run --http or conformance client)");
            std::process::exit(2);
        }
    };
    let code = match tokio::time::timeout(Duration::from_secs(25), run(&env)).await {
        Ok(Ok(true)) => 0,
        Ok(Ok(false)) => 1,
        Ok(Err(err)) => {
            eprintln!("rmcp-suite-app: {}", describe(err.as_ref()));
            1
        }
        Err(_) => {
            eprintln!("rmcp-suite-app: timed out after 25 s");
            1
        }
    };
    std::process::exit(code);
}

fn read_env() -> Option<Env> {
    let url = std::env::args()
        .last()
        .filter(|a| a.starts_with("http://") || a.starts_with("https://"))?;
    let context = std::env::var("MCP_CONFORMANCE_CONTEXT")
        .ok()
        .and_then(|c| serde_json::from_str(&c).ok())
        .unwrap_or(Value::Null);
    Some(Env {
        url,
        scenario: std::env::var("MCP_CONFORMANCE_SCENARIO").unwrap_or_default(),
        context,
    })
}

/// The lifecycle: server/discover first, the handshake on a server that
/// does not know it.
fn lifecycle() -> ClientLifecycleMode {
    ClientLifecycleMode::Auto {
        preferred_versions: vec![ProtocolVersion::V_2026_07_28],
        legacy_version: Some(ProtocolVersion::V_2025_11_25),
    }
}

/// Connects without credentials; in an auth/ scenario a connect refused
/// with a challenge is authorized and tried again.
async fn connect(env: &Env) -> Result<(Client, Option<Auth>), Error> {
    let plain = StreamableHttpClientTransport::from_uri(env.url.as_str());
    match App.serve_with_lifecycle(plain, lifecycle()).await {
        Ok(client) => Ok((client, None)),
        Err(err) => {
            let Some(challenge) = err
                .auth_challenge()
                .map(str::to_owned)
                .filter(|_| env.scenario.starts_with("auth/"))
            else {
                return Err(err.into());
            };
            eprintln!("connect: authorization required: {challenge}");
            let auth = authorize(env, &challenge).await?;
            let transport = StreamableHttpClientTransport::with_client(
                auth.clone(),
                StreamableHttpClientTransportConfig::with_uri(env.url.as_str()),
            );
            Ok((
                App.serve_with_lifecycle(transport, lifecycle()).await?,
                Some(auth),
            ))
        }
    }
}

/// rmcp's authorization-code flow, headless.
async fn authorize(env: &Env, challenge: &str) -> Result<AuthClient<reqwest::Client>, Error> {
    let mut oauth = OAuthState::new(env.url.as_str(), None).await?;
    let mut request = AuthorizationRequest::new(REDIRECT_URL)
        .with_client_name("rmcp-suite-app")
        .with_client_metadata_url(CIMD_CLIENT_ID)
        .with_challenge(challenge);
    if let Some(id) = env.context.get("client_id").and_then(Value::as_str) {
        request = request.with_preregistered_client(id);
        if let Some(secret) = env.context.get("client_secret").and_then(Value::as_str) {
            request = request.with_client_secret(secret);
        }
    }
    oauth.start_authorization(request).await?;
    let location = browse(&oauth.get_authorization_url().await?).await?;
    oauth.handle_callback_url(&location).await?;
    let manager = oauth
        .into_authorization_manager()
        .ok_or("authorize: no authorization manager after the callback")?;
    eprintln!("authorize: ok");
    Ok(AuthClient::new(reqwest::Client::default(), manager))
}

/// The user's browser, headless: GET the authorization URL without
/// following its redirect; the redirect's Location is the authorization
/// response.
async fn browse(auth_url: &str) -> Result<String, Error> {
    let browser = reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()?;
    let res = browser.get(auth_url).send().await?;
    Ok(res
        .headers()
        .get("location")
        .and_then(|v| v.to_str().ok())
        .ok_or_else(|| format!("authorize: {} without Location", res.status()))?
        .to_owned())
}

/// rmcp's step-up: authorize again for the granted scopes and the one the
/// 403 asks for, through the connection's AuthorizationManager (which
/// bounds the attempts).
async fn step_up(auth: &Auth, required_scope: &str) -> Result<(), Error> {
    let manager = auth.auth_manager.lock().await;
    let auth_url = manager.request_scope_upgrade(required_scope).await?;
    let location = browse(&auth_url).await?;
    let callback = AuthorizationCallback::from_redirect_url(&location)?;
    manager
        .exchange_code_for_token_with_issuer(
            &callback.code,
            &callback.csrf_token,
            callback.issuer.as_deref(),
        )
        .await?;
    eprintln!("step-up: ok");
    Ok(())
}

/// The scope a 403 insufficient_scope asks for, among the error's sources.
fn insufficient_scope(err: &(dyn std::error::Error + 'static)) -> Option<String> {
    let mut src: Option<&(dyn std::error::Error + 'static)> = Some(err);
    while let Some(e) = src {
        if let Some(s) = e.downcast_ref::<InsufficientScopeError>() {
            return Some(s.required_scope.clone().unwrap_or_default());
        }
        src = e.source();
    }
    None
}

/// The app's steps; Ok(false) when one failed.
async fn run(env: &Env) -> Result<bool, Error> {
    let (client, auth) = connect(env).await?;
    let mut ok = true;
    let tools = match client.list_all_tools().await {
        Ok(tools) => {
            eprintln!("tools/list: ok");
            tools
        }
        Err(err) => {
            eprintln!("tools/list: {}", describe(&err));
            ok = false;
            Vec::new()
        }
    };
    let listed: Vec<(String, Value)> = tools
        .iter()
        .map(|t| (t.name.to_string(), Value::Object((*t.input_schema).clone())))
        .collect();
    eprintln!(
        "tools: {}",
        listed
            .iter()
            .map(|(n, _)| n.as_str())
            .collect::<Vec<_>>()
            .join(", ")
    );
    for (name, args) in calls(env, &listed) {
        let mut step_ups = 0;
        loop {
            let params = CallToolRequestParams::new(name.clone()).with_arguments(args.clone());
            match client.call_tool(params).await {
                Ok(res) if res.is_error == Some(true) => {
                    eprintln!(
                        "tools/call {name}: the result is an error: {:?}",
                        res.content
                    );
                    ok = false;
                }
                Ok(_) => eprintln!("tools/call {name}: ok"),
                Err(err) => {
                    if let (Some(scope), Some(auth), true) =
                        (insufficient_scope(&err), &auth, step_ups < MAX_STEP_UPS)
                    {
                        step_ups += 1;
                        eprintln!("tools/call {name}: insufficient scope, {scope:?} asked for: stepping up ({step_ups})");
                        match step_up(auth, &scope).await {
                            Ok(()) => continue,
                            Err(e) => eprintln!("step-up: {}", describe(e.as_ref())),
                        }
                    }
                    eprintln!("tools/call {name}: {}", describe(&err));
                    ok = false;
                }
            }
            break;
        }
    }
    if env.scenario == "http-standard-headers" {
        let caps = client
            .peer_info()
            .map(|i| i.capabilities.clone())
            .unwrap_or_default();
        if caps.resources.is_some() {
            let res: Result<(), Error> = async {
                let list = client.list_all_resources().await?;
                if let Some(r) = list.first() {
                    client
                        .read_resource(ReadResourceRequestParams::new(r.uri.clone()))
                        .await?;
                }
                Ok(())
            }
            .await;
            ok &= step("resources", res);
        }
        if caps.prompts.is_some() {
            let res: Result<(), Error> = async {
                let list = client.list_all_prompts().await?;
                if let Some(p) = list.first() {
                    client
                        .get_prompt(GetPromptRequestParams::new(p.name.clone()))
                        .await?;
                }
                Ok(())
            }
            .await;
            ok &= step("prompts", res);
        }
    }
    let _ = client.cancel().await;
    Ok(ok)
}

fn step(what: &str, res: Result<(), Error>) -> bool {
    match res {
        Ok(()) => {
            eprintln!("{what}: ok");
            true
        }
        Err(err) => {
            eprintln!("{what}: {}", describe(err.as_ref()));
            false
        }
    }
}

/// The tool calls to make after the listing (see the file's comment).
fn calls(env: &Env, tools: &[(String, Value)]) -> Vec<(String, Map<String, Value>)> {
    if ["initialize", "request-metadata", "json-schema-ref-no-deref"]
        .contains(&env.scenario.as_str())
    {
        return Vec::new();
    }
    if let Some(given) = env
        .context
        .get("toolCalls")
        .and_then(Value::as_array)
        .filter(|g| !g.is_empty())
    {
        return given
            .iter()
            .map(|c| {
                let name = c
                    .get("name")
                    .and_then(Value::as_str)
                    .unwrap_or_default()
                    .to_owned();
                let args = c
                    .get("arguments")
                    .and_then(Value::as_object)
                    .cloned()
                    .unwrap_or_default();
                (name, args)
            })
            .collect();
    }
    let has = |n: &str| tools.iter().any(|(t, _)| t == n);
    if has("suggest_gifts") {
        let mut out = vec![(
            "suggest_gifts".to_owned(),
            json!({"age": 25}).as_object().cloned().unwrap_or_default(),
        )];
        if has("json_schema_echo") {
            out.push((
                "json_schema_echo".to_owned(),
                args_for("json_schema_echo", &Value::Null, tools),
            ));
        }
        return out;
    }
    tools
        .iter()
        .map(|(n, s)| (n.clone(), args_for(n, s, tools)))
        .collect()
}

/// A tool's arguments: a value of each required property's type
/// (json_schema_echo gets json_schema_2020_12_tool's inputSchema, else the
/// other tool's, verbatim).
fn args_for(name: &str, schema: &Value, tools: &[(String, Value)]) -> Map<String, Value> {
    let mut args = Map::new();
    if name == "json_schema_echo" {
        let focal = tools
            .iter()
            .find(|(n, _)| n == "json_schema_2020_12_tool")
            .or_else(|| tools.iter().find(|(n, _)| n != name))
            .map(|(_, s)| s.clone())
            .unwrap_or_else(|| json!({}));
        args.insert("schema".to_owned(), focal);
        return args;
    }
    for req in schema
        .get("required")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        let Some(req) = req.as_str() else { continue };
        let typ = schema.pointer(&format!("/properties/{req}/type"));
        let typ = match typ {
            Some(Value::Array(l)) => l.first().and_then(Value::as_str),
            Some(t) => t.as_str(),
            None => None,
        };
        let v = match typ {
            Some("integer") | Some("number") => json!(1),
            Some("boolean") => json!(true),
            Some("object") => json!({}),
            Some("array") => json!([]),
            Some("null") => Value::Null,
            _ => json!("x"),
        };
        args.insert(req.to_owned(), v);
    }
    args
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
