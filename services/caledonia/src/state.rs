//! The position: table (map sides, ports, scoring tiles, market, export board, import track),
//! each player's board and units, and where the game stands (phase, turn, pending bonuses).

use crate::data::components;
use crate::ids::{Clan, ContractId, Good, Hex, PortId, TileId, Unit};
use crate::map::{map, Map, Mode};
use arrayvec::ArrayVec;
use rules_core::{CopyList, Kept, Memo};
use serde::{Deserialize, Serialize};

/// The game's options. `players` is required; the rest default to the product's rulings.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Options {
    pub players: u8,
    /// Ruling C1: the rounds 2–5 market drift (`false`: the published multiplayer rules).
    #[serde(default = "yes")]
    pub market_drift: bool,
    /// Ruling C3: the published fourth bonus-upgrade choice (take back a merchant).
    #[serde(default)]
    pub bonus_retrieve: bool,
    /// Port 7 and the neighbour bonus: the publisher's erratum (`true`) or EN CC15 (`false`).
    #[serde(default = "yes")]
    pub port7_neighbour_bonus: bool,
    /// The Kickstarter components: clan MacEwen, port 9 and scoring tile 9 join the draws.
    #[serde(default)]
    pub kickstarter: bool,
    /// The static-imports variant: every import is worth the same at the end (scoring.json
    /// `static_imports`, 4) and the import track is not kept (no £1 steps).
    #[serde(default)]
    pub static_imports: bool,
}

fn yes() -> bool {
    true
}

/// Written by hand for one reason: the stored, canonical options (JSON) leave
/// `static_imports` out while it is off, so the options of games made before it existed read
/// the same; a snapshot (postcard, which has no field names to skip by) keeps every field.
impl Serialize for Options {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let skip = s.is_human_readable() && !self.static_imports;
        let mut st = s.serialize_struct("Options", 6)?;
        st.serialize_field("players", &self.players)?;
        st.serialize_field("market_drift", &self.market_drift)?;
        st.serialize_field("bonus_retrieve", &self.bonus_retrieve)?;
        st.serialize_field("port7_neighbour_bonus", &self.port7_neighbour_bonus)?;
        st.serialize_field("kickstarter", &self.kickstarter)?;
        if skip {
            st.skip_field("static_imports")?;
        } else {
            st.serialize_field("static_imports", &self.static_imports)?;
        }
        st.end()
    }
}

/// The rules version a game plays under (`Game::rules_versions`): a stored game keeps the
/// behaviour it was recorded with, and the rules branch on this where behaviour changed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Rules {
    /// `clans-of-caledonia/2`: port 6 needed no trade; the loch search crossed rivers; a
    /// fulfilment was paid before its free expansion; solo kept every contract refilled.
    V2,
    /// `clans-of-caledonia/3` (issue 13): port 6 before a trade of its good; lochs or a
    /// river, never both; a fulfilment with a free expansion all or nothing; the solo removal
    /// of a contract by the price die.
    V3,
    /// `clans-of-caledonia/4` (issue 37): after port 6 the turn holds the trade of its good,
    /// come what may: nothing before that trade may make it impossible, and no other main
    /// action (nor a pass) is taken. Version 3 bound the main action only while the trade
    /// stayed possible, so a free action that made it impossible freed the turn. Port 1 and
    /// its meat fulfilment likewise (Ruling L18).
    V4,
}

impl Rules {
    /// The version new games are created under.
    pub const CURRENT: Rules = Rules::V4;
    /// Every version this build replays, the current one first.
    pub const ALL: [Rules; 3] = [Rules::V4, Rules::V3, Rules::V2];

    /// The version's name, as stored with a game.
    pub const fn name(self) -> &'static str {
        match self {
            Rules::V2 => "clans-of-caledonia/2",
            Rules::V3 => "clans-of-caledonia/3",
            Rules::V4 => "clans-of-caledonia/4",
        }
    }

    pub fn from_name(name: &str) -> Option<Rules> {
        Rules::ALL.into_iter().find(|r| r.name() == name)
    }
}

impl Options {
    pub fn new(players: u8) -> Options {
        Options {
            players,
            market_drift: true,
            bonus_retrieve: false,
            port7_neighbour_bonus: true,
            kickstarter: false,
            static_imports: false,
        }
    }
}

