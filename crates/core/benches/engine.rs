//! Native benchmarks of the query path (divan): the seed corpus and a
//! 20,000-paper synthetic corpus. `cargo bench -p explorer-core`.

use std::path::PathBuf;
use std::sync::OnceLock;

use explorer_core::build::compile_dir;
use explorer_core::{Corpus, Engine, Sort};

fn main() {
    divan::main();
}

/// The queries a user types, one character at a time (the browser benchmark
/// uses the same script).
pub const SCRIPT: &[&str] = &[
    "reinforcement learning",
    "diffusion",
    "llm agents",
    "unlearning",
    "\"chain of thought\"",
    "graph neural",
    "reasoing",
];

fn seed() -> &'static Corpus {
    static C: OnceLock<Corpus> = OnceLock::new();
    C.get_or_init(|| {
        compile_dir(&PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../corpus")).unwrap()
    })
}

fn synthetic() -> &'static Corpus {
    static C: OnceLock<Corpus> = OnceLock::new();
    C.get_or_init(|| {
        let seeds = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../corpus");
        explorer_core::build::synth::corpus(&seeds, 20_000, 1).unwrap()
    })
}

fn corpus(name: &str) -> &'static Corpus {
    if name == "seed" {
        seed()
    } else {
        synthetic()
    }
}

fn engine(name: &str) -> &'static Engine {
    static SEED: OnceLock<Engine> = OnceLock::new();
    static SYN: OnceLock<Engine> = OnceLock::new();
    let cell = if name == "seed" { &SEED } else { &SYN };
    cell.get_or_init(|| Engine::from_bytes(&corpus(name).to_bytes()).unwrap())
}

const CORPORA: &[&str] = &["seed", "synthetic-20k"];

/// Start-up: decoding the shipped bytes and building the index.
#[divan::bench(args = CORPORA, sample_count = 10)]
fn start_up(bencher: divan::Bencher, name: &str) {
    let bytes = corpus(name).to_bytes();
    bencher.bench(|| Engine::from_bytes(divan::black_box(&bytes)).unwrap());
}

/// Every prefix of every scripted query, as typed.
fn prefixes() -> Vec<&'static str> {
    prefixes_of(SCRIPT)
}

/// Every prefix of every query of `script`, as typed.
fn prefixes_of(script: &[&'static str]) -> Vec<&'static str> {
    script
        .iter()
        .flat_map(|q| q.char_indices().map(move |(i, c)| &q[..i + c.len_utf8()]))
        .collect()
}

/// Every prefix of every scripted query: what one keystroke computes
/// (results, ranking, all facet counts), then the first ten cards' highlights.
#[divan::bench(args = CORPORA)]
fn keystrokes(bencher: divan::Bencher, name: &str) {
    type_each(bencher, engine(name), &prefixes());
}

/// What each keystroke computes (results, ranking, all facet counts), then
/// the first ten cards' highlights, for each of `prefixes`.
fn type_each(bencher: divan::Bencher, e: &Engine, prefixes: &[&str]) {
    let none = e.no_selection();
    bencher
        .counter(divan::counter::ItemsCount::new(prefixes.len()))
        .bench(|| {
            for q in prefixes {
                let r = e.search(q, &none, Sort::Relevance);
                for h in r.hits.first_ordered().iter().take(10) {
                    divan::black_box(e.highlights(h.doc, &r.matched));
                }
            }
        });
}

/// Titles and questions a reader pastes or types, longer than the
/// script's: few papers hold every word, so best matches apply.
const LONG: &[&str] = &[
    "reinforcement learning for large language model reasoning",
    "diffusion models for image generation with guidance",
    "graph neural networks for molecular property prediction",
    "how do language model agents use tools",
    "efficient attention for long context transformers",
];

/// Each long query typed a character at a time, with best matches and
/// without: the difference is what they and their fusion with the papers
/// nearest in meaning cost a keystroke (results, ranking, facet counts,
/// highlights of the first ten cards), at 20,000 papers.
#[divan::bench(args = [true, false], sample_count = 10)]
fn long_queries_typed(bencher: divan::Bencher, best_matches: bool) {
    let e = meaning_engine("synthetic-20k");
    e.set_best_matches(best_matches);
    type_each(bencher, e, &prefixes_of(LONG));
    e.set_best_matches(true);
}

/// A facet click with no query: every paper of the most common topic.
#[divan::bench(args = CORPORA)]
fn facet_click(bencher: divan::Bencher, name: &str) {
    let e = engine(name);
    let mut sel = e.no_selection();
    sel[0] = vec![0];
    bencher.bench(|| e.search("", divan::black_box(&sel), Sort::Relevance));
}

/// The engine with the meaning file the build ships beside the corpus.
fn meaning_engine(name: &str) -> &'static Engine {
    use explorer_core::build::{build_meaning, StaticModel};
    use explorer_core::search::Meaning;
    static SEED: OnceLock<Engine> = OnceLock::new();
    static SYN: OnceLock<Engine> = OnceLock::new();
    let cell = if name == "seed" { &SEED } else { &SYN };
    cell.get_or_init(|| {
        let c = corpus(name);
        let e = Engine::from_bytes(&c.to_bytes()).unwrap();
        let m = build_meaning(&StaticModel::committed(), &c.papers);
        e.open_meaning(Meaning::from_bytes(&m.to_bytes()).unwrap())
            .unwrap();
        e
    })
}

/// Related by meaning for every prefix of the script, as the page asks
/// while the matches are few: the query embedded, every paper scored, the
/// related set kept and its first ten explained (their words kept across
/// prefixes, as in the page).
#[divan::bench(args = CORPORA, sample_count = 10)]
fn related_by_meaning(bencher: divan::Bencher, name: &str) {
    let e = meaning_engine(name);
    let none = e.no_selection();
    let prefixes = prefixes();
    bencher
        .counter(divan::counter::ItemsCount::new(prefixes.len()))
        .bench(|| {
            for q in &prefixes {
                divan::black_box(e.related(q, &none, Default::default(), &[], 10));
            }
        });
}
