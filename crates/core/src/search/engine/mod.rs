//! Search: query evaluation, BM25F ranking, disjunctive facet counts and
//! highlight ranges. One [`Engine`] is built per corpus at start-up.

mod facets;
mod highlight;
mod hits;
mod paper_packs;
mod related;
mod score;

use fixedbitset::FixedBitSet;

use crate::model::facet::{FacetKind, ANY_FACET};
use crate::model::{Corpus, DecodeError, Paper};
use crate::search::index::{Bytes, Index, IndexData};
use crate::search::query::{self, Clause, Query};
pub use facets::{Extra, ExtraCounts, Extras};
pub(crate) use highlight::{overlaps, split_by_marks};
pub use highlight::{DocWords, Highlights};
pub use hits::{Hits, ORDERED_FIRST};
pub use paper_packs::PaperPack;
pub use related::{Related, RelatedSet, KEPT_PAPER_WORDS, RELATED, RELATED_POOL};
pub(crate) use score::prefix_list;

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
    /// Its BM25F score (0 without words); a best match's, times the share
    /// of the query's words it holds (weighed by their rarity).
    pub score: f32,
    /// The best class by which all its words matched (the worst word's;
    /// of a best match, the worst of the words it holds).
    pub tier: MatchClass,
    /// It holds every word of the query (else it is one of the best
    /// matches that follow those: [`Response::all_words`]).
    pub all_words: bool,
    /// It holds none of the words: it joined the best matches as one of
    /// the papers nearest in meaning ([`NEAREST_JOINING`]).
    pub by_meaning: bool,
    /// Its place in the order asked for, before the paper's number breaks
    /// ties ([`Hit::order`]; smaller first): see [`Engine::ordered`].
    place: u64,
}

impl Hit {
    /// What orders the hits: their place, then the paper's number.
    #[inline]
    fn order(&self) -> (u64, u32) {
        (self.place, self.doc)
    }
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
    /// Documents passing query and facet selection, in display order
    /// (put in order as they are read: [`Hits`]).
    pub hits: Hits,
    /// `counts[f][v]`: documents with value `v` of facet `f` among those
    /// matching the query and every *other* facet's selection.
    pub counts: Vec<Vec<u32>>,
    /// Documents of each [`Extra`] among those matching the query, the
    /// facet selection and the *other* extra.
    pub extra_counts: ExtraCounts,
    /// The words matched, for highlighting the hits.
    pub matched: Matched,
    /// The query has words to look up, and the index, or a pack of its
    /// postings the words are in ([`Response::missing_packs`]), is not
    /// loaded yet: no hits until it is.
    pub waiting_for_index: bool,
    /// The packs of postings this query reads that are not in: fetch them
    /// ([`Engine::pack_file`]), add them ([`Engine::add_pack`]) and search
    /// again. Empty when nothing is missing.
    pub missing_packs: Vec<u32>,
    /// The selection or a `key:value` filter reads the papers' tags, and
    /// their file is not in ([`Engine::add_tag_part`]): no hits until it is.
    /// (`waiting_for_index` says so too, for whoever shows the wait.)
    pub waiting_for_tags: bool,
    /// The sort is by title, and the title order's file is not in
    /// ([`Engine::add_title_order`]): no hits until it is.
    /// (`waiting_for_index` says so too, for whoever shows the wait.)
    pub waiting_for_titles: bool,
    /// The papers' tags are not in, and the results are not the whole
    /// list: `counts` are zero, not counts, until they are.
    pub counts_pending: bool,
    /// How many of the hits hold every word of the query: they come first.
    /// The rest are best matches ([`BEST_MATCHES_BELOW`]): papers that hold
    /// most of the query's words, weighed by how rare each word is. All
    /// the hits without words, or when none is a best match.
    pub all_words: usize,
}

impl Response {
    /// The documents found, in display order.
    pub fn docs(&self) -> Vec<u32> {
        self.hits.in_order().iter().map(|h| h.doc).collect()
    }

    /// How many hits are best matches: they hold some of the query's
    /// words, not all.
    pub fn best_matches(&self) -> usize {
        self.hits.len() - self.all_words
    }
}

/// Below this many papers holding every word of a query of
/// [`BEST_MATCHES_FROM`] words or more (after its exclusions and filters),
/// the results go on with the best matches: papers holding most of its
/// words. A pasted title, a
/// question or a half-remembered phrase rarely has every one of its words
/// in the paper meant; a query that many papers answer in full is not
/// padded.
pub const BEST_MATCHES_BELOW: usize = 10;

/// Queries of fewer words (or phrases, or `OR` groups) than this find the
/// papers holding every one, and nothing else: two words typed are both
/// meant (Elasticsearch's usual `minimum_should_match` asks for every
/// clause up to two, too).
pub const BEST_MATCHES_FROM: usize = 3;

/// A best match holds at least this share of the query's words, each
/// word weighed by its inverse document frequency (so `the`, `of` and
/// `for` weigh next to nothing, and a rare word most). Words no paper has
/// are left out of the sum: a typo or a name the list does not hold does
/// not empty the results.
pub const BEST_MATCH_SHARE: f32 = 0.3;

