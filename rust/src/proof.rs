//! A solver's proof ([`crate::solver::Proof`], a graph of decisions) in
//! whole moves, as players write them: the winner's move at each of its
//! turns, every move of the loser at each of the loser's, and the ends of
//! the games. Positions reached by several lines share one node.

use std::collections::HashMap;

use crate::game::Action;
use crate::player::Turns;
use crate::solver::Proof;

/// One position of a [`MoveProof`], at the start of a turn.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveNode<M> {
    /// The game is over, won by the prover.
    Won,
    /// The prover acts: its move, and the node it leads to.
    Move(M, u32),
    /// The opponent acts: each of its legal moves and the node it leads to.
    Replies(Vec<(M, u32)>),
}

/// A winning strategy in whole moves; node 0 is the root.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveProof<M> {
    /// The positions, each once.
    pub nodes: Vec<MoveNode<M>>,
}

impl<M> MoveProof<M> {
    /// The number of distinct positions (at the start of a turn) in the proof.
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// Whether the proof is empty (never: it has a root).
    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }
}

/// `proof`, found for `root` (at the start of a turn), in whole moves; at
/// most `max_nodes` positions, `None` past that.
pub fn in_moves<G: Turns>(proof: &Proof, root: &G, max_nodes: usize) -> Option<MoveProof<G::Move>>
where
    G::Move: Copy,
{
    let mut builder = Builder {
        proof,
        nodes: Vec::new(),
        index: HashMap::new(),
        max_nodes,
    };
    builder.node(0, *root)?;
    Some(MoveProof {
        nodes: builder
            .nodes
            .into_iter()
            .map(|node| node.expect("every node is filled in"))
            .collect(),
    })
}

struct Builder<'a, M> {
    proof: &'a Proof,
    /// `None` while a node's children are being built.
    nodes: Vec<Option<MoveNode<M>>>,
    /// The move node of each decision node at the start of a turn.
    index: HashMap<u32, u32>,
    max_nodes: usize,
}

impl<M: Copy> Builder<'_, M> {
    /// The move node of decision node `at`, whose state `state` starts a turn.
    fn node<G: Turns<Move = M>>(&mut self, at: u32, state: G) -> Option<u32> {
        if let Some(&known) = self.index.get(&at) {
            return Some(known);
        }
        if self.nodes.len() >= self.max_nodes {
            return None;
        }
        let id = self.nodes.len() as u32;
        self.nodes.push(None);
        self.index.insert(at, id);
        let node = if self.proof.nodes[at as usize].is_empty() {
            MoveNode::Won
        } else {
            let mut turns = Vec::new();
            self.turns(at, state, state, &mut Vec::new(), &mut turns)?;
            if state.seat_to_act() == self.proof.winner {
                let [(m, next)] = turns[..] else {
                    return None; // A proof keeps one line of the winner.
                };
                MoveNode::Move(m, next)
            } else {
                MoveNode::Replies(turns)
            }
        };
        self.nodes[id as usize] = Some(node);
        Some(id)
    }

    /// Every whole move through the decisions of the turn that started at
    /// `start` (now at decision node `at`, state `state`, after `actions`),
    /// with the move node each leads to.
    fn turns<G: Turns<Move = M>>(
        &mut self,
        at: u32,
        start: G,
        state: G,
        actions: &mut Vec<Action>,
        out: &mut Vec<(M, u32)>,
    ) -> Option<()> {
        for &(action, next) in &self.proof.nodes[at as usize] {
            let mut after = state;
            after.apply(action);
            actions.push(action);
            if after.starts_turn()
                || after.winner().is_some()
                || self.proof.nodes[next as usize].is_empty()
            {
                let m = start.move_of_actions(actions)?;
                let child = self.node(next, after)?;
                out.push((m, child));
            } else {
                self.turns(next, start, after, actions, out)?;
            }
            actions.pop();
        }
        Some(())
    }
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::AtomicBool;

    use super::*;
    use crate::solver::{Budget, Solver, Value};
    use crate::veletas::{DecisionState, Lines, Position, SetupRule};

    fn state(fen: &str) -> DecisionState {
        DecisionState::new(
            Position::from_fen(fen, SetupRule::Perimeter, Lines::ShootersPass).unwrap(),
        )
    }

    #[test]
    fn a_win_in_one_is_one_move_then_the_end() {
        let root = state("1o5/sx5/xx5/7/3s3/7/1o3oX b play 3");
        let mut solver = Solver::new(1 << 20);
        let outcome = solver.solve(
            &root,
            &Budget::default(),
            &AtomicBool::new(false),
            &mut |_| {},
        );
        assert_eq!(outcome.value, Value::Win);
        let graph = solver.proof(&root, 1000).unwrap();
        let moves = in_moves(&graph, &root, 1000).unwrap();
        let MoveNode::Move(m, next) = moves.nodes[0] else {
            panic!("the prover acts at the root");
        };
        assert_eq!(m.to_string(), "a6-a7/a6");
        assert_eq!(moves.nodes[next as usize], MoveNode::Won);
        assert_eq!(moves.len(), 2);
        // Too small a bound builds nothing.
        assert_eq!(in_moves(&graph, &root, 1), None);
    }
}
