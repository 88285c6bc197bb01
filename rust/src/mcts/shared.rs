//! Tree parallelism: several threads grow one tree at once.
//!
//! During a search the tree's nodes are reached only through [`SharedNodes`],
//! which reads and writes every field that another thread may touch with an
//! atomic operation: the statistics (added on the way up, one addition a
//! field), a node's list of children (a child is published by swapping the
//! head of its parent's list, so that no action gets two children), its
//! number of children and its proof. A node's action, mover and next
//! sibling are written before it is published and never change after.
//! There is no virtual loss: a thread that follows another down the same
//! path adds another child of the node where the other expanded one.

use std::ptr::addr_of_mut;
use std::sync::atomic::{AtomicBool, AtomicU8, AtomicU16, AtomicU32, AtomicUsize, Ordering};
use std::time::Instant;

use super::{
    Budget, Config, NO_NODE, Node, PROVEN_LOSS, PROVEN_WIN, Proofs, UNPROVEN, back_up_proof,
    best_child, half_wins_of_playout, untried_action,
};
use crate::evaluate::Evaluate;
use crate::game::{Action, ActionSet};
use crate::rng::Rng;

/// The nodes of one tree while several threads grow it: a buffer reserved
/// for all the nodes the tree may hold, filled up to `len`.
pub(super) struct SharedNodes {
    base: *mut Node,
    capacity: usize,
    len: AtomicUsize,
}

// SAFETY: the nodes are reached only through atomic operations on the fields
// that change, and through plain reads of the fields written before a node
// is published (with release ordering) and never after.
unsafe impl Sync for SharedNodes {}

impl SharedNodes {
    /// A view of `nodes`, whose capacity is all the tree may hold; the
    /// length is given back by [`SharedNodes::finish`].
    pub(super) fn new(nodes: &mut Vec<Node>) -> SharedNodes {
        SharedNodes {
            base: nodes.as_mut_ptr(),
            capacity: nodes.capacity(),
            len: AtomicUsize::new(nodes.len()),
        }
    }

    /// Sets the length of `nodes` to the nodes written.
    ///
    /// # Safety
    ///
    /// `nodes` is the vector this view was made of, untouched since.
    pub(super) unsafe fn finish(self, nodes: &mut Vec<Node>) {
        let len = self.len.load(Ordering::Acquire).min(self.capacity);
        // SAFETY: every slot below `len` was claimed and written.
        unsafe { nodes.set_len(len) };
    }

    /// The number of nodes claimed.
    fn len(&self) -> usize {
        self.len.load(Ordering::Relaxed)
    }

    fn node(&self, node: u32) -> *mut Node {
        debug_assert!((node as usize) < self.capacity);
        // SAFETY: a published node lies within the buffer.
        unsafe { self.base.add(node as usize) }
    }

    fn first_child(&self, node: u32) -> &AtomicU32 {
        // SAFETY: the field is aligned and only reached atomically.
        unsafe { AtomicU32::from_ptr(addr_of_mut!((*self.node(node)).first_child)) }
    }

    fn next_sibling(&self, node: u32) -> u32 {
        // SAFETY: written before the node was published, never after.
        unsafe { (*self.node(node)).next_sibling }
    }

    fn visits(&self, node: u32) -> &AtomicU32 {
        // SAFETY: as `first_child`.
        unsafe { AtomicU32::from_ptr(addr_of_mut!((*self.node(node)).visits)) }
    }

    fn half_wins(&self, node: u32) -> &AtomicU32 {
        // SAFETY: as `first_child`.
        unsafe { AtomicU32::from_ptr(addr_of_mut!((*self.node(node)).half_wins)) }
    }

    fn children(&self, node: u32) -> &AtomicU16 {
        // SAFETY: as `first_child`.
        unsafe { AtomicU16::from_ptr(addr_of_mut!((*self.node(node)).children)) }
    }

    fn proven(&self, node: u32) -> &AtomicU8 {
        // SAFETY: as `first_child`.
        unsafe { AtomicU8::from_ptr(addr_of_mut!((*self.node(node)).proven)) }
    }

    fn action(&self, node: u32) -> Action {
        // SAFETY: as `next_sibling`.
        unsafe { (*self.node(node)).action }
    }

    fn mover(&self, node: u32) -> u8 {
        // SAFETY: as `next_sibling`.
        unsafe { (*self.node(node)).mover }
    }