/// One player's board, supply and holdings.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Player {
    pub clan: Clan,
    pub start_tile: u8,
    pub money: i32,
    /// By [`Good`] index.
    pub goods: [u16; 6],
    pub hops: u16,
    /// Cotton, tobacco, sugar cane on fulfilled contracts.
    pub imports: [u16; 3],
    pub meat: u16,
    pub glory: u32,
    /// Map units by [`Unit`] index ([`Player::units`]); changed only through [`Player::put`]
    /// and [`Player::lift`], which keep their union beside them.
    pub(crate) units: [u128; 9],
    /// Units left on the board, by [`Unit`] index 0–7; MacDonald's worker pool is slot 6.
    pub supply: [u8; 8],
    pub shipping: u8,
    pub tech: [bool; 2],
    pub merchants_track: u8,
    pub merchants_stock: u8,
    pub market_buy: [u8; 6],
    pub market_sell: [u8; 6],
    /// Contracts in the export crate(s).
    pub held: ArrayVec<ContractId, 2>,
    /// Bit `id` set: fulfilled.
    pub fulfilled: u64,
    /// Bit `id` set: port used.
    pub ports_used: u16,
    /// MacKenzie's cellar: barrels per spot.
    pub cellar: [u8; 4],
    pub passed: bool,
    /// The union of `units` ([`Player::all_units`]), kept beside them: reach, occupation and
    /// the ports ask for it several times an entry. Not part of the position (like
    /// [`State::map`]); set again when a state is read.
    #[serde(skip)]
    pub(crate) all: Kept<u128>,
    /// Which of the four port spaces are open to this player ([`State::open_ports`]), kept
    /// once worked out with the shipping level and ports used it was worked out for, and
    /// forgotten when a unit moves (or the deal lays out the map).
    #[serde(skip)]
    pub(crate) open_ports: Kept<Memo>,
    /// How many units of each kind are on the map ([`Player::unit_count`]), kept beside
    /// `units`: production and scoring count them for every seat, and a count of a 128-bit
    /// set is a few dozen instructions without a population-count instruction.
    #[serde(skip)]
    pub(crate) counts: Kept<[u8; 9]>,
}

impl Player {
    pub fn all_units(&self) -> u128 {
        self.all.0
    }
    /// The hexes of units of kind `u`.
    pub fn units(&self, u: Unit) -> u128 {
        self.units[u.index()]
    }
    /// Every kind's hexes, by [`Unit`] index.
    pub fn unit_sets(&self) -> &[u128; 9] {
        &self.units
    }
    /// A unit of kind `u` on `h`.
    pub fn put(&mut self, u: Unit, h: Hex) {
        let set = &mut self.units[u.index()];
        self.counts.0[u.index()] += u8::from(*set & h.bit() == 0);
        *set |= h.bit();
        self.all.0 |= h.bit();
        self.open_ports.0.forget();
    }
    /// No unit of kind `u` on `h` any more.
    pub fn lift(&mut self, u: Unit, h: Hex) {
        let set = &mut self.units[u.index()];
        self.counts.0[u.index()] -= u8::from(*set & h.bit() != 0);
        *set &= !h.bit();
        self.all = Kept(self.units.iter().fold(0, |a, &b| a | b));
        self.open_ports.0.forget();
    }
    /// Works out the kept union again from the units (a state just read).
    fn refresh(&mut self) {
        self.all = Kept(self.units.iter().fold(0, |a, &b| a | b));
        self.counts = Kept(self.units.map(|s| s.count_ones() as u8));
        self.open_ports.0.forget();
    }
    pub fn unit_count(&self, u: Unit) -> u32 {
        debug_assert_eq!(
            u32::from(self.counts.0[u.index()]),
            self.units[u.index()].count_ones(),
            "kept unit counts out of date"
        );
        u32::from(self.counts.0[u.index()])
    }
    pub fn fulfilled_count(&self) -> u32 {
        self.fulfilled.count_ones()
    }
    pub fn boxes(&self) -> usize {
        if self.clan == Clan::Buchanan {
            2
        } else {
            1
        }
    }
    pub fn free_boxes(&self) -> usize {
        self.boxes().saturating_sub(self.held.len())
    }
    pub fn unit_at(&self, h: Hex) -> Option<Unit> {
        Unit::ALL
            .iter()
            .copied()
            .find(|u| self.units[u.index()] & h.bit() != 0)
    }
    /// The board slot a unit comes from (MacDonald's workers share one pool).
    pub fn slot(&self, u: Unit) -> usize {
        if self.clan == Clan::MacDonald && u.worker() {
            Unit::Woodcutter.index()
        } else {
            u.index().min(7)
        }
    }
}

