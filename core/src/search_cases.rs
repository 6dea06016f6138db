//! The core's searches play the Python searches' search: the random small graphs of
//! tests/data/search_cases.txt, each with its hooks, must give the answers, node counts, reasons
//! and moves of tests/data/search_cases.expected, which the Python searches give too
//! (tests/test_search_cases.py, where the cases are made and the answers written), with the
//! children kept in the path's frames and made again on entry alike.

use crate::key::{fingerprint, Key};
use crate::moves::Move;
use crate::search::{
    depth_first, nodes_kept_whole, solver_search, staged, staged_beam, Adapter, Budget, Child,
    SearchResult,
};
use std::collections::{HashMap, HashSet};

pub(crate) const WIN: &str = "W";

type Name = &'static str;

/// A case's names live as long as the test (a few thousand short strings).
fn name(text: &str) -> Name {
    Box::leak(text.to_string().into_boxed_str())
}

fn key(text: &str) -> Key {
    fingerprint(text.as_bytes())
}

/// The Python test's `CaseGraph`: named nodes, a step is the child's name, and the hooks a case
/// sets (also the graph of the hand-made tests in search.rs). `inner` lists the positions a
/// step passes through, `layouts` the nodes that share a layout with another (as a Klondike
/// position shares its layout with the positions its stock turns pass), `canons` those that
/// share a canonical key and `counters` their "worse" counters; scores, stages and counters
/// default to 0.
#[derive(Clone, Default)]
pub(crate) struct CaseGraph {
    pub(crate) edges: HashMap<Name, Vec<Name>>,
    pub(crate) inner: HashMap<(Name, Name), Vec<Name>>,
    pub(crate) layouts: HashMap<Name, Name>,
    pub(crate) scores: HashMap<Name, f64>,
    pub(crate) stages: HashMap<Name, i64>,
    pub(crate) canons: HashMap<Name, Name>,
    pub(crate) counters: HashMap<Name, u32>,
    safe: HashSet<Name>,
    narrow: usize,
    pub(crate) tries: Vec<(usize, u64)>,
    beams: Vec<(usize, usize, usize)>,
    restart: Option<u64>,
    first_run: Option<u64>,
    first_nodes: Option<u64>,
    /// The core's own way of keeping a path (see [`Adapter::children_on_entry`]), which must
    /// not change the search.
    on_entry: bool,
    /// The core's own ways of going on (see [`Adapter::carry_table`] and
    /// [`Adapter::refill_full_table`]), which may change the search but never the truth.
    go_on: bool,
}

impl CaseGraph {
    /// A graph of these edges and no other hook.
    pub(crate) fn new(edges: &[(Name, &[Name])]) -> Self {
        let edges = edges.iter().map(|&(node, children)| (node, children.to_vec())).collect();
        CaseGraph { edges, ..CaseGraph::default() }
    }
}

impl Adapter for CaseGraph {
    type Node = Name;
    type Step = Name;
    nodes_kept_whole!(Name);

