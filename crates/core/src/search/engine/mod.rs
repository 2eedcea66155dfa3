//! Search: query evaluation, BM25F ranking, disjunctive facet counts and
//! highlight ranges. One [`Engine`] is built per corpus at start-up.

mod facets;
mod highlight;
mod related;
mod score;

use fixedbitset::FixedBitSet;

use crate::model::facet::{FacetKind, ANY_FACET};
use crate::model::{Corpus, DecodeError, Paper};
use crate::search::index::{Index, IndexData};
use crate::search::query::{self, Query};
pub use facets::{Extra, ExtraCounts, Extras};
pub(crate) use highlight::{overlaps, split_by_marks};
pub use highlight::{DocWords, Highlights};
pub use related::{Related, RelatedSet, KEPT_PAPER_WORDS, RELATED, RELATED_POOL};

/// How a query word matched a document's word. Lower is better; a document's
/// tier is the worst class among its AND-ed groups, and tiers sort first, so a
/// typo-tolerant match never outranks an exact or prefix one.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum MatchClass {
    /// The word itself (after folding and stemming).
    Exact = 0,
    /// A word that begins with the typed word.
    Prefix = 1,
    /// A word within a typo or two of the typed word.
    Fuzzy = 2,
}

impl MatchClass {
    fn from_u8(v: u8) -> MatchClass {
        match v {
            0 => MatchClass::Exact,
            1 => MatchClass::Prefix,
            _ => MatchClass::Fuzzy,
        }
    }

    fn weight(self) -> f32 {
        match self {
            MatchClass::Exact => 1.0,
            MatchClass::Prefix => 0.6,
            MatchClass::Fuzzy => 0.3,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
/// The order of the results.
pub enum Sort {
    #[default]
    /// Best match first (match class, then BM25F).
    Relevance,
    /// As the lists have them.
    ListOrder,
    /// By title, A–Z (case and accents folded).
    Title,
}

impl Sort {
    /// Its name in URLs (`sort=title`).
    pub fn key(self) -> &'static str {
        match self {
            Sort::Relevance => "relevance",
            Sort::ListOrder => "list",
            Sort::Title => "title",
        }
    }

    /// The sort named in a URL.
    pub fn from_key(s: &str) -> Option<Sort> {
        [Sort::Relevance, Sort::ListOrder, Sort::Title]
            .into_iter()
            .find(|x| x.key() == s)
    }
}

#[derive(Debug, Clone, PartialEq)]
/// One document found.
pub struct Hit {
    /// The document: its index in [`Corpus::papers`].
    pub doc: u32,
    /// Its BM25F score (0 without words).
    pub score: f32,
    /// The best class by which all its words matched (the worst word's).
    pub tier: MatchClass,
}

/// What a query matched, resolved against the index: used for highlighting.
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash)]
pub struct Matched {
    /// Stems matched by single-word clauses (exact, prefix and typo expansions).
    pub stems: Vec<u32>,
    /// Phrases as stem sequences.
    pub phrases: Vec<Vec<u32>>,
}

#[derive(Debug, Clone, PartialEq)]
/// What a search answers: the hits, the facet counts, what to highlight.
pub struct Response {
    /// Documents passing query and facet selection, in display order.
    pub hits: Vec<Hit>,
    /// `counts[f][v]`: documents with value `v` of facet `f` among those
    /// matching the query and every *other* facet's selection.
    pub counts: Vec<Vec<u32>>,
    /// Documents of each [`Extra`] among those matching the query, the
    /// facet selection and the *other* extra.
    pub extra_counts: ExtraCounts,
    /// The words matched, for highlighting the hits.
    pub matched: Matched,
    /// The query has words to look up, and the index is not loaded yet:
    /// no hits until it is.
    pub waiting_for_index: bool,
}

impl Response {
    /// The documents found, in display order.
    pub fn docs(&self) -> Vec<u32> {
        self.hits.iter().map(|h| h.doc).collect()
    }
}

/// Facet selection: `selected[f]` lists the selected value ids of facet `f`.
/// OR within a facet, AND across facets.
pub type Selection = Vec<Vec<u32>>;

