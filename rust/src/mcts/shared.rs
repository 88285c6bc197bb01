//! Tree parallelism: several threads grow one tree at once.
//!
//! During a search the tree's nodes are reached only through [`SharedNodes`],
//! which reads and writes every field that another thread may touch with an
//! atomic operation: the statistics (added on the way up, one addition a
//! field), a node's list of children (a child is published by swapping the
//! head of its parent's list, so that no action gets two children), its
//! number of children and its proof. A node's action, mover and next
//! sibling are written before it is published and never change after; the
//! threads read them from an array of [`Link`]s beside the nodes.
//!
//! The threads meet where one writes what the other reads, and each such
//! cache line moves between the cores (a few hundred nanoseconds where they
//! are far apart, against a microsecond or two for an iteration). So:
//! - a thread adds its visits of a node in one go, later, while they are at
//!   most one in [`OWED_SHARE`] of the node's (the busy nodes at the top,
//!   which every iteration passes), and all it owes every [`SETTLE_EVERY`]
//!   iterations and at the end;
//! - a node with fewer visits gets its visit on the way down, a virtual
//!   loss until the result is added on the way up, so that a thread that
//!   follows another there takes another child rather than the same path;
//! - each thread takes its new nodes from a block of [`BLOCK`] slots of its
//!   own, not from the shared count at every expansion;
//! - what never changes of a node is read from its [`Link`], on lines the
//!   threads do not write.

use std::ops::Range;
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

/// A thread owes a node its visits there while they are at most one in
/// `OWED_SHARE` of the node's visits; a node with fewer visits than this
/// gets each visit at once, on the way down.
const OWED_SHARE: u32 = 32;

/// The iterations after which a thread adds all it owes.
const SETTLE_EVERY: u32 = 64;

/// The slots a thread claims at once for the nodes it adds.
pub(super) const BLOCK: usize = 32;

/// What never changes of a node once it is published: its place in its
/// parent's list of children, its action and its mover. Kept apart from the
/// statistics, which the threads write all the time, so that a walk along
/// a node's children (to select, or to find an action not tried yet) reads
/// lines that the other threads do not write; and so that the next child's
/// index is not behind the load of a line that may be on another core.
#[derive(Clone, Copy, Debug)]
pub(super) struct Link {
    next_sibling: u32,
    action: Action,
    mover: u8,
}

impl Link {
    pub(super) fn of(node: &Node) -> Link {
        Link {
            next_sibling: node.next_sibling,
            action: node.action,
            mover: node.mover,
        }
    }
}

/// The nodes of one tree while several threads grow it: a buffer reserved
/// for all the nodes the tree may hold, claimed up to `len`.
pub(super) struct SharedNodes {
    base: *mut Node,
    /// The links of the nodes, beside them: see [`Link`].
    links: *mut Link,
    limit: usize,
    len: AtomicUsize,
}

// SAFETY: the nodes are reached only through atomic operations on the fields
// that change, and through plain reads of the fields written before a node
// is published (with release ordering) and never after.
unsafe impl Sync for SharedNodes {}

impl SharedNodes {
    /// A view of `nodes`, whose capacity (up to `max_nodes`) is all the
    /// tree may hold; the length is given back by [`SharedNodes::finish`].
    /// `links` (scratch) is made the nodes' links, with room for as many.
    pub(super) fn new(
        nodes: &mut Vec<Node>,
        links: &mut Vec<Link>,
        max_nodes: usize,
    ) -> SharedNodes {
        links.clear();
        let _ = links.try_reserve_exact(nodes.capacity());
        links.extend(nodes.iter().map(Link::of));
        SharedNodes {
            base: nodes.as_mut_ptr(),
            links: links.as_mut_ptr(),
            limit: nodes
                .capacity()
                .min(links.capacity())
                .min(max_nodes.max(nodes.len())),
            len: AtomicUsize::new(nodes.len()),
        }
    }

