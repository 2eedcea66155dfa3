//! A deterministic synthetic corpus, for measuring the explorer at the size
//! of a conference or of a whole field. The same `--seed` gives the same
//! bytes, and the first `n` papers of a longer list are the list of `n`.
//!
//! Its vocabulary grows as real lists' do: [`fit`] is the law, fitted on the
//! real ACL list by `explorer-cli vocab` and anchored at a field-size list.
//! Each abstract adds as many new words as the law's distinct words at its
//! place in the list ask for; words already used come back by how often they
//! were used, those used in one abstract only less while the list has fewer
//! of them than the law's share; abstracts are as long as the ACL list's (a
//! log-normal law).
//!
//! Text comes from a word-bigram chain trained on the seed abstracts (so it
//! carries their LaTeX, Markdown and URLs). Some of its content words are
//! stood in for by the list's open vocabulary (`words`): invented words that
//! begin as the ACL list's words do (its two-letter prefixes) and go on as
//! English words do (a character-level Markov chain over the seed abstracts'
//! and the WordPiece vocabulary's words), a few codes (`kbp2017`), and, as
//! the list grows and the share of words a prefix of letters opens falls,
//! more and more numbers. Authors, keywords, primary areas and decisions
//! follow skewed (Zipf or weighted) distributions: a few prolific authors and
//! popular keywords, a long tail of the rest.

pub mod fit;
mod words;

use std::collections::{BTreeSet, HashMap};
use std::fmt;
use std::io::Write;
use std::path::{Path, PathBuf};

use crate::build::records::{self, Format};
use crate::build::source::SourceError;
use crate::build::vocab;
use crate::model::text;
use rand::distr::weighted::WeightedIndex;
use rand::prelude::*;
use rand_chacha::ChaCha8Rng;
use rand_distr::{LogNormal, Zipf};
use serde_json::json;
use words::{Letters, Open};

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
/// Of the chain's content words, the share an open word stands in for.
const REPLACE: f64 = 0.3;
/// Of an abstract's open words after its first, the share that repeat one
/// it used already (abstracts repeat their terms).
const BURST: f64 = 0.3;
/// How much less than its uses a word used once is picked again
/// (`Open::reuse`) while the list has fewer words found in one
/// abstract than the law's share, and otherwise: the share follows the law.
const DISCOUNT: [f64; 2] = [0.9, 0.0];
/// Of the new words that begin with letters, the share of codes
/// (`flickr30k`): about the ACL list's (4 %).
const CODES: f64 = 0.04;
/// The sentence a paper with code ends with, before its repository's path.
const CODE_AT: &str = "Code is available at https://github.com/";

/// One whitespace-separated token of the seed abstracts.
struct Token<'a> {
    text: &'a str,
    /// The seed words it holds (ids into [`Chain::words`]), as the index
    /// reads its visible text.
    words: Vec<u32>,
    /// Where its letters end, when it is a content word an open word may
    /// stand in for: lowercase letters, no stop word, then at most one of
    /// `.,;:`.
    core: Option<usize>,
}

impl<'a> Token<'a> {
    fn new(text: &'a str, ids: &mut HashMap<String, u32>, words: &mut Vec<String>) -> Token<'a> {
        let visible = crate::build::markup::parse(text).text;
        let ids = text::words(&visible)
            .map(|(_, w)| {
                let folded = text::fold(w);
                *ids.entry(folded.clone()).or_insert_with(|| {
                    words.push(folded);
                    words.len() as u32 - 1
                })
            })
            .collect();
        let core = text.trim_end_matches(['.', ',', ';', ':']);
        let content = text.len() - core.len() <= 1
            && core.len() >= 4
            && core.bytes().all(|b| b.is_ascii_lowercase())
            && !crate::build::stop_words().contains(core);
        Token {
            text,
            words: ids,
            core: content.then_some(core.len()),
        }
    }
}

/// A word-bigram chain over the whitespace-separated tokens of the seed
/// abstracts.
struct Chain<'a> {
    tokens: Vec<Token<'a>>,
    /// Per token, the tokens that followed it.
    next: Vec<Vec<u32>>,
    /// The tokens that begin an abstract or a sentence.
    starts: Vec<u32>,
    /// The seed words (folded), by id.
    words: Vec<String>,
    /// The code sentence, as a token.
    code_at: Token<'static>,
}

