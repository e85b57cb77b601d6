//! The layout: what a viewer needs to draw Mombasa and is in no view. The map (the 24
//! regions at schematic positions, their borders, the company bases and the base borders),
//! the company track sides, the diamond and bookkeeping tracks, the action slots, the card and
//! book display spaces, the bonus spaces and tiles and the round track.
//!
//! Numbers come from the current component data, `reconstructed` flags from the data files'
//! items (an item without a flag counts as reconstructed: nothing is presented as verified by
//! default). The map's drawing coordinates are ours (`data/mombasa/layout.json`), so every map
//! item is flagged whatever its data says.

use super::geometry::{self, Line, Point, Rect};
use crate::data::{self, BonusKind as DataBonus, Components};
use crate::ids::{BookSpace, DisplayPos, COLUMNS, REGIONS};
use crate::view::{base_space_id, BookLetter, CompanyId, Good, Reward};
use schemars::JsonSchema;
use serde::Serialize;
use serde_json::Value;

/// The static geometry of a Mombasa game: how to draw the board the views put pieces on.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Layout {
    /// Seats at the table.
    pub players: u8,
    /// Rounds in a game.
    pub rounds: u8,
    /// The map: regions, borders and company bases, with schematic drawing coordinates.
    pub map: Map,
    /// The eight company track sides (a view's company names the side it plays with).
    pub track_sides: Vec<TrackSide>,
    /// Each seat's diamond track.
    pub diamond_track: ValueTrack,
    /// Each seat's bookkeeping track (books lie on spaces 1 on).
    pub bookkeeping_track: ValueTrack,
    /// Action slots: how many are open at first and at most.
    pub action_slots: ActionSlots,
    /// The card display's 12 spaces.
    pub display_spaces: Vec<DisplaySpaceLayout>,
    /// The book display's 12 spaces (below round-track spaces 2 to 7).
    pub book_spaces: Vec<BookSpaceLayout>,
    /// The bonus spaces.
    pub bonus_spaces: Vec<BonusSpaceLayout>,
    /// The bonus tiles.
    pub bonus_tiles: Vec<BonusTileLayout>,
    /// The round track, with the coins set out for this player count.
    pub round_track: Vec<RoundSpaceLayout>,
}

/// The map, in board units (x to the right, y down), drawn schematically.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Map {
    /// Width of the drawing.
    pub width: u16,
    /// Height of the drawing.
    pub height: u16,
    /// The regions, 1 first.
    pub regions: Vec<RegionLayout>,
    /// The borders between regions (each pair once).
    pub borders: Vec<Border>,
    /// The four company bases.
    pub bases: Vec<Base>,
    /// Always true: the drawing is a schematic, not the printed board.
    pub reconstructed: bool,
}

/// A region of the map.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct RegionLayout {
    /// The region (1..24; the view's `map` names it).
    pub id: u8,
    /// Its name.
    pub name: String,
    /// Its row in the schematic grid (0 at the top).
    pub row: u8,
    /// Its column in the schematic grid (0 at the left).
    pub column: u8,
    /// Where to draw it.
    pub rect: Rect,
    /// What entering it pays.
    pub reward: Reward,
    /// Mine icons (for diamond traders).
    pub mines: u8,
    /// Whether the region's contents or position are reconstructed.
    pub reconstructed: bool,
}

/// `single` (costs 1 expansion point to cross) or `double` (2).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum BorderKind {
    Single,
    Double,
}

/// A border between two regions.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Border {
    /// One region.
    pub a: u8,
    /// The other.
    pub b: u8,
    /// What crossing it costs.
    pub kind: BorderKind,
    /// The line between the two regions, across the gap between their rectangles.
    pub line: Line,
    /// Whether the border is reconstructed.
    pub reconstructed: bool,
}

/// The colour of a company's trading posts: `black`, `red`, `white` or `orange`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Colour {
    Black,
    Red,
    White,
    Orange,
}

