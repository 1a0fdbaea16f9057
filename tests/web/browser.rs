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
    /// The script answered for requests `stand_in` intercepts, and the requests waiting
    /// for it.
    stand_in: Option<String>,
    paused: Vec<String>,
}

/// Chromium, or `None` where it is not installed (a developer's machine); `.ci/run`
/// installs it and sets TOGUZ_REQUIRE_CHROMIUM, so CI never skips.
pub async fn launch() -> Option<Browser> {
    if !std::path::Path::new(CHROMIUM).exists() {
        assert!(
            std::env::var_os("TOGUZ_REQUIRE_CHROMIUM").is_none(),
            "TOGUZ_REQUIRE_CHROMIUM is set but {CHROMIUM} is missing"
        );
        eprintln!("skipped: {CHROMIUM} is not installed");
        return None;
    }
    Some(Browser::start().await)
}

impl Browser {
    async fn start() -> Browser {
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
            stand_in: None,
            paused: Vec::new(),
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
        self.answer_paused().await;
        message
    }

    /// Answers every request to `pattern` (a URL pattern such as
    /// `https://telegram.org/js/*`) with `script`, as if its server had sent it: a test
    /// stands in for a third-party script this machine cannot reach.
    pub async fn stand_in(&mut self, pattern: &str, script: &str) {
        self.stand_in = Some(script.to_string());
        let patterns = json!({ "patterns": [{ "urlPattern": pattern }] });
        self.call("Fetch.enable", patterns).await;
    }

    /// Fulfils the requests `stand_in` held (their answers are not waited for: `call`
    /// skips answers of other ids).
    async fn answer_paused(&mut self) {
        use base64::Engine;
        let Some(script) = self.stand_in.clone() else {
            return;
        };
        for request in std::mem::take(&mut self.paused) {
            self.next_id += 1;
            let body = base64::engine::general_purpose::STANDARD.encode(&script);
            let headers = [
                json!({ "name": "Content-Type", "value": "text/javascript; charset=utf-8" }),
                json!({ "name": "Access-Control-Allow-Origin", "value": "*" }),
            ];
            let params = json!({
                "requestId": request,
                "responseCode": 200,
                "responseHeaders": headers,
                "body": body,
            });
            let message =
                json!({ "id": self.next_id, "method": "Fetch.fulfillRequest", "params": params });
            self.socket
                .send(Message::Text(message.to_string()))
                .await
                .unwrap();
        }
    }

    /// Errors and loads among the events.
    fn note(&mut self, event: &Value) {
        let params = &event["params"];
        match event["method"].as_str() {
            Some("Page.loadEventFired") => self.loaded = true,
            Some("Fetch.requestPaused") => {
                if let Some(id) = params["requestId"].as_str() {
                    self.paused.push(id.to_string());
                }
            }
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

    /// Presses and releases a key (`ArrowRight`, `Home`, ...) on the page.
    pub async fn key(&mut self, key: &str, code: u32) {
        for kind in ["rawKeyDown", "keyUp"] {
            let params =
                json!({ "type": kind, "key": key, "code": key, "windowsVirtualKeyCode": code });
            self.call("Input.dispatchKeyEvent", params).await;
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