impl<'a> Chain<'a> {
    fn train(abstracts: &'a [String]) -> Chain<'a> {
        let (mut by_text, mut ids, mut words) = (HashMap::new(), HashMap::new(), Vec::new());
        let mut tokens: Vec<Token<'a>> = Vec::new();
        let mut next: Vec<Vec<u32>> = Vec::new();
        let mut starts = Vec::new();
        for a in abstracts {
            let mut last: Option<(u32, &str)> = None;
            for w in a.split_whitespace() {
                let id = *by_text.entry(w).or_insert_with(|| {
                    tokens.push(Token::new(w, &mut ids, &mut words));
                    next.push(Vec::new());
                    tokens.len() as u32 - 1
                });
                match last {
                    None => starts.push(id),
                    Some((prev, text)) => {
                        next[prev as usize].push(id);
                        if text.ends_with('.') && w.starts_with(char::is_uppercase) {
                            starts.push(id);
                        }
                    }
                }
                last = Some((id, w));
            }
        }
        let code_at = Token::new(CODE_AT, &mut ids, &mut words);
        Chain {
            tokens,
            next,
            starts,
            words,
            code_at,
        }
    }

    fn start(&self, rng: &mut ChaCha8Rng) -> u32 {
        self.starts[rng.random_range(0..self.starts.len())]
    }

    fn step(&self, token: u32, rng: &mut ChaCha8Rng) -> u32 {
        match &self.next[token as usize][..] {
            [] => self.start(rng),
            v => v[rng.random_range(0..v.len())],
        }
    }
}

/// One abstract being written: the new words it still has to place, the
/// open words it used, and how many open words it may yet hold.
struct Draft {
    papers: f64,
    quota: usize,
    used: Vec<u32>,
    slots_left: f64,
}

/// The list's words so far: the seed words it used and its open
/// vocabulary, counted as [`crate::build::vocab`] counts them, so that
/// each abstract adds the new words [`fit`] asks for.
struct Vocabulary {
    letters: Letters,
    open: Open,
    /// Per seed word, whether the list used it yet.
    seen: Vec<bool>,
    /// Per seed word, whether it begins with two letters.
    seed_letters: Vec<bool>,
    /// Distinct words so far.
    distinct: usize,
    /// Of those, the words that begin with two letters.
    lettered: usize,
}

impl Vocabulary {
    fn new(chain: &Chain, letters: Letters) -> Vocabulary {
        Vocabulary {
            letters,
            open: Open::knowing(chain.words.iter().cloned()),
            seen: vec![false; chain.words.len()],
            seed_letters: (chain.words.iter())
                .map(|w| vocab::begins_with_letters(w, 2))
                .collect(),
            distinct: 0,
            lettered: 0,
        }
    }

    /// Counts the seed words of a token written.
    fn note(&mut self, words: &[u32]) {
        for &w in words {
            if !std::mem::replace(&mut self.seen[w as usize], true) {
                self.distinct += 1;
                self.lettered += usize::from(self.seed_letters[w as usize]);
            }
        }
    }

    /// A new word, of the kind the law asks for at `papers`: while the
    /// list has fewer words beginning with letters than its share, an
    /// invented word (or a code), else a number.
    fn invent(&mut self, papers: f64, rng: &mut ChaCha8Rng) -> u32 {
        let wanted = fit::letter_share(papers) * (self.distinct + 1) as f64;
        let lettered = (self.lettered as f64) < wanted;
        loop {
            let word = if !lettered {
                words::number(rng)
            } else if rng.random_bool(CODES) {
                words::code(&self.letters, rng)
            } else {
                self.letters.word(rng)
            };
            if let Some(id) = self.open.add(word) {
                self.distinct += 1;
                self.lettered += usize::from(lettered);
                return id;
            }
        }
    }