/// The search engine over one corpus.
///
/// ```
/// use explorer_core::build::compile_dir;
/// use explorer_core::{Engine, Sort};
///
/// let corpus = compile_dir(std::path::Path::new("../../corpus")).unwrap();
/// let engine = Engine::new(corpus);
/// let found = engine.search("reinforcement learning", &engine.no_selection(), Sort::Relevance);
/// assert!(!found.hits.is_empty());
/// let first = &engine.corpus.papers[found.hits[0].doc as usize];
/// assert!(engine.highlights(found.hits[0].doc, &found.matched).text.len() > 0, "{}", first.title);
/// ```
pub struct Engine {
    /// The papers, lists and facets searched.
    pub corpus: Corpus,
    /// The search index: with the corpus ([`Engine::new`]), or later
    /// ([`Engine::without_index`], then [`Engine::open_index`]).
    index: std::sync::OnceLock<Index>,
    /// Per paper, each field's BM25F weight over its length normalisation
    /// ([`score`]), worked out once the index is first searched.
    field_scales: std::sync::OnceLock<Vec<[f32; crate::search::index::N_FIELDS]>>,
    /// `facet_docs[f][v]`: the documents tagged with value `v` of facet `f`,
    /// sorted. Lists, not bitsets: a facet may have tens of thousands of
    /// values (authors), most with a paper or two.
    facet_docs: Vec<Vec<Vec<u32>>>,
    /// Every paper's tags in one flat array, for counting: paper `d`'s are
    /// `tag_values[tag_start[d]..tag_start[d + 1]]`, each a value numbered
    /// across facets (facet `f`'s values from `value_start[f]`). Counting
    /// a keystroke's thousands of results reads this array in order
    /// instead of every paper's own `Vec` (twice as fast at 20,000 papers).
    tag_start: Vec<u32>,
    tag_values: Vec<u32>,
    value_start: Vec<u32>,
    /// Documents in title order (for sorting by title).
    title_rank: Vec<u32>,
    /// Documents in id order: a paper found by its id in a binary search
    /// (links, the reading list), not a scan of every paper.
    by_id: Vec<u32>,
    /// Per word of [`Corpus::similar_terms`], how many papers have it among
    /// their keywords (what is particular to a region of the map).
    pub(crate) keyword_df: Vec<u32>,
    /// Per facet, its values folded for `key:value` filters: folded on the
    /// first filter of that facet, then kept (authors may be 60,000 names).
    folded_values: Vec<std::sync::OnceLock<Vec<String>>>,
    /// The meaning file, fetched after the index ([`Engine::open_meaning`]).
    meaning: std::sync::OnceLock<crate::search::meaning::Meaning>,
    /// The last few query clauses' answers, most recent first
    /// ([`Engine::eval_clause`]).
    clauses: std::sync::Mutex<Vec<(query::Clause, std::sync::Arc<score::ClauseFound>)>>,
    /// Related papers' explaining words, by paper ([`related`]).
    paper_words: std::sync::Mutex<related::KeptWords>,
    /// Folded words' stem ids met while splitting papers' words for
    /// highlighting ([`Engine::doc_words`]).
    word_ids: std::sync::Mutex<crate::search::index::WordIds>,
}

/// No match yet, in the dense per-document tier arrays.
pub(super) const NO_MATCH: u8 = u8::MAX;

impl Engine {
    /// The engine over an encoded corpus ([`Corpus::to_bytes`]).
    pub fn from_bytes(bytes: &[u8]) -> Result<Engine, DecodeError> {
        Ok(Engine::new(Corpus::from_bytes(bytes)?))
    }

    /// The engine over a corpus embedded in the program, its index used in
    /// place (see [`Corpus::from_static`]).
    pub fn from_static(bytes: &'static [u8]) -> Result<Engine, DecodeError> {
        Ok(Engine::new(Corpus::from_static(bytes)?))
    }

    /// Opens the corpus's index (rebuilding it if it does not fit the
    /// papers, so that a hand-made corpus works too).
    pub fn new(mut corpus: Corpus) -> Engine {
        let n = corpus.papers.len();
        let index = Index::open(std::mem::take(&mut corpus.index), n).unwrap_or_else(|| {
            Index::open(IndexData::build(&corpus.papers), n).expect("a fresh index fits")
        });
        let engine = Engine::without_index(corpus);
        let _ = engine.index.set(index);
        engine
    }

