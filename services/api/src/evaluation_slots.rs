//! Who may run an evaluation now: the server's permits (`--eval-threads`, shared by every
//! caller) and one at a time per client address, so no caller takes every permit however many
//! requests it sends — each waits its turn behind its own, and past [`WAIT`] is refused
//! `LIMIT_EXCEEDED`. A request's own evaluations (several positions in one query) run one after
//! the other.
use crate::error::ApiError;
use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::sync::{OwnedSemaphorePermit, Semaphore};

/// How long a request waits for its turn.
pub const WAIT: Duration = Duration::from_secs(2);

/// Clients kept before idle ones are forgotten.
const CLIENTS: usize = 1024;

/// The address a request came from (GraphQL request data; unknown: `0.0.0.0`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct ClientIp(pub IpAddr);

/// The permits.
pub struct Slots {
    global: Arc<Semaphore>,
    size: usize,
    clients: Mutex<HashMap<IpAddr, Arc<Semaphore>>>,
}

/// What an evaluation holds while it runs.
pub struct Held {
    _global: OwnedSemaphorePermit,
    _client: OwnedSemaphorePermit,
}

impl Slots {
    pub fn new(size: usize) -> Slots {
        Slots {
            global: Arc::new(Semaphore::new(size)),
            size,
            clients: Mutex::default(),
        }
    }

    /// A turn for `client`: its own first, then one of the server's.
    pub async fn take(&self, client: Option<ClientIp>) -> Result<Held, ApiError> {
        if self.size == 0 {
            return Err(ApiError::LimitExceeded(
                "this server runs no evaluations (started with --eval-threads 0)".into(),
            ));
        }
        let ip = client.map_or(IpAddr::from([0, 0, 0, 0]), |c| c.0);
        let mine = {
            let mut c = self.clients.lock().unwrap_or_else(|e| e.into_inner());
            if c.len() >= CLIENTS {
                c.retain(|_, s| Arc::strong_count(s) > 1 || s.available_permits() == 0);
            }
            c.entry(ip)
                .or_insert_with(|| Arc::new(Semaphore::new(1)))
                .clone()
        };
        let deadline = tokio::time::Instant::now() + WAIT;
        let busy = |what: &str| {
            ApiError::LimitExceeded(format!(
                "{what} (evaluations run one at a time per client, {} at once on this server): try again",
                self.size
            ))
        };
        let client = tokio::time::timeout_at(deadline, mine.acquire_owned())
            .await
            .map_err(|_| busy("this client's evaluation is still running"))?
            .map_err(|e| ApiError::Internal(e.to_string()))?;
        let global = tokio::time::timeout_at(deadline, self.global.clone().acquire_owned())
            .await
            .map_err(|_| busy("every evaluation slot of this server is busy"))?
            .map_err(|e| ApiError::Internal(e.to_string()))?;
        Ok(Held {
            _global: global,
            _client: client,
        })
    }
}
