//! The deployment's state-hash key on the stream (`<prefix>.key`, one message: the key in
//! hexadecimal), so that every node serving the logs keys `stateHash`, its position index and
//! its explorer alike: a hash read through one node finds the same positions through another.
//!
//! The first node that finds no key publishes the one it proposes, expecting the subject to
//! be empty; of nodes racing, one wins and the others read its key. The key is as secret as
//! the logs: whoever may read the stream may read it (and could read every game anyway).

use crate::codec::{self, Refused};
use crate::NatsLog;
use async_nats::jetstream::message::PublishMessage;
use store::{Result, StoreError};

impl NatsLog {
    fn subject_key(&self) -> String {
        format!("{}.key", self.config.prefix)
    }

    /// The key on the stream, `proposed` published first if there is none.
    pub(crate) fn key_on_stream(&self, proposed: [u8; 16]) -> Result<[u8; 16]> {
        self.rt.block_on(async {
            for _ in 0..2 {
                if let Some(m) = self.last_on(&self.subject_key()).await? {
                    return decode(&m.payload);
                }
                let msg = PublishMessage::build()
                    .payload(hex::encode(proposed).into_bytes().into())
                    .expected_last_subject_sequence(0);
                match self.publish(self.subject_key(), msg, None).await.ack {
                    Ok(_) => return Ok(proposed),
                    // Another node's key got there first: read it.
                    Err(e) if matches!(codec::refused(&e), Refused::Conflict) => continue,
                    Err(e) => return Err(StoreError::Unavailable(e.to_string())),
                }
            }
            Err(StoreError::Unavailable(
                "the deployment's state-hash key could not be read or written".into(),
            ))
        })
    }
}

fn decode(payload: &[u8]) -> Result<[u8; 16]> {
    std::str::from_utf8(payload)
        .ok()
        .and_then(|t| hex::decode(t.trim()).ok())
        .and_then(|b| <[u8; 16]>::try_from(b.as_slice()).ok())
        .ok_or_else(|| {
            StoreError::BadInput(
                "the stream's state-hash key (subject <prefix>.key) is not 32 hexadecimal digits"
                    .into(),
            )
        })
}