    /// Sets the length of `nodes` to the nodes written.
    ///
    /// # Safety
    ///
    /// `nodes` is the vector this view was made of, untouched since, and
    /// every worker has given back its free slots ([`Worker::give_back`]).
    pub(super) unsafe fn finish(self, nodes: &mut Vec<Node>) {
        let len = self.len.load(Ordering::Acquire).min(self.limit);
        // SAFETY: every slot below `len` was claimed, and written by the
        // thread that claimed it.
        unsafe { nodes.set_len(len) };
    }

    /// Whether slots are left to claim.
    fn has_room(&self) -> bool {
        self.len.load(Ordering::Relaxed) < self.limit
    }

    /// Claims the next block of free slots; `None` once the tree is full.
    fn claim_block(&self) -> Option<Range<u32>> {
        if !self.has_room() {
            return None;
        }
        let first = self.len.fetch_add(BLOCK, Ordering::Relaxed);
        (first < self.limit).then(|| first as u32..(first + BLOCK).min(self.limit) as u32)
    }

    fn node(&self, node: u32) -> *mut Node {
        debug_assert!((node as usize) < self.limit);
        // SAFETY: a published node lies within the buffer.
        unsafe { self.base.add(node as usize) }
    }

    fn first_child(&self, node: u32) -> &AtomicU32 {
        // SAFETY: the field is aligned and only reached atomically.
        unsafe { AtomicU32::from_ptr(addr_of_mut!((*self.node(node)).first_child)) }
    }

    fn link(&self, node: u32) -> Link {
        debug_assert!((node as usize) < self.limit);
        // SAFETY: written before the node was published, never after.
        unsafe { *self.links.add(node as usize) }
    }

    fn next_sibling(&self, node: u32) -> u32 {
        self.link(node).next_sibling
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
        self.link(node).action
    }

    fn mover(&self, node: u32) -> u8 {
        self.link(node).mover
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

    /// The child of `node` for `action`: written to `slot` (claimed by this
    /// thread, free) and published, unless another thread added it first,
    /// when `slot` stays free. Returns the child and whether it took the
    /// slot.
    fn add_child(&self, node: u32, action: Action, mover: usize, slot: u32) -> (u32, bool) {
        let head = self.first_child(node);
        let mut seen = head.load(Ordering::Acquire);
        loop {
            let mut next = seen;
            while next != NO_NODE {
                if self.action(next) == action {
                    return (next, false);
                }
                next = self.next_sibling(next);
            }
            let mut fresh = Node::new(action, mover as u8);
            fresh.next_sibling = seen;
            // SAFETY: the slot is this thread's alone until published.
            unsafe {
                self.node(slot).write(fresh);
                self.links.add(slot as usize).write(Link::of(&fresh));
            }
            match head.compare_exchange(seen, slot, Ordering::Release, Ordering::Acquire) {
                Ok(_) => {
                    self.children(node).fetch_add(1, Ordering::Release);
                    return (slot, true);
                }
                // Children were added meanwhile: look among them again.
                Err(now) => seen = now,
            }
        }
    }
}

/// One thread's part of a search of a shared tree: its random stream and
/// scratch, which the thread writes all the time; aligned so that no two
/// threads' parts share a cache line (or the pair the CPU fetches at once).
#[repr(align(128))]
pub(super) struct Worker {
    pub(super) rng: Rng,
    /// The free slots of this thread's block.
    slots: Range<u32>,
    path: Vec<u32>,
    tried: Vec<u64>,
    legal: Vec<u32>,
    features: Vec<f32>,
    /// The statistics this thread owes the busy nodes: node, visits, half
    /// wins.
    owed: Vec<(u32, u32, u32)>,
    /// Iterations since the owed statistics were last added.
    owing_for: u32,
    /// For each node of the path, whether its visit was added on the way
    /// down.
    counted: Vec<bool>,
}

impl Worker {
    pub(super) fn new(rng: Rng) -> Worker {
        Worker {
            rng,
            slots: 0..0,
            path: Vec::new(),
            tried: Vec::new(),
            legal: Vec::new(),
            features: Vec::new(),
            owed: Vec::new(),
            counted: Vec::new(),
            owing_for: 0,
        }
    }

