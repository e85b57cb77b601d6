//! Parsing and checking the data files: counts the rules texts give, ids that must resolve,
//! values the state can hold.

use super::rows::*;
use super::*;
use crate::ids::{Company, Unit, COLUMNS, DECK_CARDS, DISPLAY, MAX_SEATS, OWN_CARDS, REGIONS};

fn letter_index(s: &str, letters: &str) -> Result<u8, String> {
    let mut ch = s.chars();
    match (ch.next(), ch.next()) {
        (Some(c), None) => letters
            .find(c)
            .map(|i| i as u8)
            .ok_or_else(|| format!("bad letter {s}")),
        _ => Err(format!("bad letter {s}")),
    }
}

fn border_kind(s: &str) -> Result<u8, String> {
    match s {
        "single" => Ok(1),
        "double" => Ok(2),
        _ => Err(format!("bad border {s}")),
    }
}

fn company(s: &str) -> Result<Company, String> {
    Company::from_slug(s).ok_or_else(|| format!("unknown company {s}"))
}

fn unit(s: &str) -> Result<Unit, String> {
    Unit::from_code(s).ok_or_else(|| format!("unknown unit {s}"))
}

fn card(row: &CardRow) -> Result<Card, String> {
    let kind = match row.kind.as_str() {
        "goods" => {
            let u = unit(row.good.as_deref().unwrap_or(""))?;
            if !u.is_good() {
                return Err(format!("{}: not a good", row.id));
            }
            CardKind::Units(u)
        }
        "expansion" => CardKind::Units(Unit::Expansion),
        "bookkeeper" => CardKind::Bookkeeper,
        "diamond" => CardKind::Diamond {
            pounds: row.pounds,
            mines: row.mines_company.as_deref().map(company).transpose()?,
            per_mines: row.steps_per_mines,
        },
        k => return Err(format!("{}: unknown card type {k}", row.id)),
    };
    let mut shares = [0u8; 4];
    for (c, n) in &row.shares {
        shares[company(c)?.index()] = *n;
    }
    if row.value == 0 {
        return Err(format!("{}: a card is worth at least 1", row.id));
    }
    Ok(Card {
        code: row.id.clone(),
        letter: row
            .letter
            .as_deref()
            .map(|l| letter_index(l, "ABCDE"))
            .transpose()?,
        kind,
        value: row.value,
        cost: row.cost,
        shares,
    })
}

fn value_track(row: &ValueTrackRow) -> Result<ValueTrack, String> {
    if row.length == 0 || usize::from(row.length) > MAX_TRACK {
        return Err("bad track length".into());
    }
    let mut values = vec![None; usize::from(row.length)];
    for v in &row.values {
        *values
            .get_mut(usize::from(v.at))
            .ok_or("track value past the end")? = Some(v.value);
    }
    Ok(ValueTrack {
        length: row.length,
        values,
        unlock: row.unlocks_slot_at,
    })
}

fn json_u8(v: Option<&serde_json::Value>) -> Result<u8, String> {
    v.and_then(|x| x.as_u64())
        .and_then(|x| u8::try_from(x).ok())
        .ok_or_else(|| "expected a small number".to_string())
}

/// Parses and checks the current data files into [`Components`].
pub fn parse() -> Result<Components, String> {
    parse_files(&CURRENT)
}

