//! The search every solver shares: depth-first with a transposition table, restarts and the
//! repetition rule; the staged search and the staged beam (docs/solving.md). It knows no game:
//! a game plugs in through an [`Adapter`], exactly as in `patience.solve.search`.
//!
//! Keys are 128-bit fingerprints of the bytes an adapter writes ([`crate::key`]; docs/solving.md,
//! "The compiled core"): the table, the positions on the path and the game's history compare
//! fingerprints.

use std::cmp::Ordering;
use std::collections::hash_map::Entry;
use std::collections::{BTreeMap, VecDeque};
use std::rc::Rc;

use crate::clock::Clock;
use crate::key::{Key, KeyMap, KeySet};
use crate::moves::Move;
use crate::table::Table;

/// Which of the first `width` of `count` steps goes first, chosen by the node's fingerprint and
/// the run number (the Python `one_of_the_first`, with the fingerprint in place of a CRC-32).
pub fn one_of_the_first(count: usize, canon: Key, restart: u32, width: usize) -> usize {
    if count < 2 {
        return 0;
    }
    let mut bytes = [0u8; 20];
    bytes[..16].copy_from_slice(&canon.to_le_bytes());
    bytes[16..].copy_from_slice(&restart.to_le_bytes());
    (xxhash_rust::xxh3::xxh3_64(&bytes) % count.min(width) as u64) as usize
}

/// The packing of an adapter that keeps its nodes whole in the staged search (inside its
/// `impl Adapter`; `$node` is its node type): [`Adapter::pack`] clones, [`Adapter::unpacked`]
/// hands the kept node back.
macro_rules! nodes_kept_whole {
    ($node:ty) => {
        type Packed = $node;

        fn pack(&self, node: &$node) -> $node {
            node.clone()
        }

        fn unpacked<'a>(&self, packed: &'a $node, _out: &'a mut $node) -> &'a $node {
            packed
        }
    };
}
pub(crate) use nodes_kept_whole;

/// A step from a node to a child, with the child.
pub type Child<A> = (<A as Adapter>::Step, <A as Adapter>::Node);

/// How the search sees one game (the Python `Adapter`, method for method).
pub trait Adapter {
    type Node: Clone;
    type Step: Clone;
    /// A node as the staged search keeps it until it is expanded (see [`Adapter::pack`]).
    type Packed;

    /// The node as the staged search keeps it: an adapter whose node carries what can be made
    /// again from the rest (Klondike's fingerprints) keeps less, since the staged search
    /// keeps every node it reaches, and fresh memory costs the kernel's zeroing.
    fn pack(&self, node: &Self::Node) -> Self::Packed;
    /// The node `packed` keeps: made again in `out`, or `packed` itself when it is the node.
    fn unpacked<'a>(&self, packed: &'a Self::Packed, out: &'a mut Self::Node) -> &'a Self::Node;

    /// Nodes before the first restart (None: never restart); each later run gets twice as many.
    fn restart_nodes(&self) -> Option<u64> {
        None
    }
    /// Nodes of the first run when it differs from `restart_nodes`.
    fn first_run_nodes(&self) -> Option<u64> {
        None
    }
    /// The tries of [`staged`], each `(width, nodes)`.
    fn staged_tries(&self) -> &[(usize, u64)] {
        &[]
    }
    /// The tries of [`staged_beam`], each `(width, beam, depth)`.
    fn beam_tries(&self) -> &[(usize, usize, usize)] {
        &[]
    }
    /// The share of a bounded budget the solver's first depth-first run gets before the staged
    /// search (the Python `FIRST_SHARE`, unless a game's core adapter says otherwise).
    fn first_share(&self) -> f64 {
        FIRST_SHARE
    }
    /// The most nodes the solver's first depth-first run may expand, whatever its share of the
    /// budget (none by default).
    fn first_nodes(&self) -> Option<u64> {
        None
    }
    /// Whether the solver's last depth-first part goes on from the first part's proved losses
    /// and restarts ([`Carry`]) instead of starting afresh.
    fn carry_table(&self) -> bool {
        false
    }
    /// [`staged_beam`] ends a stage after this many layers without a better score.
    fn beam_patience(&self) -> usize {
        10
    }
    /// In run number `restart` (1, 2, ...), the step tried first; the others keep their order
    /// after it. `canon` is the node's canonical fingerprint. Must depend only on the node, the
    /// steps and `restart`.
    fn first_step(&self, _canon: Key, _steps: &[Child<Self>], _restart: u32) -> usize {
        0
    }
    /// How promising a node looks, higher better (staged searches only).
    fn score(&self, _node: &Self::Node) -> f64 {
        0.0
    }
    /// A number few steps change (staged searches only).
    fn stage(&self, _node: &Self::Node) -> i64 {
        0
    }
    /// The transposition-table key: equal for equally winnable states (a fingerprint of the
    /// adapter's canonical form, see [`crate::key::fingerprint`]).
    fn canonical(&self, node: &Self::Node) -> Key;
    /// A counter that only grows along a path and never makes a state better.
    fn worse(&self, _node: &Self::Node) -> u32 {
        0
    }
    /// A fingerprint equal exactly when the engine's repetition keys are equal.
    fn path_key(&self, node: &Self::Node) -> Key;
    /// A coarser key shared by a node and the states inside its steps.
    fn layout_key(&self, node: &Self::Node) -> Key {
        self.path_key(node)
    }
    /// The path keys of the states inside `step` (a stock being turned), as fingerprints.
    fn inner_keys(&self, _node: &Self::Node, _step: &Self::Step, _out: &mut Vec<Key>) {}
    /// A win's moves from `root` made legal under the rule that no position comes twice, by
    /// cutting out every stretch between two visits of a position (the same game is won):
    /// for adapters whose steps may pass through a position again (Klondike's twin switches).
    fn tidy(&self, _root: &Self::Node, moves: Vec<Move>) -> Vec<Move> {
        moves
    }
    /// Told before a search starts: whether it prunes with the dominance rules, and whether
    /// the game has past positions (Klondike's twin switches are used only without them).
    fn set_search(&mut self, _dominance: bool, _history: bool) {}
    /// True when the node is won.
    fn won(&self, node: &Self::Node) -> bool;
    /// The children in order of promise, or the one safe step when `dominance` allows it.
    fn steps(&self, node: &Self::Node, dominance: bool, out: &mut Vec<Child<Self>>);
    /// [`Adapter::steps`], with each child's canonical key pushed onto `canons` and its slot of
    /// `seen` fetched as soon as the key is known: the search reads the slots right after, and
    /// an adapter that makes its children one by one can start each fetch early.
    fn keyed_steps(
        &self,
        node: &Self::Node,
        dominance: bool,
        out: &mut Vec<Child<Self>>,
        canons: &mut Vec<Key>,
        seen: &Table,
    ) {
        let first = out.len();
        self.steps(node, dominance, out);
        for (_, child) in &out[first..] {
            let canon = self.canonical(child);
            seen.prefetch(canon);
            canons.push(canon);
        }
    }

