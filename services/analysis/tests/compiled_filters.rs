//! The compiled filter and the CEL interpreter agree: on random filters over every position
//! of sample games, the index's answer (guards, then the expression compiled over columns,
//! then the interpreter where the compiled one cannot decide) equals the interpreter's alone,
//! errors included.

use analysis::positions::columns::Rows;
use analysis::positions::{BlockView, Filter, Scratch};
use analysis::Analysis;
use five_tribes::FiveTribes;
use rules_core::{Erased, Game, Registry};
use store::{Config, GameLog, Store};

const SAMPLE: &str = include_str!("../../../tests/data/random-samples/five-tribes.ndjson");

/// A small generator of filters over Five Tribes' features: integers, comparisons, logic,
/// macros over seats (nested), operations that fail (overflow, division by zero, a seat out
/// of range), and now and then something only the interpreter runs.
struct Gen(u64);

impl Gen {
    fn next(&mut self, n: u64) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0 % n
    }

    fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[self.next(items.len() as u64) as usize]
    }

    fn int(&mut self, depth: u32, bound: &[String]) -> String {
        let leaf = depth == 0 || self.next(3) == 0;
        if leaf {
            return match self.next(8) {
                0 => self.next(12).to_string(),
                1 => self
                    .pick(&["9223372036854775807", "-9223372036854775807", "0", "1"])
                    .to_string(),
                2 | 3 if !bound.is_empty() => {
                    let v = &bound[self.next(bound.len() as u64) as usize];
                    let f = self.pick(&["gold", "viziers", "elders", "score", "tiles", "seat"]);
                    format!("{v}.{f}")
                }
                4 => format!(
                    "seats[{}].{}",
                    self.next(6) as i64 - 1,
                    self.pick(&["gold", "viziers", "cards"])
                ),
                5 => "size(seats)".to_string(),
                _ => self
                    .pick(&["round", "ply", "to_act", "players", "bag", "palms_left"])
                    .to_string(),
            };
        }
        let d = depth - 1;
        match self.next(4) {
            0 => format!("-({})", self.int(d, bound)),
            1 => format!(
                "({} ? {} : {})",
                self.boolean(d, bound),
                self.int(d, bound),
                self.int(d, bound)
            ),
            _ => {
                let op = self.pick(&["+", "-", "*", "/", "%"]);
                format!("({} {op} {})", self.int(d, bound), self.int(d, bound))
            }
        }
    }

    fn boolean(&mut self, depth: u32, bound: &[String]) -> String {
        if depth == 0 || self.next(4) == 0 {
            return match self.next(6) {
                0 => self.pick(&["true", "false"]).to_string(),
                1 => format!(
                    "phase {} \"{}\"",
                    self.pick(&["==", "!="]),
                    self.pick(&["bid", "turn", "over", "nope"])
                ),
                // Only the interpreter runs these.
                2 if self.next(4) == 0 => self
                    .pick(&["round in [1, 2, 3]", "double(ply) > 10.5", "round == 3u"])
                    .to_string(),
                _ => {
                    let op = self.pick(&["==", "!=", "<", "<=", ">", ">="]);
                    format!("{} {op} {}", self.int(1, bound), self.int(1, bound))
                }
            };
        }
        let d = depth - 1;
        match self.next(7) {
            0 => format!("!({})", self.boolean(d, bound)),
            1 => format!("({} || {})", self.boolean(d, bound), self.boolean(d, bound)),
            2 => format!(
                "(({}) == ({}))",
                self.boolean(d, bound),
                self.boolean(d, bound)
            ),
            3 if bound.len() < 2 => {
                let m = self.pick(&["exists", "all", "exists_one"]);
                let v = format!("s{}", bound.len());
                let mut inner = bound.to_vec();
                inner.push(v.clone());
                format!("seats.{m}({v}, {})", self.boolean(d, &inner))
            }
            _ => format!("({} && {})", self.boolean(d, bound), self.boolean(d, bound)),
        }
    }
}

#[test]
fn compiled_and_interpreted_filters_agree_on_random_filters() {
    let dir = tempfile::tempdir().unwrap();
    let registry = Registry::new().with(Erased::<FiveTribes>::new());
    let store = Store::open(dir.path(), registry, Config::default()).unwrap();
    let analysis = Analysis::attach(&store, [7; 16]).unwrap();
    for (i, line) in SAMPLE.lines().take(4).enumerate() {
        store.import_line(i as u64 + 1, line).unwrap();
    }
    let blocks: Vec<Vec<u8>> = analysis
        .positions()
        .read_blocks(rules_core::GameKind::FiveTribes)
        .unwrap()
        .into_iter()
        .map(|(_, b)| b)
        .collect();
    assert_eq!(blocks.len(), 4);
    let schema = FiveTribes::feature_schema();
    let mut gen = Gen(0x2545_F491_4F6C_DD1D);
    let (mut tried, mut compiled, mut decided_by_compiled, mut errors) = (0, 0, 0u64, 0u64);
    let mut scratch = Scratch::default();
    let mut rows = Rows::default();
    while tried < 400 {
        let src = gen.boolean(4, &[]);
        let Ok(f) = Filter::compile(&src, schema) else {
            continue;
        };
        tried += 1;
        compiled += usize::from(f.is_compiled());
        for bytes in &blocks {
            let view = BlockView::parse(bytes).unwrap();
            f.prepare(&view, &mut scratch);
            rows.begin(&view);
            for ply in 0..view.rows as u32 {
                let fast = f.matches_at(&view, ply, &mut scratch, &|| "g".into());
                let pos = rows.position(&view, &schema, ply).unwrap();
                let slow = f.interpret(&pos, &|| "g".into());
                assert_eq!(fast, slow, "filter `{src}` at ply {ply}");
                errors += u64::from(slow.is_err());
                decided_by_compiled += u64::from(f.is_compiled() && slow.is_ok());
            }
        }
    }
    // The generator reaches both paths and errors: otherwise this test could not fail.
    assert!(
        compiled > 200,
        "only {compiled} of {tried} filters compiled"
    );
    assert!(
        compiled < tried,
        "every filter compiled: the fallback was never tried"
    );
    assert!(errors > 1000, "only {errors} evaluations failed");
    assert!(decided_by_compiled > 10_000);
}