/// A company base: 3 columns of 5 spaces, a trading post on each at the start.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Base {
    /// The company.
    pub company: CompanyId,
    /// Its name.
    pub name: String,
    /// The colour of its trading posts.
    pub colour: Colour,
    /// The track side it uses without the track cards option.
    pub first_game_side: String,
    /// Where to draw the base (its spaces are a grid of columns × spaces inside it).
    pub rect: Rect,
    /// The spaces, column by column, front (nearest the map) first.
    pub spaces: Vec<BaseSpaceLayout>,
    /// The regions bordering the base, each with a connector to draw.
    pub borders: Vec<BaseBorder>,
    /// Whether the base's borders or position are reconstructed.
    pub reconstructed: bool,
}

/// A space of a base.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct BaseSpaceLayout {
    /// The space (`c1s1`: column 1, space 1; the view's base names it).
    pub id: String,
    /// Its column, 1 to 3.
    pub column: u8,
    /// Its place in the column, 1 (the front, left first) to 5 (the rear).
    pub space: u8,
    /// Coins printed on it: uncovered, they add to the company's share value.
    pub coins: u8,
    /// Whether a displaced post may come back onto it.
    pub recoverable: bool,
    /// Whether the space's contents are reconstructed.
    pub reconstructed: bool,
}

/// A region bordering a base.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct BaseBorder {
    /// The region.
    pub region: u8,
    /// What entering it from the base costs.
    pub kind: BorderKind,
    /// A connector from the base to the region.
    pub line: Line,
    /// Whether the border is reconstructed.
    pub reconstructed: bool,
}

/// A company track side.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct TrackSide {
    /// The side (`A1`..`D2`).
    pub id: String,
    /// Its spaces, 0 (the start) first.
    pub spaces: Vec<TrackSpace>,
    /// Whether the side's contents are reconstructed.
    pub reconstructed: bool,
}

/// A space of a company track.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct TrackSpace {
    /// The space (0 = start; a view's marker names it).
    pub space: u8,
    /// The share icon on it (0: none): a marker on or past it holds that many shares.
    pub shares: u8,
    /// What entering it pays.
    pub reward: Reward,
    /// Whether the space's contents are reconstructed.
    pub reconstructed: bool,
}

/// A seat's diamond or bookkeeping track.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct ValueTrack {
    /// Its spaces, 0 (the start) first.
    pub spaces: Vec<ValueSpace>,
    /// The space that opens an action slot when reached.
    pub unlocks_slot_at: u8,
    /// Pounds for each step past the end (0: the steps are lost).
    pub overflow_pounds: u8,
    /// Whether the track's contents are reconstructed.
    pub reconstructed: bool,
}

/// A space of a diamond or bookkeeping track.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct ValueSpace {
    /// The space (0 = start).
    pub space: u8,
    /// The points printed on it: the last value reached scores at the end.
    pub value: Option<u8>,
    /// Whether the space's contents are reconstructed.
    pub reconstructed: bool,
}

/// The action slots of every seat.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct ActionSlots {
    /// Open at the start.
    pub start: u8,
    /// Open at most (one more at each track's `unlocksSlotAt`).
    pub max: u8,
    /// Whether the counts are reconstructed.
    pub reconstructed: bool,
}

/// A card display space.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct DisplaySpaceLayout {
    /// The space (`L1`..`R4`; the view's display names it).
    pub id: String,
    /// Its column, 1 (left) to 3 (right).
    pub column: u8,
    /// Its row, 1 (top) to 4.
    pub row: u8,
    /// Its price, added to the red value of the card on it.
    pub price: u8,
    /// Its place in the order the display is filled, 1 first.
    pub fill_order: u8,
    /// Whether the space's contents are reconstructed.
    pub reconstructed: bool,
}