/// Parses and checks one version's files (in [`FILE_NAMES`] order) into [`Components`].
pub fn parse_files(files: &Files) -> Result<Components, String> {
    fn e(f: &'static str) -> impl Fn(serde_json::Error) -> String {
        move |err| format!("{f}: {err}")
    }
    let [cards_json, map_json, tracks_json, books_json, start_json, bonus_json, setup_json] =
        *files;
    let cf: CardsFile = serde_json::from_str(cards_json).map_err(e("cards.json"))?;
    let mf: MapFile = serde_json::from_str(map_json).map_err(e("map.json"))?;
    let tf: TracksFile = serde_json::from_str(tracks_json).map_err(e("tracks.json"))?;
    let bf: BooksFile = serde_json::from_str(books_json).map_err(e("books.json"))?;
    let sf: StartFile = serde_json::from_str(start_json).map_err(e("start_tiles.json"))?;
    let nf: BonusFile = serde_json::from_str(bonus_json).map_err(e("bonus.json"))?;
    let uf: SetupFile = serde_json::from_str(setup_json).map_err(e("setup.json"))?;

    let mut cards = Vec::new();
    let mut letter_mask = [0u64; 5];
    for (i, row) in cf.display_deck.iter().enumerate() {
        let c = card(row)?;
        let l = c.letter.ok_or("deck card without letter")?;
        letter_mask[usize::from(l)] |= 1 << i;
        cards.push(c);
    }
    if cards.len() != usize::from(DECK_CARDS) {
        return Err(format!("{} deck cards, expected {DECK_CARDS}", cards.len()));
    }
    if cf.start_deck.len() + 1 != usize::from(OWN_CARDS) || cf.expansion_one.len() != MAX_SEATS {
        return Err("start deck: 9 cards and 4 expansion 1 cards".into());
    }
    for seat in 0..MAX_SEATS as u8 {
        for row in &cf.start_deck {
            cards.push(card(row)?);
        }
        let one = cf
            .expansion_one
            .iter()
            .find(|r| r.seat == Some(seat))
            .ok_or("missing expansion 1 card")?;
        cards.push(card(one)?);
    }
    let mut display_price = [0u8; DISPLAY];
    if cf.display_spaces.len() != DISPLAY {
        return Err("12 display spaces".into());
    }
    for (p, row) in display_price.iter_mut().zip(&cf.display_spaces) {
        *p = row.price;
    }

    let mut regions = Vec::new();
    for (i, r) in mf.regions.iter().enumerate() {
        if usize::from(r.id) != i + 1 {
            return Err("regions must be numbered 1.. in order".into());
        }
        regions.push(RegionDef {
            name: r.name.clone(),
            reward: r.reward,
            mines: r.mines,
        });
    }
    if regions.len() != REGIONS {
        return Err(format!("{} regions, expected {REGIONS}", regions.len()));
    }
    let region_index = |id: u8| -> Result<usize, String> {
        let i = usize::from(id).wrapping_sub(1);
        if i < REGIONS {
            Ok(i)
        } else {
            Err(format!("no region {id}"))
        }
    };
    let mut border = [[0u8; REGIONS]; REGIONS];
    for b in &mf.borders {
        let (x, y) = (region_index(b.a)?, region_index(b.b)?);
        let k = border_kind(&b.border)?;
        border[x][y] = k;
        border[y][x] = k;
    }
    let mut base_border = [[0u8; REGIONS]; 4];
    let mut first_game_side = [0u8; 4];
    let mut seen = [false; 4];
    let side_names: Vec<&str> = tf.company_sides.iter().map(|s| s.side.as_str()).collect();
    for c in &mf.companies {
        let co = company(&c.id)?;
        seen[co.index()] = true;
        for b in &c.base_borders {
            base_border[co.index()][region_index(b.region)?] = border_kind(&b.border)?;
        }
        first_game_side[co.index()] = side_names
            .iter()
            .position(|s| *s == c.first_game_track)
            .ok_or("unknown first-game track")? as u8;
    }
    if seen.contains(&false) {
        return Err("every company needs a base".into());
    }
    let lay = &mf.base_layout;
    if usize::from(lay.columns) != COLUMNS
        || lay.coins_front_to_rear.len() != 5
        || lay.recoverable_front_to_rear.len() != 5
    {
        return Err("base layout: 3 columns of 5 spaces".into());
    }
    let mut base_coins = [0u8; 5];
    base_coins.copy_from_slice(&lay.coins_front_to_rear);
    let mut base_recoverable = [false; 5];
    base_recoverable.copy_from_slice(&lay.recoverable_front_to_rear);

    let mut sides = Vec::new();
    for s in &tf.company_sides {
        if s.length < 2 || usize::from(s.length) > MAX_TRACK {
            return Err(format!("side {}: bad length", s.side));
        }
        let n = usize::from(s.length);
        let mut shares = vec![0u8; n];
        for a in &s.shares {
            *shares
                .get_mut(usize::from(a.at))
                .ok_or("share past the end")? = a.shares;
        }
        let mut rewards = vec![Reward::default(); n];
        for r in &s.rewards {
            let slot = rewards
                .get_mut(usize::from(r.at))
                .ok_or("reward past the end")?;
            slot.pounds = r.pounds;
            slot.diamonds = r.diamonds;
            slot.bonus_marker = r.bonus_marker;
        }
        sides.push(Side {
            name: s.side.clone(),
            length: s.length,
            shares,
            rewards,
        });
    }
    if sides.len() != 8 {
        return Err("8 company track sides".into());
    }

    let mut books = Vec::new();
    let mut book_letter_mask = [0u128; 3];
    for (i, b) in bf.books.iter().enumerate() {
        let letter = letter_index(&b.letter, "ABC")?;
        book_letter_mask[usize::from(letter)] |= 1 << i;
        let mut requires = [0u8; 4];
        for (k, v) in &b.requires {
            requires[unit(k)?.index()] = *v;
        }
        if b.reward.track != 0 || b.reward.bookkeeping != 0 || b.reward.bonus_marker != 0 {
            return Err(format!("book {}: pays pounds and diamonds only", b.id));
        }
        books.push(Book {
            code: b.id.clone(),
            letter,
            requires,
            reward: b.reward,
        });
    }
    if books.len() != 72 {
        return Err("72 books".into());
    }
    let mut book_space_letter = [0u8; DISPLAY];
    if bf.display_spaces.len() != DISPLAY {
        return Err("12 book display spaces".into());
    }
    for (l, s) in book_space_letter.iter_mut().zip(&bf.display_spaces) {
        *l = letter_index(&s.letter, "ABC")?;
    }
    let costs = &bf.bookkeeping_point_costs;
    let book_cost = [
        json_u8(costs.get("A"))?,
        json_u8(costs.get("B"))?,
        json_u8(costs.get("C"))?,
    ];
    if book_cost.contains(&0) || json_u8(costs.get("pound"))? != 1 {
        return Err("book costs".into());
    }

    let mut start_tiles = Vec::new();
    let start_index = |code: &str| -> Result<u8, String> {
        cf.start_deck
            .iter()
            .position(|r| r.id == code)
            .map(|i| i as u8)
            .or((code == "X").then_some(OWN_CARDS - 1))
            .ok_or_else(|| format!("unknown start card {code}"))
    };
    for t in &sf.tiles {
        if t.rest_cards.len() != 3 {
            return Err(format!("{}: three rest cards", t.id));
        }
        let mut rest = [0u8; 3];
        for (r, code) in rest.iter_mut().zip(&t.rest_cards) {
            *r = start_index(code)?;
        }
        if rest[0] == rest[1] || rest[1] == rest[2] || rest[0] == rest[2] {
            return Err(format!("{}: three different rest cards", t.id));
        }
        let mut track = None;
        let mut diamonds = 0;
        for (k, v) in &t.bonus {
            match k.as_str() {
                "track" => {
                    let steps = json_u8(t.bonus.get("steps"))?;
                    track = Some((company(v.as_str().unwrap_or(""))?, steps));
                }
                "steps" => {}
                "diamonds" => diamonds = json_u8(Some(v))?,
                _ => return Err(format!("{}: unknown bonus {k}", t.id)),
            }
        }
        start_tiles.push(StartTileDef {
            code: t.id.clone(),
            rest,
            track,
            diamonds,
            first_game_seat: t.first_game_seat,
        });
    }
    if start_tiles.len() != START_TILES {
        return Err("10 start tiles".into());
    }
    for seat in 0..MAX_SEATS as u8 {
        if start_tiles
            .iter()
            .filter(|t| t.first_game_seat == Some(seat))
            .count()
            != 1
        {
            return Err("one first-game start tile per seat".into());
        }
    }

    let mut bonus_tiles = Vec::new();
    for t in &nf.tiles {
        bonus_tiles.push(BonusTile {
            code: t.id.clone(),
            unit: unit(&t.kind)?,
            value: t.value,
        });
    }
    let mut bonus = Vec::new();
    for s in &nf.spaces {
        let kind = match s.kind.as_str() {
            "first_player" => BonusKind::FirstPlayer {
                bookkeeping: s.bookkeeping,
            },
            "buy_card" => BonusKind::BuyCard { fee: s.fee },
            "sell_card" => BonusKind::SellCard { per_red: s.per_red },
            "majority" => BonusKind::Majority {
                of: unit(s.of.as_deref().unwrap_or(""))?,
                steps: s.track_steps,
                tile: bonus_tiles
                    .iter()
                    .position(|t| Some(t.code.as_str()) == s.tile.as_deref())
                    .ok_or("majority space without a known tile")? as u8,
            },
            k => return Err(format!("unknown bonus kind {k}")),
        };
        bonus.push(BonusSpace {
            code: s.id.clone(),
            kind,
        });
    }
    if bonus.len() > MAX_BONUS || bonus_tiles.len() > 8 {
        return Err("too many bonus spaces or tiles".into());
    }
    let mut markers_start = [0u8; 5];
    for (p, m) in markers_start.iter_mut().enumerate().skip(2) {
        *m = *nf.markers.start.get(&p.to_string()).ok_or("markers")?;
    }
    let mut round_coins = [[0u8; 6]; 5];
    for (p, coins) in round_coins.iter_mut().enumerate().skip(2) {
        let row = uf
            .round_track_coins
            .get(&p.to_string())
            .and_then(|v| v.as_array())
            .ok_or("round-track coins")?;
        if row.len() != 6 {
            return Err("coins for round-track spaces 2..7".into());
        }
        for (c, v) in coins.iter_mut().zip(row) {
            *c = json_u8(Some(v))?;
            if *c > 2 {
                return Err("at most 2 coins a space".into());
            }
        }
    }
    let diamond = value_track(&tf.diamond_track)?;
    let bookkeeping = value_track(&tf.bookkeeping_track)?;
    if usize::from(bookkeeping.length) > MAX_BOOKS + 1 {
        return Err("bookkeeping track too long".into());
    }
    if tf.action_slots.max != 5 || tf.action_slots.start != 3 {
        return Err("3 action slots growing to 5".into());
    }
    Ok(Components {
        cards,
        letter_mask,
        display_price,
        regions,
        border,
        base_border,
        first_game_side,
        base_coins,
        base_recoverable,
        sides,
        diamond_overflow: tf.diamond_track.overflow_pounds_per_step,
        diamond,
        bookkeeping,
        slots_start: tf.action_slots.start,
        books,
        book_letter_mask,
        book_space_letter,
        book_cost,
        start_tiles,
        bonus,
        bonus_tiles,
        markers_max: nf.markers.per_player,
        markers_start,
        round_coins,
        start_pounds: json_u8(uf.start_pounds.get("value"))?,
        rounds: json_u8(uf.rounds.get("value"))?,
    })
}