    /// The open word for one slot of `draft`: a new one (as many as its
    /// quota, spread over its slots), one it used already, or one the list
    /// used, by its uses.
    fn pick(&mut self, draft: &mut Draft, rng: &mut ChaCha8Rng) -> u32 {
        let new =
            draft.quota > 0 && rng.random_bool((draft.quota as f64 / draft.slots_left).min(1.0));
        let id = if new {
            draft.quota -= 1;
            self.invent(draft.papers, rng)
        } else if !draft.used.is_empty() && rng.random_bool(BURST) {
            draft.used[rng.random_range(0..draft.used.len())]
        } else {
            let wanted = fit::hapax_share(draft.papers) * self.distinct as f64;
            let discount = DISCOUNT[usize::from(self.open.once as f64 >= wanted)];
            match self.open.reuse(discount, rng) {
                Some(id) => id,
                None => self.invent(draft.papers, rng),
            }
        };
        self.open.use_word(id);
        draft.used.push(id);
        id
    }
}

struct Generator<'a> {
    rng: ChaCha8Rng,
    chain: Chain<'a>,
    vocabulary: Vocabulary,
    /// Abstracts written.
    papers: usize,
    /// Open slots and words written so far: the share of an abstract's
    /// words that are open slots.
    slots: (f64, f64),
    lengths: LogNormal<f64>,
    authors: Vec<String>,
    author_zipf: Zipf<f64>,
    keywords: Vec<String>,
    keyword_zipf: Zipf<f64>,
    areas: WeightedIndex<u32>,
    decisions: WeightedIndex<u32>,
}

/// The words the invented ones are modelled on: the seed abstracts' and
/// the WordPiece vocabulary's whole words (lowercase letters only).
fn english(chain: &Chain) -> BTreeSet<String> {
    let model = crate::build::meaning::StaticModel::committed();
    (chain.words.iter())
        .chain(&model.tokens)
        .filter(|w| w.len() >= 3 && w.bytes().all(|b| b.is_ascii_lowercase()))
        .cloned()
        .collect()
}