    /// Adds a visit of `node` that won `won` half wins: at once where the
    /// node has few visits, else owed, and added with those owed before
    /// once they are one in [`OWED_SHARE`] of the node's.
    fn add_visit(&mut self, nodes: &SharedNodes, node: u32, won: u32) {
        let seen = nodes.visits(node).load(Ordering::Relaxed);
        if seen < OWED_SHARE {
            nodes.visits(node).fetch_add(1, Ordering::Relaxed);
            nodes.half_wins(node).fetch_add(won, Ordering::Relaxed);
            return;
        }
        let at = if let Some(at) = self.owed.iter().position(|owed| owed.0 == node) {
            at
        } else {
            self.owed.push((node, 0, 0));
            self.owed.len() - 1
        };
        let owed = &mut self.owed[at];
        owed.1 += 1;
        owed.2 += won;
        if owed.1 * OWED_SHARE >= seen {
            let (_, visits, half_wins) = self.owed.swap_remove(at);
            nodes.visits(node).fetch_add(visits, Ordering::Relaxed);
            nodes
                .half_wins(node)
                .fetch_add(half_wins, Ordering::Relaxed);
        }
    }

    /// Adds all the statistics this thread owes.
    fn settle(&mut self, nodes: &SharedNodes) {
        for (node, visits, half_wins) in self.owed.drain(..) {
            nodes.visits(node).fetch_add(visits, Ordering::Relaxed);
            nodes
                .half_wins(node)
                .fetch_add(half_wins, Ordering::Relaxed);
        }
        self.owing_for = 0;
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
        self.counted.clear();
        self.counted.resize(self.path.len(), false);
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
                && (!self.slots.is_empty() || nodes.has_room())
                && let Some(child) = self.expand(nodes, node, &actions, &mut state)
            {
                self.path.push(child);
                self.counted.push(false);
                break;
            }
            if nodes.first_child(node).load(Ordering::Acquire) == NO_NODE {
                self.legal.pop();
                break;
            }
            node = select::<true>(nodes, node, exploration);
            state.apply(nodes.action(node));
            self.path.push(node);
            // A virtual loss where the statistics are few.
            let visits = nodes.visits(node);
            let early = visits.load(Ordering::Relaxed) < OWED_SHARE;
            if early {
                visits.fetch_add(1, Ordering::Relaxed);
            }
            self.counted.push(early);
        }
        let (seat, half_wins) = if let Some(winner) = known {
            (winner, 2)
        } else {
            self.play_out(nodes, &mut state, top, config)
        };
        for at in 0..self.path.len() {
            let node = self.path[at];
            let won = if seat == usize::from(nodes.mover(node)) {
                half_wins
            } else {
                2 - half_wins
            };
            if self.counted[at] {
                nodes.half_wins(node).fetch_add(won, Ordering::Relaxed);
            } else {
                self.add_visit(nodes, node, won);
            }
        }
        self.owing_for += 1;
        if self.owing_for == SETTLE_EVERY {
            self.settle(nodes);
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
        if self.slots.is_empty() {
            self.slots = nodes.claim_block()?;
        }
        let (child, added) = nodes.add_child(node, action, state.seat_to_act(), self.slots.start);
        if added {
            self.slots.start += 1;
        }
        state.apply(action);
        Some(child)
    }

    /// Writes an unreached node to each slot left in this thread's block,
    /// so that every slot claimed holds a node.
    fn give_back(&mut self, nodes: &SharedNodes) {
        for slot in std::mem::replace(&mut self.slots, 0..0) {
            // SAFETY: the slot is this thread's alone, never published.
            unsafe { nodes.node(slot).write(Node::new(0, 0)) };
        }
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
    let iterations = std::thread::scope(|scope| {
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
                    worker.settle(nodes);
                    done
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|handle| handle.join().expect("a search thread panicked"))
            .sum()
    });
    for worker in workers {
        worker.give_back(nodes);
    }
    iterations
}
