//! Runs the shared test vectors (`tests/vectors/` at the repository root):
//! every perft depth, every claim, and fen and notation round trips.

use std::path::PathBuf;

use _veletas::veletas::{Lines, Move, Position, SetupRule, perft, perft_divide};

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

    fn position(&self, fen_key: &str) -> Position {
        let mut rules = self.get("rules").split(' ');
        let setup_rule: SetupRule = rules.next().unwrap().parse().unwrap();
        let lines: Lines = rules.next().unwrap().parse().unwrap();
        let fen = self.get(fen_key);
        Position::from_fen(fen, setup_rule, lines)
            .unwrap_or_else(|err| panic!("{}: {fen:?}: {err}", self.get("id")))
    }
}

fn read_records(name: &str) -> Vec<Record> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../tests/vectors")
        .join(name);
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

#[test]
fn perft_vectors() {
    let records = read_records("perft.txt");
    assert!(records.len() > 100, "the vector file is read");
    let mut checked = 0;
    for record in &records {
        let pos = record.position("fen");
        for line in record.all("perft") {
            let (depth, nodes) = line.split_once(' ').unwrap();
            let depth: u32 = depth.parse().unwrap();
            let nodes: u64 = nodes.parse().unwrap();
            let found = perft(&pos, depth);
            if found != nodes {
                let divide = perft_divide(&pos, depth);
                let lines: Vec<String> = divide.iter().map(|(m, n)| format!("{m} {n}")).collect();
                panic!(
                    "{}: perft {depth} = {found}, expected {nodes}\n{}",
                    record.get("id"),
                    lines.join("\n")
                );
            }
            checked += 1;
        }
    }
    assert!(checked >= records.len());
}

#[test]
fn claim_vectors() {
    let records = read_records("claims.txt");
    assert!(records.len() > 50, "the vector file is read");
    for record in &records {
        let id = record.get("id");
        let mut pos = record.position("fen");
        let m: Move = record.get("move").parse().unwrap();
        assert!(pos.is_legal(m), "{id}: {m} is legal");
        assert!(pos.legal_moves().contains(&m), "{id}: {m} is generated");
        pos.play(m).unwrap();
        let after = record.position("after");
        assert_eq!(pos.fen(), after.fen(), "{id}");
        assert_eq!(pos, after, "{id}: same position, same incremental hash");
    }
}

#[test]
fn fens_round_trip() {
    for (file, keys) in [
        ("perft.txt", &["fen"][..]),
        ("claims.txt", &["fen", "after"][..]),
    ] {
        for record in read_records(file) {
            for &key in keys {
                assert_eq!(record.position(key).fen(), record.get(key));
            }
        }
    }
}

#[test]
fn moves_round_trip_and_checks_agree() {
    for record in read_records("perft.txt") {
        let pos = record.position("fen");
        let moves = pos.legal_moves();
        assert_eq!(moves.len(), pos.count_legal_moves(), "{}", record.get("id"));
        assert!(
            moves.windows(2).all(|w| w[0] < w[1]),
            "{}: canonical order",
            record.get("id")
        );
        for &m in &moves {
            let text = m.to_string();
            assert_eq!(text.parse::<Move>(), Ok(m));
            assert!(pos.is_legal(m), "{}: {text}", record.get("id"));
            let mut child = pos;
            child.play(m).unwrap();
            let reparsed =
                Position::from_fen(&child.fen(), pos.rules().setup_rule(), pos.rules().lines());
            assert_eq!(reparsed, Ok(child), "{}: {text}", record.get("id"));
        }
    }
}