    /// Whether the depth-first search keeps only the steps of the nodes on its path (with their
    /// children's keys) and makes a child again, with [`Adapter::child_into`], when it enters
    /// it. For games whose nodes are large and whose paths are deep (Spider's first run dives
    /// thousands of levels, each node's thirty children 12 KiB): every child is still made
    /// once to be keyed, in memory the next node reuses, and those the table lets through are
    /// made again, where keeping them all would fill fresh memory level after level. The same
    /// search, node for node.
    fn children_on_entry(&self) -> bool {
        false
    }
    /// The child `step` makes of `node`, written into `out` (called only when
    /// [`Adapter::children_on_entry`] is true; `out` holds some other node of the game).
    fn child_into(&self, _node: &Self::Node, _step: &Self::Step, _out: &mut Self::Node) {
        unreachable!("children are made on entry only by adapters that say so")
    }

    /// With restarts: when the depth-first search's table reaches its bound, empty it and start
    /// the next run at once instead of giving up (the losses it held are proved again when
    /// needed).
    fn refill_full_table(&self) -> bool {
        false
    }

    /// The most memory the nodes a staged search keeps may take.
    fn staged_bytes(&self) -> usize {
        STAGED_BYTES
    }
    /// The engine moves of a step.
    fn moves(&self, node: &Self::Node, step: &Self::Step) -> Vec<Move>;

    /// The same game with fewer choices, every step of which is a step of this one: its wins
    /// are wins here, its proofs of loss prove nothing. [`solver_search`] searches it first,
    /// with [`NARROWED_SHARE`] of the budget.
    fn narrowed(&self) -> Option<Self>
    where
        Self: Sized,
    {
        None
    }
}

/// Limits on one search (the Python `Budget`).
#[derive(Clone, Copy, Debug)]
pub struct Budget {
    pub seconds: Option<f64>,
    pub nodes: Option<u64>,
    pub max_states: usize,
    pub cpu_time: bool,
}

/// The three answers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    Won,
    Unwinnable,
    Unknown,
}

impl Verdict {
    pub fn name(self) -> &'static str {
        match self {
            Verdict::Won => "won",
            Verdict::Unwinnable => "unwinnable",
            Verdict::Unknown => "unknown",
        }
    }
}

/// What a search found.
#[derive(Clone, Debug)]
pub struct SearchResult {
    pub verdict: Verdict,
    pub moves: Vec<Move>,
    pub nodes: u64,
    pub seconds: f64,
    pub why: &'static str,
    /// Entries of the largest table the search held.
    pub states: usize,
}

/// How many nodes are expanded between two looks at the clock.
const CLOCK_EVERY: u64 = 256;
/// How many nodes are expanded between two calls of the interrupt check (Ctrl-C).
const INTERRUPT_EVERY: u64 = 1 << 16;

pub const NODE_BUDGET: &str = "the node budget ran out";
pub const TIME_BUDGET: &str = "the time budget ran out";
pub const MEMORY_BUDGET: &str = "the table of seen states reached its memory bound";
pub const STAGED_MEMORY: &str = "the staged search reached its memory bound";

/// The most memory the nodes a staged search keeps may take (each node it makes is kept, with
/// its parent, until the try ends): beyond it the search gives up, and the solver goes on with
/// its last depth-first part.
const STAGED_BYTES: usize = 1 << 30;
pub const INTERRUPTED: &str = "interrupted";
/// Every line failed, but only because some of them would have recreated a position the game
/// had already been in: no proof, since the pruning rules are proved for a game whose positions
/// may repeat (docs/solving.md, "History"). The caller may search again without the history.
pub const HISTORY_ONLY: &str = "no win found that avoids the positions already played, which \
    proves nothing: the pruning rules assume that positions may repeat";

/// Counts nodes against a budget and the clock; asks `interrupt` now and then whether to stop.
pub struct Meter<'a> {
    budget: Budget,
    clock: Clock,
    started: f64,
    deadline: Option<f64>,
    pub nodes: u64,
    interrupt: &'a mut dyn FnMut() -> bool,
}

impl<'a> Meter<'a> {
    pub fn new(budget: Budget, interrupt: &'a mut dyn FnMut() -> bool) -> Self {
        let clock = Clock::new(budget.cpu_time);
        let started = clock.now();
        Meter {
            budget,
            clock,
            started,
            deadline: budget.seconds.map(|seconds| started + seconds),
            nodes: 0,
            interrupt,
        }
    }

    pub fn seconds(&self) -> f64 {
        self.clock.now() - self.started
    }

    /// Count one expanded node; the reason to stop when a budget ran out.
    #[inline]
    fn expand(&mut self) -> Option<&'static str> {
        if let Some(limit) = self.budget.nodes {
            if self.nodes >= limit {
                return Some(NODE_BUDGET);
            }
        }
        self.nodes += 1;
        self.after_count()
    }

    #[inline]
    fn after_count(&mut self) -> Option<&'static str> {
        if self.nodes.is_multiple_of(CLOCK_EVERY) {
            if let Some(deadline) = self.deadline {
                if self.clock.now() > deadline {
                    return Some(TIME_BUDGET);
                }
            }
            if self.nodes.is_multiple_of(INTERRUPT_EVERY) && (self.interrupt)() {
                return Some(INTERRUPTED);
            }
        }
        None
    }

    fn result(&self, verdict: Verdict, why: &'static str, moves: Vec<Move>) -> SearchResult {
        SearchResult { verdict, moves, nodes: self.nodes, seconds: self.seconds(), why, states: 0 }
    }
}

/// A node on the depth-first path. Its node is not stored here but read where it already is: the
/// root, or the child of the frame below that led to it (a node is copied once, when made, or
/// twice when the adapter's children are made on entry).
struct Frame<A: Adapter> {
    canon: Key,
    old: Option<u32>,
    path: Key,
    layout: Key,
    /// The steps with their children (empty when the children are made on entry).
    steps: Vec<Child<A>>,
    /// With [`Adapter::children_on_entry`]: the steps, each with its child's
    /// [`Adapter::worse`] (the child being tried lies in the search's `entered`).
    bare: Vec<(A::Step, u32)>,
    /// The children's canonical keys (with the table on), computed when the steps are.
    canons: Vec<Key>,
    index: usize,
    dependent: bool,
    /// A step of this node or of a node below it that failed was refused because it would
    /// recreate one of the game's positions before the search.
    by_history: bool,
    may_fall_back: bool,
    /// The step tried first (see [`Adapter::first_step`]): the children stay where they were
    /// made (a Klondike child is 336 bytes) and the search takes them in that order.
    first: usize,
}

impl<A: Adapter> Frame<A> {
    fn len(&self) -> usize {
        self.steps.len() + self.bare.len()
    }