impl<'a> Generator<'a> {
    fn new(seed: u64, abstracts: &'a [String]) -> Generator<'a> {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let chain = Chain::train(abstracts);
        let letters = Letters::train(&english(&chain), &fit::acl_prefixes());
        let authors: Vec<String> = (0..40_000)
            .map(|_| {
                format!(
                    "{} {}",
                    FIRST[rng.random_range(0..FIRST.len())],
                    LAST[rng.random_range(0..LAST.len())]
                )
            })
            .collect();
        let keywords = keywords(abstracts, &letters, &mut rng);
        let median = fit::ACL_ONLY.median_length;
        Generator {
            lengths: LogNormal::new(median.ln(), fit::ACL_ONLY.length_spread).unwrap(),
            author_zipf: Zipf::new(authors.len() as f64, 0.8).unwrap(),
            keyword_zipf: Zipf::new(keywords.len() as f64, 1.0).unwrap(),
            areas: WeightedIndex::new(AREAS.iter().map(|a| a.1)).unwrap(),
            decisions: WeightedIndex::new(DECISIONS.iter().map(|d| d.1)).unwrap(),
            vocabulary: Vocabulary::new(&chain, letters),
            papers: 0,
            slots: (1.0, 10.0),
            rng,
            chain,
            authors,
            keywords,
        }
    }

    /// An abstract of about `words` words (as the index counts them), its
    /// new words as many as the law asks for at its place in the list.
    fn abstract_text(&mut self, words: usize) -> String {
        self.papers += 1;
        let papers = self.papers as f64;
        let v = &mut self.vocabulary;
        v.open.next_paper();
        let mut draft = Draft {
            papers,
            quota: (fit::words(papers).round() as usize).saturating_sub(v.distinct),
            used: Vec::new(),
            slots_left: 1.0,
        };
        let mut out = String::new();
        let (mut written, mut token) = (0, self.chain.start(&mut self.rng));
        while written < words {
            let t = &self.chain.tokens[token as usize];
            draft.slots_left = ((words - written) as f64 * self.slots.0 / self.slots.1).max(1.0);
            match t.core.filter(|_| self.rng.random_bool(REPLACE)) {
                Some(core) => {
                    let id = v.pick(&mut draft, &mut self.rng);
                    out.push_str(&v.open.words[id as usize]);
                    out.push_str(&t.text[core..]);
                    written += 1;
                    self.slots.0 += 1.0;
                }
                None => {
                    v.note(&t.words);
                    out.push_str(t.text);
                    written += t.words.len();
                }
            }
            out.push(' ');
            token = self.chain.step(token, &mut self.rng);
        }
        self.slots.1 += written as f64;
        let mut out = out.trim_end().to_string();
        if !out.ends_with('.') {
            out.push('.');
        }
        out
    }

    /// The code sentence: the repository's owner and name are words the
    /// list used.
    fn code_sentence(&mut self) -> String {
        let v = &mut self.vocabulary;
        v.note(&self.chain.code_at.words);
        let path = [0, 1].map(|_| {
            let id = v.open.reuse(DISCOUNT[1], &mut self.rng)?;
            v.open.use_word(id);
            Some(id)
        });
        let word = |id: Option<u32>| id.map_or("code", |id| v.open.words[id as usize].as_str());
        format!(" {CODE_AT}{}/{}.", word(path[0]), word(path[1]))
    }

    /// A title of `words` tokens of the chain, some of them open words the
    /// list used (titles are not counted: the law is the abstracts').
    fn title(&mut self, words: usize) -> Vec<String> {
        let mut token = self.chain.start(&mut self.rng);
        let mut out = Vec::new();
        for _ in 0..words {
            let t = &self.chain.tokens[token as usize];
            let open = t.core.filter(|_| self.rng.random_bool(REPLACE));
            let w = match open.and_then(|_| self.vocabulary.open.reuse(DISCOUNT[1], &mut self.rng))
            {
                Some(id) => self.vocabulary.open.words[id as usize].as_str(),
                None => t.text,
            };
            let w = w.trim_matches(|c: char| !c.is_alphanumeric() && c != '-');
            let mut cs = w.chars();
            if let Some(f) = cs.next() {
                out.push(f.to_uppercase().chain(cs).collect());
            }
            token = self.chain.step(token, &mut self.rng);
        }
        out
    }

    fn paper(&mut self, n: usize) -> serde_json::Value {
        let words = (self.rng.sample(self.lengths).round() as usize).clamp(40, 600);
        let mut abstract_text = self.abstract_text(words);
        if self.rng.random_ratio(3, 10) {
            abstract_text.push_str(&self.code_sentence());
        }
        let title_len = self.rng.random_range(5..=10);
        let mut title_words = self.title(title_len);
        if self.rng.random_ratio(2, 5) {
            let mut acronym = self.vocabulary.letters.word(&mut self.rng).to_uppercase();
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

/// Keywords: common phrases of the seed text, then invented terms.
fn keywords(abstracts: &[String], letters: &Letters, rng: &mut ChaCha8Rng) -> Vec<String> {
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
        keywords.push(format!("{} learning", letters.word(rng)));
    }
    keywords
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

/// `papers` synthetic records as JSON Lines, trained on the seed lists in
/// `seed_dir`. The first `n` records of a longer list are the list of `n`.
pub fn papers_jsonl(seed_dir: &Path, papers: usize, seed: u64) -> Result<Vec<u8>, SynthError> {
    Ok(jsonl(&seed_abstracts(seed_dir)?, papers, seed))
}

/// Writes `papers` synthetic records to `out/papers.jsonl`, trained on the
/// seed lists in `seed_dir`.
pub fn generate(seed_dir: &Path, papers: usize, seed: u64, out: &Path) -> Result<(), SynthError> {
    let bytes = papers_jsonl(seed_dir, papers, seed)?;
    std::fs::create_dir_all(out).map_err(SynthError::io(out))?;
    let path = out.join("papers.jsonl");
    std::fs::write(&path, bytes).map_err(SynthError::io(&path))
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
