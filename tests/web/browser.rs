//! A real headless Chromium (Debian's `chromium`), driven over the DevTools protocol: open a
//! page at a window size, run script in it, press keys, take a screenshot, and collect every
//! error the page's console reports (exceptions, CSP refusals, failed loads).
//!
//! The protocol is JSON over one websocket; the few commands the tests use are written
//! here on tokio-tungstenite rather than pulling a full CDP crate (and its build time)
//! into the test build.

use futures_util::{SinkExt, StreamExt};
use serde_json::{json, Value};
use std::process::{Child, Command, Stdio};
use std::time::Duration;
use tokio::io::AsyncBufReadExt;
use tokio_tungstenite::tungstenite::Message;

type Socket =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

/// Where Debian puts Chromium.
const CHROMIUM: &str = "/usr/bin/chromium";

pub struct Browser {
    child: Child,
    _profile: tempfile::TempDir,
    socket: Socket,
    next_id: u64,
    /// Console errors seen so far.
    pub errors: Vec<String>,
    /// Page load events seen since the last `open`.
    loaded: bool,
    /// Origins whose requests the test answers (`intercept`).
    routes: Vec<Route>,
    /// The requests answered through `routes`, in order.
    pub intercepted: Vec<Intercepted>,
    http: reqwest::Client,
}

/// Requests to `origin` (`https://discord.com`) are answered by the test: with `page` for
/// every path, or forwarded to `forward` (`http://127.0.0.1:PORT`), as Discord's proxy
/// forwards an Activity's requests to its URL mapping. The browser sees the answer as
/// coming from `origin` (secure, its own site), with every header of the real answer.
#[derive(Clone, Debug)]
pub struct Route {
    pub origin: String,
    pub answer: Answer,
}

#[derive(Clone, Debug)]
pub enum Answer {
    Page(String),
    /// A script (a third-party script this machine cannot reach, such as Telegram's).
    Script(String),
    Forward(String),
}

/// One request answered through a route.
#[derive(Clone, Debug)]
pub struct Intercepted {
    pub method: String,
    pub url: String,
    pub headers: Value,
    pub status: u16,
}

/// Chromium, or `None` where it is not installed (a developer's machine); `.ci/run`
/// installs it and sets TOGUZ_REQUIRE_CHROMIUM, so CI never skips.
pub async fn launch() -> Option<Browser> {
    launch_with(&[]).await
}

/// [`launch`] with more command-line switches.
pub async fn launch_with(extra: &[&str]) -> Option<Browser> {
    if !std::path::Path::new(CHROMIUM).exists() {
        assert!(
            std::env::var_os("TOGUZ_REQUIRE_CHROMIUM").is_none(),
            "TOGUZ_REQUIRE_CHROMIUM is set but {CHROMIUM} is missing"
        );
        eprintln!("skipped: {CHROMIUM} is not installed");
        return None;
    }
    Some(Browser::start(extra).await)
}

