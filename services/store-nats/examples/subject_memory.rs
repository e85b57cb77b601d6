//! Fills a JetStream stream shaped like Ludolog's for `ops/bench/nats-subjects.sh`, which
//! measures the server's memory per subject: `live` writes N games the way games in play
//! are kept (a header subject and an entries subject each: 2 N subjects), `sealed` the same
//! games as sealed records (one subject for all), `info` prints the stream's counts.
//!
//! `cargo run --release -p store-nats --example subject_memory -- nats://127.0.0.1:4222 live 100000`

use async_nats::jetstream::{self, stream};

/// A game's size on the wire, about a real Five Tribes game's: a 400-byte header and 150
/// entries of 60 bytes.
const HEADER: usize = 400;
const ENTRIES: usize = 150;
const ENTRY: usize = 60;

#[tokio::main(flavor = "current_thread")]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().collect();
    let [_, url, mode, n] = args.as_slice() else {
        return Err("usage: subject_memory URL live|sealed|info N".into());
    };
    let n: u64 = n.parse()?;
    let js = jetstream::new(async_nats::connect(url.as_str()).await?);
    let mut s = js
        .get_or_create_stream(stream::Config {
            name: "MEM".into(),
            subjects: vec!["mem.>".into()],
            storage: stream::StorageType::File,
            ..Default::default()
        })
        .await?;
    let mut pending = Vec::new();
    for g in 0..n {
        let id = format!("{:013}", g);
        let publish = |subject: String, bytes: usize| {
            let js = js.clone();
            async move { js.publish(subject, vec![b'x'; bytes].into()).await }
        };
        match mode.as_str() {
            "live" => {
                pending.push(publish(format!("mem.g.{id}"), HEADER).await?);
                // Entries as one message per entry on the game's second subject; the
                // subject count, not the message count, is what is measured.
                for _ in 0..ENTRIES / 50 {
                    pending.push(publish(format!("mem.e.{id}"), 50 * ENTRY).await?);
                }
            }
            "sealed" => {
                pending.push(publish("mem.archive".into(), HEADER + ENTRIES * ENTRY).await?)
            }
            "info" => break,
            other => return Err(format!("unknown mode {other}").into()),
        }
        if pending.len() >= 2000 {
            for p in pending.drain(..) {
                p.await?;
            }
        }
    }
    for p in pending.drain(..) {
        p.await?;
    }
    let info = s.info().await?;
    println!(
        "messages={} subjects={} bytes={}",
        info.state.messages, info.state.subjects_count, info.state.bytes
    );
    Ok(())
}
