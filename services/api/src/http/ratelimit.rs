//! Per-client rate limit: a token bucket per peer address (governor's GCRA), refusing with a
//! coded `RATE_LIMITED` answer and `Retry-After` before the request reaches any handler.
//!
//! The key is the TCP peer's IP address: behind a reverse proxy every client shares the proxy's
//! address, so there the limit is per proxy and the proxy should limit per client itself.
//! Buckets of clients not seen for a while are dropped by a sweeper, so a scan from many
//! addresses cannot grow the table without bound.

use super::reply::HttpError;
use axum::extract::{ConnectInfo, Request, State};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use governor::clock::{Clock, DefaultClock};
use governor::{DefaultKeyedRateLimiter, Quota, RateLimiter};
use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::num::NonZeroU32;
use std::sync::Arc;

/// The limiter; `None` when the limit is off.
#[derive(Clone)]
pub struct Limiter(Option<Arc<DefaultKeyedRateLimiter<IpAddr>>>);

impl Limiter {
    /// `per_second` sustained, `burst` at once; a zero rate turns the limit off.
    pub fn new(per_second: u32, burst: u32) -> Limiter {
        let Some(rate) = NonZeroU32::new(per_second) else {
            return Limiter(None);
        };
        let burst = NonZeroU32::new(burst.max(per_second)).unwrap_or(rate);
        let limiter = Arc::new(RateLimiter::keyed(
            Quota::per_second(rate).allow_burst(burst),
        ));
        Limiter(Some(limiter))
    }

    /// Drops the buckets of clients that are back to a full bucket (called periodically).
    pub fn sweep(&self) {
        if let Some(l) = &self.0 {
            l.retain_recent();
            l.shrink_to_fit();
        }
    }

    /// `Ok` when `ip` may make a request now, else the seconds to wait.
    pub fn check(&self, ip: IpAddr) -> Result<(), u64> {
        let Some(l) = &self.0 else { return Ok(()) };
        l.check_key(&ip).map_err(|not_until| {
            let wait = not_until.wait_time_from(DefaultClock::default().now());
            wait.as_secs() + u64::from(wait.subsec_nanos() > 0)
        })
    }
}

/// The middleware: a request over its client's rate is answered 429 at once.
pub async fn limit(State(limiter): State<Limiter>, req: Request, next: Next) -> Response {
    let ip = req
        .extensions()
        .get::<ConnectInfo<SocketAddr>>()
        .map_or(IpAddr::V4(Ipv4Addr::UNSPECIFIED), |c| c.0.ip());
    match limiter.check(ip) {
        Ok(()) => next.run(req).await,
        Err(wait) => HttpError::RateLimited(wait.max(1)).into_response(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_client_over_its_burst_waits_and_others_do_not() {
        let l = Limiter::new(1, 3);
        let a = IpAddr::V4(Ipv4Addr::new(10, 0, 0, 1));
        let b = IpAddr::V4(Ipv4Addr::new(10, 0, 0, 2));
        for _ in 0..3 {
            assert_eq!(l.check(a), Ok(()));
        }
        assert_eq!(
            l.check(a),
            Err(1),
            "the fourth request within a second waits a second"
        );
        assert_eq!(l.check(b), Ok(()), "another client has its own bucket");
        let off = Limiter::new(0, 0);
        for _ in 0..10_000 {
            assert_eq!(off.check(a), Ok(()));
        }
    }
}
