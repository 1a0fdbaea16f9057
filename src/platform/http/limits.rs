//! Connection limits: a slow or abusive client cannot starve the bots sharing the process.
//! At most `max_connections` connections are served at once (more wait in the kernel's
//! backlog until one closes) and at most `max_per_address` from one address (more are
//! closed at once). An address is an IPv4 address, or an IPv6 address's /64: one host
//! usually holds a whole /64, so counting single IPv6 addresses would give it billions of
//! places. A trusted proxy's connections count only in `max_connections`; the clients it
//! forwards are counted per request (`Clients`). A connection gives its places back when it
//! closes, and is closed when no byte went either way for the idle timeout.

use std::collections::HashMap;
use std::future::Future;
use std::io;
use std::net::{IpAddr, Ipv6Addr, SocketAddr};
use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};
use std::time::Duration;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{OwnedSemaphorePermit, Semaphore};
use tokio::time::{Instant, Sleep};

/// An address or a block of addresses, as `trusted_proxies` names it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TrustedProxy(pub ipnet::IpNet);

impl TrustedProxy {
    pub fn contains(&self, ip: IpAddr) -> bool {
        self.0.contains(&canonical(ip))
    }
}

impl std::str::FromStr for TrustedProxy {
    type Err = String;

    fn from_str(text: &str) -> Result<Self, String> {
        let text = text.trim();
        if let Ok(net) = text.parse::<ipnet::IpNet>() {
            return Ok(TrustedProxy(net.trunc()));
        }
        match text.parse::<IpAddr>() {
            Ok(ip) => Ok(TrustedProxy(ipnet::IpNet::from(ip))),
            Err(_) => Err(format!(
                "web.trusted_proxies: {text:?} is not an address or a block such as 10.0.0.0/8"
            )),
        }
    }
}

impl<'de> serde::Deserialize<'de> for TrustedProxy {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let text = String::deserialize(d)?;
        text.parse().map_err(serde::de::Error::custom)
    }
}

/// `ip` with an IPv4 address written as IPv6 (`::ffff:a.b.c.d`) made IPv4 again.
pub fn canonical(ip: IpAddr) -> IpAddr {
    match ip {
        IpAddr::V6(v6) => v6.to_ipv4_mapped().map_or(IpAddr::V6(v6), IpAddr::V4),
        v4 => v4,
    }
}

/// What one address counts as: an IPv4 address itself, an IPv6 address's /64.
pub fn block_of(ip: IpAddr) -> IpAddr {
    match canonical(ip) {
        IpAddr::V6(v6) => {
            let bits = u128::from(v6) & !((1u128 << 64) - 1);
            IpAddr::V6(Ipv6Addr::from(bits))
        }
        v4 => v4,
    }
}

/// Open connections (or requests) per address block, at most `max` each.
pub struct PerAddress {
    max: usize,
    open: Mutex<HashMap<IpAddr, usize>>,
}

impl PerAddress {
    pub fn new(max: usize) -> Arc<PerAddress> {
        Arc::new(PerAddress {
            max,
            open: Mutex::new(HashMap::new()),
        })
    }

    /// A place for `ip`'s block, or `None` when its `max` are taken.
    pub fn enter(self: &Arc<Self>, ip: IpAddr) -> Option<AddressGuard> {
        let block = block_of(ip);
        let mut open = self.open.lock().unwrap_or_else(|e| e.into_inner());
        let count = open.entry(block).or_insert(0);
        if *count >= self.max {
            return None;
        }
        *count += 1;
        Some(AddressGuard {
            of: self.clone(),
            block,
        })
    }
}

/// One connection's (or request's) place in its address block's count.
pub struct AddressGuard {
    of: Arc<PerAddress>,
    block: IpAddr,
}

impl Drop for AddressGuard {
    fn drop(&mut self) {
        let mut open = self.of.open.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(count) = open.get_mut(&self.block) {
            *count -= 1;
            if *count == 0 {
                open.remove(&self.block);
            }
        }
    }
}

/// What `Limited` enforces.
#[derive(Clone, Debug)]
pub struct Settings {
    pub max_connections: usize,
    pub max_per_address: usize,
    /// No byte either way for this long closes the connection.
    pub idle: Duration,
    /// Peers counted only in `max_connections` (their clients are counted per request).
    pub trusted: Vec<TrustedProxy>,
}

/// A listener that accepts only within the limits.
pub struct Limited {
    listener: TcpListener,
    slots: Arc<Semaphore>,
    per_address: Arc<PerAddress>,
    idle: Duration,
    trusted: Vec<TrustedProxy>,
}