    /// The children of `node` published so far.
    fn children_of(&self, node: u32) -> impl Iterator<Item = u32> + '_ {
        let mut next = self.first_child(node).load(Ordering::Acquire);
        std::iter::from_fn(move || {
            let current = next;
            (current != NO_NODE).then(|| {
                next = self.next_sibling(current);
                current
            })
        })
    }

    /// The child of `node` for `action`, added unless another thread added
    /// it first; `None` once the buffer is full.
    fn add_child(&self, node: u32, action: Action, mover: usize) -> Option<u32> {
        let head = self.first_child(node);
        let mut seen = head.load(Ordering::Acquire);
        let mut slot = None;
        loop {
            let mut next = seen;
            while next != NO_NODE {
                if self.action(next) == action {
                    return Some(next);
                }
                next = self.next_sibling(next);
            }
            let child = if let Some(child) = slot {
                child
            } else {
                let claimed = self.len.fetch_add(1, Ordering::Relaxed);
                if claimed >= self.capacity {
                    return None;
                }
                let child = claimed as u32;
                slot = Some(child);
                child
            };
            let mut fresh = Node::new(action, mover as u8);
            fresh.next_sibling = seen;
            // SAFETY: the slot is this thread's alone until published.
            unsafe { self.node(child).write(fresh) };
            match head.compare_exchange(seen, child, Ordering::Release, Ordering::Acquire) {
                Ok(_) => {
                    self.children(node).fetch_add(1, Ordering::Release);
                    return Some(child);
                }
                // Children were added meanwhile: look among them again.
                Err(now) => seen = now,
            }
        }
    }
}

/// One thread's part of a search of a shared tree: its random stream and
/// scratch.
pub(super) struct Worker {
    pub(super) rng: Rng,
    path: Vec<u32>,
    tried: Vec<u64>,
    legal: Vec<u32>,
    features: Vec<f32>,
}

impl Worker {
    pub(super) fn new(rng: Rng) -> Worker {
        Worker {
            rng,
            path: Vec::new(),
            tried: Vec::new(),
            legal: Vec::new(),
            features: Vec::new(),
        }
    }

    /// One iteration of the solver ([`super::Algorithm::Solver`]) below the node
    /// that `prefix` (the nodes and actions from `root`, which exist) leads
    /// to, as `Tree::iterate`; returns whether the root of the search is
    /// now solved.
    fn iterate<G: Evaluate>(
        &mut self,
        nodes: &SharedNodes,
        root: &G,
        prefix: &[(u32, Action)],
        exploration: f64,
        config: &Config,
    ) -> bool {
        let mut state = root.clone();
        self.path.clear();
        self.path.push(0);
        self.legal.clear();
        let mut node = 0;
        for &(child, action) in prefix {
            self.legal.push(state.legal_actions().len());
            state.apply(action);
            self.path.push(child);
            node = child;
        }
        let top = node;
        let mut known = None;
        loop {
            let proven = nodes.proven(node).load(Ordering::Acquire);
            if node != top && proven != UNPROVEN {
                known = Some(proven_winner(proven, nodes.mover(node)));
                break;
            }
            let actions = state.legal_actions();
            let legal = actions.len();
            if legal == 0 {
                break;
            }
            self.legal.push(legal);
            let children = u32::from(nodes.children(node).load(Ordering::Acquire));
            if children < legal
                && nodes.len() < config.max_nodes
                && let Some(child) = self.expand(nodes, node, &actions, &mut state)
            {
                self.path.push(child);
                break;
            }
            if nodes.first_child(node).load(Ordering::Acquire) == NO_NODE {
                self.legal.pop();
                break;
            }
            node = select::<true>(nodes, node, exploration);
            state.apply(nodes.action(node));
            self.path.push(node);
        }
        let (seat, half_wins) = if let Some(winner) = known {
            (winner, 2)
        } else {
            self.play_out(nodes, &mut state, top, config)
        };
        for &index in &self.path {
            nodes.visits(index).fetch_add(1, Ordering::Relaxed);
            let won = if seat == usize::from(nodes.mover(index)) {
                half_wins
            } else {
                2 - half_wins
            };
            nodes.half_wins(index).fetch_add(won, Ordering::Relaxed);
        }
        back_up_proof(&mut { nodes }, &self.path, &self.legal, prefix.len())
    }

