//! Requests tried again while the stream has no leader: publishes, the last message of a
//! subject, and the reads that make a consumer, ask for a stream's state or fetch a record.
//!
//! When a stream's leader dies, the cluster elects another in about five seconds (median
//! 5.6 s measured, ops/cluster). Meanwhile a publish either finds nobody answering on the
//! stream's subjects ("no responders") or waits for an acknowledgement the dead leader never
//! sends. A single attempt bounded by the whole request timeout left writes stopped for about
//! ten seconds after a kill; here each attempt is bounded by `NatsConfig::attempt` and tried
//! again after a short pause (50 ms, doubling to 500 ms) until `NatsConfig::timeout` has
//! passed, so a write lands within about a second of the new leader.
//!
//! A retried publish carries the same message id: if an earlier attempt was kept after all
//! (its acknowledgement lost), the stream answers the retry as a duplicate of it, never keeps
//! it twice, and [`Published::retried`] lets the caller read that duplicate as its own.

use crate::codec::{self, Refused};
use crate::NatsLog;
use async_nats::jetstream::context::PublishError;
use async_nats::jetstream::message::{PublishMessage, StreamMessage};
use async_nats::jetstream::publish::PublishAck;
use async_nats::jetstream::stream::LastRawMessageErrorKind;
use std::time::{Duration, Instant};
use store::{Result, StoreError};

/// The first pause before an attempt is made again; it doubles up to [`MAX_PAUSE`].
const FIRST_PAUSE: Duration = Duration::from_millis(50);
const MAX_PAUSE: Duration = Duration::from_millis(500);

/// What a publish came to.
pub(crate) struct Published {
    pub ack: std::result::Result<PublishAck, PublishError>,
    /// Whether an earlier attempt went unanswered: a duplicate acknowledgement may then be
    /// this publish's own first attempt, kept by a leader that could not answer.
    pub retried: bool,
}

/// Pauses between attempts until `deadline`; `false` once it has passed.
struct Backoff {
    deadline: Instant,
    pause: Duration,
}

impl Backoff {
    fn new(total: Duration) -> Backoff {
        Backoff {
            deadline: Instant::now() + total,
            pause: FIRST_PAUSE,
        }
    }

    async fn again(&mut self) -> bool {
        let left = self.deadline.saturating_duration_since(Instant::now());
        if left.is_zero() {
            return false;
        }
        tokio::time::sleep(self.pause.min(left)).await;
        self.pause = (self.pause * 2).min(MAX_PAUSE);
        true
    }
}

impl NatsLog {
    /// Publishes `msg` on `subject` under the message id `id`, again while the stream is
    /// unavailable (see the module). A refusal (a conflict, a lasting error) is answered at
    /// once — except a conflict met by a retry whose place is taken by this very message: an
    /// earlier attempt was kept (its answer lost or late) and a server that checks the
    /// expected sequence before the message id says 10071; that is this publish's success.
    pub(crate) async fn publish(
        &self,
        subject: String,
        msg: PublishMessage,
        id: Option<String>,
    ) -> Published {
        let msg = match &id {
            Some(id) => msg.message_id(id.as_str()),
            None => msg,
        };
        let mut backoff = Backoff::new(self.config.timeout);
        let mut retried = false;
        loop {
            let ack = match self.js.send_publish(subject.clone(), msg.clone()).await {
                Ok(pending) => pending.await,
                Err(e) => Err(e),
            };
            let refused = ack.as_ref().err().map(codec::refused);
            if matches!(refused, Some(Refused::Unavailable(_))) && backoff.again().await {
                retried = true;
                continue;
            }
            if retried && matches!(refused, Some(Refused::Conflict)) {
                if let Some(kept) = self.kept_as_last(&subject, id.as_deref()).await {
                    return Published {
                        ack: Ok(kept),
                        retried,
                    };
                }
            }
            return Published { ack, retried };
        }
    }

    /// The last message on `subject`, as an acknowledgement, if it carries the message id `id`.
    async fn kept_as_last(&self, subject: &str, id: Option<&str>) -> Option<PublishAck> {
        let id = id?;
        let last = self.last_on(subject).await.ok()??;
        let same = last
            .headers
            .get("Nats-Msg-Id")
            .is_some_and(|v| v.as_str() == id);
        same.then(|| PublishAck {
            stream: self.config.stream.clone(),
            sequence: last.sequence,
            duplicate: true,
            ..Default::default()
        })
    }

    /// A request to the cluster (`ask`, made afresh each time) until it answers or
    /// `NatsConfig::timeout` has passed: for reads, which write nothing and may be asked
    /// again whatever went wrong.
    pub(crate) async fn asking<T, E, F, Fut>(&self, mut ask: F) -> Result<T>
    where
        E: std::fmt::Display,
        F: FnMut() -> Fut,
        Fut: std::future::Future<Output = std::result::Result<T, E>>,
    {
        let mut backoff = Backoff::new(self.config.timeout);
        loop {
            match ask().await {
                Ok(t) => return Ok(t),
                Err(e) => {
                    if !backoff.again().await {
                        return Err(codec::unavailable(e));
                    }
                }
            }
        }
    }

    /// The last message on a subject, `None` when it has none: one attempt, bounded by
    /// `NatsConfig::attempt` (for a check that has an answer to fall back on).
    pub(crate) async fn last_once(&self, subject: &str) -> Result<Option<StreamMessage>> {
        let ask = self.stream.get_last_raw_message_by_subject(subject);
        match tokio::time::timeout(self.config.attempt, ask).await {
            Ok(Ok(m)) => Ok(Some(m)),
            Ok(Err(e)) if e.kind() == LastRawMessageErrorKind::NoMessageFound => Ok(None),
            Ok(Err(e)) => Err(codec::unavailable(e)),
            Err(e) => Err(codec::unavailable(e)),
        }
    }

    /// The last message on a subject, `None` when it has none; asked again while the stream
    /// has no leader to answer.
    pub(crate) async fn last_on(&self, subject: &str) -> Result<Option<StreamMessage>> {
        let mut backoff = Backoff::new(self.config.timeout);
        loop {
            match self.stream.get_last_raw_message_by_subject(subject).await {
                Ok(m) => return Ok(Some(m)),
                Err(e) if e.kind() == LastRawMessageErrorKind::NoMessageFound => return Ok(None),
                Err(e) if e.kind() == LastRawMessageErrorKind::InvalidSubject => {
                    return Err(StoreError::BadInput(format!("subject {subject}: {e}")))
                }
                Err(e) => {
                    if !backoff.again().await {
                        return Err(codec::unavailable(e));
                    }
                }
            }
        }
    }
}
