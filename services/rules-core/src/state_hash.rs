//! The keyed hash of a game state: SipHash-1-3 of the bytes `GameState::encode` writes (the
//! rules version, a 0, the postcard body), computed while serialising, without the bytes.

use serde::Serialize;
use std::hash::Hasher;

/// A state's postcard bytes as a game writes them by hand ([`crate::Game::encode_by_hand`]),
/// with postcard's own primitives (a byte, a varint, a string, a run of raw bytes). The
/// buffer is reused from one state to the next (see [`HashBytes::with`]): neither allocated
/// nor zeroed per position.
#[derive(Debug, Default)]
pub struct HashBytes {
    buf: Vec<u8>,
}

thread_local! {
    static BYTES: std::cell::RefCell<HashBytes> = std::cell::RefCell::new(HashBytes::default());
}

impl HashBytes {
    /// Runs `f` with this thread's buffer, emptied.
    pub fn with<R>(f: impl FnOnce(&mut HashBytes) -> R) -> R {
        BYTES.with_borrow_mut(|b| {
            b.buf.clear();
            f(b)
        })
    }

    /// The bytes written so far.
    pub fn as_slice(&self) -> &[u8] {
        &self.buf
    }

    /// Raw bytes, as postcard writes a `u8`, a `bool` or a fixed-size array of `u8`s.
    #[inline]
    pub fn bytes(&mut self, b: &[u8]) {
        self.buf.extend_from_slice(b);
    }

    #[inline]
    pub fn byte(&mut self, b: u8) {
        self.buf.push(b);
    }

    /// An unsigned integer as postcard's varint (seven bits a byte, low first), which is how
    /// it writes `u16`, `u32`, `u64`, `usize`, sequence lengths and enum variant indices.
    #[inline]
    pub fn varint(&mut self, mut v: u64) {
        while v >= 0x80 {
            self.buf.push((v as u8) | 0x80);
            v >>= 7;
        }
        self.byte(v as u8)
    }

    /// A string: its length as a varint, then its bytes.
    #[inline]
    pub fn str(&mut self, s: &str) {
        self.str_bytes(s.as_bytes());
    }

    /// A string given as its UTF-8 bytes (a text made on the stack).
    #[inline]
    pub fn str_bytes(&mut self, s: &[u8]) {
        self.varint(s.len() as u64);
        self.bytes(s);
    }
}

/// [`keyed_hash`] of a state whose body `body` holds, written by hand: the same hash.
pub(crate) fn keyed_hash_of_bytes(key: [u8; 16], version: &str, body: &[u8]) -> u64 {
    let mut h = siphasher::sip::SipHasher13::new_with_key(&key);
    h.write(version.as_bytes());
    h.write(&[0]);
    h.write(body);
    h.finish()
}

/// The keyed hash of what [`crate::GameState::encode`] writes for `value` (the rules version, a 0,
/// the postcard body), fed to the hasher as it is serialised: the position index hashes every
/// ply of every game it indexes, and an allocation per ply was a tenth of an import's time.
pub(crate) fn keyed_hash<T: Serialize>(key: [u8; 16], version: &str, value: &T) -> u64 {
    let mut h = siphasher::sip::SipHasher13::new_with_key(&key);
    h.write(version.as_bytes());
    h.write(&[0]);
    let prefix_only = h;
    postcard::serialize_with_flavor(value, HashFlavor::new(h))
        // What `encode` stores when serialising fails: the prefix alone.
        .unwrap_or_else(|_| prefix_only.finish())
}

/// A postcard output that hashes the bytes instead of keeping them: the same hash as writing
/// the serialised bytes to the hasher at once (SipHash is a stream), without the allocation.
/// Bytes pass through a small buffer, since postcard writes one field at a time.
struct HashFlavor {
    hasher: siphasher::sip::SipHasher13,
    buf: [u8; 256],
    len: usize,
}

impl HashFlavor {
    fn new(hasher: siphasher::sip::SipHasher13) -> HashFlavor {
        HashFlavor {
            hasher,
            buf: [0; 256],
            len: 0,
        }
    }

    fn flush(&mut self) {
        self.hasher.write(&self.buf[..self.len]);
        self.len = 0;
    }
}

// `#[inline]`: postcard's serialiser is instantiated in each game's crate, and without it every
// byte of every state hashed (every position an import indexes) was a call into this crate.
impl postcard::ser_flavors::Flavor for HashFlavor {
    type Output = u64;

    #[inline]
    fn try_push(&mut self, data: u8) -> postcard::Result<()> {
        if self.len == self.buf.len() {
            self.flush();
        }
        self.buf[self.len] = data;
        self.len += 1;
        Ok(())
    }

    #[inline]
    fn try_extend(&mut self, data: &[u8]) -> postcard::Result<()> {
        if self.len + data.len() > self.buf.len() {
            self.flush();
        }
        if data.len() >= self.buf.len() {
            self.hasher.write(data);
        } else {
            self.buf[self.len..self.len + data.len()].copy_from_slice(data);
            self.len += data.len();
        }
        Ok(())
    }

    fn finalize(mut self) -> postcard::Result<u64> {
        self.flush();
        Ok(self.hasher.finish())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// What `state_hash` hashed before it streamed: the encoded bytes, written at once.
    fn hash_of_encoded<T: Serialize>(key: [u8; 16], version: &str, value: &T) -> u64 {
        let mut bytes = version.as_bytes().to_vec();
        bytes.push(0);
        bytes.extend(postcard::to_allocvec(value).unwrap());
        let mut h = siphasher::sip::SipHasher13::new_with_key(&key);
        h.write(&bytes);
        h.finish()
    }

    proptest! {
        /// Stored position hashes stay valid: streaming gives the hash of the encoded bytes,
        /// for fields of every size around the buffer's (small, split, larger than it).
        #[test]
        fn a_streamed_hash_is_the_hash_of_the_encoded_bytes(
            key in any::<[u8; 16]>(),
            version in "[a-z0-9.]{0,12}",
            value in any::<(u8, Vec<u8>, String, Vec<u64>, Option<i32>)>(),
            big in proptest::collection::vec(any::<u8>(), 200..700),
        ) {
            prop_assert_eq!(keyed_hash(key, &version, &value), hash_of_encoded(key, &version, &value));
            let both = (&value, &big, &value);
            prop_assert_eq!(keyed_hash(key, &version, &both), hash_of_encoded(key, &version, &both));
        }
    }
}
