//! Prints an assembled map (debugging aid): terrain, land cost, lochs, ports, rivers, deltas.
use caledonia::ids::{Hex, COLS, ROWS};
use caledonia::map::{map, Mode, DIRS};

fn main() {
    let players: u8 = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(3);
    let m = map([1, 1, 1, 1], Mode::of(players));
    for r in 0..ROWS {
        let mut line = String::new();
        if r % 2 == 1 {
            line.push_str("    ");
        }
        for c in 0..COLS {
            let h = Hex(r * COLS + c);
            let b = h.bit();
            let t = if m.port_mask & b != 0 {
                "PORT".to_string()
            } else if m.loch & b != 0 {
                "~~~~".to_string()
            } else if m.land & b != 0 {
                let mut s = String::new();
                s.push(if m.grass & b != 0 { 'G' } else { '.' });
                s.push(if m.forest & b != 0 { 'F' } else { '.' });
                s.push(if m.mountain & b != 0 { 'M' } else { '.' });
                s.push(char::from(b'0' + m.cost[usize::from(h.0)]));
                s
            } else if m.blocked & b != 0 {
                "XXXX".into()
            } else {
                "    ".into()
            };
            let d = if m.delta & b != 0 { '*' } else { ' ' };
            let bo = if m.border & b != 0 { '#' } else { ' ' };
            line.push_str(&format!("{h:>3}:{t}{d}{bo}"));
        }
        println!("{line}");
    }
    for i in 0..caledonia::ids::HEXES {
        let river = m.adj[i] & !m.adj_dry[i];
        if river != 0 {
            let names: Vec<String> = caledonia::ids::bits(river).map(|h| h.to_string()).collect();
            println!("river: {} | {}", Hex(i as u8), names.join(" "));
        }
    }
    let _ = DIRS;
}