/// Papers that hold at least [`NEAR_MATCH_WORDS`] of a query's words but
/// less than [`BEST_MATCH_SHARE`] of its weight: the [`NEAR_MATCHES`] with
/// the highest word scores join the best matches. A real title typed is
/// often found so, the paper holding its plain words and not the rare
/// ones other papers hold (on the ACL list, one pasted title in 200).
pub const NEAR_MATCHES: usize = 5;

/// The words a near match holds at least ([`NEAR_MATCHES`]): one or two
/// shared words are what a question in other words has with many papers.
pub const NEAR_MATCH_WORDS: u16 = 3;

/// A paper holding two of the words is a near match too when its word
/// score is at least this share of the best one found: the rare words it
/// holds, many times over, are what BM25 ranks first ("Do Prompt Positions
/// Really Matter?" finds the paper on prompt positions). Lower (0.5), a
/// question's two words pull papers above the ones it means (seed judged
/// questions 0.872 → 0.849); from 0.6 to 0.9 the titles found are the same.
pub const NEAR_MATCH_SCORE: f32 = 0.75;

/// How much meaning weighs in the best matches' order, against their word
/// score scaled to 1 for the best one ([`Engine::search_with`]). Chosen on
/// one half of the real-title queries of `explorer-cli eval-title-queries`
/// and reported on the other (docs/search.md).
pub const MEANING_WEIGHT: f32 = 0.75;

/// What a phrase held word by word, not as the phrase, counts in a best
/// match: its words' score and its weight, times this.
const LOOSE_PHRASE: f32 = 0.5;

/// How many papers nearest in meaning join the best matches (once the
/// meaning file is open), each ranked among them by its meaning alone: a
/// question in other words than the abstracts' finds its paper among the
/// first results, not below every paper sharing a common word with it.
pub const NEAREST_JOINING: usize = 10;

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
    /// Per pack of bodies ([`Corpus::body_packs`]), its papers' bodies once
    /// it is in ([`Engine::add_paper_pack`]). Empty when every paper holds
    /// its own.
    bodies: paper_packs::Slots<crate::model::Body>,
    /// Per pack of titles ([`Corpus::titles`]), its papers' titles once it
    /// is in ([`Engine::add_paper_pack`]).
    titles: paper_packs::Slots<String>,
    /// Per paper, each field's BM25F weight over its length normalisation
    /// ([`score`]), worked out once the index is first searched.
    field_scales: std::sync::OnceLock<Vec<[f32; crate::search::index::N_FIELDS]>>,
    /// The papers' tags as counting and filtering read them: from the
    /// papers, or later from the tags' file ([`Engine::add_tag_part`]).
    tagging: std::sync::OnceLock<Tagging>,
    /// What [`Engine::tagging`] lends until the tags are in: no paper has
    /// any.
    untagged: std::sync::OnceLock<Tagging>,
    /// Each paper's place in title order (for sorting by title): from the
    /// titles, or later from the title order's file
    /// ([`Engine::add_title_order`]).
    title_rank: std::sync::OnceLock<Vec<u32>>,
    /// Documents in id order: a paper found by its id in a binary search
    /// (links, the reading list), not a scan of every paper.
    by_id: Vec<u32>,
    /// The papers' places on the topic map and their keywords: taken from
    /// the papers, or later from the map's file ([`Engine::add_map_part`]).
    pub(crate) map: std::sync::OnceLock<crate::model::map_part::MapData>,
    /// Per facet, its values folded for `key:value` filters: folded on the
    /// first filter of that facet, then kept (authors may be 60,000 names).
    folded_values: Vec<std::sync::OnceLock<Vec<String>>>,
    /// The meaning file, fetched after the index ([`Engine::open_meaning`]).
    meaning: std::sync::OnceLock<crate::search::meaning::Meaning>,
    /// [`MEANING_WEIGHT`], or another weight an evaluation sets
    /// ([`Engine::set_meaning_weight`]): an `f32`'s bits.
    meaning_weight: std::sync::atomic::AtomicU32,
    /// Whether best matches follow the papers holding every word (always,
    /// but for the benchmark that measures what they cost).
    best_matches: std::sync::atomic::AtomicBool,
    /// The last few query clauses' answers, most recent first
    /// ([`Engine::eval_clause`]).
    clauses: std::sync::Mutex<Vec<(query::Clause, std::sync::Arc<score::ClauseFound>)>>,
    /// The last facet counts, for counting the next keystroke's by
    /// difference ([`facets`]).
    last_counts: std::sync::Mutex<Option<facets::KeptCounts>>,
    /// Related papers' explaining words, by paper ([`related`]).
    paper_words: std::sync::Mutex<related::KeptWords>,
    /// Folded words' stem ids met while splitting papers' words for
    /// highlighting ([`Engine::doc_words`]).
    word_ids: std::sync::Mutex<crate::search::index::WordIds>,
}

/// The papers' tags as counting and filtering read them.
#[derive(Debug)]
pub(crate) struct Tagging {
    /// `facet_docs[f][v]`: the documents tagged with value `v` of facet `f`,
    /// sorted. Lists, not bitsets: a facet may have tens of thousands of
    /// values (authors), most with a paper or two.
    pub(crate) facet_docs: Vec<Vec<Vec<u32>>>,
    /// Every paper's tags in one flat array, for counting: paper `d`'s are
    /// `tag_values[tag_start[d]..tag_start[d + 1]]`, each a value numbered
    /// across facets (facet `f`'s values from `value_start[f]`). Counting
    /// a keystroke's thousands of results reads this array in order
    /// instead of every paper's own `Vec` (twice as fast at 20,000 papers).
    pub(super) tag_start: Vec<u32>,
    pub(super) tag_values: Vec<u32>,
    pub(super) value_start: Vec<u32>,
}

