//! Who a request is from. A connection's peer, unless the peer is one of the configured
//! reverse proxies (`[web] trusted_proxies`): then the client the proxy names in its
//! forwarding header (`Forwarded: for=...`, else `X-Forwarded-For`), read from the right,
//! skipping the trusted proxies themselves (what is left of them was written by the client
//! and proves nothing). Anyone else's forwarding headers are ignored: a client cannot make
//! itself another address by sending one.
//!
//! A trusted proxy's connections are not counted per address (`limits`); instead each
//! request it forwards takes a place in its client's count for as long as it runs (a live
//! page for as long as it is open), at most `max_per_address` per address block, else 429.

use super::config::TrustedProxy;
use crate::platform::http::limits::PerAddress;
use axum::extract::{ConnectInfo, Request};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;

/// What the client check needs.
#[derive(Clone)]
pub struct Clients {
    pub trusted: Arc<[TrustedProxy]>,
    pub per_client: Arc<PerAddress>,
}

impl Clients {
    fn trusts(&self, ip: IpAddr) -> bool {
        self.trusted.iter().any(|p| p.contains(ip))
    }

    /// The client of a request that came from `peer` with `headers`.
    pub fn client_of(&self, peer: IpAddr, headers: &HeaderMap) -> IpAddr {
        if !self.trusts(peer) {
            return peer;
        }
        let chain = forwarded_for(headers);
        chain
            .into_iter()
            .rev()
            .find(|ip| !self.trusts(*ip))
            .unwrap_or(peer)
    }
}

/// The addresses a forwarding header names, first (the client) to last (the nearest
/// proxy): `Forwarded`'s `for=` when it has any, else `X-Forwarded-For`. Entries that are
/// not addresses (`unknown`, obfuscated names) end the chain there: nothing before them
/// can be placed.
fn forwarded_for(headers: &HeaderMap) -> Vec<IpAddr> {
    let values = |name| {
        headers
            .get_all(name)
            .iter()
            .filter_map(|v| v.to_str().ok())
            .flat_map(|v| v.split(','))
            .map(str::trim)
            .collect::<Vec<&str>>()
    };
    let forwarded: Vec<&str> = values("forwarded")
        .into_iter()
        .filter_map(|element| {
            element.split(';').find_map(|pair| {
                let (name, value) = pair.trim().split_once('=')?;
                name.eq_ignore_ascii_case("for").then_some(value)
            })
        })
        .collect();
    let entries = if forwarded.is_empty() {
        values("x-forwarded-for")
    } else {
        forwarded
    };
    let mut chain = Vec::new();
    for entry in entries.iter().rev() {
        match parse_node(entry) {
            Some(ip) => chain.push(ip),
            None => break,
        }
    }
    chain.reverse();
    chain
}

/// An address as a forwarding header writes it: `192.0.2.1`, `192.0.2.1:80`,
/// `"[2001:db8::1]:443"`, `2001:db8::1`.
fn parse_node(text: &str) -> Option<IpAddr> {
    let text = text.trim().trim_matches('"');
    if let Ok(ip) = text.parse::<IpAddr>() {
        return Some(ip);
    }
    if let Some(rest) = text.strip_prefix('[') {
        return rest.split(']').next()?.parse().ok();
    }
    text.parse::<SocketAddr>().ok().map(|a| a.ip())
}

/// The middleware: a request forwarded by a trusted proxy holds a place in its client's
/// count while it runs (the answer's body included).
pub async fn limit(
    axum::extract::State(clients): axum::extract::State<Clients>,
    request: Request,
    next: axum::middleware::Next,
) -> Response {
    let peer = request
        .extensions()
        .get::<ConnectInfo<SocketAddr>>()
        .map(|c| c.0.ip());
    let Some(peer) = peer.filter(|ip| clients.trusts(*ip)) else {
        // A direct client: its connections are counted already.
        return next.run(request).await;
    };
    let client = clients.client_of(peer, request.headers());
    let Some(place) = clients.per_client.enter(client) else {
        tracing::debug!(address = %client, "web: too many requests at once from one client");
        return (StatusCode::TOO_MANY_REQUESTS, "too many requests at once").into_response();
    };
    let response = next.run(request).await;
    // The place is held until the body is sent (a live page's stream is long).
    let (parts, body) = response.into_parts();
    let body = axum::body::Body::new(Held {
        body,
        _place: place,
    });
    Response::from_parts(parts, body)
}

/// A body that holds a client's place until it is dropped.
struct Held {
    body: axum::body::Body,
    _place: crate::platform::http::limits::AddressGuard,
}

impl http_body::Body for Held {
    type Data = bytes::Bytes;
    type Error = axum::Error;

    fn poll_frame(
        mut self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
    ) -> std::task::Poll<Option<Result<http_body::Frame<Self::Data>, Self::Error>>> {
        std::pin::Pin::new(&mut self.body).poll_frame(cx)
    }

    fn is_end_stream(&self) -> bool {
        self.body.is_end_stream()
    }

    fn size_hint(&self) -> http_body::SizeHint {
        self.body.size_hint()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::HeaderValue;

    fn clients(trusted: &[&str]) -> Clients {
        Clients {
            trusted: trusted.iter().map(|t| t.parse().unwrap()).collect(),
            per_client: PerAddress::new(2),
        }
    }

    fn headers(pairs: &[(&'static str, &str)]) -> HeaderMap {
        let mut map = HeaderMap::new();
        for (name, value) in pairs {
            map.append(*name, HeaderValue::from_str(value).unwrap());
        }
        map
    }

    fn ip(s: &str) -> IpAddr {
        s.parse().unwrap()
    }

    #[test]
    fn a_forwarding_header_counts_only_from_a_trusted_proxy() {
        let c = clients(&["127.0.0.1", "10.0.0.0/8"]);
        let xff = headers(&[("x-forwarded-for", "1.1.1.1, 203.0.113.9")]);
        // From the proxy: the rightmost address that is not a proxy.
        assert_eq!(c.client_of(ip("127.0.0.1"), &xff), ip("203.0.113.9"));
        // From anyone else: the header is theirs, and ignored.
        assert_eq!(c.client_of(ip("198.51.100.4"), &xff), ip("198.51.100.4"));
        // A chain of proxies is walked back to the first address that is none of them.
        let chain = headers(&[("x-forwarded-for", "9.9.9.9, 203.0.113.9, 10.1.1.1")]);
        assert_eq!(c.client_of(ip("127.0.0.1"), &chain), ip("203.0.113.9"));
        // Forwarded wins over X-Forwarded-For; ports and brackets are read.
        let both = headers(&[
            ("forwarded", "for=\"[2001:db8::7]:4711\";proto=https"),
            ("x-forwarded-for", "1.1.1.1"),
        ]);
        assert_eq!(c.client_of(ip("10.0.0.2"), &both), ip("2001:db8::7"));
        let port = headers(&[("forwarded", "for=192.0.2.60:8080, for=10.0.0.3")]);
        assert_eq!(c.client_of(ip("127.0.0.1"), &port), ip("192.0.2.60"));
        // Nothing usable: the proxy itself.
        let none = headers(&[("x-forwarded-for", "unknown")]);
        assert_eq!(c.client_of(ip("127.0.0.1"), &none), ip("127.0.0.1"));
        assert_eq!(
            c.client_of(ip("127.0.0.1"), &HeaderMap::new()),
            ip("127.0.0.1")
        );
    }
}