impl Browser {
    async fn start(extra: &[&str]) -> Browser {
        let profile = tempfile::tempdir().unwrap();
        let mut child = Command::new(CHROMIUM)
            .args([
                "--headless=new",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-dev-shm-usage",
                "--no-first-run",
                "--remote-debugging-port=0",
                "--remote-allow-origins=*",
            ])
            .args(extra)
            .arg(format!("--user-data-dir={}", profile.path().display()))
            .arg("about:blank")
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .expect("chromium starts");
        // "DevTools listening on ws://127.0.0.1:PORT/devtools/browser/ID"
        let stderr = tokio::process::ChildStderr::from_std(child.stderr.take().unwrap()).unwrap();
        let mut lines = tokio::io::BufReader::new(stderr).lines();
        let browser_ws = tokio::time::timeout(Duration::from_secs(30), async {
            while let Some(line) = lines.next_line().await.unwrap() {
                if let Some(at) = line.find("ws://") {
                    return line[at..].trim().to_string();
                }
            }
            panic!("chromium exited without a DevTools address");
        })
        .await
        .expect("chromium's DevTools address within 30 s");
        // Keep reading its stderr so it never blocks on a full pipe.
        tokio::spawn(async move { while let Ok(Some(_)) = lines.next_line().await {} });
        let port = browser_ws
            .trim_start_matches("ws://127.0.0.1:")
            .split('/')
            .next()
            .unwrap()
            .to_string();
        let targets: Value = reqwest::get(format!("http://127.0.0.1:{port}/json/list"))
            .await
            .unwrap()
            .json()
            .await
            .unwrap();
        let page_ws = targets
            .as_array()
            .unwrap()
            .iter()
            .find(|t| t["type"] == "page")
            .and_then(|t| t["webSocketDebuggerUrl"].as_str())
            .expect("a page target")
            .to_string();
        let (socket, _) = tokio_tungstenite::connect_async(page_ws).await.unwrap();
        let mut browser = Browser {
            child,
            _profile: profile,
            socket,
            next_id: 0,
            errors: Vec::new(),
            loaded: false,
            routes: Vec::new(),
            intercepted: Vec::new(),
            http: reqwest::Client::builder()
                .redirect(reqwest::redirect::Policy::none())
                .timeout(Duration::from_secs(10))
                .build()
                .unwrap(),
        };
        for method in ["Page.enable", "Runtime.enable", "Log.enable"] {
            browser.call(method, json!({})).await;
        }
        browser
    }

    /// Sends a command and waits for its answer, noting the events that come before it.
    pub async fn call(&mut self, method: &str, params: Value) -> Value {
        self.next_id += 1;
        let id = self.next_id;
        let message = json!({ "id": id, "method": method, "params": params });
        self.socket
            .send(Message::Text(message.to_string()))
            .await
            .unwrap();
        loop {
            let message = self.next_message().await;
            if message["id"] == id {
                if let Some(error) = message.get("error") {
                    panic!("{method}: {error}");
                }
                return message["result"].clone();
            }
        }
    }

    async fn next_message(&mut self) -> Value {
        let frame = tokio::time::timeout(Duration::from_secs(30), self.socket.next())
            .await
            .expect("chromium answers within 30 s")
            .expect("the DevTools socket is open")
            .unwrap();
        let Message::Text(text) = frame else {
            return Value::Null;
        };
        let message: Value = serde_json::from_str(&text).unwrap();
        self.note(&message);
        if message["method"] == "Fetch.requestPaused" {
            self.answer_paused(&message["params"]).await;
        }
        message
    }

    /// Answers every request to `origin` (such as `https://telegram.org`) with `script`,
    /// as if its server had sent it, besides the routes already intercepted.
    pub async fn stand_in(&mut self, origin: &str, script: &str) {
        let mut routes = self.routes.clone();
        routes.push(Route {
            origin: origin.to_string(),
            answer: Answer::Script(script.to_string()),
        });
        self.intercept(routes).await;
    }

    /// Answers the requests to `routes`' origins from now on.
    pub async fn intercept(&mut self, routes: Vec<Route>) {
        let patterns: Vec<Value> = routes
            .iter()
            .map(|r| json!({ "urlPattern": format!("{}/*", r.origin), "requestStage": "Request" }))
            .collect();
        self.routes = routes;
        self.call("Fetch.enable", json!({ "patterns": patterns }))
            .await;
    }

    /// A paused request: answered by its route (the answer's own reply is not awaited; it
    /// comes among the events).
    async fn answer_paused(&mut self, params: &Value) {
        let request = &params["request"];
        let url = request["url"].as_str().unwrap_or_default().to_string();
        let method = request["method"].as_str().unwrap_or("GET").to_string();
        let route = self
            .routes
            .iter()
            .find(|r| url.starts_with(&format!("{}/", r.origin)))
            .cloned();
        let (status, headers, body) = match route.map(|r| (r.origin, r.answer)) {
            Some((_, Answer::Page(html))) => (
                200,
                vec![json!({ "name": "content-type", "value": "text/html; charset=utf-8" })],
                html.into_bytes(),
            ),
            Some((_, Answer::Script(script))) => (
                200,
                vec![
                    json!({ "name": "content-type", "value": "text/javascript; charset=utf-8" }),
                    json!({ "name": "access-control-allow-origin", "value": "*" }),
                ],
                script.into_bytes(),
            ),
            Some((origin, Answer::Forward(base))) => {
                self.forward(&method, &url, &origin, &base, request).await
            }
            None => (404, Vec::new(), Vec::new()),
        };
        self.intercepted.push(Intercepted {
            method,
            url,
            headers: request["headers"].clone(),
            status,
        });
        use base64::Engine;
        self.next_id += 1;
        let fulfil = json!({
            "id": self.next_id,
            "method": "Fetch.fulfillRequest",
            "params": {
                "requestId": params["requestId"],
                "responseCode": status,
                "responseHeaders": headers,
                "body": base64::engine::general_purpose::STANDARD.encode(body),
            }
        });
        self.socket
            .send(Message::Text(fulfil.to_string()))
            .await
            .unwrap();
    }