/// A book display space.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct BookSpaceLayout {
    /// The space (`2a`..`7b`; the view's book display names it).
    pub id: String,
    /// The round-track space above it, 2 to 7.
    pub round: u8,
    /// Its row, 1 (`a`) or 2 (`b`).
    pub row: u8,
    /// The letter of the books it is filled with.
    pub letter: BookLetter,
    /// Bookkeeping points its books cost.
    pub cost: u8,
    /// Whether the space's contents are reconstructed.
    pub reconstructed: bool,
}

/// What a bonus space does: `first-player`, `buy-card`, `sell-card` or `majority`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum BonusKind {
    FirstPlayer,
    BuyCard,
    SellCard,
    Majority,
}

/// A bonus space.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct BonusSpaceLayout {
    /// The space (`first`, `buy`, `sell`, `coffee`, ...; the view's bonus spaces name it).
    pub id: String,
    /// What it does.
    pub kind: BonusKind,
    /// First player: the bookkeeping points it gives.
    pub bookkeeping: u8,
    /// Buy card: the fee in pounds, before the card's price.
    pub fee: u8,
    /// Sell card: pounds per red value of the card sold.
    pub per_red: u8,
    /// Majority: what it counts (absent for other spaces).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(with = "Good")]
    pub majority_of: Option<Good>,
    /// Majority: the company-track steps it gives.
    pub track_steps: u8,
    /// Majority: the bonus tile it wins for the next round.
    pub tile: Option<String>,
    /// Whether the space's contents are reconstructed.
    pub reconstructed: bool,
}

/// A bonus tile: an extra card of its kind in the winner's action area for a round.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct BonusTileLayout {
    /// The tile (the view's bonus tiles name it).
    pub id: String,
    /// What it counts as.
    pub kind: Good,
    /// Its units.
    pub value: u8,
    /// Whether the tile's contents are reconstructed.
    pub reconstructed: bool,
}

/// A space of the round track.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct RoundSpaceLayout {
    /// The round, 1 to 7.
    pub round: u8,
    /// Coins set out on it at the start (they go to the book display below it when its round
    /// begins).
    pub coins: u8,
    /// Whether the count is reconstructed.
    pub reconstructed: bool,
}

/// The data files of the current version, as JSON (for the `reconstructed` flags).
struct Files {
    cards: Value,
    map: Value,
    tracks: Value,
    books: Value,
    bonus: Value,
    setup: Value,
}

fn read(text: &str) -> Value {
    serde_json::from_str(text).unwrap_or(Value::Null)
}

/// The `reconstructed` flag of a data item; `true` when it has none.
fn flag(item: &Value) -> bool {
    item.get("reconstructed")
        .and_then(Value::as_bool)
        .unwrap_or(true)
}

/// The flag of the item of `list` whose `key` is `at`, else `default`.
fn flag_at(list: &Value, key: &str, at: u64, default: bool) -> bool {
    list.as_array()
        .and_then(|l| {
            l.iter()
                .find(|x| x.get(key).and_then(Value::as_u64) == Some(at))
        })
        .map_or(default, flag)
}

fn nth(list: &Value, i: usize) -> &Value {
    list.get(i).unwrap_or(&Value::Null)
}

