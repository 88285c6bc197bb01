//! Runs the shared test vectors of every game, from the repository root:
//! `tests/games/veletas/vectors/` (Veletas) and `tests/games/meridians/vectors/` (Meridians).
//!
//! One block reader and one runner per kind of check serve both games; each
//! game is a row, reading its own rule options from the `rules` line:
//! every perft depth, fen round trips, and moves that print, parse and
//! check as the generator says. Then each game's own vectors: Veletas's
//! claims, Meridians's removals and the games Ludii played.

use std::collections::HashSet;
use std::fmt::{Debug, Display};
use std::io::{BufRead, BufReader};
use std::path::PathBuf;
use std::str::FromStr;

use _veletas::game::{MovePosition, perft, perft_divide};
use _veletas::meridians;
use _veletas::veletas::{self, Lines, SetupRule};

/// The path of a file of the repository.
fn repository_file(path: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .join(path)
}

/// One block of a vector file: `key value` lines.
struct Record {
    fields: Vec<(String, String)>,
}

impl Record {
    fn get(&self, key: &str) -> &str {
        self.fields
            .iter()
            .find_map(|(k, v)| (k == key).then_some(v.as_str()))
            .unwrap_or_else(|| panic!("record without {key}"))
    }

    fn all(&self, key: &str) -> impl Iterator<Item = &str> {
        self.fields
            .iter()
            .filter(move |(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }

    fn id(&self) -> &str {
        self.get("id")
    }
}

/// The blocks of a vector file: separated by blank lines, `#` comments
/// skipped.
fn read_records(path: &str) -> Vec<Record> {
    let path = repository_file(path);
    let text =
        std::fs::read_to_string(&path).unwrap_or_else(|err| panic!("{}: {err}", path.display()));
    let mut records = Vec::new();
    let mut fields = Vec::new();
    for line in text.lines().chain(std::iter::once("")) {
        let line = line.trim_end();
        if line.is_empty() {
            if !fields.is_empty() {
                records.push(Record {
                    fields: std::mem::take(&mut fields),
                });
            }
        } else if !line.starts_with('#') {
            let (key, value) = line.split_once(' ').expect("key value");
            fields.push((key.to_owned(), value.to_owned()));
        }
    }
    records
}

/// What the runners need of a game.
trait VectorGame {
    type Move: Copy + Ord + Debug + Display + FromStr;
    type Position: MovePosition<Move = Self::Move> + PartialEq + Debug;

    /// The position string under `fen_key`, with the record's rule options.
    fn position(record: &Record, fen_key: &str) -> Self::Position;

    /// `fen` read with the rule options of `pos`.
    fn reread(pos: &Self::Position, fen: &str) -> Self::Position;

    fn fen(pos: &Self::Position) -> String;

    fn is_legal(pos: &Self::Position, m: Self::Move) -> bool;

    /// Plays the legal `m` through the checked entry point.
    fn play(pos: &mut Self::Position, m: Self::Move);
}

struct Veletas;

impl VectorGame for Veletas {
    type Move = veletas::Move;
    type Position = veletas::Position;

    fn position(record: &Record, fen_key: &str) -> veletas::Position {
        // `<setup rule> <lines> [claimed_shooters_block]`
        let mut rules = record.get("rules").split(' ');
        let setup_rule: SetupRule = rules.next().unwrap().parse().unwrap();
        let lines: Lines = rules.next().unwrap().parse().unwrap();
        let claimed_shooters_block = match rules.next() {
            None => false,
            Some("claimed_shooters_block") => true,
            Some(other) => panic!("{}: rule option {other:?}", record.id()),
        };
        let fen = record.get(fen_key);
        veletas::Position::from_fen(fen, setup_rule, lines)
            .unwrap_or_else(|err| panic!("{}: {fen:?}: {err}", record.id()))
            .with_claimed_shooters_block(claimed_shooters_block)
    }

    fn reread(pos: &veletas::Position, fen: &str) -> veletas::Position {
        let rules = pos.rules();
        veletas::Position::from_fen(fen, rules.setup_rule(), rules.lines())
            .unwrap()
            .with_claimed_shooters_block(rules.claimed_shooters_block())
    }

    fn fen(pos: &veletas::Position) -> String {
        pos.fen()
    }

    fn is_legal(pos: &veletas::Position, m: veletas::Move) -> bool {
        pos.is_legal(m)
    }

    fn play(pos: &mut veletas::Position, m: veletas::Move) {
        pos.play(m).unwrap();
    }
}

struct Meridians;

impl Meridians {
    fn pie(record: &Record) -> bool {
        match record.get("rules") {
            "pie" => true,
            "nopie" => false,
            other => panic!("{}: rules {other:?}", record.id()),
        }
    }
}

impl VectorGame for Meridians {
    type Move = meridians::Move;
    type Position = meridians::Position;

    fn position(record: &Record, fen_key: &str) -> meridians::Position {
        let fen = record.get(fen_key);
        meridians::Position::from_fen(fen, Meridians::pie(record))
            .unwrap_or_else(|err| panic!("{}: {fen:?}: {err}", record.id()))
    }

    fn reread(pos: &meridians::Position, fen: &str) -> meridians::Position {
        meridians::Position::from_fen(fen, pos.pie()).unwrap()
    }

    fn fen(pos: &meridians::Position) -> String {
        pos.fen()
    }

    fn is_legal(pos: &meridians::Position, m: meridians::Move) -> bool {
        pos.is_legal(m)
    }

    fn play(pos: &mut meridians::Position, m: meridians::Move) {
        pos.play(m).unwrap();
    }
}

/// Checks every perft depth of the file; returns the number checked.
fn check_perft<G: VectorGame>(file: &str) -> usize {
    let records = read_records(file);
    assert!(records.len() > 30, "{file} is read");
    let mut checked = 0;
    for record in &records {
        let pos = G::position(record, "fen");
        for line in record.all("perft") {
            let (depth, nodes) = line.split_once(' ').unwrap();
            let depth: u32 = depth.parse().unwrap();
            let nodes: u64 = nodes.parse().unwrap();
            let found = perft(&pos, depth);
            if found != nodes {
                let divide = perft_divide(&pos, depth);
                let lines: Vec<String> = divide.iter().map(|(m, n)| format!("{m} {n}")).collect();
                panic!(
                    "{file}: {}: perft {depth} = {found}, expected {nodes}\n{}",
                    record.id(),
                    lines.join("\n")
                );
            }
            checked += 1;
        }
    }
    assert!(checked >= records.len());
    checked
}

/// Checks that each position string under `keys` is written back as read.
fn check_fens<G: VectorGame>(file: &str, keys: &[&str]) {
    for record in read_records(file) {
        for &key in keys {
            assert_eq!(G::fen(&G::position(&record, key)), record.get(key));
        }
    }
}

/// Checks, in every position of a perft file, that the legal moves come in
/// canonical order, count as listed, print and parse back, are legal by the
/// checked path, and lead to positions whose strings read back the same.
fn check_moves<G: VectorGame>(file: &str)
where
    <G::Move as FromStr>::Err: Debug,
{
    for record in read_records(file) {
        let id = record.id();
        let pos = G::position(&record, "fen");
        let mut moves = Vec::new();
        pos.legal_moves_into(&mut moves);
        assert_eq!(moves.len() as u64, pos.count_legal_moves(), "{id}");
        assert!(
            moves.windows(2).all(|w| w[0] < w[1]),
            "{id}: canonical order"
        );
        for &m in &moves {
            let text = m.to_string();
            assert_eq!(text.parse::<G::Move>().unwrap(), m, "{id}");
            assert!(G::is_legal(&pos, m), "{id}: {text}");
            let mut child = pos.clone();
            G::play(&mut child, m);
            assert_eq!(G::reread(&pos, &G::fen(&child)), child, "{id}: {text}");
        }
    }
}

const VELETAS_PERFT: &str = "tests/games/veletas/vectors/perft.txt";
const VELETAS_CLAIMS: &str = "tests/games/veletas/vectors/claims.txt";
const VELETAS_CLAIMED_PERFT: &str = "tests/games/veletas/vectors/perft_claimed_shooters_block.txt";
const VELETAS_CLAIMED_CLAIMS: &str =
    "tests/games/veletas/vectors/claims_claimed_shooters_block.txt";
const MERIDIANS_PERFT: &str = "tests/games/meridians/vectors/meridians_perft.txt";
const MERIDIANS_REMOVALS: &str = "tests/games/meridians/vectors/meridians_removals.txt";
const MERIDIANS_LUDII: &str = "tests/games/meridians/vectors/meridians_ludii_6-7.jsonl.gz";

/// A runner of one kind of check over a file: a row per game.
type Runner = fn(&str);

/// A runner that returns the number of checks made.
type CountingRunner = fn(&str) -> usize;

/// A runner over the position strings of some keys of a file.
type FenRunner = fn(&str, &[&str]);

#[test]
fn perft_vectors() {
    let rows: [(&str, CountingRunner, usize); 3] = [
        (VELETAS_PERFT, check_perft::<Veletas>, 100),
        (VELETAS_CLAIMED_PERFT, check_perft::<Veletas>, 30),
        (MERIDIANS_PERFT, check_perft::<Meridians>, 100),
    ];
    for (file, check, least) in rows {
        assert!(check(file) > least, "{file}");
    }
}

#[test]
fn fens_round_trip() {
    let rows: [(&str, &[&str], FenRunner); 6] = [
        (VELETAS_PERFT, &["fen"], check_fens::<Veletas>),
        (VELETAS_CLAIMS, &["fen", "after"], check_fens::<Veletas>),
        (VELETAS_CLAIMED_PERFT, &["fen"], check_fens::<Veletas>),
        (
            VELETAS_CLAIMED_CLAIMS,
            &["fen", "after"],
            check_fens::<Veletas>,
        ),
        (MERIDIANS_PERFT, &["fen"], check_fens::<Meridians>),
        (
            MERIDIANS_REMOVALS,
            &["fen", "after"],
            check_fens::<Meridians>,
        ),
    ];
    for (file, keys, check) in rows {
        check(file, keys);
    }
}

#[test]
fn moves_round_trip_and_checks_agree() {
    let rows: [(&str, Runner); 3] = [
        (VELETAS_PERFT, check_moves::<Veletas>),
        (VELETAS_CLAIMED_PERFT, check_moves::<Veletas>),
        (MERIDIANS_PERFT, check_moves::<Meridians>),
    ];
    for (file, check) in rows {
        check(file);
    }
}

#[test]
fn veletas_claims() {
    for (file, least) in [(VELETAS_CLAIMS, 50), (VELETAS_CLAIMED_CLAIMS, 10)] {
        check_claims(file, least);
    }
}

/// Plays the move of every record of `file` (at least `least` of them) and
/// compares the position after it.
fn check_claims(file: &str, least: usize) {
    let records = read_records(file);
    assert!(records.len() > least, "{file} is read");
    for record in &records {
        let id = record.id();
        let mut pos = Veletas::position(record, "fen");
        let m: veletas::Move = record.get("move").parse().unwrap();
        assert!(pos.is_legal(m), "{id}: {m} is legal");
        assert!(pos.legal_moves().contains(&m), "{id}: {m} is generated");
        pos.play(m).unwrap();
        let after = Veletas::position(record, "after");
        assert_eq!(pos.fen(), after.fen(), "{id}");
        assert_eq!(pos, after, "{id}: same position, same incremental hash");
    }
}

/// The names of `points`, sorted as strings (as the vectors write them).
fn sorted_names(points: meridians::Bitboard) -> Vec<String> {
    let mut names: Vec<String> = points.iter().map(|p| p.to_string()).collect();
    names.sort();
    names
}

#[test]
fn meridians_removals() {
    let records = read_records(MERIDIANS_REMOVALS);
    assert!(records.len() > 100, "the vector file is read");
    for record in &records {
        let id = record.id();
        let mut pos = Meridians::position(record, "fen");
        let m: meridians::Move = record.get("move").parse().unwrap();
        assert!(pos.legal_moves().contains(&m), "{id}: {m} is generated");
        let removed = pos.play(m).unwrap();
        let after = Meridians::position(record, "after");
        assert_eq!(pos.fen(), after.fen(), "{id}");
        assert_eq!(pos, after, "{id}");
        assert_eq!(pos.zobrist(), after.zobrist(), "{id}: the incremental hash");
        assert_eq!(
            sorted_names(removed).join(" "),
            record.get("removed"),
            "{id}"
        );
        assert!(removed.any(), "{id}");
    }
}

/// The string values of a JSON array.
fn strings(value: &serde_json::Value) -> Vec<String> {
    value
        .as_array()
        .expect("an array")
        .iter()
        .map(|v| v.as_str().expect("a string").to_owned())
        .collect()
}

#[test]
fn meridians_ludii_games() {
    let path = repository_file(MERIDIANS_LUDII);
    let file = std::fs::File::open(&path).unwrap_or_else(|err| panic!("{}: {err}", path.display()));
    let mut games = 0;
    let mut seen_winners = HashSet::new();
    for (number, line) in BufReader::new(flate2::read::GzDecoder::new(file))
        .lines()
        .enumerate()
    {
        let game: serde_json::Value = serde_json::from_str(&line.unwrap()).unwrap();
        let size: meridians::Size = game["size"].as_str().unwrap().parse().unwrap();
        let mut pos = meridians::Position::new(size);
        for (ply, step) in game["moves"].as_array().unwrap().iter().enumerate() {
            let context = format!("game {number}, ply {ply}: {}", pos.fen());
            let legal = step["legal"].as_u64().unwrap();
            assert_eq!(u64::from(pos.count_legal_moves()), legal, "{context}");
            let m: meridians::Move = step["move"].as_str().unwrap().parse().unwrap();
            let removed = pos.play(m).unwrap_or_else(|err| panic!("{context}: {err}"));
            let mut expected = strings(&step["removed"]);
            expected.sort();
            assert_eq!(sorted_names(removed), expected, "{context}");
        }
        let winner = pos
            .winner()
            .unwrap_or_else(|| panic!("game {number} is over"));
        assert_eq!(winner.char().to_string(), game["winner"].as_str().unwrap());
        assert!(pos.legal_moves().is_empty());
        seen_winners.insert(winner);
        games += 1;
    }
    assert_eq!(games, 200);
    assert_eq!(seen_winners.len(), 2);
}

const BOARDSPACE: &str = "tests/games/veletas/vectors/boardspace_veletas_rev104.txt.gz";

/// Where the replay of a Boardspace game (its `D` lines and `E` line)
/// parts from Boardspace's, or `None` when it does not.
fn boardspace_replay(lines: &[String], claimed_shooters_block: bool) -> Option<String> {
    let mut pos: Option<veletas::Position> = None;
    for line in lines {
        let fields: Vec<&str> = line.split(' ').collect();
        match fields[0] {
            "D" => {
                let fen = fields[1..5].join(" ");
                let pos = pos.get_or_insert_with(|| {
                    veletas::Position::from_fen(&fen, SetupRule::Perimeter, Lines::ShootersPass)
                        .unwrap()
                        .with_claimed_shooters_block(claimed_shooters_block)
                });
                if pos.fen() != fen {
                    return Some(format!("position {}, Boardspace {fen}", pos.fen()));
                }
                let legal: usize = fields[5].parse().unwrap();
                if pos.count_legal_moves() != legal || pos.legal_moves().len() != legal {
                    return Some(format!("legal moves in {fen}: Boardspace {legal}"));
                }
                if let Err(err) = pos.play(fields[7].parse().unwrap()) {
                    return Some(err.to_string());
                }
            }
            "E" => {
                let pos = pos.as_ref().expect("decisions before the end");
                let ours = pos.fen();
                let ours: Vec<&str> = ours.split(' ').collect();
                let same = ours[0] == fields[4] && ours[1] == fields[5] && fields[6] == "over";
                let claims = [
                    pos.claims(veletas::Color::Black),
                    pos.claims(veletas::Color::White),
                ];
                let expected: [u32; 2] = [fields[2].parse().unwrap(), fields[3].parse().unwrap()];
                let winner = pos.winner().map(|c| c.to_string()[..1].to_owned());
                if !same
                    || claims != expected
                    || winner.as_deref() != Some(fields[1])
                    || !pos.is_game_over()
                {
                    return Some(format!(
                        "end {}, Boardspace {}",
                        pos.fen(),
                        fields[4..].join(" ")
                    ));
                }
            }
            _ => {}
        }
    }
    None
}

#[test]
fn boardspace_games() {
    let path = repository_file(BOARDSPACE);
    let file = std::fs::File::open(&path).unwrap_or_else(|err| panic!("{}: {err}", path.display()));
    let mut games: Vec<Vec<String>> = Vec::new();
    for line in BufReader::new(flate2::read::GzDecoder::new(file)).lines() {
        let line = line.unwrap();
        if line.starts_with("G ") {
            games.push(Vec::new());
        } else if !line.starts_with('#') {
            games.last_mut().expect("a game").push(line);
        }
    }
    assert_eq!(games.len(), 303);
    let mut parted_without = Vec::new();
    for (record, game) in games.iter().enumerate() {
        if let Some(problem) = boardspace_replay(game, true) {
            panic!("record {record}: {problem}");
        }
        if boardspace_replay(game, false).is_some() {
            parted_without.push(record);
        }
    }
    // The records in which a line meets a claimed shooter (see
    // tests/games/veletas/test_boardspace.py).
    assert_eq!(parted_without, [191, 300, 301]);
}