impl Tagging {
    /// From each paper's tags, in paper order ([`keep_counted`] first).
    fn new<'a>(sizes: &[usize], papers: impl Iterator<Item = &'a [crate::model::Tag]>) -> Tagging {
        let mut facet_docs: Vec<Vec<Vec<u32>>> =
            sizes.iter().map(|&len| vec![Vec::new(); len]).collect();
        let mut value_start = Vec::with_capacity(sizes.len() + 1);
        let mut values = 0u32;
        for &len in sizes {
            value_start.push(values);
            values += len as u32;
        }
        value_start.push(values);
        let mut tag_start = Vec::new();
        let mut tag_values = Vec::new();
        for (d, tags) in papers.enumerate() {
            tag_start.push(tag_values.len() as u32);
            for t in tags {
                facet_docs[t.facet as usize][t.value as usize].push(d as u32);
                tag_values.push(value_start[t.facet as usize] + t.value);
            }
        }
        tag_start.push(tag_values.len() as u32);
        Tagging {
            facet_docs,
            tag_start,
            tag_values,
            value_start,
        }
    }
}

/// A paper's tags as counted: one per facet value, and only values the
/// corpus has (`sizes`: each facet's value count; a hand-made corpus may
/// repeat or overreach).
fn keep_counted(tags: &mut Vec<crate::model::Tag>, sizes: &[usize]) {
    let mut seen: Vec<(u32, u32)> = Vec::with_capacity(tags.len());
    tags.retain(|t| {
        let key = (t.facet, t.value);
        let keep = sizes
            .get(t.facet as usize)
            .is_some_and(|&len| (t.value as usize) < len)
            && !seen.contains(&key);
        seen.push(key);
        keep
    });
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
        let tagging = std::sync::OnceLock::new();
        if corpus.tag_part.is_none() {
            let sizes = facet_sizes(&corpus);
            for p in &mut corpus.papers {
                keep_counted(&mut p.tags, &sizes);
            }
            let papers = corpus.papers.iter().map(|p| p.tags.as_slice());
            let _ = tagging.set(Tagging::new(&sizes, papers));
        }
        let map = std::sync::OnceLock::new();
        if corpus.map_part.is_none() {
            let part = crate::model::MapPart::take_from(&mut corpus.papers, &corpus.similar_terms);
            let _ = map.set(crate::model::map_part::MapData::new(part));
        }
        let n_facets = corpus.facets.len();
        Engine {
            title_rank: paper_packs::title_rank_of(&corpus),
            by_id: id_order(&corpus.papers),
            bodies: paper_packs::Slots::new(corpus.body_packs.len()),
            titles: paper_packs::Slots::new(corpus.title_packs().len()),
            corpus,
            index: std::sync::OnceLock::new(),
            field_scales: std::sync::OnceLock::new(),
            tagging,
            untagged: std::sync::OnceLock::new(),
            map,
            folded_values: (0..n_facets).map(|_| std::sync::OnceLock::new()).collect(),
            meaning: std::sync::OnceLock::new(),
            meaning_weight: MEANING_WEIGHT.to_bits().into(),
            best_matches: true.into(),
            clauses: Default::default(),
            last_counts: Default::default(),
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

    /// How much meaning weighs in the best matches' order
    /// ([`MEANING_WEIGHT`] unless set): 0 orders them by their words only.
    /// For evaluations, which compare weights on the same engine.
    pub fn set_meaning_weight(&self, weight: f32) {
        self.meaning_weight
            .store(weight.to_bits(), std::sync::atomic::Ordering::Relaxed);
    }

    /// Whether papers holding some of a query's words follow those holding
    /// all (on unless set): off, a query finds only the papers holding
    /// every word. For the benchmark of what best matches cost.
    pub fn set_best_matches(&self, on: bool) {
        self.best_matches
            .store(on, std::sync::atomic::Ordering::Relaxed);
    }

    /// How much meaning weighs in the best matches' order now.
    pub fn meaning_weight(&self) -> f32 {
        f32::from_bits(
            self.meaning_weight
                .load(std::sync::atomic::Ordering::Relaxed),
        )
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

    /// How many papers of the whole corpus have each value of a facet
    /// (before the tags are in, as the papers part gives them).
    pub fn facet_totals(&self, facet: usize) -> Vec<u32> {
        match (self.tagging.get(), &self.corpus.tag_part) {
            (None, Some(r)) => r.totals.get(facet).cloned().unwrap_or_default(),
            _ => self
                .tagging()
                .facet_docs
                .get(facet)
                .map_or_else(Vec::new, |vs| vs.iter().map(|d| d.len() as u32).collect()),
        }
    }

    /// Whether every paper's tags are in: always, unless the corpus has
    /// them apart ([`Corpus::tag_part`]) and their file has not come
    /// ([`Engine::add_tag_part`]). Until then facet counts of a query are
    /// not known ([`Response::counts_pending`]), and a selection or a
    /// `key:value` filter waits ([`Response::waiting_for_tags`]).
    pub fn has_tags(&self) -> bool {
        self.tagging.get().is_some()
    }

    /// The tags' file while it is not in: its name (beside the papers
    /// part) and its size in bytes (uncompressed).
    pub fn tag_part_file(&self) -> Option<(String, usize)> {
        let r = self.corpus.tag_part.as_ref().filter(|_| !self.has_tags())?;
        Some((crate::model::tag_part_file_name(r.hash), r.len as usize))
    }

    /// Adds the tags' file, fetched: checked against its hash and the
    /// corpus before any of it is used. Once in, it stays.
    pub fn add_tag_part(&self, bytes: &[u8]) -> Result<(), crate::model::DecodeError> {
        if self.has_tags() {
            return Ok(());
        }
        let mut tags = self.corpus.decode_tag_part(bytes)?;
        let sizes = facet_sizes(&self.corpus);
        for t in &mut tags {
            keep_counted(t, &sizes);
        }
        let _ = self
            .tagging
            .set(Tagging::new(&sizes, tags.iter().map(Vec::as_slice)));
        // Counts kept from before were counted without the tags.
        *self.last_counts.lock().unwrap_or_else(|e| e.into_inner()) = None;
        Ok(())
    }

    /// The papers' tags as counting reads them: none of them while their
    /// file is on its way (every count zero, every filter empty).
    pub(crate) fn tagging(&self) -> &Tagging {
        self.tagging.get().unwrap_or_else(|| {
            self.untagged.get_or_init(|| {
                let none: &[crate::model::Tag] = &[];
                Tagging::new(
                    &facet_sizes(&self.corpus),
                    std::iter::repeat_n(none, self.len()),
                )
            })
        })
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
        let reads_words = !q.groups.is_empty() || !q.excluded.is_empty();
        if reads_words && !self.has_index() {
            return self.waiting(Vec::new());
        }
        if reads_words {
            self.index().take_missing();
        }
        let filtered = !q.filters.is_empty() || selection.iter().any(|s| !s.is_empty());
        if filtered && !self.has_tags() {
            return Response {
                waiting_for_tags: true,
                ..self.waiting(Vec::new())
            };
        }
        if sort == Sort::Title && !self.has_title_order() {
            return Response {
                waiting_for_titles: true,
                ..self.waiting(Vec::new())
            };
        }
        let scored = self.score_groups(&q, &mut matched);
        let allowed = self.restrict(&q);
        if reads_words {
            let missing = self.index().take_missing();
            if !missing.is_empty() {
                return self.waiting(missing);
            }
        }
        let (scored, mut base) = self.found_or_relaxed(&q, scored, &allowed, &mut matched);
        let sims = match (&scored, sort) {
            (Some(s), Sort::Relevance) => self.join_nearest(&q, s, &allowed, &mut base),
            _ => None,
        };
        let (results, mut counts, extra_counts) = self.facets(&base, selection, extras.all());
        // Without the tags, the whole list's counts are its totals; those
        // of a query, or of the reader's own filters, are not known yet.
        let counts_pending = !self.has_tags()
            && (base.count_ones(..) < self.len() || extras.all().iter().any(|e| e.active));
        if !self.has_tags() && !counts_pending {
            counts = (0..counts.len()).map(|f| self.facet_totals(f)).collect();
        }
        let hits = self.ordered(results, scored.as_ref(), sort, sims.as_deref());
        let all_words = hits.any_order().iter().filter(|h| h.all_words).count();
        matched.stems.sort_unstable();
        matched.stems.dedup();
        if self.has_index() {
            let function_words = self.index().function_stems();
            (matched.stems).retain(|s| function_words.binary_search(s).is_err());
        }
        Response {
            all_words,
            hits,
            counts,
            extra_counts,
            matched,
            waiting_for_index: false,
            missing_packs: Vec::new(),
            waiting_for_tags: false,
            waiting_for_titles: false,
            counts_pending,
        }
    }

    /// The answer while the index, or packs of it, are not in.
    fn waiting(&self, missing_packs: Vec<u32>) -> Response {
        Response {
            hits: Hits::default(),
            counts: self
                .corpus
                .facets
                .iter()
                .map(|f| vec![0; f.values.len()])
                .collect(),
            extra_counts: ExtraCounts::default(),
            matched: Matched::default(),
            waiting_for_index: true,
            missing_packs,
            waiting_for_tags: false,
            waiting_for_titles: false,
            // No answer yet, so nothing to count: the tags are not wanted
            // for it (they would share the link with the index).
            counts_pending: false,
            all_words: 0,
        }
    }

    /// How many packs the index's postings and their positions come in
    /// (0 while the index is not open, or when they came whole).
    pub fn pack_count(&self) -> usize {
        self.index.get().map_or(0, Index::pack_count)
    }

    /// Whether the postings are in packs small enough together
    /// ([`crate::search::EAGER_POSTINGS_BYTES`]) to fetch them all once the
    /// index's head is in.
    pub fn packs_are_few(&self) -> bool {
        self.index.get().is_some_and(|i| {
            i.pack_count() > 0 && i.postings_bytes() <= crate::search::EAGER_POSTINGS_BYTES
        })
    }

    /// The file of pack `k` of the postings or positions, beside the
    /// index's.
    pub fn pack_file(&self, k: u32) -> Option<String> {
        self.index.get()?.pack_file(k)
    }

    /// The packs of the postings not in yet, each with its size in bytes
    /// (uncompressed): what "save for offline use" fetches.
    pub fn packs_not_in(&self) -> Vec<(u32, usize)> {
        let Some(index) = self.index.get() else {
            return Vec::new();
        };
        (0..index.pack_count() as u32)
            .filter(|&k| !index.has_pack(k))
            .map(|k| (k, index.pack_len(k)))
            .collect()
    }

    /// Whether pack `k` holds postings (not positions, which only a
    /// quoted phrase reads, nor words).
    pub fn is_postings_pack(&self, k: u32) -> bool {
        self.index.get().is_some_and(|i| i.is_postings_pack(k))
    }

    /// Whether pack `k` is one of the word list's: every query reads one,
    /// so they are fetched ahead first.
    pub fn is_words_pack(&self, k: u32) -> bool {
        self.index.get().is_some_and(|i| i.is_words_pack(k))
    }

    /// Whether the index's whole word list is in: until then a card's
    /// words ([`Engine::doc_words`]) are known only where their packs
    /// are, and are not to be kept for later queries.
    pub fn words_all_in(&self) -> bool {
        self.index.get().is_some_and(Index::words_all_in)
    }

    /// Whether pack `k` of the postings or positions is in.
    pub fn has_pack(&self, k: u32) -> bool {
        self.index.get().is_some_and(|i| i.has_pack(k))
    }

    /// Adds pack `k` of the postings or positions
    /// ([`Response::missing_packs`]); a pack
    /// that is not the one the index names is refused.
    pub fn add_pack(&self, k: u32, bytes: Bytes) -> Result<(), crate::model::DecodeError> {
        self.index
            .get()
            .ok_or(crate::model::DecodeError::Corrupt(
                crate::model::Corrupt::PackMismatch,
            ))?
            .add_pack(k, bytes)
    }

    /// Per document, what the query's word groups found (AND across
    /// groups, OR within one): the score and class of the groups it holds,
    /// and how many and how much of them. `None` for a query without words.
    fn score_groups(&self, q: &Query, matched: &mut Matched) -> Option<Scored> {
        self.score_groups_from(q, matched, BEST_MATCHES_FROM)
    }

    /// [`Engine::score_groups`], with best matches for queries of
    /// `best_from` words or more.
    fn score_groups_from(
        &self,
        q: &Query,
        matched: &mut Matched,
        best_from: usize,
    ) -> Option<Scored> {
        if q.groups.is_empty() {
            return None;
        }
        let n = self.len();
        // A word typed twice (`Changing the World by Changing the Data`)
        // is one word held, as BM25 counts it.
        let mut groups: Vec<&Vec<Clause>> = Vec::with_capacity(q.groups.len());
        for g in &q.groups {
            if !groups.contains(&g) {
                groups.push(g);
            }
        }
        // Best matches (and what only they read: the share of the words
        // held, the near spellings) are worked out only for a query that
        // may have them.
        let pads = groups.len() >= best_from
            && self.best_matches.load(std::sync::atomic::Ordering::Relaxed);
        let pad_len = if pads { n } else { 0 };
        let mut s = Scored {
            score: vec![0.0; n],
            tier: vec![NO_MATCH; n],
            held: vec![0.0; pad_len],
            misspelt: vec![0.0; pad_len],
            count: vec![0; n],
            groups: groups.len(),
            pads,
            weight: 0.0,
        };
        // A group of several clauses (`audio OR speech`): its documents
        // gathered sparsely, each once, then added in.
        let (mut group_score, mut group_tier) = (Vec::new(), Vec::new());
        let mut touched: Vec<u32> = Vec::new();
        for group in groups {
            let one;
            let merged: Vec<(u32, f32, MatchClass)>;
            let docs: &[(u32, f32, MatchClass)] = match group.as_slice() {
                // One clause finds each document once: read as it is.
                [clause] => {
                    one = self.eval_clause(clause, matched);
                    &one.docs
                }
                _ => {
                    merged = self.merge_group(
                        group,
                        matched,
                        &mut group_score,
                        &mut group_tier,
                        &mut touched,
                    );
                    &merged
                }
            };
            self.add_group(&mut s, group, docs);
        }
        Some(s)
    }

    /// The documents of a group of several clauses (`audio OR speech`),
    /// each once, in the order first found: its clauses' scores summed and
    /// its best class. `group_score`, `group_tier` and `touched` are
    /// scratch, left cleared.
    fn merge_group(
        &self,
        group: &[Clause],
        matched: &mut Matched,
        group_score: &mut Vec<f32>,
        group_tier: &mut Vec<u8>,
        touched: &mut Vec<u32>,
    ) -> Vec<(u32, f32, MatchClass)> {
        let n = self.len();
        group_score.resize(n, 0f32);
        group_tier.resize(n, NO_MATCH);
        for clause in group {
            for &(doc, score, class) in &self.eval_clause(clause, matched).docs {
                let d = doc as usize;
                if group_tier[d] == NO_MATCH {
                    touched.push(doc);
                }
                group_score[d] += score;
                group_tier[d] = group_tier[d].min(class as u8);
            }
        }
        (touched.drain(..))
            .map(|doc| {
                let d = doc as usize;
                let found = (doc, group_score[d], MatchClass::from_u8(group_tier[d]));
                (group_score[d], group_tier[d]) = (0.0, NO_MATCH);
                found
            })
            .collect()
    }

    /// Adds one group's documents (`docs`, each once) into `s`: their
    /// scores, classes and counts, the group's weight and, for best
    /// matches, how much of it each holds as typed or only misspelt.
    fn add_group(&self, s: &mut Scored, group: &[Clause], docs: &[(u32, f32, MatchClass)]) {
        let (n, pads) = (self.len(), s.pads);
        // A word the papers have as typed counts, in a best match,
        // only where it is so (or begun so): its near spellings still
        // make a paper hold every word, but a pasted title's `ranking`
        // does not make `banking` papers best matches.
        let typed = docs
            .iter()
            .filter(|&&(_, _, class)| class < MatchClass::Fuzzy)
            .count();
        let holds = |class: MatchClass| typed == 0 || class < MatchClass::Fuzzy;
        // A phrase (`Multi-Review`, `"word alignment"`) a paper holds
        // only word by word counts half in a best match.
        let loose = match group {
            [Clause::Phrase(words)] if pads => self.phrase_words(words, docs),
            _ => Vec::new(),
        };
        let holding = if typed == 0 { docs.len() } else { typed };
        let weight = group_weight(n, holding + loose.len());
        s.weight += weight;
        for &(doc, score) in &loose {
            let d = doc as usize;
            s.score[d] += LOOSE_PHRASE * score;
            s.held[d] += LOOSE_PHRASE * weight;
        }
        for &(doc, score, class) in docs {
            let d = doc as usize;
            s.score[d] += score;
            s.tier[d] = match s.tier[d] {
                NO_MATCH => class as u8,
                t => t.max(class as u8),
            };
            match (pads, holds(class)) {
                (false, _) => {}
                (true, true) => s.held[d] += weight,
                (true, false) => s.misspelt[d] += score,
            }
            s.count[d] = s.count[d].saturating_add(1);
        }
    }

    /// The papers holding every word of a phrase but not the phrase (not
    /// among `phrase`'s documents), with the words' summed scores.
    fn phrase_words(
        &self,
        words: &[query::Term],
        phrase: &[(u32, f32, MatchClass)],
    ) -> Vec<(u32, f32)> {
        let mut holding = FixedBitSet::with_capacity(self.len());
        holding.extend(phrase.iter().map(|&(d, _, _)| d as usize));
        let mut found: Option<Vec<(u32, f32)>> = None;
        for w in words {
            let mut scratch = Matched::default();
            let clause = query::Clause::Term(query::Term {
                prefix: false,
                ..w.clone()
            });
            let mut docs: Vec<(u32, f32)> = self
                .eval_clause(&clause, &mut scratch)
                .docs
                .iter()
                .filter(|&&(d, _, class)| {
                    class != MatchClass::Fuzzy && !holding.contains(d as usize)
                })
                .map(|&(d, score, _)| (d, score))
                .collect();
            docs.sort_unstable_by_key(|&(d, _)| d);
            found = Some(match found {
                None => docs,
                Some(before) => before
                    .into_iter()
                    .filter_map(|(d, s0)| {
                        docs.binary_search_by_key(&d, |&(x, _)| x)
                            .ok()
                            .map(|i| (d, s0 + docs[i].1))
                    })
                    .collect(),
            });
        }
        found.unwrap_or_default()
    }

    /// With best matches to list and the meaning file open: the
    /// [`NEAREST_JOINING`] papers nearest in meaning to the query that its
    /// exclusions and filters allow (`allowed`) join them in `base`, and
    /// every paper's cosine with the query is returned, to order them
    /// ([`Engine::ordered`]).
    fn join_nearest(
        &self,
        q: &Query,
        s: &Scored,
        allowed: &FixedBitSet,
        base: &mut FixedBitSet,
    ) -> Option<Vec<f32>> {
        let weight = self.meaning_weight();
        // Fewer words than best matches need: every paper found holds
        // them all.
        if weight == 0.0 || !s.pads || !base.ones().any(|d| !s.holds_all(d)) {
            return None;
        }
        let m = self.meaning.get()?;
        let v = m.embed_query(&Self::meaning_text(q))?;
        let sims = m.similarities(&v);
        let mut outside = allowed.clone();
        outside.difference_with(base);
        for (d, _) in related::nearest_first(&sims, &outside, NEAREST_JOINING) {
            base.insert(d as usize);
        }
        Some(sims)
    }

    /// [`Engine::found`]; but for words no paper holds together
    /// (`diffusion video`), the papers holding some of them, as best
    /// matches (Algolia's `removeWordsIfNoResults`), rather than nothing:
    /// the query scored again as one of [`BEST_MATCHES_FROM`] words would
    /// be (`matched` with it).
    fn found_or_relaxed(
        &self,
        q: &Query,
        scored: Option<Scored>,
        allowed: &FixedBitSet,
        matched: &mut Matched,
    ) -> (Option<Scored>, FixedBitSet) {
        let base = self.found(scored.as_ref(), allowed);
        match &scored {
            Some(s) if base.is_clear() && !s.pads && s.groups >= 2 => {
                *matched = Matched::default();
                let scored = self.score_groups_from(q, matched, 2);
                let base = self.found(scored.as_ref(), allowed);
                (scored, base)
            }
            _ => (scored, base),
        }
    }

    /// The documents a query finds before the facet selection, among those
    /// its exclusions and `key:value` filters allow (`allowed`): those
    /// holding every word (all, without words); below
    /// [`BEST_MATCHES_BELOW`] of them, the best matches too.
    fn found(&self, scored: Option<&Scored>, allowed: &FixedBitSet) -> FixedBitSet {
        let Some(s) = scored else {
            return allowed.clone();
        };
        let mut found = FixedBitSet::with_capacity(self.len());
        if !s.pads {
            // Every word, and nothing else: a block of the set at a time,
            // as a keystroke at 100,000 papers reads them all.
            let blocks = found.as_mut_slice().iter_mut().zip(allowed.as_slice());
            for ((block, &allows), counts) in blocks.zip(s.count.chunks(usize::BITS as usize)) {
                if allows != 0 {
                    let holding = (counts.iter().enumerate()).fold(0usize, |w, (k, &c)| {
                        w | usize::from(usize::from(c) == s.groups) << k
                    });
                    *block = allows & holding;
                }
            }
            return found;
        }
        // The best word score found: a paper holding a few of the words
        // that scores near it is what BM25 would rank among the first.
        let mut top = 0f32;
        let mut near: Vec<(f32, usize)> = Vec::new();
        for d in allowed.ones() {
            if s.holds_all(d) || s.is_best_match(d) {
                found.insert(d);
                top = top.max(s.typed_score(d));
            } else if s.count[d] >= 2 && s.held[d] > 0.0 {
                near.push((s.rank_score(d), d));
            }
        }
        near.retain(|&(_, d)| {
            s.count[d] >= NEAR_MATCH_WORDS || s.typed_score(d) >= NEAR_MATCH_SCORE * top
        });
        // The near matches with the highest word scores join the best
        // matches (when there are any: with none, the words typed are not
        // the papers' and meaning answers).
        if !found.is_clear() {
            if near.len() > NEAR_MATCHES {
                near.select_nth_unstable_by(NEAR_MATCHES, |a, b| {
                    b.0.total_cmp(&a.0).then(a.1.cmp(&b.1))
                });
                near.truncate(NEAR_MATCHES);
            }
            for (_, d) in near {
                found.insert(d);
            }
        }
        // Enough papers hold every word as typed: no padding. (Papers that
        // hold some word only by a near spelling do not count: they rank
        // last among those holding every word anyway.)
        let as_typed = |d: usize| s.holds_all(d) && s.tier[d] < MatchClass::Fuzzy as u8;
        if found.ones().filter(|&d| as_typed(d)).count() >= BEST_MATCHES_BELOW {
            let partial: Vec<usize> = found.ones().filter(|&d| !s.holds_all(d)).collect();
            for d in partial {
                found.set(d, false);
            }
        }
        found
    }

    /// The documents a query's exclusions (`-word`) and `key:value`
    /// filters allow.
    fn restrict(&self, q: &Query) -> FixedBitSet {
        let n = self.len();
        let mut base = FixedBitSet::with_capacity(n);
        base.insert_range(..);
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
                        for &d in &self.tagging().facet_docs[fi][vi] {
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

    /// The results as hits in the order asked for: the papers holding
    /// every word first, then the best matches, each part in that order
    /// (the first put in order, the rest when read: [`Hits`]).
    ///
    /// With `sims` (best matches to list and the meaning file open:
    /// [`Engine::join_nearest`]), the best matches, and the papers nearest
    /// in meaning that joined them, are ordered by their word score over
    /// the first one's, plus [`MEANING_WEIGHT`] times their cosine with
    /// the query: among papers that each miss some of the words, the one
    /// that means what was typed comes first. The papers holding every
    /// word keep their order above.
    fn ordered(
        &self,
        results: FixedBitSet,
        scored: Option<&Scored>,
        sort: Sort,
        sims: Option<&[f32]>,
    ) -> Hits {
        // The best word score among the best matches, which their fused
        // score is scaled to.
        let fused = sims.zip(scored).map(|(sims, s)| {
            let best = results.ones().filter(|&d| !s.holds_all(d));
            let top = (best.clone().map(|d| s.rank_score(d))).fold(f32::MIN_POSITIVE, f32::max);
            let held = best.map(|d| s.held[d]).fold(0f32, f32::max);
            (
                sims,
                top,
                self.meaning_weight() * trust_in_meaning(held / s.weight),
            )
        });
        let rank = self.title_rank.get().map_or(&[][..], Vec::as_slice);
        let place = |h: &Hit| {
            let part = u64::from(!h.all_words) << 34;
            part | match (sort, scored) {
                (Sort::Relevance, Some(_)) if h.all_words => {
                    (h.tier as u64) << 32 | best_first(h.score)
                }
                (Sort::Relevance, Some(_)) => match fused {
                    Some((sims, top, weight)) => {
                        let sim = sims.get(h.doc as usize).copied().unwrap_or(0.0);
                        best_first(h.score / top + weight * sim)
                    }
                    None => best_first(h.score),
                },
                // Without words every hit ties: list order.
                (Sort::Relevance | Sort::ListOrder, _) => 0,
                (Sort::Title, _) => rank.get(h.doc as usize).map_or(0, |&r| u64::from(r) + 1),
            }
        };
        // Each hit with its place, in one pass.
        let hits: Vec<Hit> = results
            .ones()
            .map(|d| {
                let mut h = match scored {
                    Some(s) => Hit {
                        doc: d as u32,
                        score: s.rank_score(d),
                        tier: MatchClass::from_u8(s.tier[d]),
                        all_words: s.holds_all(d),
                        by_meaning: s.count[d] == 0 && s.held[d] == 0.0,
                        place: 0,
                    },
                    None => Hit {
                        doc: d as u32,
                        score: 0.0,
                        tier: MatchClass::Exact,
                        all_words: true,
                        by_meaning: false,
                        place: 0,
                    },
                };
                h.place = place(&h);
                h
            })
            .collect();
        Hits::new(hits, results)
    }
}

/// How much more meaning weighs in the best matches' order when the best
/// of them holds only `cover` of the query's words (by weight): 1 when a
/// paper holds them all, 1 / cover² below. A query whose words a paper
/// holds most of is ordered by them; one whose papers share only a few of
/// its words is a question in other words than the abstracts', and
/// meaning leads its order. Measured (`./dev eval-meaning`, docs/search.md)
/// when it came in: on the ACL list's paraphrased questions the page
/// found 0.197 in its first ten without it, 0.248 with it; the lexical
/// ones and the seeds' unchanged or better. 1 / cover³ finds more of them
/// (0.342 against 0.329, the papers embedded from the distilled table),
/// but real titles typed fall below BM25's recall (0.980 against 0.983)
/// and the seeds' questions to 0.942 (0.965).
fn trust_in_meaning(cover: f32) -> f32 {
    let c = cover.clamp(0.05, 1.0);
    1.0 / (c * c)
}

/// Per document, what a query's word groups found ([`Engine::score_groups`]).
struct Scored {
    /// BM25F, summed over the groups the document holds.
    score: Vec<f32>,
    /// The worst class among the groups it holds ([`NO_MATCH`]: none).
    tier: Vec<u8>,
    /// The summed [`group_weight`]s of the groups it holds as typed (a
    /// near spelling counts only for a word the papers do not have).
    held: Vec<f32>,
    /// The part of `score` from words it holds only by a near spelling
    /// when other papers hold them as typed.
    misspelt: Vec<f32>,
    /// How many groups it holds.
    count: Vec<u16>,
    /// How many groups the query has.
    groups: usize,
    /// Whether its results may go on with best matches: its words are
    /// enough ([`BEST_MATCHES_FROM`]) and best matches are on. Else
    /// `held` and `misspelt` are empty.
    pads: bool,
    /// Every group's weight, summed.
    weight: f32,
}

impl Scored {
    /// Whether document `d` holds every group (every word of the query).
    #[inline]
    fn holds_all(&self, d: usize) -> bool {
        usize::from(self.count[d]) == self.groups
    }

    /// Whether document `d` holds enough of the words to be a best match.
    #[inline]
    fn is_best_match(&self, d: usize) -> bool {
        self.held[d] > 0.0 && self.held[d] >= BEST_MATCH_SHARE * self.weight
    }

    /// Its word score from the words it holds as typed (or begun so).
    #[inline]
    fn typed_score(&self, d: usize) -> f32 {
        self.score[d] - self.misspelt[d]
    }

    /// What orders document `d` among its part: its score, and for a best
    /// match that score times the share of the query it holds.
    #[inline]
    fn rank_score(&self, d: usize) -> f32 {
        if self.holds_all(d) {
            self.score[d]
        } else {
            self.typed_score(d) * self.held[d] / self.weight.max(f32::MIN_POSITIVE)
        }
    }
}

/// A word group's weight in a best match: the inverse document frequency
/// of the papers holding it, BM25's; 0 for a group no paper holds.
fn group_weight(papers: usize, holding: usize) -> f32 {
    if holding == 0 {
        return 0.0;
    }
    score::idf(papers, holding)
}

/// A score as 32 bits that order the highest first, as
/// [`f32::total_cmp`] would from the other end: a hit's place is then
/// an integer, and comparing integers is several times quicker than
/// comparing hits field by field.
#[inline]
fn best_first(score: f32) -> u64 {
    let bits = score.to_bits();
    let ordered = if bits >> 31 == 1 {
        !bits
    } else {
        bits | 1 << 31
    };
    u64::from(!ordered)
}

/// How many values each facet has.
fn facet_sizes(corpus: &Corpus) -> Vec<usize> {
    corpus.facets.iter().map(|f| f.values.len()).collect()
}

/// The papers in the order of their stable ids, for looking one up by id.
fn id_order(papers: &[Paper]) -> Vec<u32> {
    let mut by_id: Vec<u32> = (0..papers.len() as u32).collect();
    by_id.sort_unstable_by(|&a, &b| papers[a as usize].id.cmp(&papers[b as usize].id));
    by_id
}
