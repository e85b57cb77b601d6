use rules_core::Notation;
fn main() {
    let kind = std::env::args().nth(1).unwrap();
    let reps: usize = std::env::args().nth(2).unwrap().parse().unwrap();
    let text = std::fs::read_to_string("/tmp/callog.txt").unwrap();
    let lines: Vec<&str> = text
        .lines()
        .filter_map(|l| {
            let mut f = l.split('\t');
            f.next();
            let d = f.next()?;
            let t = f.next()?;
            (d == "S" && t.split(' ').next() == Some(kind.as_str())).then_some(t)
        })
        .collect();
    let mut n = 0;
    for t in &lines {
        std::hint::black_box(caledonia::Caledonia::read_move(t));
    }
    for _ in 0..reps {
        for t in &lines {
            if std::hint::black_box(caledonia::Caledonia::read_move(std::hint::black_box(t)))
                .is_some()
            {
                n += 1;
            }
        }
    }
    println!("{} {}", lines.len(), n);
}