    fn restart_nodes(&self) -> Option<u64> {
        self.restart
    }
    fn first_run_nodes(&self) -> Option<u64> {
        self.first_run
    }
    fn first_nodes(&self) -> Option<u64> {
        self.first_nodes
    }
    fn staged_tries(&self) -> &[(usize, u64)] {
        &self.tries
    }
    fn beam_tries(&self) -> &[(usize, usize, usize)] {
        &self.beams
    }
    /// As the Python `reorder`: one of the first three steps, by the sum of the children's
    /// letters and the run number.
    fn first_step(&self, _canon: Key, steps: &[Child<Self>], restart: u32) -> usize {
        if steps.len() < 2 {
            return 0;
        }
        let letters: u64 = steps.iter().flat_map(|(_, child)| child.bytes()).map(u64::from).sum();
        ((letters + 7 * u64::from(restart)) % steps.len().min(3) as u64) as usize
    }
    fn canonical(&self, node: &Name) -> Key {
        key(self.canons.get(node).unwrap_or(node))
    }
    fn worse(&self, node: &Name) -> u32 {
        self.counters.get(node).copied().unwrap_or(0)
    }
    fn path_key(&self, node: &Name) -> Key {
        key(node)
    }
    fn layout_key(&self, node: &Name) -> Key {
        key(self.layouts.get(node).unwrap_or(node))
    }
    fn inner_keys(&self, node: &Name, step: &Name, out: &mut Vec<Key>) {
        if let Some(passed) = self.inner.get(&(*node, *step)) {
            out.extend(passed.iter().map(|passed| key(passed)));
        }
    }
    fn won(&self, node: &Name) -> bool {
        *node == WIN
    }
    fn score(&self, node: &Name) -> f64 {
        self.scores.get(node).copied().unwrap_or(0.0)
    }
    fn stage(&self, node: &Name) -> i64 {
        self.stages.get(node).copied().unwrap_or(0)
    }
    fn steps(&self, node: &Name, dominance: bool, out: &mut Vec<Child<Self>>) {
        let children = self.edges.get(node).map(Vec::as_slice).unwrap_or(&[]);
        if dominance && self.safe.contains(node) && !children.is_empty() {
            // A "safe" step: the only one with dominance, as a game's safe move is.
            out.push((children[0], children[0]));
            return;
        }
        out.extend(children.iter().map(|&child| (child, child)));
    }
    fn moves(&self, _node: &Name, step: &Name) -> Vec<Move> {
        vec![Move::act(step)]
    }
    fn children_on_entry(&self) -> bool {
        self.on_entry
    }
    fn child_into(&self, _node: &Name, step: &Name, out: &mut Name) {
        *out = *step;
    }
    fn carry_table(&self) -> bool {
        self.go_on
    }
    fn refill_full_table(&self) -> bool {
        self.go_on
    }
    fn narrowed(&self) -> Option<Self> {
        let narrow = self.narrow;
        (narrow > 0).then(|| CaseGraph {
            edges: self
                .edges
                .iter()
                .map(|(node, children)| (*node, children.iter().take(narrow).copied().collect()))
                .collect(),
            narrow: narrow - 1,
            ..self.clone()
        })
    }
}

fn number(text: &str) -> Option<u64> {
    (text != "-").then(|| text.parse().expect("a number"))
}

/// Each case's line: its name, answer, nodes, reason and moves, tab-separated (with
/// `on_entry`, the depth-first searches make children when they enter them; with `go_on`, the
/// last depth-first part carries the first's table and a full table starts a new run).
fn run_cases(text: &str, on_entry: bool, go_on: bool) -> Vec<String> {
    let mut lines = Vec::new();
    let mut graph = CaseGraph::default();
    let (mut case, mut kind) = (String::new(), String::new());
    let mut budget = Budget { seconds: None, nodes: None, max_states: 0, cpu_time: false };
    let mut history: Vec<Name> = Vec::new();
    let (mut dominance, mut table) = (true, true);
    for line in text.lines() {
        let word: Vec<&str> = line.split_whitespace().collect();
        let Some(&first) = word.first() else {
            continue;
        };
        let parse = |index: usize| word[index].parse::<usize>().expect("a number");
        match first {
            "case" => {
                graph = CaseGraph { on_entry, go_on, ..CaseGraph::default() };
                case = word[1].to_string();
                history.clear();
                (dominance, table) = (true, true);
            }
            "fn" => kind = word[1].to_string(),
            "flags" => (dominance, table) = (word[1] == "1", word[2] == "1"),
            "budget" => budget.nodes = number(word[1]),
            "restart" => {
                graph.restart = number(word[1]);
                graph.first_run = number(word[2]);
                graph.first_nodes = number(word[3]);
            }
            "try" => graph.tries.push((parse(1), parse(2) as u64)),
            "beam" => graph.beams.push((parse(1), parse(2), parse(3))),
            "history" => history = word[1..].iter().map(|text| name(text)).collect(),
            "edge" => {
                graph
                    .edges
                    .insert(name(word[1]), word[2..].iter().map(|text| name(text)).collect());
            }
            "inner" => {
                let passed = word[3..].iter().map(|text| name(text)).collect();
                graph.inner.insert((name(word[1]), name(word[2])), passed);
            }
            "layout" => {
                graph.layouts.insert(name(word[1]), name(word[2]));
            }
            "canon" => {
                graph.canons.insert(name(word[1]), name(word[2]));
            }
            "worse" => {
                graph.counters.insert(name(word[1]), parse(2) as u32);
            }
            "score" => {
                graph.scores.insert(name(word[1]), word[2].parse().expect("a score"));
            }
            "stage" => {
                graph.stages.insert(name(word[1]), parse(2) as i64);
            }
            "safe" => {
                graph.safe.insert(name(word[1]));
            }
            "narrow" => graph.narrow = parse(1),
            "end" => {
                let found = solve_case(&graph, &kind, budget, &history, dominance, table);
                let moves: Vec<String> = found.moves.iter().map(Move::to_string).collect();
                lines.push(format!(
                    "{case}\t{}\t{}\t{}\t{}",
                    found.verdict.name(),
                    found.nodes,
                    found.why,
                    moves.join(",")
                ));
            }
            _ => panic!("unknown line {line:?}"),
        }
        if first == "budget" {
            budget.max_states = parse(2);
            if go_on && budget.nodes.is_none() {
                // A full table starts a new run instead of ending the search: only a budget
                // ends it then.
                budget.nodes = Some(10_000);
            }
        }
    }
    lines
}