    /// The answer of `base` to a request the page made to `origin` (a live stream, which
    /// would never end, gets 204: the page works without live moves).
    async fn forward(
        &self,
        method: &str,
        url: &str,
        origin: &str,
        base: &str,
        request: &Value,
    ) -> (u16, Vec<Value>, Vec<u8>) {
        let target = format!("{base}{}", &url[origin.len()..]);
        let mut outgoing = self.http.request(method.parse().unwrap(), &target);
        let mut stream = false;
        for (name, value) in request["headers"].as_object().into_iter().flatten() {
            let value = value.as_str().unwrap_or_default();
            stream |= name.eq_ignore_ascii_case("accept") && value.contains("text/event-stream");
            // The body is handed over as it is: no compression to undo.
            if !name.eq_ignore_ascii_case("accept-encoding") {
                outgoing = outgoing.header(name.as_str(), value);
            }
        }
        if stream {
            return (204, Vec::new(), Vec::new());
        }
        if let Some(data) = request["postData"].as_str() {
            outgoing = outgoing.body(data.to_string());
        } else if let Some(entries) = request["postDataEntries"].as_array() {
            use base64::Engine;
            let mut body = Vec::new();
            for entry in entries {
                let part = entry["bytes"].as_str().unwrap_or_default();
                body.extend(
                    base64::engine::general_purpose::STANDARD
                        .decode(part)
                        .unwrap(),
                );
            }
            outgoing = outgoing.body(body);
        }
        let response = outgoing.send().await.unwrap();
        let status = response.status().as_u16();
        let headers = response
            .headers()
            .iter()
            .map(|(n, v)| json!({ "name": n.as_str(), "value": v.to_str().unwrap_or_default() }))
            .collect();
        let body = response.bytes().await.unwrap().to_vec();
        (status, headers, body)
    }

    /// The value of `expression` in the frame whose address starts with `url` (in a world
    /// of its own: the page's DOM and storage, none of its script's variables).
    pub async fn eval_in_frame(&mut self, url: &str, expression: &str) -> Value {
        let tree = self.call("Page.getFrameTree", json!({})).await;
        let mut frames = vec![tree["frameTree"].clone()];
        let mut found = None;
        while let Some(node) = frames.pop() {
            if node["frame"]["url"]
                .as_str()
                .is_some_and(|u| u.starts_with(url))
            {
                found = node["frame"]["id"].as_str().map(str::to_string);
                break;
            }
            frames.extend(node["childFrames"].as_array().cloned().unwrap_or_default());
        }
        let Some(frame) = found else {
            return Value::Null;
        };
        let world = self
            .call(
                "Page.createIsolatedWorld",
                json!({ "frameId": frame, "worldName": "toguz-test" }),
            )
            .await;
        let params = json!({
            "expression": expression, "returnByValue": true, "awaitPromise": true,
            "contextId": world["executionContextId"],
        });
        let result = self.call("Runtime.evaluate", params).await;
        result["result"]["value"].clone()
    }

