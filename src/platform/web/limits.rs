//! Connection limits: a slow or abusive client cannot starve the bots sharing the process.
//! At most `max_connections` connections are served at once (more wait in the kernel's
//! backlog until one closes) and at most `max_per_address` from one address (more are
//! closed at once). A connection gives its places back when it closes.

use std::collections::HashMap;
use std::io;
use std::net::{IpAddr, SocketAddr};
use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{OwnedSemaphorePermit, Semaphore};

/// A listener that accepts only within the limits.
pub struct Limited {
    listener: TcpListener,
    slots: Arc<Semaphore>,
    per_address: Arc<PerAddress>,
}

/// Open connections per address.
struct PerAddress {
    max: usize,
    open: Mutex<HashMap<IpAddr, usize>>,
}

impl PerAddress {
    fn enter(self: &Arc<Self>, ip: IpAddr) -> Option<AddressGuard> {
        let mut open = self.open.lock().unwrap_or_else(|e| e.into_inner());
        let count = open.entry(ip).or_insert(0);
        if *count >= self.max {
            return None;
        }
        *count += 1;
        Some(AddressGuard {
            of: self.clone(),
            ip,
        })
    }
}

/// One connection's place in its address's count.
struct AddressGuard {
    of: Arc<PerAddress>,
    ip: IpAddr,
}

impl Drop for AddressGuard {
    fn drop(&mut self) {
        let mut open = self.of.open.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(count) = open.get_mut(&self.ip) {
            *count -= 1;
            if *count == 0 {
                open.remove(&self.ip);
            }
        }
    }
}

impl Limited {
    pub fn new(listener: TcpListener, max_connections: usize, max_per_address: usize) -> Limited {
        Limited {
            listener,
            slots: Arc::new(Semaphore::new(max_connections)),
            per_address: Arc::new(PerAddress {
                max: max_per_address,
                open: Mutex::new(HashMap::new()),
            }),
        }
    }
}

/// A served connection with its places.
pub struct Connection {
    stream: TcpStream,
    _slot: OwnedSemaphorePermit,
    _address: AddressGuard,
}

impl axum::serve::Listener for Limited {
    type Io = Connection;
    type Addr = SocketAddr;

    async fn accept(&mut self) -> (Connection, SocketAddr) {
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
                    tokio::time::sleep(std::time::Duration::from_millis(50)).await;
                    continue;
                }
            };
            let Some(address) = self.per_address.enter(addr.ip()) else {
                tracing::debug!(address = %addr.ip(), "web: too many connections from one address");
                continue;
            };
            let _ = stream.set_nodelay(true);
            let connection = Connection {
                stream,
                _slot: slot,
                _address: address,
            };
            return (connection, addr);
        }
    }

    fn local_addr(&self) -> io::Result<SocketAddr> {
        self.listener.local_addr()
    }
}

impl AsyncRead for Connection {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        Pin::new(&mut self.stream).poll_read(cx, buf)
    }
}

impl AsyncWrite for Connection {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.stream).poll_write(cx, buf)
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.stream).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.stream).poll_shutdown(cx)
    }
}