    fn step(&self, index: usize) -> &A::Step {
        match self.steps.get(index) {
            Some((step, _)) => step,
            None => &self.bare[index].0,
        }
    }

    /// Where the step tried at `turn` (0, 1, ...) lies: `first`, then the others in order.
    #[inline]
    fn place(&self, turn: usize) -> usize {
        if turn == 0 {
            self.first
        } else if turn <= self.first {
            turn - 1
        } else {
            turn
        }
    }
}

/// The lists of frames gone, kept for the frames to come (a frame's lists are reused, not
/// allocated again).
struct Spare<A: Adapter> {
    steps: Vec<Vec<Child<A>>>,
    keys: Vec<Vec<Key>>,
    bare: Vec<Vec<(A::Step, u32)>>,
}

impl<A: Adapter> Default for Spare<A> {
    fn default() -> Self {
        Spare { steps: Vec::new(), keys: Vec::new(), bare: Vec::new() }
    }
}

impl<A: Adapter> Spare<A> {
    fn keep(&mut self, frame: Frame<A>) {
        self.steps.push(frame.steps);
        self.keys.push(frame.canons);
        self.bare.push(frame.bare);
    }
}

/// Make the steps of `node` into a frame's lists (emptied first): with their children in
/// `steps`, or, when the adapter makes its children on entry, made in `made` and moved to
/// `bare` without them. Each child's key goes to `canons` when `seen` is given. Returns the
/// step to try first (see [`Adapter::first_step`]; 0 in the first run).
#[allow(clippy::too_many_arguments)]
fn make_steps<A: Adapter>(
    adapter: &A,
    node: &A::Node,
    dominance: bool,
    seen: Option<&Table>,
    steps: &mut Vec<Child<A>>,
    canons: &mut Vec<Key>,
    bare: &mut Vec<(A::Step, u32)>,
    made: &mut Vec<Child<A>>,
    first_of: Option<(Key, u32)>,
) -> usize {
    steps.clear();
    canons.clear();
    bare.clear();
    let on_entry = adapter.children_on_entry();
    let out = if on_entry {
        made.clear();
        made
    } else {
        steps
    };
    match seen {
        Some(seen) => adapter.keyed_steps(node, dominance, out, canons, seen),
        None => adapter.steps(node, dominance, out),
    }
    let first = match first_of {
        Some((canon, restart)) if restart > 0 => adapter.first_step(canon, out, restart),
        _ => 0,
    };
    if on_entry {
        bare.extend(out.drain(..).map(|(step, child)| {
            let worse = adapter.worse(&child);
            (step, worse)
        }));
    }
    first
}

/// The node of the frame above `below` (the frames under it): the root, or the child the top
/// frame of `below` is trying, kept with its steps or, when the children are made on entry,
/// in `entered` (the child each frame is trying, by depth).
#[inline]
fn node_above<'s, A: Adapter>(
    root: &'s A::Node,
    below: &'s [Frame<A>],
    entered: &'s [A::Node],
) -> &'s A::Node {
    match below.last() {
        None => root,
        // (A frame trying a child has steps, unless its children are made on entry.)
        Some(parent) if parent.steps.is_empty() => &entered[below.len() - 1],
        Some(parent) => &parent.steps[parent.place(parent.index - 1)].1,
    }
}

/// Scratch space: the inner keys of a step.
#[derive(Default)]
struct Scratch {
    inner: Vec<Key>,
}

impl Scratch {
    fn canonical<A: Adapter>(&mut self, adapter: &A, node: &A::Node) -> Key {
        adapter.canonical(node)
    }
    fn path<A: Adapter>(&mut self, adapter: &A, node: &A::Node) -> Key {
        adapter.path_key(node)
    }
    fn layout<A: Adapter>(&mut self, adapter: &A, node: &A::Node) -> Key {
        adapter.layout_key(node)
    }
}

fn count_in(map: &mut KeyMap<u32>, key: Key) {
    *map.entry(key).or_insert(0) += 1;
}

fn count_out(map: &mut KeyMap<u32>, key: Key) {
    if let Some(count) = map.get_mut(&key) {
        *count -= 1;
        if *count == 0 {
            map.remove(&key);
        }
    }
}

/// Search depth-first from `root` for a won node (docs/solving.md: the table, the history
/// rule, restarts). `history` are the positions the game has been in (not to be recreated).
pub fn depth_first<A: Adapter>(
    adapter: &A,
    root: &A::Node,
    budget: Budget,
    history: &[A::Node],
    dominance: bool,
    table: bool,
    interrupt: &mut dyn FnMut() -> bool,
) -> SearchResult {
    depth_first_carried(adapter, root, budget, history, dominance, table, interrupt, None)
}

/// What a depth-first search that ran out of budget hands to the next one from the same root
/// (`solver_search`'s last part): its table, holding only states proved lost (the states on its
/// stack are taken out, as at a restart), and where its restarts stood. The next search goes on
/// as if it restarted: sound for the same reason restarts are (docs/solving.md, "Restarts").
#[derive(Default)]
pub struct Carry {
    seen: Option<Table>,
    restart: u32,
    run_nodes: Option<u64>,
}