fn solve_case(
    graph: &CaseGraph,
    kind: &str,
    budget: Budget,
    history: &[Name],
    dominance: bool,
    table: bool,
) -> SearchResult {
    let never = &mut || false;
    match kind {
        "df" => depth_first(graph, &"R", budget, history, dominance, table, never),
        "solver" => solver_search(graph, &"R", budget, history, dominance, table, never),
        "staged" => staged(graph, &"R", budget, history, never),
        _ => staged_beam(graph, &"R", budget, history, never),
    }
}

#[test]
fn the_core_searches_give_the_recorded_answers() {
    let data = concat!(env!("CARGO_MANIFEST_DIR"), "/../tests/data/search_cases");
    let cases = std::fs::read_to_string(format!("{data}.txt")).expect("the cases");
    let expected = std::fs::read_to_string(format!("{data}.expected")).expect("the answers");
    let expected: Vec<&str> = expected.lines().collect();
    for on_entry in [false, true] {
        let found = run_cases(&cases, on_entry, false);
        assert_eq!(found.len(), expected.len());
        let differing: Vec<(&String, &&str)> =
            found.iter().zip(&expected).filter(|(one, other)| one != other).collect();
        assert!(
            differing.is_empty(),
            "{} cases differ (children made on entry: {on_entry}), the first: {:?}",
            differing.len(),
            differing.first()
        );
    }
}

/// Carrying the first part's table to the last and refilling a full table change the search,
/// not what is true: no case is won one way and proved lost the other (each win is a line
/// the search checked move by move, as every staged or depth-first win is).
#[test]
fn going_on_from_a_table_never_contradicts_the_search() {
    let data = concat!(env!("CARGO_MANIFEST_DIR"), "/../tests/data/search_cases");
    let cases = std::fs::read_to_string(format!("{data}.txt")).expect("the cases");
    let verdict = |line: &str| line.split('\t').nth(1).expect("an answer").to_string();
    let plain = run_cases(&cases, false, false);
    let going_on = run_cases(&cases, false, true);
    let mut changed = 0;
    for (one, other) in plain.iter().zip(&going_on) {
        let answers = (verdict(one), verdict(other));
        let definite = |answer: &str| answer == "won" || answer == "unwinnable";
        if definite(&answers.0) && definite(&answers.1) {
            assert_eq!(answers.0, answers.1, "{one} / {other}");
        }
        changed += usize::from(one != other);
    }
    // The switches do something here: the cases reach full tables and carried parts.
    assert!(changed > 0);
}
