//! A deterministic synthetic corpus, for measuring the explorer at the size
//! of a whole conference. The same `--seed` gives the same bytes.
//!
//! Text comes from a word-bigram chain trained on the seed abstracts (so it
//! carries their LaTeX, Markdown and URLs), with a Zipf-distributed tail of
//! invented words so that the vocabulary keeps growing with the corpus as a
//! real one does. Authors, keywords, primary areas and decisions follow
//! skewed (Zipf or weighted) distributions: a few prolific authors and
//! popular keywords, a long tail of the rest.

use std::collections::HashMap;
use std::fmt;
use std::io::Write;
use std::path::{Path, PathBuf};

use crate::build::records::{self, Format};
use crate::build::source::SourceError;
use rand::distr::weighted::WeightedIndex;
use rand::prelude::*;
use rand_chacha::ChaCha8Rng;
use rand_distr::Zipf;
use serde_json::json;

const FIRST: &[&str] = &[
    "Wei", "Li", "Ming", "Yu", "Jing", "Hao", "Xin", "Yang", "Lei", "Fang", "Anna", "Maria",
    "David", "Daniel", "Sarah", "Michael", "James", "Emma", "Lucas", "Sofia", "Arjun", "Priya",
    "Rahul", "Ananya", "Kenji", "Yuki", "Hana", "Min-jun", "Ji-woo", "Omar", "Fatima", "Ali",
    "Leila", "Pierre", "Camille", "Jonas", "Lena", "Matteo", "Giulia", "Pablo", "Lucía", "Ivan",
    "Olga", "Tomás", "Ines", "Noah", "Mia", "Ethan", "Chloe", "Kwame", "Amara", "Mateus",
    "Beatriz", "Erik", "Freya", "Aditya", "Meera", "Tariq", "Zeynep", "Nikolai",
];
const LAST: &[&str] = &[
    "Wang",
    "Li",
    "Zhang",
    "Liu",
    "Chen",
    "Yang",
    "Huang",
    "Zhao",
    "Wu",
    "Zhou",
    "Xu",
    "Sun",
    "Smith",
    "Johnson",
    "Brown",
    "Garcia",
    "Miller",
    "Davis",
    "Martinez",
    "Lopez",
    "Kumar",
    "Sharma",
    "Patel",
    "Singh",
    "Gupta",
    "Tanaka",
    "Suzuki",
    "Sato",
    "Kim",
    "Park",
    "Lee",
    "Choi",
    "Nguyen",
    "Tran",
    "Müller",
    "Schmidt",
    "Schneider",
    "Fischer",
    "Dubois",
    "Martin",
    "Bernard",
    "Rossi",
    "Russo",
    "Ferrari",
    "Fernández",
    "González",
    "Ivanov",
    "Petrov",
    "Kowalski",
    "Nowak",
    "Silva",
    "Santos",
    "Oliveira",
    "Andersson",
    "Johansson",
    "Hansen",
    "Okafor",
    "Mensah",
    "Haddad",
    "Yilmaz",
    "Demir",
    "Cohen",
    "Levi",
    "O'Brien",
    "Murphy",
];
/// ICLR's primary areas, with rough relative frequencies.
const AREAS: &[(&str, u32)] = &[
    ("foundation or frontier models, including LLMs", 18),
    (
        "applications to computer vision, audio, language, and other modalities",
        14,
    ),
    ("generative models", 10),
    ("reinforcement learning", 9),
    (
        "alignment, fairness, safety, privacy, and societal considerations",
        8,
    ),
    (
        "unsupervised, self-supervised, semi-supervised, and supervised representation learning",
        7,
    ),
    ("learning on graphs and other geometries & topologies", 5),
    ("optimization", 4),
    ("interpretability and explainable AI", 4),
    (
        "applications to physical sciences (physics, chemistry, biology, etc.)",
        4,
    ),
    ("learning theory", 3),
    ("datasets and benchmarks", 3),
    ("transfer learning, meta learning, and lifelong learning", 3),
    (
        "probabilistic methods (Bayesian methods, variational inference, sampling, UQ, etc.)",
        2,
    ),
    (
        "infrastructure, software libraries, hardware, systems, etc.",
        2,
    ),
    ("causal reasoning", 1),
    (
        "neurosymbolic & hybrid AI systems (physics-informed, logic & formal reasoning, etc.)",
        1,
    ),
    ("applications to robotics, autonomy, planning", 2),
];
const DECISIONS: &[(&str, u32)] = &[
    ("ICLR 2026 Poster", 58),
    ("ICLR 2026 Spotlight", 5),
    ("ICLR 2026 Oral", 2),
    ("Rejected", 27),
    ("Withdrawn", 8),
];
const SYLLABLES: &[&str] = &[
    "ka", "lo", "mi", "ne", "ra", "to", "vi", "zu", "sha", "tri", "pen", "dor", "lex", "qua",
    "ser", "nov", "gra", "phi", "tem", "bel", "cor", "dyn", "hal", "mor", "syn", "vex", "ul", "an",
    "ix", "om",
];