    /// The engine over a corpus whose index comes later
    /// ([`Engine::open_index`]): everything but searching words works, and
    /// a query with words answers [`Response::waiting_for_index`].
    pub fn without_index(mut corpus: Corpus) -> Engine {
        corpus.index = IndexData::default();
        let facet_docs = kept_tags(&mut corpus);
        let (value_start, tag_start, tag_values) = flat_tags(&corpus);
        let keyword_df = keyword_counts(&mut corpus);
        let n_facets = corpus.facets.len();
        Engine {
            title_rank: title_ranks(&corpus.papers),
            by_id: id_order(&corpus.papers),
            corpus,
            index: std::sync::OnceLock::new(),
            field_scales: std::sync::OnceLock::new(),
            facet_docs,
            tag_start,
            tag_values,
            value_start,
            keyword_df,
            folded_values: (0..n_facets).map(|_| std::sync::OnceLock::new()).collect(),
            meaning: std::sync::OnceLock::new(),
            clauses: Default::default(),
            paper_words: Default::default(),
            word_ids: Default::default(),
        }
    }

    /// The document with this stable paper id (a `#fragment`, a
    /// reading-list entry).
    pub fn doc_of(&self, id: &str) -> Option<u32> {
        let papers = &self.corpus.papers;
        self.by_id
            .binary_search_by(|&d| papers[d as usize].id.as_str().cmp(id))
            .ok()
            .map(|i| self.by_id[i])
    }

    /// Opens the corpus's index, decoded apart from it
    /// ([`crate::model::Parts::index`]); an index of another corpus is
    /// refused. Once opened, it stays.
    pub fn open_index(&self, data: IndexData) -> Result<(), crate::model::DecodeError> {
        let index = Index::open(data, self.len()).ok_or(crate::model::DecodeError::Corrupt(
            crate::model::Corrupt::IndexMismatch,
        ))?;
        let _ = self.index.set(index);
        Ok(())
    }

    /// True once the index is open.
    pub fn has_index(&self) -> bool {
        self.index.get().is_some()
    }

    /// The index; only asked for once a query has words to look up, which
    /// [`Engine::search_with`] answers without it while it is not open.
    fn index(&self) -> &Index {
        self.index
            .get()
            .expect("words are looked up only once the index is open")
    }

    /// How many papers.
    pub fn len(&self) -> usize {
        self.corpus.papers.len()
    }

    /// Whether the corpus has no paper.
    pub fn is_empty(&self) -> bool {
        self.corpus.papers.is_empty()
    }

    /// How many papers of the whole corpus have each value of a facet.
    pub fn facet_totals(&self, facet: usize) -> Vec<u32> {
        self.facet_docs
            .get(facet)
            .map_or_else(Vec::new, |vs| vs.iter().map(|d| d.len() as u32).collect())
    }

    /// The selection with no facet value selected.
    pub fn no_selection(&self) -> Selection {
        vec![Vec::new(); self.corpus.facets.len()]
    }

    /// A query as this corpus reads it: `key:value` is a filter only for its facets' keys (and `tag`).
    pub fn parse_query(&self, q: &str) -> Query {
        query::parse(q, &|k| {
            k == ANY_FACET
                || FacetKind::from_key(k).is_some_and(|f| self.corpus.facet_index(f).is_some())
        })
    }

    /// The papers a query and a facet selection find, in `sort` order, with every facet value's count.
    pub fn search(&self, query: &str, selection: &Selection, sort: Sort) -> Response {
        self.search_with(query, selection, Extras::default(), sort)
    }

    /// [`Engine::search`] with filters of the caller's own ([`Extras`]):
    /// the words scored, the results restricted by exclusions and
    /// `key:value` filters, then by the selection (with facet counts),
    /// then ordered.
    pub fn search_with(
        &self,
        query: &str,
        selection: &Selection,
        extras: Extras,
        sort: Sort,
    ) -> Response {
        let q = self.parse_query(query);
        let mut matched = Matched::default();
        if !q.groups.is_empty() && !self.has_index() {
            return Response {
                hits: Vec::new(),
                counts: self
                    .corpus
                    .facets
                    .iter()
                    .map(|f| vec![0; f.values.len()])
                    .collect(),
                extra_counts: ExtraCounts::default(),
                matched,
                waiting_for_index: true,
            };
        }
        let scored = self.score_groups(&q, &mut matched);
        let base = self.restrict(&q, scored.as_ref());
        let (results, counts, extra_counts) = self.facets(&base, selection, extras.all());
        let hits = self.ordered(&results, scored.as_ref(), sort);
        matched.stems.sort_unstable();
        matched.stems.dedup();
        Response {
            hits,
            counts,
            extra_counts,
            matched,
            waiting_for_index: false,
        }
    }

