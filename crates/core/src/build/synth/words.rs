//! The synthetic lists' own words: invented ones that begin and run as
//! English words do (a character-level Markov chain), numbers and codes,
//! and the open vocabulary they join, reused as real words are: the more a
//! word was used, the likelier it is used again.

use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};

use rand::prelude::*;
use rand_chacha::ChaCha8Rng;

/// Letters of context the chain looks back at.
const ORDER: usize = 3;
/// The longest invented word.
const LONGEST: usize = 16;
/// The shortest invented word.
const SHORTEST: usize = 3;
/// What pads a word's start in its first contexts.
const START: u8 = b'^';
/// What ends a word.
const END: u8 = b'$';

/// A character-level Markov chain over lowercase words: after each
/// [`ORDER`] letters, the letters that follow and how often (cumulative);
/// and the first two letters, drawn from a real list's prefixes.
pub(super) struct Letters {
    next: HashMap<[u8; ORDER], Vec<(u8, u32)>>,
    /// Two-letter beginnings and how often (cumulative).
    starts: Vec<([u8; 2], u32)>,
}

impl Letters {
    /// Trained on `words` (lowercase ASCII letters, each counted once);
    /// words begin as `prefixes` say (two letters, how many words).
    pub(super) fn train(words: &BTreeSet<String>, prefixes: &[(&str, u32)]) -> Letters {
        let mut counts: BTreeMap<[u8; ORDER], BTreeMap<u8, u32>> = BTreeMap::new();
        for w in words {
            let mut context = [START; ORDER];
            for b in w.bytes().chain([END]) {
                *counts.entry(context).or_default().entry(b).or_default() += 1;
                context.rotate_left(1);
                context[ORDER - 1] = b;
            }
        }
        let next: HashMap<[u8; ORDER], Vec<(u8, u32)>> = counts
            .into_iter()
            .map(|(context, after)| {
                let mut total = 0;
                let cumulative = after
                    .into_iter()
                    .map(|(b, n)| {
                        total += n;
                        (b, total)
                    })
                    .collect();
                (context, cumulative)
            })
            .collect();
        let mut total = 0;
        let starts = prefixes
            .iter()
            .filter_map(|&(p, n)| {
                let [a, b] = <[u8; 2]>::try_from(p.as_bytes()).ok()?;
                total += n;
                Some(([a, b], total))
            })
            .collect();
        Letters { next, starts }
    }

    /// One word, [`SHORTEST`] to [`LONGEST`] letters.
    pub(super) fn word(&self, rng: &mut ChaCha8Rng) -> String {
        loop {
            let w = self.attempt(rng);
            if (SHORTEST..=LONGEST).contains(&w.len()) {
                return w;
            }
        }
    }

    fn attempt(&self, rng: &mut ChaCha8Rng) -> String {
        let total = self.starts.last().map_or(1, |&(_, n)| n);
        let r = rng.random_range(0..total);
        let [a, b] = self.starts[self.starts.partition_point(|&(_, n)| n <= r)].0;
        // A beginning no trained word has goes on as a word beginning with
        // its second letter would (`cj` as `j…`).
        let mut context = [START, a, b];
        if !self.next.contains_key(&context) {
            context = [START, START, b];
        }
        let mut out = String::from_utf8(vec![a, b]).expect("ASCII letters");
        while let Some(after) = self.next.get(&context) {
            let total = after.last().map_or(1, |&(_, n)| n);
            let r = rng.random_range(0..total);
            let b = after[after.partition_point(|&(_, n)| n <= r)].0;
            if b == END || out.len() > LONGEST {
                break;
            }
            out.push(char::from(b));
            context.rotate_left(1);
            context[ORDER - 1] = b;
        }
        out
    }
}

/// A number as abstracts write them: scores, counts, sizes.
pub(super) fn number(rng: &mut ChaCha8Rng) -> String {
    match rng.random_range(0..20) {
        0..=7 => format!(
            "{}.{:02}",
            rng.random_range(0..100),
            rng.random_range(0..100)
        ),
        8..=9 => format!("{}.{}", rng.random_range(0..1000), rng.random_range(0..10)),
        10..=11 => format!("0.{:03}", rng.random_range(0..1000)),
        12..=15 => rng.random_range(10..1_000_000).to_string(),
        16..=17 => format!(
            "{},{:03}",
            rng.random_range(1..1000),
            rng.random_range(0..1000)
        ),
        _ => format!(
            "{}.{}{}",
            rng.random_range(1..1000),
            rng.random_range(0..10),
            ["k", "m", "x", "b", "ms"][rng.random_range(0..5)]
        ),
    }
}

/// A code as abstracts write a dataset's or a model's name: a few letters
/// and a number (`flickr30k`, `kbp2017`).
pub(super) fn code(letters: &Letters, rng: &mut ChaCha8Rng) -> String {
    let mut stem = letters.word(rng);
    stem.truncate(rng.random_range(2..=6));
    let tail = ["", "", "", "k", "b", "m"][rng.random_range(0..6)];
    format!("{stem}{}{tail}", rng.random_range(0..3000))
}

/// The open vocabulary: every invented word, number and code of the list,
/// and every time one was used.
#[derive(Default)]
pub(super) struct Open {
    /// The words, by id.
    pub words: Vec<String>,
    /// The words used in one abstract only.
    pub once: usize,
    /// The abstract being written (from 1).
    paper: u32,
    /// Per id, how often it was used.
    uses: Vec<u32>,
    /// Per id, in how many abstracts, and the last one.
    papers: Vec<(u32, u32)>,
    /// Every use, in order: a uniform pick is a pick by use.
    used: Vec<u32>,
    /// Every word the list holds (the seed words' too): a new word is new.
    known: HashSet<String>,
}

impl Open {
    /// An open vocabulary that knows `words` already.
    pub(super) fn knowing(words: impl IntoIterator<Item = String>) -> Open {
        Open {
            known: words.into_iter().collect(),
            ..Open::default()
        }
    }

    /// Adds `word` unless the list holds it already: its id.
    pub(super) fn add(&mut self, word: String) -> Option<u32> {
        if !self.known.insert(word.clone()) {
            return None;
        }
        self.words.push(word);
        self.uses.push(0);
        self.papers.push((0, 0));
        Some(self.words.len() as u32 - 1)
    }

    /// Starts the next abstract.
    pub(super) fn next_paper(&mut self) {
        self.paper += 1;
    }

    /// Records a use of `id` in the abstract being written.
    pub(super) fn use_word(&mut self, id: u32) {
        self.uses[id as usize] += 1;
        self.used.push(id);
        let (papers, last) = &mut self.papers[id as usize];
        if *last != self.paper {
            *last = self.paper;
            *papers += 1;
            match *papers {
                1 => self.once += 1,
                2 => self.once -= 1,
                _ => {}
            }
        }
    }

    /// A word used before, picked by its uses less `discount` (Pitman–Yor):
    /// a word used once is picked less than its share of uses, so that more
    /// words stay in one paper only. `None` before any use.
    pub(super) fn reuse(&self, discount: f64, rng: &mut ChaCha8Rng) -> Option<u32> {
        if self.used.is_empty() {
            return None;
        }
        loop {
            let id = self.used[rng.random_range(0..self.used.len())];
            let uses = f64::from(self.uses[id as usize]);
            if rng.random::<f64>() < 1.0 - discount / uses {
                return Some(id);
            }
        }
    }
}