/// [`depth_first`], starting from the table and restarts a `carry` holds (if any), and leaving
/// its own in it when a budget runs out.
#[allow(clippy::too_many_arguments)]
pub fn depth_first_carried<A: Adapter>(
    adapter: &A,
    root: &A::Node,
    budget: Budget,
    history: &[A::Node],
    dominance: bool,
    table: bool,
    interrupt: &mut dyn FnMut() -> bool,
    mut carry: Option<&mut Carry>,
) -> SearchResult {
    let mut meter = Meter::new(budget, interrupt);
    let mut scratch = Scratch::default();
    if adapter.won(root) {
        return meter.result(Verdict::Won, "", Vec::new());
    }
    // The game's past positions count as on the path for good.
    let mut on_path: KeyMap<u32> = KeyMap::default();
    let mut layouts: KeyMap<u32> = KeyMap::default();
    let mut before_root: KeyMap<u32> = KeyMap::default();
    for past in history {
        let path = scratch.path(adapter, past);
        count_in(&mut on_path, path);
        count_in(&mut before_root, path);
        let layout = scratch.layout(adapter, past);
        count_in(&mut layouts, layout);
    }
    let mut seen = Table::new();
    let mut stack: Vec<Frame<A>> = Vec::new();
    let mut spare: Spare<A> = Spare::default();
    // Children made on entry: where a node's children are made to be keyed, and the child
    // each frame is trying, by depth.
    let mut made: Vec<Child<A>> = Vec::new();
    let mut entered: Vec<A::Node> = Vec::new();
    let mut largest = 0usize;

    let mut restart: u32 = 0;
    let mut run_nodes = if table { adapter.restart_nodes() } else { None };
    let mut next_restart = run_nodes.map(|nodes| adapter.first_run_nodes().unwrap_or(nodes));
    if let Some(carried) = carry.as_deref_mut().filter(|_| table) {
        if let Some(kept) = carried.seen.take() {
            // Go on from an earlier search's proved losses, as after a restart.
            seen = kept;
            restart = carried.restart + 1;
            run_nodes = carried.run_nodes.map(|run| run.saturating_mul(2));
            next_restart = run_nodes;
        }
    }

    let root_canon = scratch.canonical(adapter, root);
    let root_path = scratch.path(adapter, root);
    meter.nodes = 1;

    /// Push the frame of the node above the stack's top (the root on an empty stack).
    #[allow(clippy::too_many_arguments)]
    fn push<A: Adapter>(
        adapter: &A,
        root: &A::Node,
        stack: &mut Vec<Frame<A>>,
        spare: &mut Spare<A>,
        made: &mut Vec<Child<A>>,
        entered: &[A::Node],
        seen: Option<&Table>,
        scratch: &mut Scratch,
        on_path: &mut KeyMap<u32>,
        layouts: &mut KeyMap<u32>,
        canon: Key,
        path: Key,
        old: Option<u32>,
        dominance: bool,
        restart: u32,
    ) {
        let node = node_above(root, stack, entered);
        let layout = scratch.layout(adapter, node);
        let mut steps = spare.steps.pop().unwrap_or_default();
        let mut canons = spare.keys.pop().unwrap_or_default();
        let mut bare = spare.bare.pop().unwrap_or_default();
        let first = make_steps(
            adapter,
            node,
            dominance,
            seen,
            &mut steps,
            &mut canons,
            &mut bare,
            made,
            Some((canon, restart)),
        );
        count_in(on_path, path);
        count_in(layouts, layout);
        stack.push(Frame {
            canon,
            old,
            path,
            layout,
            steps,
            bare,
            canons,
            index: 0,
            dependent: false,
            by_history: false,
            may_fall_back: dominance,
            first,
        });
    }

    loop {
        if table {
            seen.insert(root_canon, adapter.worse(root));
        }
        push(
            adapter,
            root,
            &mut stack,
            &mut spare,
            &mut made,
            &entered,
            table.then_some(&seen),
            &mut scratch,
            &mut on_path,
            &mut layouts,
            root_canon,
            root_path,
            None,
            dominance,
            restart,
        );
        let mut restarted = false;
        let mut root_by_history = false;
        while let Some((frame, below)) = stack.split_last_mut() {
            if frame.index >= frame.len() {
                // Every step failed: the node is lost. Keep it in the table only if that did
                // not depend on the path.
                let frame = stack.pop().expect("a frame");
                if let Some(parent) = stack.last() {
                    // The parent tries its next children now: their slots, fetched when it was
                    // pushed, have left the cache while this frame's subtree was searched.
                    if table {
                        for turn in parent.index..parent.len().min(parent.index + 2) {
                            seen.prefetch(parent.canons[parent.place(turn)]);
                        }
                    }
                }
                count_out(&mut on_path, frame.path);
                count_out(&mut layouts, frame.layout);
                if frame.by_history {
                    match stack.last_mut() {
                        Some(parent) => parent.by_history = true,
                        None => root_by_history = true,
                    }
                }
                if frame.dependent {
                    if let Some(parent) = stack.last_mut() {
                        parent.dependent = true;
                    }
                    if table {
                        match frame.old {
                            None => seen.remove(frame.canon),
                            Some(old) => seen.insert(frame.canon, old),
                        };
                    }
                }
                spare.keep(frame);
                continue;
            }
            let index = frame.place(frame.index);
            frame.index += 1;
            let worse = match frame.steps.get(index) {
                Some((_, child)) => adapter.worse(child),
                None => frame.bare[index].1,
            };
            let mut canon = 0;
            let mut old = None;
            if table {
                canon = frame.canons[index];
                old = seen.get(canon);
                if let Some(old) = old {
                    if old <= worse {
                        continue;
                    }
                }
            }
            let depth = below.len();
            if let Some((step, _)) = frame.bare.get(index) {
                if entered.len() <= depth {
                    entered.resize(depth + 1, root.clone());
                }
                let (lower, upper) = entered.split_at_mut(depth);
                adapter.child_into(node_above(root, below, lower), step, &mut upper[0]);
            }
            let child = match frame.steps.get(index) {
                Some((_, child)) => child,
                None => &entered[depth],
            };
            let child_path = scratch.path(adapter, child);
            let mut refused = on_path.contains_key(&child_path);
            let mut by_history = refused && before_root.contains_key(&child_path);
            if !refused && layouts.get(&frame.layout).copied().unwrap_or(0) > 1 {
                scratch.inner.clear();
                let node = node_above(root, below, &entered);
                adapter.inner_keys(node, frame.step(index), &mut scratch.inner);
                refused = scratch.inner.iter().any(|key| on_path.contains_key(key));
                by_history =
                    refused && scratch.inner.iter().any(|key| before_root.contains_key(key));
            }
            if refused {
                frame.dependent = true;
                frame.by_history |= by_history;
                if frame.may_fall_back && frame.len() == 1 {
                    // The one safe step is refused: fall back to every step.
                    frame.may_fall_back = false;
                    make_steps(
                        adapter,
                        node_above(root, below, &entered),
                        false,
                        table.then_some(&seen),
                        &mut frame.steps,
                        &mut frame.canons,
                        &mut frame.bare,
                        &mut made,
                        None,
                    );
                    frame.index = 0;
                    frame.first = 0;
                }
                continue;
            }
            if adapter.won(child) {
                let mut moves = Vec::new();
                for (depth, parent) in stack.iter().enumerate() {
                    let step = parent.step(parent.place(parent.index - 1));
                    moves.extend(adapter.moves(node_above(root, &stack[..depth], &entered), step));
                }
                let mut found = meter.result(Verdict::Won, "", adapter.tidy(root, moves));
                found.states = largest.max(seen.len());
                return found;
            }
            if let Some(why) = meter.expand() {
                let mut found = meter.result(Verdict::Unknown, why, Vec::new());
                found.states = largest.max(seen.len());
                if let Some(carried) = carry.as_deref_mut().filter(|_| table) {
                    // Keep only what is proved lost: the states on the stack are not.
                    while let Some(frame) = stack.pop() {
                        match frame.old {
                            None => seen.remove(frame.canon),
                            Some(old) => seen.insert(frame.canon, old),
                        };
                    }
                    carried.seen = Some(std::mem::take(&mut seen));
                    carried.restart = restart;
                    carried.run_nodes = run_nodes;
                }
                return found;
            }
            if let (Some(at), Some(run)) = (next_restart, run_nodes) {
                if meter.nodes >= at {
                    // Start again in another order. The states still on the stack are not
                    // proved lost: take them out of the table.
                    while let Some(frame) = stack.pop() {
                        count_out(&mut on_path, frame.path);
                        count_out(&mut layouts, frame.layout);
                        match frame.old {
                            None => seen.remove(frame.canon),
                            Some(old) => seen.insert(frame.canon, old),
                        };
                        spare.keep(frame);
                    }
                    restart += 1;
                    run_nodes = Some(run.saturating_mul(2));
                    next_restart = Some(meter.nodes.saturating_add(run.saturating_mul(2)));
                    restarted = true;
                    break;
                }
            }
            if table {
                if seen.len() >= budget.max_states
                    && run_nodes.is_some()
                    && adapter.refill_full_table()
                {
                    // Start the next run now, with an empty table (the frames on the stack
                    // go, as at a restart; so does every proved loss).
                    while let Some(frame) = stack.pop() {
                        count_out(&mut on_path, frame.path);
                        count_out(&mut layouts, frame.layout);
                        spare.keep(frame);
                    }
                    largest = largest.max(seen.len());
                    seen = Table::new();
                    restart += 1;
                    let run = run_nodes.expect("restarts");
                    run_nodes = Some(run.saturating_mul(2));
                    next_restart = Some(meter.nodes.saturating_add(run.saturating_mul(2)));
                    restarted = true;
                    break;
                }
                if seen.len() >= budget.max_states {
                    let mut found = meter.result(Verdict::Unknown, MEMORY_BUDGET, Vec::new());
                    found.states = largest.max(seen.len());
                    return found;
                }
                seen.insert(canon, worse);
                largest = largest.max(seen.len());
            }
            push(
                adapter,
                root,
                &mut stack,
                &mut spare,
                &mut made,
                &entered,
                table.then_some(&seen),
                &mut scratch,
                &mut on_path,
                &mut layouts,
                canon,
                child_path,
                old,
                dominance,
                restart,
            );
        }
        if !restarted {
            if root_by_history {
                let mut found = meter.result(Verdict::Unknown, HISTORY_ONLY, Vec::new());
                found.states = largest.max(seen.len());
                return found;
            }
            let mut found = meter.result(Verdict::Unwinnable, "", Vec::new());
            found.states = largest.max(seen.len());
            return found;
        }
    }
}