    /// Per document, its score and match tier over the query's word groups
    /// (AND across groups, OR within one), in dense arrays; `None` for a
    /// query without words.
    fn score_groups(&self, q: &Query, matched: &mut Matched) -> Option<(Vec<f32>, Vec<u8>)> {
        let n = self.len();
        let mut acc: Option<(Vec<f32>, Vec<u8>)> = None;
        for group in &q.groups {
            let mut score = vec![0f32; n];
            let mut tier = vec![NO_MATCH; n];
            for clause in group {
                for &(doc, s, class) in &self.eval_clause(clause, matched).docs {
                    let d = doc as usize;
                    score[d] += s;
                    tier[d] = tier[d].min(class as u8);
                }
            }
            acc = Some(match acc {
                None => (score, tier),
                Some((mut s0, mut t0)) => {
                    for d in 0..n {
                        if t0[d] == NO_MATCH || tier[d] == NO_MATCH {
                            t0[d] = NO_MATCH;
                        } else {
                            s0[d] += score[d];
                            t0[d] = t0[d].max(tier[d]);
                        }
                    }
                    (s0, t0)
                }
            });
        }
        acc
    }

    /// The documents the words matched (all, without words), less the
    /// excluded words' and as the `key:value` filters say.
    fn restrict(&self, q: &Query, scored: Option<&(Vec<f32>, Vec<u8>)>) -> FixedBitSet {
        let n = self.len();
        let mut base = FixedBitSet::with_capacity(n);
        match scored {
            Some((_, tier)) => tier
                .iter()
                .enumerate()
                .filter(|(_, &t)| t != NO_MATCH)
                .for_each(|(d, _)| base.insert(d)),
            None => base.insert_range(..),
        }
        for clause in &q.excluded {
            for d in self.clause_docs_exact(clause) {
                base.set(d as usize, false);
            }
        }
        for f in &q.filters {
            let mut allowed = FixedBitSet::with_capacity(n);
            let wanted = crate::model::text::fold(f.value.trim());
            for (fi, facet) in self.corpus.facets.iter().enumerate() {
                if f.key != ANY_FACET && f.key != facet.kind.key() {
                    continue;
                }
                let folded = self.folded_values[fi].get_or_init(|| {
                    facet
                        .values
                        .iter()
                        .map(|v| crate::model::text::fold(v))
                        .collect()
                });
                for (vi, (label, value)) in folded.iter().zip(&facet.values).enumerate() {
                    if query::folded_value_matches(label, &wanted)
                        || facet
                            .kind
                            .aliases(value)
                            .iter()
                            .any(|a| query::folded_value_matches(a, &wanted))
                    {
                        for &d in &self.facet_docs[fi][vi] {
                            allowed.insert(d as usize);
                        }
                    }
                }
            }
            if f.negated {
                base.difference_with(&allowed);
            } else {
                base.intersect_with(&allowed);
            }
        }

        base
    }

    /// The results as hits in the order asked for.
    fn ordered(
        &self,
        results: &FixedBitSet,
        scored: Option<&(Vec<f32>, Vec<u8>)>,
        sort: Sort,
    ) -> Vec<Hit> {
        let hit = |d: usize| {
            let (score, tier) = match scored {
                Some((s, t)) => (s[d], MatchClass::from_u8(t[d])),
                None => (0.0, MatchClass::Exact),
            };
            Hit {
                doc: d as u32,
                score,
                tier,
            }
        };
        match sort {
            // Sorted as integers: tier, then score (best first), then list
            // order, packed into one key. The first letters typed find
            // nearly every paper, and comparing keys is several times
            // quicker than comparing hits field by field.
            Sort::Relevance if scored.is_some() => {
                let mut keys: Vec<u128> = results.ones().map(|d| relevance_key(&hit(d))).collect();
                keys.sort_unstable();
                keys.into_iter().map(|k| hit(k as u32 as usize)).collect()
            }
            // Without words every hit ties: list order.
            Sort::Relevance | Sort::ListOrder => results.ones().map(hit).collect(),
            Sort::Title => {
                let mut hits: Vec<Hit> = results.ones().map(hit).collect();
                hits.sort_unstable_by_key(|h| self.title_rank[h.doc as usize]);
                hits
            }
        }
    }
}