/// What the seat in a turn is to decide next. `Copy`, with its lists in [`CopyList`]s: the
/// phase holding it is overwritten in most entries of a replay, and an `ArrayVec` here gave
/// every such write a look into the old phase to drop it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Step {
    /// Free actions, then one main action.
    Start,
    /// After an expansion next to rivals: buy their goods at a discount (`nb`) or `done`.
    Neighbour { goods: u8 },
    /// Contracts drawn for a building bonus: keep some (`keep`).
    Keep {
        drawn: CopyList<ContractId, 6>,
        max: u8,
    },
    /// Port 7: swap map units for board units (`swap`) or `done`.
    Exchange { left: u8 },
    /// Rules 3: a fulfilment whose contracts give a free expansion, not yet paid: `expand`
    /// names the expansion and the two happen together, `done` fulfils without it, `cancel`
    /// takes the fulfilment back (nothing paid).
    Fulfil {
        contracts: CopyList<ContractId, 2>,
        slaughter: CopyList<Hex, 8>,
    },
    /// Direct export bonuses, bonus upgrades, MacEwen's beer: take them or `done`.
    Bonus,
    /// After the main action: free actions (ports, MacKenzie's cellar) or `done`.
    After,
}

/// The turn in progress.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Turn {
    pub seat: u8,
    pub step: Step,
    pub main_done: bool,
    pub rowed: bool,
    /// Port 1 used this turn: one contract needs one animal fewer.
    pub meat_discount: bool,
    /// Goods bought through the neighbour bonus this turn (cap per good per turn).
    pub nb_bought: [u8; 6],
    /// Goods offered by the last expansion's neighbours, pending its `nb` step.
    pub nb_pending: u8,
    /// Contracts to draw for a building bonus (a chance entry), and how many may be kept.
    pub draw: u8,
    pub draw_keep: u8,
    pub expands: u8,
    pub upgrades: u8,
    pub brew: u8,
    pub exchange: u8,
    /// Hexes already exchanged by port 7 this turn (two different units are exchanged).
    pub swapped: u128,
    /// Rules 3: the good port 6 moved the price of before the main action, which must then
    /// trade it (rules 3: while such a trade is possible; rules 4: always, and nothing
    /// before it may make it impossible).
    pub price_good: Option<Good>,
    /// The seat said `done` after its main action: the turn ends at the next settle.
    pub finished: bool,
}

impl Turn {
    pub fn new(seat: u8) -> Turn {
        Turn {
            seat,
            step: Step::Start,
            main_done: false,
            rowed: false,
            meat_discount: false,
            nb_bought: [0; 6],
            nb_pending: 0,
            draw: 0,
            draw_keep: 0,
            expands: 0,
            upgrades: 0,
            brew: 0,
            exchange: 0,
            swapped: 0,
            price_good: None,
            finished: false,
        }
    }
}

/// Where the game stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Phase {
    /// Waiting on the initial deal.
    Deal,
    /// Seats choose clans in reverse turn order: `idx` counts choices made.
    Clans {
        idx: u8,
    },
    /// Initial workers, in snake order (then Fergusson's third): `idx` counts placements.
    Workers {
        idx: u8,
    },
    /// Rounds 2–5 preparation: waits on refills and the market drift.
    Prep,
    Action(Turn),
    /// A building-bonus draw is pending (chance) within this turn.
    Draw(Turn),
    /// Production decisions: `seat` decides, `milk` = Cunningham's sale step.
    Production {
        seat: u8,
        milk: bool,
    },
    Over,
}

/// The whole position.
///
/// Serialised as its fields (the derive, under `remote = "Self"`, writes `State::serialize` and
/// `State::deserialize`; the trait impls below call them), so that reading a state can set what
/// it keeps beside the position: its map ([`State::map`]) and each player's union of units.
/// `options` never change after [`State::new_under`], so neither does the map's player count.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(remote = "Self")]
pub struct State {
    pub options: Options,
    pub phase: Phase,
    pub round: u8,
    /// The side of each module in play (1 or 2); set through [`State::set_sides`], which keeps
    /// the map beside them.
    sides: [u8; 4],
    pub ports: [PortId; 4],
    pub tiles: [TileId; 5],
    /// Price index per good.
    pub prices: [u8; 6],
    /// Export-board boxes; `None` is an empty box.
    pub boxes: ArrayVec<Option<ContractId>, 6>,
    /// Contracts never drawn (bit `id`); drawn at random.
    pub pile: u64,
    /// Contracts put under the pile, in order (drawn after the unseen ones).
    pub bottom: ArrayVec<ContractId, 50>,
    pub import_track: [u16; 3],
    /// This round's turn order, and the order of passing (next round's).
    pub order: ArrayVec<u8, 4>,
    pub next_order: ArrayVec<u8, 4>,
    /// Clans and start tiles offered at setup.
    pub offer: ArrayVec<(Clan, u8), 5>,
    pub seats: ArrayVec<Player, 4>,
    /// Contracts out of the game (bit `id`): rules 3's solo removal by the price die.
    pub removed: u64,
    /// The rules version the game plays under.
    pub rules: Rules,
    /// The map `sides` assemble for this many players, kept beside them: it is asked for
    /// three times an entry on average, and finding it in the table of maps costs some twenty
    /// instructions each time.
    #[serde(skip, default = "placeholder_map")]
    map: Kept<&'static Map>,
}