/// A node reached by a staged search, with its parent's index and the step from it.
struct Record<A: Adapter> {
    node: A::Packed,
    parent: usize,
    step: Option<A::Step>,
}

const NO_PARENT: usize = usize::MAX;

/// A candidate of the next stage: higher score first, then the earlier reached.
struct Ranked {
    score: f64,
    order: usize,
    record: usize,
}

impl PartialEq for Ranked {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}
impl Eq for Ranked {}
impl PartialOrd for Ranked {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for Ranked {
    fn cmp(&self, other: &Self) -> Ordering {
        // The greatest first: the best score, then the smallest order.
        by_score(self.score, other.score).then_with(|| other.order.cmp(&self.order))
    }
}

/// Scores in increasing order, as Python compares them: `f64::total_cmp`, but with -0.0 equal
/// to 0.0 (a tie, left to the order of reaching).
fn by_score(a: f64, b: f64) -> Ordering {
    (a + 0.0).total_cmp(&(b + 0.0))
}

/// The staged search's queue: the best score first, then the earliest reached. Entries come in
/// increasing order of reaching, so a first-in first-out list per score, the scores in a map by
/// [`by_score`]'s order, pops exactly what a heap of [`Ranked`] would, without comparing
/// entries: the heap's sifting through a million entries missed the cache at every level.
#[derive(Default)]
struct ScoreQueue {
    lists: BTreeMap<i64, VecDeque<usize>>,
    last_order: Option<usize>,
}

impl ScoreQueue {
    /// `score` as an integer in the order of [`by_score`] (the bit flip `f64::total_cmp`
    /// makes, -0.0 made 0.0 first).
    fn rank(score: f64) -> i64 {
        let bits = (score + 0.0).to_bits() as i64;
        bits ^ ((((bits >> 63) as u64) >> 1) as i64)
    }

    fn push(&mut self, score: f64, order: usize, record: usize) {
        debug_assert!(self.last_order.is_none_or(|last| last < order), "orders must increase");
        self.last_order = Some(order);
        self.lists.entry(Self::rank(score)).or_default().push_back(record);
    }