/// A word-bigram chain over whitespace-separated tokens of the seed abstracts.
struct Chain<'a> {
    next: HashMap<&'a str, Vec<&'a str>>,
    starts: Vec<&'a str>,
    lengths: Vec<usize>,
}

impl<'a> Chain<'a> {
    fn train(abstracts: &'a [String]) -> Chain<'a> {
        let mut next: HashMap<&str, Vec<&str>> = HashMap::new();
        let mut starts = Vec::new();
        let mut lengths = Vec::new();
        for a in abstracts {
            let words: Vec<&str> = a.split_whitespace().collect();
            lengths.push(words.len());
            if let Some(w) = words.first() {
                starts.push(*w);
            }
            for pair in words.windows(2) {
                next.entry(pair[0]).or_default().push(pair[1]);
                if pair[0].ends_with('.') && pair[1].starts_with(char::is_uppercase) {
                    starts.push(pair[1]);
                }
            }
        }
        Chain {
            next,
            starts,
            lengths,
        }
    }

    fn start(&self, rng: &mut ChaCha8Rng) -> &'a str {
        self.starts[rng.random_range(0..self.starts.len())]
    }

    fn step(&self, word: &str, rng: &mut ChaCha8Rng) -> &'a str {
        match self.next.get(word) {
            Some(v) => v[rng.random_range(0..v.len())],
            None => self.start(rng),
        }
    }
}

struct Generator<'a> {
    rng: ChaCha8Rng,
    chain: Chain<'a>,
    /// Invented words, drawn with a Zipf law (rank 1 most frequent).
    rare: Vec<String>,
    rare_zipf: Zipf<f64>,
    authors: Vec<String>,
    author_zipf: Zipf<f64>,
    keywords: Vec<String>,
    keyword_zipf: Zipf<f64>,
    areas: WeightedIndex<u32>,
    decisions: WeightedIndex<u32>,
}

fn invent(rng: &mut ChaCha8Rng) -> String {
    let n = rng.random_range(2..=4);
    (0..n)
        .map(|_| SYLLABLES[rng.random_range(0..SYLLABLES.len())])
        .collect()
}