/// A hit's place in relevance order as one integer: its tier, then its
/// score from the best, then its document.
fn relevance_key(h: &Hit) -> u128 {
    // The score's bits in `f32::total_cmp` order, then reversed.
    let bits = h.score.to_bits();
    let ordered = if bits >> 31 == 1 {
        !bits
    } else {
        bits | 1 << 31
    };
    (h.tier as u128) << 64 | u128::from(!ordered) << 32 | u128::from(h.doc)
}

/// Each paper's tags as counted: one per facet value, and only values the
/// corpus has (a hand-made corpus may repeat or overreach). Returns, per
/// facet and value, the papers that have it.
fn kept_tags(corpus: &mut Corpus) -> Vec<Vec<Vec<u32>>> {
    let sizes: Vec<usize> = corpus.facets.iter().map(|f| f.values.len()).collect();
    let mut facet_docs: Vec<Vec<Vec<u32>>> =
        sizes.iter().map(|&len| vec![Vec::new(); len]).collect();
    for (d, p) in corpus.papers.iter_mut().enumerate() {
        let mut seen: Vec<(u32, u32)> = Vec::with_capacity(p.tags.len());
        p.tags.retain(|t| {
            let key = (t.facet, t.value);
            let keep = sizes
                .get(t.facet as usize)
                .is_some_and(|&len| (t.value as usize) < len)
                && !seen.contains(&key);
            seen.push(key);
            keep
        });
        for t in &p.tags {
            facet_docs[t.facet as usize][t.value as usize].push(d as u32);
        }
    }
    facet_docs
}

/// Every facet value numbered across facets (facet `f`'s values start at
/// `value_start[f]`), and each paper's tags as those numbers in one flat
/// array (paper `d`'s at `tag_start[d]..tag_start[d + 1]`): what counting
/// facets reads on every keystroke, in paper order.
fn flat_tags(corpus: &Corpus) -> (Vec<u32>, Vec<u32>, Vec<u32>) {
    let mut value_start = Vec::with_capacity(corpus.facets.len() + 1);
    let mut values = 0u32;
    for f in &corpus.facets {
        value_start.push(values);
        values += f.values.len() as u32;
    }
    value_start.push(values);
    let mut tag_start = Vec::with_capacity(corpus.papers.len() + 1);
    let mut tag_values = Vec::new();
    for p in &corpus.papers {
        tag_start.push(tag_values.len() as u32);
        tag_values.extend(
            p.tags
                .iter()
                .map(|t| value_start[t.facet as usize] + t.value),
        );
    }
    tag_start.push(tag_values.len() as u32);
    (value_start, tag_start, tag_values)
}

/// Each paper's place in title order (folded titles, ties by list order).
fn title_ranks(papers: &[Paper]) -> Vec<u32> {
    let folded: Vec<String> = papers
        .iter()
        .map(|p| crate::model::text::fold(&p.title))
        .collect();
    let mut order: Vec<u32> = (0..papers.len() as u32).collect();
    order.sort_unstable_by(|&a, &b| folded[a as usize].cmp(&folded[b as usize]).then(a.cmp(&b)));
    let mut title_rank = vec![0u32; papers.len()];
    for (rank, &d) in order.iter().enumerate() {
        title_rank[d as usize] = rank as u32;
    }
    title_rank
}

/// The papers in the order of their stable ids, for looking one up by id.
fn id_order(papers: &[Paper]) -> Vec<u32> {
    let mut by_id: Vec<u32> = (0..papers.len() as u32).collect();
    by_id.sort_unstable_by(|&a, &b| papers[a as usize].id.cmp(&papers[b as usize].id));
    by_id
}

/// How many papers have each related-papers keyword, after dropping the
/// keywords a paper names beyond the corpus's list.
fn keyword_counts(corpus: &mut Corpus) -> Vec<u32> {
    let mut keyword_df = vec![0u32; corpus.similar_terms.len()];
    for p in &mut corpus.papers {
        p.keywords.retain(|&k| (k as usize) < keyword_df.len());
        for &k in &p.keywords {
            keyword_df[k as usize] += 1;
        }
    }
    keyword_df
}