    fn pop(&mut self) -> Option<usize> {
        let mut best = self.lists.last_entry()?;
        let record = best.get_mut().pop_front();
        if best.get().is_empty() {
            best.remove();
        }
        record
    }
}

/// Sort best first: by score descending, then by order of reaching.
fn sort_best_first(entries: &mut [Ranked]) {
    entries.sort_by(|a, b| b.cmp(a));
}

/// The engine moves along `nodes` (the root first; `steps[i]` leads from `nodes[i]` to
/// `nodes[i + 1]`), or None when the line would pass through a position twice or through one of
/// `forbidden` (the game's history): the check every staged search's win goes through.
fn checked_line<A: Adapter>(
    adapter: &A,
    nodes: &[&A::Node],
    steps: &[&A::Step],
    forbidden: &KeySet,
    scratch: &mut Scratch,
) -> Option<Vec<Move>> {
    debug_assert_eq!(nodes.len(), steps.len() + 1);
    let mut keys = forbidden.clone();
    keys.insert(scratch.path(adapter, nodes[0]));
    let mut moves = Vec::new();
    for (pair, &step) in nodes.windows(2).zip(steps) {
        let (parent, child) = (pair[0], pair[1]);
        let mut passed = Vec::new();
        adapter.inner_keys(parent, step, &mut passed);
        passed.push(scratch.path(adapter, child));
        for key in passed {
            if !keys.insert(key) {
                return None;
            }
        }
        moves.extend(adapter.moves(parent, step));
    }
    Some(adapter.tidy(nodes[0], moves))
}

/// The engine moves from the root to record `last` (see [`checked_line`]).
fn line<A: Adapter>(
    adapter: &A,
    blank: &A::Node,
    records: &[Record<A>],
    last: usize,
    forbidden: &KeySet,
    scratch: &mut Scratch,
) -> Option<Vec<Move>> {
    let mut chain = Vec::new();
    let mut walk = last;
    while walk != NO_PARENT {
        chain.push(walk);
        walk = records[walk].parent;
    }
    chain.reverse();
    let nodes: Vec<A::Node> = chain
        .iter()
        .map(|&index| adapter.unpacked(&records[index].node, &mut blank.clone()).clone())
        .collect();
    let nodes: Vec<&A::Node> = nodes.iter().collect();
    let steps: Vec<&A::Step> =
        chain[1..].iter().map(|&index| records[index].step.as_ref().expect("a step")).collect();
    checked_line(adapter, &nodes, &steps, forbidden, scratch)
}

fn forbidden_keys<A: Adapter>(adapter: &A, history: &[A::Node], scratch: &mut Scratch) -> KeySet {
    history.iter().map(|past| scratch.path(adapter, past)).collect()
}

/// A beam over the adapter's stages, best first within a stage (the Python `staged`): it
/// answers `won` or `unknown`, never `unwinnable`.
pub fn staged<A: Adapter>(
    adapter: &A,
    root: &A::Node,
    budget: Budget,
    history: &[A::Node],
    interrupt: &mut dyn FnMut() -> bool,
) -> SearchResult {
    let mut meter = Meter::new(budget, interrupt);
    let mut scratch = Scratch::default();
    let forbidden = forbidden_keys(adapter, history, &mut scratch);
    if adapter.won(root) {
        return meter.result(Verdict::Won, "", Vec::new());
    }
    let mut children: Vec<Child<A>> = Vec::new();
    let mut canons: Vec<Key> = Vec::new();
    // Where a kept node is made again to be expanded (when the adapter packs its nodes).
    let mut unpacked = root.clone();
    // What one kept node costs: its record, and its entries in the table and the queue.
    let most_records = adapter.staged_bytes() / (std::mem::size_of::<Record<A>>() + 64);
    for &(width, stage_nodes) in adapter.staged_tries() {
        let mut records: Vec<Record<A>> =
            vec![Record { node: adapter.pack(root), parent: NO_PARENT, step: None }];
        let mut starts = vec![0usize];
        while !starts.is_empty() {
            let mut seen = Table::new();
            let mut queue = ScoreQueue::default();
            for (order, &start) in starts.iter().enumerate() {
                let node = adapter.unpacked(&records[start].node, &mut unpacked);
                seen.insert(scratch.canonical(adapter, node), adapter.worse(node));
                queue.push(adapter.score(node), order, start);
            }
            let mut candidates: Vec<Ranked> = Vec::new();
            let mut entered = KeySet::default();
            let limit = stage_nodes * starts.len() as u64;
            let mut expanded = 0u64;
            // (The starts are distinct states: their table has one entry each.)
            let mut pushed = starts.len();
            'stage: while expanded < limit {
                let Some(record) = queue.pop() else {
                    break;
                };
                if let Some(why) = meter.expand() {
                    return meter.result(Verdict::Unknown, why, Vec::new());
                }
                if records.len() >= most_records {
                    return meter.result(Verdict::Unknown, STAGED_MEMORY, Vec::new());
                }
                expanded += 1;
                let node = adapter.unpacked(&records[record].node, &mut unpacked);
                let here = adapter.stage(node);
                children.clear();
                canons.clear();
                // Every child's slot of the table is fetched as its key is made (the memory
                // waits overlap).
                adapter.keyed_steps(node, true, &mut children, &mut canons, &seen);
                // (By reference: a child cut by the table is never copied again; one kept is
                // copied once, into its record.)
                for ((step, child), &canon) in children.iter().zip(canons.iter()) {
                    if !forbidden.is_empty() && forbidden.contains(&scratch.path(adapter, child)) {
                        continue;
                    }
                    if adapter.won(child) {
                        records.push(Record {
                            node: adapter.pack(child),
                            parent: record,
                            step: Some(step.clone()),
                        });
                        let last = records.len() - 1;
                        if let Some(moves) =
                            line(adapter, root, &records, last, &forbidden, &mut scratch)
                        {
                            return meter.result(Verdict::Won, "", moves);
                        }
                        continue;
                    }
                    if adapter.stage(child) != here {
                        if entered.insert(canon) {
                            let score = adapter.score(child);
                            records.push(Record {
                                node: adapter.pack(child),
                                parent: record,
                                step: Some(step.clone()),
                            });
                            candidates.push(Ranked {
                                score,
                                order: candidates.len(),
                                record: records.len() - 1,
                            });
                        }
                        continue;
                    }
                    let worse = adapter.worse(child);
                    if let Some(old) = seen.get(canon) {
                        if old <= worse {
                            continue;
                        }
                    }
                    if seen.len() >= budget.max_states {
                        break 'stage;
                    }
                    seen.insert(canon, worse);
                    pushed += 1;
                    let score = adapter.score(child);
                    records.push(Record {
                        node: adapter.pack(child),
                        parent: record,
                        step: Some(step.clone()),
                    });
                    queue.push(score, pushed, records.len() - 1);
                }
            }
            sort_best_first(&mut candidates);
            starts = candidates.iter().take(width).map(|entry| entry.record).collect();
        }
    }
    meter.result(Verdict::Unknown, "the staged search found no win", Vec::new())
}

/// A position reached by the staged beam, linked to its parent as in the Python search: a
/// position no live one descends from is freed at once, so that memory stays with the beam (a
/// fast adapter reaches tens of millions of positions in a minute, almost all cut at once).
struct Linked<A: Adapter> {
    node: A::Node,
    parent: Option<Rc<Linked<A>>>,
    step: Option<A::Step>,
}

/// A position of the staged beam with its score and its order of reaching.
struct Scored<A: Adapter> {
    score: f64,
    order: usize,
    record: Rc<Linked<A>>,
}

/// Sort best first: by score descending, then by order of reaching.
fn sort_scored<A: Adapter>(entries: &mut [Scored<A>]) {
    entries.sort_by(|a, b| by_score(b.score, a.score).then_with(|| a.order.cmp(&b.order)));
}

/// The engine moves from the root to `last` (see [`checked_line`]).
fn linked_line<A: Adapter>(
    adapter: &A,
    last: &Rc<Linked<A>>,
    forbidden: &KeySet,
    scratch: &mut Scratch,
) -> Option<Vec<Move>> {
    let mut chain: Vec<&Linked<A>> = Vec::new();
    let mut walk: Option<&Rc<Linked<A>>> = Some(last);
    while let Some(record) = walk {
        chain.push(record);
        walk = record.parent.as_ref();
    }
    chain.reverse();
    let nodes: Vec<&A::Node> = chain.iter().map(|record| &record.node).collect();
    let steps: Vec<&A::Step> =
        chain[1..].iter().map(|record| record.step.as_ref().expect("a step")).collect();
    checked_line(adapter, &nodes, &steps, forbidden, scratch)
}