/// The map of `sides` for `players`.
fn map_of(sides: [u8; 4], players: u8) -> Kept<&'static Map> {
    Kept(map(sides, Mode::of(players)))
}

/// Only for the moment between reading a state's fields and setting its map.
fn placeholder_map() -> Kept<&'static Map> {
    map_of([1; 4], 4)
}

impl Serialize for State {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        // The inherent function the derive wrote: the fields, as before the map was kept.
        State::serialize(self, serializer)
    }
}

impl<'de> Deserialize<'de> for State {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<State, D::Error> {
        let mut s = State::deserialize(deserializer)?;
        s.map = map_of(s.sides, s.players());
        for p in &mut s.seats {
            p.refresh();
        }
        Ok(s)
    }
}

impl State {
    /// A game waiting on its deal, under the current rules.
    pub fn new(options: Options) -> State {
        State::new_under(options, Rules::CURRENT)
    }

    /// A game waiting on its deal under the rules version `rules`.
    pub fn new_under(options: Options, rules: Rules) -> State {
        State {
            options,
            phase: Phase::Deal,
            round: 0,
            sides: [1; 4],
            ports: [PortId(1); 4],
            tiles: [TileId(1); 5],
            prices: [0; 6],
            boxes: ArrayVec::new(),
            pile: 0,
            bottom: ArrayVec::new(),
            import_track: [0; 3],
            order: ArrayVec::new(),
            next_order: ArrayVec::new(),
            offer: ArrayVec::new(),
            seats: ArrayVec::new(),
            removed: 0,
            rules,
            map: map_of([1; 4], options.players),
        }
    }

    pub fn players(&self) -> u8 {
        self.options.players
    }
    pub fn mode(&self) -> Mode {
        Mode::of(self.players())
    }
    pub fn map(&self) -> &'static Map {
        self.map.0
    }
    pub fn sides(&self) -> [u8; 4] {
        self.sides
    }
    /// Sets the module sides (at the deal) and the map they assemble.
    pub fn set_sides(&mut self, sides: [u8; 4]) {
        self.sides = sides;
        self.map = map_of(sides, self.players());
        for p in &mut self.seats {
            p.open_ports.0.forget();
        }
    }
    pub fn seat(&self, s: u8) -> Option<&Player> {
        self.seats.get(usize::from(s))
    }
    pub fn occupied(&self) -> u128 {
        self.seats.iter().fold(0, |a, p| a | p.all_units())
    }
    pub fn price(&self, g: Good) -> i32 {
        let t = &components().tracks[g.index()];
        let i = usize::from(self.prices[g.index()]).min(t.prices.len() - 1);
        i32::from(t.prices[i])
    }
    pub fn pile_len(&self) -> usize {
        self.pile.count_ones() as usize + self.bottom.len()
    }
    /// Money for taking a contract this round (negative: a cost).
    pub fn obtain_money(&self) -> i32 {
        let c = components();
        let r = usize::from(self.round.clamp(1, 5)) - 1;
        c.obtain_money.get(r).copied().unwrap_or(0)
    }
    pub fn turn(&self) -> Option<&Turn> {
        match &self.phase {
            Phase::Action(t) | Phase::Draw(t) => Some(t),
            _ => None,
        }
    }
    /// The seat and unit on a hex.
    pub fn unit_at(&self, h: Hex) -> Option<(u8, Unit)> {
        self.seats
            .iter()
            .enumerate()
            .find_map(|(i, p)| p.unit_at(h).map(|u| (i as u8, u)))
    }
    /// Which port tile stands on a hex.
    pub fn port_at(&self, h: Hex) -> Option<PortId> {
        let m = self.map();
        m.ports.iter().position(|&p| p == h).map(|i| self.ports[i])
    }
}