impl Limited {
    pub fn new(listener: TcpListener, settings: Settings) -> Limited {
        Limited {
            listener,
            slots: Arc::new(Semaphore::new(settings.max_connections)),
            per_address: PerAddress::new(settings.max_per_address),
            idle: settings.idle,
            trusted: settings.trusted,
        }
    }

    pub fn local_addr(&self) -> io::Result<SocketAddr> {
        self.listener.local_addr()
    }

    /// The next connection within the limits, and its peer.
    pub async fn accept(&mut self) -> (Connection, SocketAddr) {
        loop {
            // Waiting for a place before accepting leaves the rest in the backlog.
            let Ok(slot) = self.slots.clone().acquire_owned().await else {
                // The semaphore is never closed; wait as if full.
                std::future::pending::<()>().await;
                continue;
            };
            let (stream, addr) = match self.listener.accept().await {
                Ok(accepted) => accepted,
                Err(error) => {
                    // Out of file descriptors and the like: wait, do not spin.
                    tracing::warn!(%error, "web: accept failed");
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                }
            };
            let address = if self.trusted.iter().any(|p| p.contains(addr.ip())) {
                None
            } else {
                match self.per_address.enter(addr.ip()) {
                    Some(guard) => Some(guard),
                    None => {
                        tracing::debug!(address = %addr.ip(), "web: too many connections from one address");
                        continue;
                    }
                }
            };
            let _ = stream.set_nodelay(true);
            let connection = Connection {
                stream,
                idle: self.idle,
                deadline: Box::pin(tokio::time::sleep(self.idle)),
                _slot: slot,
                _address: address,
            };
            return (connection, addr);
        }
    }
}

/// A served connection with its places, closed once idle for `idle`.
pub struct Connection {
    stream: TcpStream,
    idle: Duration,
    /// When the connection counts as idle: moved on by every byte read or written.
    deadline: Pin<Box<Sleep>>,
    _slot: OwnedSemaphorePermit,
    _address: Option<AddressGuard>,
}

impl Connection {
    /// Moves the idle deadline on after progress.
    fn moved(&mut self) {
        let idle = self.idle;
        self.deadline.as_mut().reset(Instant::now() + idle);
    }

    /// On a read or write that must wait: an error once the connection has been idle too
    /// long (the deadline is polled, so it wakes the task when it passes).
    fn check_idle(&mut self, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        match self.deadline.as_mut().poll(cx) {
            Poll::Ready(()) => Poll::Ready(Err(io::Error::new(
                io::ErrorKind::TimedOut,
                "idle connection closed",
            ))),
            Poll::Pending => Poll::Pending,
        }
    }
}

impl AsyncRead for Connection {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let before = buf.filled().len();
        match Pin::new(&mut self.stream).poll_read(cx, buf) {
            Poll::Ready(Ok(())) => {
                if buf.filled().len() > before {
                    self.moved();
                }
                Poll::Ready(Ok(()))
            }
            Poll::Ready(Err(e)) => Poll::Ready(Err(e)),
            Poll::Pending => self.check_idle(cx),
        }
    }
}

impl AsyncWrite for Connection {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        match Pin::new(&mut self.stream).poll_write(cx, buf) {
            Poll::Ready(Ok(n)) => {
                if n > 0 {
                    self.moved();
                }
                Poll::Ready(Ok(n))
            }
            Poll::Ready(Err(e)) => Poll::Ready(Err(e)),
            Poll::Pending => self.check_idle(cx).map_ok(|()| 0),
        }
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        match Pin::new(&mut self.stream).poll_flush(cx) {
            Poll::Pending => self.check_idle(cx),
            done => done,
        }
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.stream).poll_shutdown(cx)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_ipv6_address_counts_as_its_slash_64_and_mapped_ipv4_as_ipv4() {
        let ip = |s: &str| s.parse::<IpAddr>().unwrap();
        assert_eq!(
            block_of(ip("2001:db8:1:2:aaaa:bbbb:cccc:dddd")),
            ip("2001:db8:1:2::")
        );
        assert_eq!(block_of(ip("::ffff:192.0.2.7")), ip("192.0.2.7"));
        assert_eq!(block_of(ip("192.0.2.7")), ip("192.0.2.7"));
        let per = PerAddress::new(2);
        let a = per.enter(ip("2001:db8:1:2::1")).expect("first");
        let _b = per.enter(ip("2001:db8:1:2:ffff::9")).expect("second");
        assert!(
            per.enter(ip("2001:db8:1:2::77")).is_none(),
            "a third address of the same /64 finds its block full"
        );
        assert!(per.enter(ip("2001:db8:1:3::1")).is_some(), "another /64");
        drop(a);
        assert!(
            per.enter(ip("2001:db8:1:2::77")).is_some(),
            "a place was given back"
        );
    }
}