/// A beam within each stage and a beam over the stages (the Python `staged_beam`): `won` or
/// `unknown`, never `unwinnable`.
pub fn staged_beam<A: Adapter>(
    adapter: &A,
    root: &A::Node,
    budget: Budget,
    history: &[A::Node],
    interrupt: &mut dyn FnMut() -> bool,
) -> SearchResult {
    let mut meter = Meter::new(budget, interrupt);
    let mut scratch = Scratch::default();
    let forbidden = forbidden_keys(adapter, history, &mut scratch);
    if adapter.won(root) {
        return meter.result(Verdict::Won, "", Vec::new());
    }
    // A layer's new children, made in their place by `steps` and never moved unless kept
    // (a node is not small: moving every child cost a third of the beam's time), with the
    // index in the layer of each one's parent; the scores of those kept, with their place
    // (their order of reaching). Their room is reused from layer to layer.
    let mut children: Vec<Child<A>> = Vec::new();
    let mut parents: Vec<usize> = Vec::new();
    let mut keys: Vec<(f64, usize)> = Vec::new();
    for &(width, beam, depth) in adapter.beam_tries() {
        let mut starts: Vec<Rc<Linked<A>>> =
            vec![Rc::new(Linked { node: root.clone(), parent: None, step: None })];
        while !starts.is_empty() {
            let mut seen: KeyMap<u32> = KeyMap::default();
            for start in &starts {
                seen.insert(scratch.canonical(adapter, &start.node), adapter.worse(&start.node));
            }
            let mut best = starts
                .iter()
                .map(|start| adapter.score(&start.node))
                .fold(f64::NEG_INFINITY, f64::max);
            let mut layer = std::mem::take(&mut starts);
            let mut best_level = 0usize;
            let mut candidates: Vec<Scored<A>> = Vec::new();
            let mut reached = 0usize;
            let mut entered = KeySet::default();
            for level in 0..depth {
                if level - best_level > adapter.beam_patience() || seen.len() >= budget.max_states {
                    break;
                }
                children.clear();
                parents.clear();
                keys.clear();
                for (parent, record) in layer.iter().enumerate() {
                    if let Some(why) = meter.expand() {
                        return meter.result(Verdict::Unknown, why, Vec::new());
                    }
                    let here = adapter.stage(&record.node);
                    // This record's children go after the layer's children so far, and stay
                    // where they are made, those left out too: moving the kept ones down over
                    // them was 14% of the time in a profile; it saved a few per cent of memory.
                    let first = children.len();
                    adapter.steps(&record.node, true, &mut children);
                    parents.resize(children.len(), parent);
                    for (index, entry) in children.iter().enumerate().skip(first) {
                        let child = &entry.1;
                        // (No history, as from a deal: no path key to make.)
                        if !forbidden.is_empty()
                            && forbidden.contains(&scratch.path(adapter, child))
                        {
                            continue;
                        }
                        if adapter.won(child) {
                            let (step, child) = entry.clone();
                            let last = Rc::new(Linked {
                                node: child,
                                parent: Some(Rc::clone(record)),
                                step: Some(step),
                            });
                            if let Some(moves) =
                                linked_line(adapter, &last, &forbidden, &mut scratch)
                            {
                                return meter.result(Verdict::Won, "", moves);
                            }
                            continue;
                        }
                        let canon = scratch.canonical(adapter, child);
                        if adapter.stage(child) != here {
                            if entered.insert(canon) {
                                let score = adapter.score(child);
                                let (step, child) = entry.clone();
                                candidates.push(Scored {
                                    score,
                                    order: reached,
                                    record: Rc::new(Linked {
                                        node: child,
                                        parent: Some(Rc::clone(record)),
                                        step: Some(step),
                                    }),
                                });
                                reached += 1;
                                if candidates.len() >= 4 * width.max(64) {
                                    // Only the `width` best can start the next stage: the
                                    // others go now (the same choice as at the end).
                                    sort_scored(&mut candidates);
                                    candidates.truncate(width);
                                }
                            }
                            continue;
                        }
                        let worse = adapter.worse(child);
                        // One probe of the map for the look-up and the insertion.
                        match seen.entry(canon) {
                            Entry::Occupied(mut reached) => {
                                if *reached.get() <= worse {
                                    continue;
                                }
                                reached.insert(worse);
                            }
                            Entry::Vacant(slot) => {
                                slot.insert(worse);
                            }
                        }
                        keys.push((adapter.score(child), index));
                    }
                }
                if keys.is_empty() {
                    break;
                }
                // The `beam` best (score, then order of reaching: a total order), found without
                // moving the children: only those kept become records.
                let best_first = |a: &(f64, usize), b: &(f64, usize)| {
                    by_score(b.0, a.0).then_with(|| a.1.cmp(&b.1))
                };
                if keys.len() > beam {
                    keys.select_nth_unstable_by(beam - 1, best_first);
                    keys.truncate(beam);
                }
                keys.sort_unstable_by(best_first);
                if keys[0].0 > best {
                    best = keys[0].0;
                    best_level = level;
                }
                // The kept ones are copied out (the others are never moved), in order.
                layer = keys
                    .iter()
                    .map(|&(_, index)| {
                        let (step, node) = children[index].clone();
                        let parent = Rc::clone(&layer[parents[index]]);
                        Rc::new(Linked { node, parent: Some(parent), step: Some(step) })
                    })
                    .collect();
            }
            sort_scored(&mut candidates);
            starts = candidates.into_iter().take(width).map(|entry| entry.record).collect();
        }
    }
    meter.result(Verdict::Unknown, "the staged beam found no win", Vec::new())
}

/// The shares of a budget (the Python `FIRST_SHARE`, `STAGED_SHARE`).
const FIRST_SHARE: f64 = 1.0 / 6.0;
/// The share of the budget of the search of [`Adapter::narrowed`].
pub const NARROWED_SHARE: f64 = 0.25;
const STAGED_SHARE: f64 = 1.0;

fn slice(budget: Budget, share: f64, spent: Option<&SearchResult>) -> Budget {
    Budget {
        seconds: budget
            .seconds
            .map(|seconds| (seconds * share - spent.map_or(0.0, |s| s.seconds)).max(0.0)),
        nodes: budget.nodes.map(|nodes| {
            ((nodes as f64 * share) as u64).saturating_sub(spent.map_or(0, |s| s.nodes))
        }),
        ..budget
    }
}

fn add_spent(mut found: SearchResult, spent: &SearchResult) -> SearchResult {
    found.nodes += spent.nodes;
    found.seconds += spent.seconds;
    found.states = found.states.max(spent.states);
    found
}

/// The solver's search (the Python `solver_search`): for adapters with staged tries, a
/// depth-first sixth of the budget, the staged search (or beam), then depth-first with the rest;
/// for every other adapter (and the plain searches of the tests) depth-first only.
pub fn solver_search<A: Adapter>(
    adapter: &A,
    root: &A::Node,
    budget: Budget,
    history: &[A::Node],
    dominance: bool,
    table: bool,
    interrupt: &mut dyn FnMut() -> bool,
) -> SearchResult {
    if let Some(narrow) = adapter.narrowed().filter(|_| dominance && table) {
        let found = solver_search(
            &narrow,
            root,
            slice(budget, NARROWED_SHARE, None),
            history,
            dominance,
            table,
            interrupt,
        );
        if found.verdict == Verdict::Won || found.why == INTERRUPTED {
            return found;
        }
        // Lost or unknown in the narrowed game says nothing of this one: search it with the
        // rest of the budget.
        let rest = slice(budget, 1.0, Some(&found));
        if rest.nodes == Some(0) || rest.seconds == Some(0.0) {
            let why = if rest.nodes == Some(0) { NODE_BUDGET } else { TIME_BUDGET };
            return SearchResult { verdict: Verdict::Unknown, why, ..found };
        }
        let wider = wider_search(adapter, root, rest, history, dominance, table, interrupt);
        return add_spent(wider, &found);
    }
    wider_search(adapter, root, budget, history, dominance, table, interrupt)
}