/// The layout of a game with `players` seats.
pub fn layout(players: u8) -> Layout {
    let c = data::components();
    let [cards, map, tracks, books, _, bonus, setup] = data::CURRENT;
    let f = Files {
        cards: read(cards),
        map: read(map),
        tracks: read(tracks),
        books: read(books),
        bonus: read(bonus),
        setup: read(setup),
    };
    let coins = &f.setup["round_track_coins"];
    let coins_row = c.round_coins[usize::from(players).min(4)];
    Layout {
        players,
        rounds: c.rounds,
        map: map_layout(c, &f),
        track_sides: c
            .sides
            .iter()
            .enumerate()
            .map(|(i, side)| {
                let json = nth(&f.tracks["company_sides"], i);
                let whole = flag(json);
                TrackSide {
                    id: side.name.clone(),
                    spaces: (0..side.length)
                        .map(|k| TrackSpace {
                            space: k,
                            shares: side.shares.get(usize::from(k)).copied().unwrap_or(0),
                            reward: side
                                .rewards
                                .get(usize::from(k))
                                .map(|&r| r.into())
                                .unwrap_or_default(),
                            reconstructed: flag_at(&json["shares"], "at", k.into(), whole)
                                || flag_at(&json["rewards"], "at", k.into(), whole),
                        })
                        .collect(),
                    reconstructed: whole,
                }
            })
            .collect(),
        diamond_track: value_track(&c.diamond, c.diamond_overflow, &f.tracks["diamond_track"]),
        bookkeeping_track: value_track(&c.bookkeeping, 0, &f.tracks["bookkeeping_track"]),
        action_slots: ActionSlots {
            start: c.slots_start,
            max: crate::ids::SLOTS as u8,
            reconstructed: flag(&f.tracks["action_slots"]),
        },
        display_spaces: (0..12u8)
            .map(|i| DisplaySpaceLayout {
                id: DisplayPos(i).code(),
                column: i / 4 + 1,
                row: i % 4 + 1,
                price: c.display_price[usize::from(i)],
                fill_order: DisplayPos::FILL_ORDER
                    .iter()
                    .position(|&p| p == i)
                    .map_or(0, |k| k as u8 + 1),
                reconstructed: flag(nth(&f.cards["display_spaces"], usize::from(i))),
            })
            .collect(),
        book_spaces: (0..12u8)
            .map(|i| {
                let letter = c.book_space_letter[usize::from(i)];
                BookSpaceLayout {
                    id: BookSpace(i).code(),
                    round: i / 2 + 2,
                    row: i % 2 + 1,
                    letter: BookLetter::of(letter),
                    cost: c.book_cost.get(usize::from(letter)).copied().unwrap_or(0),
                    reconstructed: flag(nth(&f.books["display_spaces"], usize::from(i))),
                }
            })
            .collect(),
        bonus_spaces: c
            .bonus
            .iter()
            .enumerate()
            .map(|(i, b)| bonus_space(c, b, flag(nth(&f.bonus["spaces"], i))))
            .collect(),
        bonus_tiles: c
            .bonus_tiles
            .iter()
            .enumerate()
            .map(|(i, t)| BonusTileLayout {
                id: t.code.clone(),
                kind: t.unit.into(),
                value: t.value,
                reconstructed: flag(nth(&f.bonus["tiles"], i)),
            })
            .collect(),
        round_track: (1..=c.rounds)
            .map(|round| RoundSpaceLayout {
                round,
                coins: usize::from(round)
                    .checked_sub(2)
                    .and_then(|k| coins_row.get(k))
                    .copied()
                    .unwrap_or(0),
                reconstructed: flag(coins),
            })
            .collect(),
    }
}

fn value_track(t: &data::ValueTrack, overflow: u8, json: &Value) -> ValueTrack {
    let whole = flag(json);
    ValueTrack {
        spaces: (0..t.length)
            .map(|k| ValueSpace {
                space: k,
                value: t.values.get(usize::from(k)).copied().flatten(),
                reconstructed: flag_at(&json["values"], "at", k.into(), whole),
            })
            .collect(),
        unlocks_slot_at: t.unlock,
        overflow_pounds: overflow,
        reconstructed: whole,
    }
}

fn bonus_space(c: &Components, b: &data::BonusSpace, reconstructed: bool) -> BonusSpaceLayout {
    let mut s = BonusSpaceLayout {
        id: b.code.clone(),
        kind: BonusKind::FirstPlayer,
        bookkeeping: 0,
        fee: 0,
        per_red: 0,
        majority_of: None,
        track_steps: 0,
        tile: None,
        reconstructed,
    };
    match b.kind {
        DataBonus::FirstPlayer { bookkeeping } => s.bookkeeping = bookkeeping,
        DataBonus::BuyCard { fee } => {
            s.kind = BonusKind::BuyCard;
            s.fee = fee;
        }
        DataBonus::SellCard { per_red } => {
            s.kind = BonusKind::SellCard;
            s.per_red = per_red;
        }
        DataBonus::Majority { of, steps, tile } => {
            s.kind = BonusKind::Majority;
            s.majority_of = Some(of.into());
            s.track_steps = steps;
            s.tile = c.bonus_tiles.get(usize::from(tile)).map(|t| t.code.clone());
        }
    }
    s
}