    /// The playout from `state` (the path's leaf, below `top`): its seat
    /// and half wins, as `Tree::iterate` scores them; a leaf at the end of
    /// the game is proven.
    fn play_out<G: Evaluate>(
        &mut self,
        nodes: &SharedNodes,
        state: &mut G,
        top: u32,
        config: &Config,
    ) -> (usize, u32) {
        let limit = if config.cutoff > 0 {
            config.cutoff
        } else {
            u32::MAX
        };
        let steps = state.play_random(&mut self.rng, limit);
        if steps < limit {
            let winner = crate::game::winner_at_end(state);
            let leaf = *self.path.last().expect("the root is on the path");
            if steps == 0 && leaf != top {
                let won = winner == usize::from(nodes.mover(leaf));
                let proof = if won { PROVEN_WIN } else { PROVEN_LOSS };
                nodes.proven(leaf).store(proof, Ordering::Release);
            }
            (winner, 2)
        } else {
            let estimate = state.estimate_with(&mut self.features);
            (
                state.seat_to_act(),
                half_wins_of_playout(estimate, &mut self.rng),
            )
        }
    }

    /// Adds a child of `node` for an action not tried there yet and takes
    /// it in `state`; `None` (nothing taken) when every action has one by
    /// now or the buffer is full.
    fn expand<G: Evaluate>(
        &mut self,
        nodes: &SharedNodes,
        node: u32,
        actions: &G::Actions,
        state: &mut G,
    ) -> Option<u32> {
        let taken = nodes.children_of(node).map(|child| nodes.action(child));
        let action = untried_action(
            actions,
            taken,
            state.num_actions(),
            &mut self.tried,
            &mut self.rng,
        )?;
        let child = nodes.add_child(node, action, state.seat_to_act())?;
        state.apply(action);
        Some(child)
    }
}

impl Proofs for &SharedNodes {
    fn proven(&self, node: u32) -> u8 {
        SharedNodes::proven(self, node).load(Ordering::Acquire)
    }

    fn mover(&self, node: u32) -> u8 {
        SharedNodes::mover(self, node)
    }

    fn all_lost(&self, node: u32, legal: u32) -> bool {
        // A child is counted once published: with every action's child
        // counted, all are in the list.
        u32::from(self.children(node).load(Ordering::Acquire)) == legal
            && self.children_of(node).all(|child| {
                SharedNodes::proven(self, child).load(Ordering::Acquire) == PROVEN_LOSS
            })
    }

    fn prove(&mut self, node: u32, proof: u8) {
        SharedNodes::proven(self, node).store(proof, Ordering::Release);
    }
}

/// The winner of every game through a node proven `proven` for `mover`.
fn proven_winner(proven: u8, mover: u8) -> usize {
    if proven == PROVEN_WIN {
        usize::from(mover)
    } else {
        1 - usize::from(mover)
    }
}

/// As `Tree::select`, on the shared nodes.
fn select<const PROVE: bool>(nodes: &SharedNodes, node: u32, exploration: f64) -> u32 {
    let children = || {
        nodes.children_of(node).map(|child| {
            (
                child,
                nodes.visits(child).load(Ordering::Relaxed),
                nodes.half_wins(child).load(Ordering::Relaxed),
                nodes.proven(child).load(Ordering::Acquire),
            )
        })
    };
    let visits = nodes.visits(node).load(Ordering::Relaxed);
    best_child::<PROVE, _>(children, visits, exploration)
}

/// Grows the shared tree on `workers.len()` threads, each until it has
/// run the iterations of `budget`, its time has passed since `start` or
/// `stop` is raised, or all until the root of the search is solved;
/// returns the iterations run.
pub(super) fn run<G: Evaluate>(
    nodes: &SharedNodes,
    root: &G,
    prefix: &[(u32, Action)],
    workers: &mut [Worker],
    config: &Config,
    (budget, start, stop): (Budget, Instant, &AtomicBool),
) -> u64 {
    // As `Tree::run`: the clock every 16 iterations.
    const CLOCK_EVERY: u64 = 16;
    let limit = budget.iterations.unwrap_or(u64::MAX);
    let deadline = budget.time.map(|t| start + t);
    let exploration = config.exploration_of::<G>();
    let solved = AtomicBool::new(false);
    std::thread::scope(|scope| {
        let handles: Vec<_> = workers
            .iter_mut()
            .map(|worker| {
                let solved = &solved;
                scope.spawn(move || {
                    let mut done = 0;
                    while done < limit {
                        if done % CLOCK_EVERY == 0
                            && (stop.load(Ordering::Relaxed)
                                || solved.load(Ordering::Relaxed)
                                || deadline.is_some_and(|d| Instant::now() >= d))
                        {
                            break;
                        }
                        done += 1;
                        if worker.iterate(nodes, root, prefix, exploration, config) {
                            solved.store(true, Ordering::Relaxed);
                            break;
                        }
                    }
                    done
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|handle| handle.join().expect("a search thread panicked"))
            .sum()
    })
}