    /// Waits until `expression` is true in the frame at `url`, or fails after `limit`.
    pub async fn wait_in_frame(&mut self, url: &str, expression: &str, limit: Duration) {
        let start = tokio::time::Instant::now();
        loop {
            if self.eval_in_frame(url, expression).await == Value::Bool(true) {
                return;
            }
            assert!(
                start.elapsed() < limit,
                "{expression} not true in {url} within {limit:?}; errors: {:?}; requests: {:?}",
                self.errors,
                self.intercepted
            );
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }

    /// Errors and loads among the events.
    fn note(&mut self, event: &Value) {
        let params = &event["params"];
        match event["method"].as_str() {
            Some("Page.loadEventFired") => self.loaded = true,
            Some("Runtime.exceptionThrown") => self
                .errors
                .push(format!("exception: {}", params["exceptionDetails"])),
            Some("Runtime.consoleAPICalled") if params["type"] == "error" => self
                .errors
                .push(format!("console.error: {}", params["args"])),
            Some("Log.entryAdded") if params["entry"]["level"] == "error" => self
                .errors
                .push(format!("log: {}", params["entry"]["text"])),
            _ => {}
        }
    }

    /// Opens `url` in a window of `width` x `height` (a phone when `mobile`) and waits for
    /// it to load.
    pub async fn open(&mut self, url: &str, width: u32, height: u32, mobile: bool) {
        let metrics =
            json!({ "width": width, "height": height, "deviceScaleFactor": 1, "mobile": mobile });
        self.call("Emulation.setDeviceMetricsOverride", metrics)
            .await;
        self.loaded = false;
        self.call("Page.navigate", json!({ "url": url })).await;
        let deadline = tokio::time::Instant::now() + Duration::from_secs(30);
        while !self.loaded {
            assert!(tokio::time::Instant::now() < deadline, "{url} did not load");
            self.next_message().await;
        }
    }

    /// The value of a script expression (promises awaited).
    pub async fn eval(&mut self, expression: &str) -> Value {
        let params =
            json!({ "expression": expression, "returnByValue": true, "awaitPromise": true });
        let result = self.call("Runtime.evaluate", params).await;
        if let Some(exception) = result.get("exceptionDetails") {
            panic!("{expression}: {exception}");
        }
        result["result"]["value"].clone()
    }

    /// Presses and releases a key (`ArrowRight`, `Home`, ...) on the page.
    pub async fn key(&mut self, key: &str, code: u32) {
        for kind in ["rawKeyDown", "keyUp"] {
            let params =
                json!({ "type": kind, "key": key, "code": key, "windowsVirtualKeyCode": code });
            self.call("Input.dispatchKeyEvent", params).await;
        }
    }

    /// Waits until `expression` is true in whatever page is open, across navigations (an
    /// evaluation the navigation cut off counts as not yet), or fails after `limit`.
    pub async fn wait_across_loads(&mut self, expression: &str, limit: Duration) {
        let start = tokio::time::Instant::now();
        loop {
            self.next_id += 1;
            let id = self.next_id;
            let params =
                json!({ "expression": expression, "returnByValue": true, "awaitPromise": true });
            let message = json!({ "id": id, "method": "Runtime.evaluate", "params": params });
            self.socket
                .send(Message::Text(message.to_string()))
                .await
                .unwrap();
            let answer = loop {
                let message = self.next_message().await;
                if message["id"] == id {
                    break message;
                }
            };
            if answer["result"]["result"]["value"] == Value::Bool(true) {
                return;
            }
            assert!(
                start.elapsed() < limit,
                "{expression} not true within {limit:?}"
            );
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }

    /// Waits until `expression` is true in the page, or fails after `limit`.
    pub async fn wait_for(&mut self, expression: &str, limit: Duration) -> Duration {
        let start = tokio::time::Instant::now();
        loop {
            if self.eval(expression).await == Value::Bool(true) {
                return start.elapsed();
            }
            assert!(
                start.elapsed() < limit,
                "{expression} not true within {limit:?}"
            );
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }

    /// A PNG of the window.
    pub async fn screenshot(&mut self) -> Vec<u8> {
        use base64::Engine;
        let shot = self
            .call("Page.captureScreenshot", json!({ "format": "png" }))
            .await;
        base64::engine::general_purpose::STANDARD
            .decode(shot["data"].as_str().unwrap())
            .unwrap()
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