fn border_kind(k: u8) -> BorderKind {
    if k >= 2 {
        BorderKind::Double
    } else {
        BorderKind::Single
    }
}

/// The map: region rectangles from `map.json`'s grid and `layout.json`'s cell size, borders
/// across the gaps, bases and their connectors from `layout.json`.
fn map_layout(c: &Components, f: &Files) -> Map {
    let geo = geometry::Geometry::embedded();
    let cell_of = |i: usize| -> (u8, u8) {
        let g = &nth(&f.map["regions"], i)["grid"];
        let at = |k: usize| g.get(k).and_then(Value::as_u64).unwrap_or(0).min(255) as u8;
        (at(0), at(1))
    };
    let cells: Vec<(u8, u8)> = (0..REGIONS).map(cell_of).collect();
    let regions = c
        .regions
        .iter()
        .enumerate()
        .map(|(i, r)| {
            let (row, column) = cells[i];
            RegionLayout {
                id: i as u8 + 1,
                name: r.name.clone(),
                row,
                column,
                rect: geo.cell(row, column),
                reward: r.reward.into(),
                mines: r.mines,
                // The position is ours whatever the region's data says.
                reconstructed: true,
            }
        })
        .collect();
    let mut borders = Vec::new();
    for a in 0..REGIONS {
        for b in a + 1..REGIONS {
            let k = c.border[a][b];
            if k == 0 {
                continue;
            }
            borders.push(Border {
                a: a as u8 + 1,
                b: b as u8 + 1,
                kind: border_kind(k),
                line: geo.between(cells[a], cells[b]),
                reconstructed: true,
            });
        }
    }
    let companies = f.map["companies"].as_array().cloned().unwrap_or_default();
    let lay = &f.map["base_layout"];
    let bases = crate::ids::Company::ALL
        .iter()
        .map(|&co| {
            let json = companies
                .iter()
                .find(|x| x["id"].as_str() == Some(co.slug()))
                .cloned()
                .unwrap_or(Value::Null);
            let placed = geo.base(co.slug());
            Base {
                company: co.into(),
                name: json["name"].as_str().unwrap_or(co.slug()).to_string(),
                colour: match json["colour"].as_str() {
                    Some("red") => Colour::Red,
                    Some("white") => Colour::White,
                    Some("orange") => Colour::Orange,
                    _ => Colour::Black,
                },
                first_game_side: c
                    .sides
                    .get(usize::from(c.first_game_side[co.index()]))
                    .map_or_else(String::new, |s| s.name.clone()),
                rect: placed.map(|b| b.rect).unwrap_or_default(),
                spaces: (0..COLUMNS)
                    .flat_map(|k| {
                        (0..5).map(move |i| BaseSpaceLayout {
                            id: base_space_id(k, i),
                            column: k as u8 + 1,
                            space: i as u8 + 1,
                            coins: c.base_coins[i],
                            recoverable: c.base_recoverable[i],
                            reconstructed: flag(lay),
                        })
                    })
                    .collect(),
                borders: (0..REGIONS)
                    .filter(|&r| c.base_border[co.index()][r] > 0)
                    .map(|r| BaseBorder {
                        region: r as u8 + 1,
                        kind: border_kind(c.base_border[co.index()][r]),
                        line: placed.and_then(|b| b.link(r as u8 + 1)).unwrap_or(Line {
                            from: Point::default(),
                            to: Point::default(),
                        }),
                        reconstructed: true,
                    })
                    .collect(),
                reconstructed: true,
            }
        })
        .collect();
    Map {
        width: geo.width,
        height: geo.height,
        regions,
        borders,
        bases,
        reconstructed: true,
    }
}