impl<'a> Generator<'a> {
    fn new(seed: u64, abstracts: &'a [String]) -> Generator<'a> {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let rare: Vec<String> = (0..60_000).map(|_| invent(&mut rng)).collect();
        let authors: Vec<String> = (0..40_000)
            .map(|_| {
                format!(
                    "{} {}",
                    FIRST[rng.random_range(0..FIRST.len())],
                    LAST[rng.random_range(0..LAST.len())]
                )
            })
            .collect();
        // Keywords: common ML phrases from the seed text and invented terms.
        let chain = Chain::train(abstracts);
        let mut keywords: Vec<String> = Vec::new();
        for a in abstracts {
            let words: Vec<&str> = a
                .split_whitespace()
                .map(|w| w.trim_matches(|c: char| !c.is_alphanumeric()))
                .filter(|w| w.len() > 3 && w.chars().all(|c| c.is_alphabetic()))
                .collect();
            for pair in words.windows(2) {
                let k = format!("{} {}", pair[0], pair[1]).to_lowercase();
                if !keywords.contains(&k) && keywords.len() < 1500 {
                    keywords.push(k);
                }
            }
        }
        while keywords.len() < 3000 {
            keywords.push(format!("{} learning", invent(&mut rng)));
        }
        Generator {
            rare_zipf: Zipf::new(rare.len() as f64, 1.05).unwrap(),
            author_zipf: Zipf::new(authors.len() as f64, 0.8).unwrap(),
            keyword_zipf: Zipf::new(keywords.len() as f64, 1.0).unwrap(),
            areas: WeightedIndex::new(AREAS.iter().map(|a| a.1)).unwrap(),
            decisions: WeightedIndex::new(DECISIONS.iter().map(|d| d.1)).unwrap(),
            rng,
            chain,
            rare,
            authors,
            keywords,
        }
    }

    fn text(&mut self, words: usize) -> String {
        let mut out = String::new();
        let mut w = self.chain.start(&mut self.rng);
        for i in 0..words {
            if i > 0 {
                out.push(' ');
            }
            // One word in twelve is drawn from the invented long tail.
            if w.chars().all(|c| c.is_ascii_lowercase()) && self.rng.random_ratio(1, 12) {
                out.push_str(pick(&mut self.rng, &self.rare, self.rare_zipf));
            } else {
                out.push_str(w);
            }
            w = self.chain.step(w, &mut self.rng);
        }
        if !out.ends_with('.') {
            out.push('.');
        }
        out
    }

    fn paper(&mut self, n: usize) -> serde_json::Value {
        let base = self.chain.lengths[self.rng.random_range(0..self.chain.lengths.len())];
        let words = (base as f64 * self.rng.random_range(0.7..1.3)) as usize;
        let mut abstract_text = self.text(words.max(40));
        if self.rng.random_ratio(3, 10) {
            abstract_text.push_str(&format!(
                " Code is available at https://github.com/lab{}/{}.",
                self.rng.random_range(0..5000),
                invent(&mut self.rng)
            ));
        }
        let title_len = self.rng.random_range(5..=10);
        let mut title_words: Vec<String> = self
            .text(title_len)
            .trim_end_matches('.')
            .split_whitespace()
            .map(|w| {
                let w = w.trim_matches(|c: char| !c.is_alphanumeric() && c != '-');
                let mut cs = w.chars();
                cs.next()
                    .map(|f| f.to_uppercase().chain(cs).collect())
                    .unwrap_or_default()
            })
            .filter(|w: &String| !w.is_empty())
            .collect();
        if self.rng.random_ratio(2, 5) {
            let mut acronym = invent(&mut self.rng).to_uppercase();
            acronym.truncate(6);
            title_words.insert(0, format!("{acronym}:"));
        }
        let n_authors = 1 + self.rng.sample(rand_distr::Poisson::new(3.5).unwrap()) as usize;
        let mut authors: Vec<String> = Vec::new();
        while authors.len() < n_authors.min(15) {
            let a = pick(&mut self.rng, &self.authors, self.author_zipf).to_string();
            if !authors.contains(&a) {
                authors.push(a);
            }
        }
        let n_keywords = self.rng.random_range(2..=6);
        let mut keywords: Vec<String> = Vec::new();
        while keywords.len() < n_keywords {
            let k = pick(&mut self.rng, &self.keywords, self.keyword_zipf).to_string();
            if !keywords.contains(&k) {
                keywords.push(k);
            }
        }
        let id = format!("syn{n:06}");
        json!({
            "id": id,
            "title": title_words.join(" "),
            "abstract": abstract_text,
            "authors": authors,
            "keywords": keywords,
            "primary_area": AREAS[self.rng.sample(&self.areas)].0,
            "venue": DECISIONS[self.rng.sample(&self.decisions)].0,
            "year": 2026,
            "url": format!("https://openreview.net/forum?id={id}"),
        })
    }
}

/// An item of `pool` by Zipf rank (rank 1, the first, most often).
fn pick<'v>(rng: &mut ChaCha8Rng, pool: &'v [String], z: Zipf<f64>) -> &'v str {
    let rank = rng.sample(z) as usize;
    &pool[rank.clamp(1, pool.len()) - 1]
}