/// [`solver_search`] without the narrowed game.
fn wider_search<A: Adapter>(
    adapter: &A,
    root: &A::Node,
    budget: Budget,
    history: &[A::Node],
    dominance: bool,
    table: bool,
    interrupt: &mut dyn FnMut() -> bool,
) -> SearchResult {
    let staged_kind = !adapter.staged_tries().is_empty() || !adapter.beam_tries().is_empty();
    if !(staged_kind && dominance && table) {
        return depth_first(adapter, root, budget, history, dominance, table, interrupt);
    }
    let bounded = budget.seconds.is_some() || budget.nodes.is_some();
    let mut spent = SearchResult {
        verdict: Verdict::Unknown,
        moves: Vec::new(),
        nodes: 0,
        seconds: 0.0,
        why: "",
        states: 0,
    };
    // The last depth-first part goes on from the first one's proved losses.
    let mut carry = Carry::default();
    let mut carried = adapter.carry_table().then_some(&mut carry);
    if bounded {
        let mut first = slice(budget, adapter.first_share(), None);
        if let Some(most) = adapter.first_nodes() {
            first.nodes = Some(first.nodes.map_or(most, |nodes| nodes.min(most)));
        }
        let found = depth_first_carried(
            adapter,
            root,
            first,
            history,
            true,
            true,
            interrupt,
            carried.as_deref_mut(),
        );
        if found.verdict != Verdict::Unknown || [INTERRUPTED, HISTORY_ONLY].contains(&found.why) {
            return found;
        }
        spent = found;
    }
    let part = slice(budget, STAGED_SHARE, Some(&spent));
    let found = if adapter.beam_tries().is_empty() {
        staged(adapter, root, part, history, interrupt)
    } else {
        staged_beam(adapter, root, part, history, interrupt)
    };
    let found = add_spent(found, &spent);
    if found.verdict != Verdict::Unknown || found.why == INTERRUPTED {
        return found;
    }
    spent = found;
    let rest = slice(budget, 1.0, Some(&spent));
    if rest.nodes == Some(0) || rest.seconds == Some(0.0) {
        return spent;
    }
    let found = depth_first_carried(adapter, root, rest, history, true, true, interrupt, carried);
    add_spent(found, &spent)
}

#[cfg(test)]
mod tests {
    //! The search on small hand-made graphs, where each rule about the path can be made to
    //! decide the answer (the games' tests reach these cases rarely or never).
    use super::*;
    use crate::search_cases::{CaseGraph as Graph, WIN};
    use std::collections::HashMap;

    fn search(graph: &Graph, history: &[&'static str]) -> SearchResult {
        let budget =
            Budget { seconds: None, nodes: Some(1_000), max_states: 1_000, cpu_time: false };
        depth_first(graph, &"R", budget, history, true, true, &mut || false)
    }

    fn names(moves: &[Move]) -> Vec<String> {
        moves.iter().map(Move::to_string).collect()
    }

    /// A failure caused by a position on the path inside a step holds on that path only: it
    /// must not stay in the table for another path to the same node.
    #[test]
    fn a_failure_that_depended_on_the_path_is_not_kept() {
        // A's one step passes through P, on the path R-P-A but not on R-B-A.
        let mut graph = Graph::new(&[
            ("R", &["P", "B"]),
            ("P", &["A"]),
            ("B", &["A"]),
            ("A", &["C"]),
            ("C", &[WIN]),
        ]);
        graph.inner.insert(("A", "C"), vec!["P"]);
        graph.layouts.insert("A", "P");
        let found = search(&graph, &[]);
        assert_eq!(found.verdict, Verdict::Won, "{}", found.why);
        assert_eq!(names(&found.moves), ["B", "A", "C", WIN]);
    }

    /// A node whose steps all fail, one of them only because of a position the game has
    /// been in, proves nothing, however deep below the root it lies.
    #[test]
    fn a_failure_caused_by_the_history_below_the_root_is_no_proof() {
        let graph = Graph::new(&[("R", &["X", "L"]), ("X", &["H"]), ("H", &[WIN])]);
        assert_eq!(search(&graph, &[]).verdict, Verdict::Won);
        let found = search(&graph, &["H"]);
        assert_eq!((found.verdict, found.why), (Verdict::Unknown, HISTORY_ONLY));
    }

    /// A stage whose table is full ends there: the candidates so far start the next stage
    /// (the Python `staged` does the same).
    #[test]
    fn a_full_stage_table_ends_the_stage() {
        // R's stage holds A and B; only A's child X enters the next stage, and X wins. With
        // room for two positions (R and A) the table is full when B comes, before A is
        // expanded, so no stage follows.
        let mut graph = Graph::new(&[("R", &["A", "B"]), ("A", &["X"]), ("X", &[WIN])]);
        graph.scores = HashMap::from([("A", 2.0), ("B", 1.0)]);
        graph.stages = HashMap::from([("R", 1), ("A", 1), ("B", 1)]);
        graph.tries = vec![(1, 10)];
        let staged_with = |max_states: usize| {
            let budget = Budget { seconds: None, nodes: Some(1_000), max_states, cpu_time: false };
            staged(&graph, &"R", budget, &[], &mut || false)
        };
        let found = staged_with(1_000);
        assert_eq!(found.verdict, Verdict::Won, "{}", found.why);
        assert_eq!(names(&found.moves), ["A", "X", WIN]);
        let full = staged_with(2);
        assert_eq!((full.verdict, full.why), (Verdict::Unknown, "the staged search found no win"));
    }

    /// A state met again with a smaller counter goes into the stage's queue again, after the
    /// first (ties go to the order of reaching; the Python `staged` numbers its pushes the
    /// same way).
    #[test]
    fn a_state_met_again_with_a_smaller_counter_is_searched_again_after_the_first() {
        let mut graph = Graph::new(&[("R", &["A2", "A1"]), ("A1", &[WIN])]);
        graph.canons = HashMap::from([("A1", "A"), ("A2", "A")]);
        graph.counters = HashMap::from([("A2", 2), ("A1", 1)]);
        graph.tries = vec![(1, 10)];
        let budget = Budget { seconds: None, nodes: Some(100), max_states: 1_000, cpu_time: false };
        let found = staged(&graph, &"R", budget, &[], &mut || false);
        assert_eq!(found.verdict, Verdict::Won, "{}", found.why);
        assert_eq!((names(&found.moves), found.nodes), (vec!["A1".to_string(), WIN.into()], 3));
    }
}
