//! A TCP proxy between the bot and PostgreSQL that a test can make misbehave, so the
//! database is unreachable for real (not a mocked store): pass traffic, stall it (nothing
//! moves either way, as with a network that drops packets), cut it (every connection closed,
//! new ones refused), or hold the server's replies from the moment the client sends a given
//! byte string (`COMMIT`: the server commits, the client never hears so).
//!
//! It runs on a thread and runtime of its own, so a test without a runtime (one that starts
//! `toguz` processes) can use it as well as one inside tokio.

use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::watch;

/// What the proxy does with traffic.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// Forwards both ways.
    Pass,
    /// Holds everything both ways; connections stay open.
    Stall,
    /// Closes every connection, and each new one at once.
    Cut,
    /// Forwards what the client sends, holds what the server answers.
    HoldReplies,
}

/// A running proxy; it stops with the test process.
pub struct Proxy {
    pub addr: SocketAddr,
    mode: watch::Sender<Mode>,
    trigger: Arc<Mutex<Option<Vec<u8>>>>,
}

impl Proxy {
    /// Listens on a free port of 127.0.0.1 and forwards to `upstream`.
    pub fn start(upstream: SocketAddr) -> Proxy {
        let (mode, _) = watch::channel(Mode::Pass);
        let trigger = Arc::new(Mutex::new(None));
        let (ready_tx, ready_rx) = std::sync::mpsc::channel();
        let shared = (mode.clone(), trigger.clone());
        std::thread::spawn(move || {
            let rt = tokio::runtime::Builder::new_multi_thread()
                .worker_threads(2)
                .enable_all()
                .build()
                .expect("the proxy's runtime");
            rt.block_on(async move {
                let listener = TcpListener::bind("127.0.0.1:0").await.expect("a port");
                let addr = listener.local_addr().expect("its address");
                ready_tx.send(addr).expect("the test waits");
                accept_loop(listener, upstream, shared.0, shared.1).await;
            });
        });
        let addr = ready_rx.recv().expect("the proxy started");
        Proxy {
            addr,
            mode,
            trigger,
        }
    }

    /// A proxy in front of the server of `url` (`postgres://user@host:port/...`), and `url`
    /// pointed at the proxy instead.
    pub fn in_front_of(url: &str) -> (Proxy, String) {
        let rest = url.split_once("://").map_or(url, |(_, r)| r);
        let authority = rest.split(['/', '?']).next().unwrap_or(rest);
        let host_port = authority.rsplit('@').next().unwrap_or(authority);
        let upstream: SocketAddr = host_port.parse().expect("a URL with host:port");
        let proxy = Proxy::start(upstream);
        let proxied = url.replacen(host_port, &proxy.addr.to_string(), 1);
        (proxy, proxied)
    }

    pub fn set(&self, mode: Mode) {
        self.mode.send_replace(mode);
    }

    /// From the first time the client sends `pattern` (on any connection) on, the server's
    /// replies are held (`Mode::HoldReplies`); what carried it is forwarded.
    pub fn hold_replies_after(&self, pattern: &[u8]) {
        *self.trigger.lock().expect("the trigger") = Some(pattern.to_vec());
    }

    pub fn mode(&self) -> Mode {
        *self.mode.borrow()
    }
}

async fn accept_loop(
    listener: TcpListener,
    upstream: SocketAddr,
    mode: watch::Sender<Mode>,
    trigger: Arc<Mutex<Option<Vec<u8>>>>,
) {
    while let Ok((client, _)) = listener.accept().await {
        if *mode.borrow() == Mode::Cut {
            drop(client);
            continue;
        }
        let Ok(server) = TcpStream::connect(upstream).await else {
            continue;
        };
        let (c_read, c_write) = client.into_split();
        let (s_read, s_write) = server.into_split();
        let up = pump(c_read, s_write, mode.clone(), Some(trigger.clone()));
        let down = pump(s_read, c_write, mode.clone(), None);
        tokio::spawn(async move {
            // Either side ending (or a cut) ends both.
            tokio::select! {
                _ = up => {}
                _ = down => {}
            }
        });
    }
}

/// Copies `from` to `to` as the mode allows. The client's side (`trigger` given) is held
/// only by a stall; the server's side by a stall and by held replies.
async fn pump(
    mut from: tokio::net::tcp::OwnedReadHalf,
    mut to: tokio::net::tcp::OwnedWriteHalf,
    mode: watch::Sender<Mode>,
    trigger: Option<Arc<Mutex<Option<Vec<u8>>>>>,
) {
    let client_side = trigger.is_some();
    let held = move |m: &Mode| match m {
        Mode::Stall => true,
        Mode::HoldReplies => !client_side,
        Mode::Pass | Mode::Cut => false,
    };
    let mut rx = mode.subscribe();
    let mut buf = vec![0u8; 64 * 1024];
    // The end of what went before, so a pattern split between two reads is found.
    let mut tail: Vec<u8> = Vec::new();
    loop {
        let n = tokio::select! {
            read = from.read(&mut buf) => match read {
                Ok(0) | Err(_) => return,
                Ok(n) => n,
            },
            _ = rx.wait_for(|m| *m == Mode::Cut) => return,
        };
        if rx.wait_for(|m| !held(m)).await.is_err() || *rx.borrow() == Mode::Cut {
            return;
        }
        if let Some(trigger) = &trigger {
            // Replies are held before the chunk goes out, so not even a fast answer passes.
            tail.extend_from_slice(&buf[..n]);
            let mut armed = trigger.lock().expect("the trigger");
            let seen = armed
                .as_ref()
                .is_some_and(|p| tail.windows(p.len()).any(|w| w == p.as_slice()));
            if seen {
                *armed = None;
                mode.send_replace(Mode::HoldReplies);
            }
            // Keep less than a whole pattern: a match must take something of the next chunk,
            // or a COMMIT sent before the trigger was armed would set it off.
            let keep = armed.as_ref().map_or(0, |p| p.len().saturating_sub(1));
            drop(armed);
            tail.drain(..tail.len().saturating_sub(keep));
        }
        if to.write_all(&buf[..n]).await.is_err() {
            return;
        }
    }
}