/// `papers` synthetic records as JSON Lines, trained on `abstracts`.
fn jsonl(abstracts: &[String], papers: usize, seed: u64) -> Vec<u8> {
    let mut out = Vec::new();
    let mut g = Generator::new(seed, abstracts);
    for n in 0..papers {
        writeln!(out, "{}", g.paper(n)).expect("writing to memory");
    }
    out
}

/// Why a synthetic list could not be made.
#[derive(Debug)]
pub enum SynthError {
    /// A file or folder could not be read or written.
    Io {
        /// The file or folder.
        path: PathBuf,
        /// What went wrong.
        source: std::io::Error,
    },
    /// A seed list or the taxonomy does not parse, or the list does not
    /// compile.
    Source(SourceError),
    /// The seed folder has no seed lists to learn from.
    NoSeeds(PathBuf),
}

impl SynthError {
    fn io(path: &Path) -> impl FnOnce(std::io::Error) -> SynthError + '_ {
        move |source| SynthError::Io {
            path: path.to_path_buf(),
            source,
        }
    }
}

impl fmt::Display for SynthError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SynthError::Io { path, source } => write!(f, "{}: {source}", path.display()),
            SynthError::Source(e) => write!(f, "{e}"),
            SynthError::NoSeeds(dir) => {
                write!(f, "{}: no seed lists to learn from", dir.display())
            }
        }
    }
}

impl std::error::Error for SynthError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            SynthError::Io { source, .. } => Some(source),
            SynthError::Source(e) => Some(e),
            SynthError::NoSeeds(_) => None,
        }
    }
}

impl From<SourceError> for SynthError {
    fn from(e: SourceError) -> SynthError {
        SynthError::Source(e)
    }
}

/// The abstracts of the seed lists (`*.txt`) in `seed_dir`.
pub(crate) fn seed_abstracts(seed_dir: &Path) -> Result<Vec<String>, SynthError> {
    let mut abstracts = Vec::new();
    let mut files: Vec<_> = std::fs::read_dir(seed_dir)
        .map_err(SynthError::io(seed_dir))?
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| Format::of(p) == Some(Format::Seed))
        .collect();
    files.sort();
    for f in &files {
        let bytes = std::fs::read(f).map_err(SynthError::io(f))?;
        let list = records::read(&f.display().to_string(), &bytes, Format::Seed)?;
        abstracts.extend(list.records.into_iter().filter_map(|r| r.abstract_text));
    }
    if abstracts.is_empty() {
        return Err(SynthError::NoSeeds(seed_dir.to_path_buf()));
    }
    Ok(abstracts)
}

/// Writes `papers` synthetic records to `out/papers.jsonl`, trained on the
/// seed lists in `seed_dir`.
pub fn generate(seed_dir: &Path, papers: usize, seed: u64, out: &Path) -> Result<(), SynthError> {
    let abstracts = seed_abstracts(seed_dir)?;
    std::fs::create_dir_all(out).map_err(SynthError::io(out))?;
    let path = out.join("papers.jsonl");
    std::fs::write(&path, jsonl(&abstracts, papers, seed)).map_err(SynthError::io(&path))
}

/// `papers` synthetic papers trained on the seed lists in `seed_dir`,
/// compiled with the default taxonomy, without touching the disk: for
/// benchmarks and scale tests.
pub fn corpus(seed_dir: &Path, papers: usize, seed: u64) -> Result<crate::Corpus, SynthError> {
    use crate::build::compile::{compile_sources, parse_taxonomy, Source, DEFAULT_TAXONOMY};
    let bytes = jsonl(&seed_abstracts(seed_dir)?, papers, seed);
    let taxonomy = parse_taxonomy("default taxonomy", DEFAULT_TAXONOMY)?;
    Ok(compile_sources(
        &[Source {
            file: "synthetic.jsonl".into(),
            bytes,
        }],
        &taxonomy,
    )?)
}
