//! Search: query evaluation, BM25F ranking, disjunctive facet counts and
//! highlight ranges. One [`Engine`] is built per corpus at start-up.

use std::ops::Range;

use fixedbitset::FixedBitSet;

use crate::facet::{FacetKind, ANY_FACET};
use crate::index::{Index, IndexData, Posting, FIELD_AUTHORS, FIELD_TEXT, FIELD_TITLE};
use crate::model::{Corpus, DecodeError};
use crate::query::{self, Clause, Query, Term};

/// BM25 saturation and length normalisation.
const K1: f32 = 1.2;
const B: f32 = 0.75;
/// A match in the derived (or real) title counts this many times one in the abstract.
pub const TITLE_WEIGHT: f32 = 3.0;
/// A match in the author list counts this many times one in the abstract
/// (a name typed is meant).
pub const AUTHORS_WEIGHT: f32 = 2.0;

/// How a query word matched a document's word. Lower is better; a document's
/// tier is the worst class among its AND-ed groups, and tiers sort first, so a
/// typo-tolerant match never outranks an exact or prefix one.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum MatchClass {
    Exact = 0,
    Prefix = 1,
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
pub enum Sort {
    #[default]
    Relevance,
    ListOrder,
    Title,
}

impl Sort {
    pub fn key(self) -> &'static str {
        match self {
            Sort::Relevance => "relevance",
            Sort::ListOrder => "list",
            Sort::Title => "title",
        }
    }

    pub fn from_key(s: &str) -> Option<Sort> {
        [Sort::Relevance, Sort::ListOrder, Sort::Title]
            .into_iter()
            .find(|x| x.key() == s)
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct Hit {
    pub doc: u32,
    pub score: f32,
    pub tier: MatchClass,
}

/// What a query matched, resolved against the index: used for highlighting.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Matched {
    /// Stems matched by single-word clauses (exact, prefix and typo expansions).
    pub stems: Vec<u32>,
    /// Phrases as stem sequences.
    pub phrases: Vec<Vec<u32>>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Response {
    /// Documents passing query and facet selection, in display order.
    pub hits: Vec<Hit>,
    /// `counts[f][v]`: documents with value `v` of facet `f` among those
    /// matching the query and every *other* facet's selection.
    pub counts: Vec<Vec<u32>>,
    /// Documents of each [`Extra`] among those matching the query, the
    /// facet selection and the *other* extra.
    pub extra_counts: ExtraCounts,
    pub matched: Matched,
    /// The query has words to look up, and the index is not loaded yet:
    /// no hits until it is.
    pub waiting_for_index: bool,
}

/// A filter beyond the corpus's own facets, over documents only the caller
/// knows: the reader's starred papers, a region drawn on the topic map. It
/// is counted like a one-value facet and restricts the results when
/// `active`.
#[derive(Debug, Clone, Copy, Default)]
pub struct Extra<'a> {
    /// Document ids, in any order.
    pub docs: &'a [u32],
    pub active: bool,
}

/// The filters of the reader's own: [`Engine::search_with`] counts and
/// applies them like facets of one value.
#[derive(Debug, Clone, Copy, Default)]
pub struct Extras<'a> {
    /// The reader's starred papers ("Starred" in the filters).
    pub starred: Extra<'a>,
    /// The papers inside the region drawn on the topic map.
    pub region: Extra<'a>,
}

impl<'a> Extras<'a> {
    fn all(&self) -> [Extra<'a>; 2] {
        [self.starred, self.region]
    }
}

/// How many documents of each [`Extras`] filter are among the results of
/// everything else.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ExtraCounts {
    /// Starred papers.
    pub starred: u32,
    /// Papers in the map region.
    pub region: u32,
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

pub struct Engine {
    pub corpus: Corpus,
    /// The search index: with the corpus ([`Engine::new`]), or later
    /// ([`Engine::without_index`], then [`Engine::open_index`]).
    index: std::sync::OnceLock<Index>,
    /// `facet_docs[f][v]`: the documents tagged with value `v` of facet `f`,
    /// sorted. Lists, not bitsets: a facet may have tens of thousands of
    /// values (authors), most with a paper or two.
    facet_docs: Vec<Vec<Vec<u32>>>,
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
}

/// No match yet, in the dense per-document tier arrays.
const NO_MATCH: u8 = u8::MAX;

impl Engine {
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
        let n = corpus.papers.len();
        corpus.index = IndexData::default();
        let mut facet_docs: Vec<Vec<Vec<u32>>> = corpus
            .facets
            .iter()
            .map(|f| vec![Vec::new(); f.values.len()])
            .collect();
        // Each paper's tags, as counted: one per facet value, and only
        // values the corpus has (a hand-made corpus may repeat or overreach).
        let sizes: Vec<usize> = corpus.facets.iter().map(|f| f.values.len()).collect();
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
        let mut order: Vec<u32> = (0..n as u32).collect();
        let folded: Vec<String> = corpus
            .papers
            .iter()
            .map(|p| crate::text::fold(&p.title))
            .collect();
        order.sort_by(|&a, &b| folded[a as usize].cmp(&folded[b as usize]).then(a.cmp(&b)));
        let mut title_rank = vec![0u32; n];
        for (rank, &d) in order.iter().enumerate() {
            title_rank[d as usize] = rank as u32;
        }
        let mut by_id: Vec<u32> = (0..n as u32).collect();
        by_id.sort_by(|&a, &b| {
            corpus.papers[a as usize]
                .id
                .cmp(&corpus.papers[b as usize].id)
        });
        let mut keyword_df = vec![0u32; corpus.similar_terms.len()];
        for p in &mut corpus.papers {
            p.keywords.retain(|&k| (k as usize) < keyword_df.len());
            for &k in &p.keywords {
                keyword_df[k as usize] += 1;
            }
        }
        let n_facets = corpus.facets.len();
        Engine {
            corpus,
            index: std::sync::OnceLock::new(),
            facet_docs,
            title_rank,
            by_id,
            keyword_df,
            folded_values: (0..n_facets).map(|_| std::sync::OnceLock::new()).collect(),
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
        let index = Index::open(data, self.len()).ok_or_else(|| {
            crate::model::DecodeError::Corrupt("the index does not fit these papers".into())
        })?;
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

    pub fn len(&self) -> usize {
        self.corpus.papers.len()
    }

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

    pub fn parse_query(&self, q: &str) -> Query {
        query::parse(q, &|k| {
            k == ANY_FACET
                || FacetKind::from_key(k).is_some_and(|f| self.corpus.facet_index(f).is_some())
        })
    }

    pub fn search(&self, query: &str, selection: &Selection, sort: Sort) -> Response {
        self.search_with(query, selection, Extras::default(), sort)
    }

    /// [`Engine::search`] with filters of the caller's own ([`Extra`]).
    pub fn search_with(
        &self,
        query: &str,
        selection: &Selection,
        extras: Extras,
        sort: Sort,
    ) -> Response {
        let q = self.parse_query(query);
        let n = self.len();
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

        // Text clauses: score and tier per document, in dense arrays (AND
        // across groups, OR within one).
        let mut acc: Option<(Vec<f32>, Vec<u8>)> = None;
        for group in &q.groups {
            let mut score = vec![0f32; n];
            let mut tier = vec![NO_MATCH; n];
            for clause in group {
                for (doc, s, class) in self.eval_clause(clause, &mut matched) {
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
        let mut base = FixedBitSet::with_capacity(n);
        match &acc {
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
            let wanted = crate::text::fold(f.value.trim());
            for (fi, facet) in self.corpus.facets.iter().enumerate() {
                if f.key != ANY_FACET && f.key != facet.kind.key() {
                    continue;
                }
                let folded = self.folded_values[fi]
                    .get_or_init(|| facet.values.iter().map(|v| crate::text::fold(v)).collect());
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

        let (results, counts, [starred, region]) = self.facets(&base, selection, extras.all());
        let extra_counts = ExtraCounts { starred, region };

        let mut hits: Vec<Hit> = results
            .ones()
            .map(|d| {
                let (score, tier) = match &acc {
                    Some((s, t)) => (s[d], MatchClass::from_u8(t[d])),
                    None => (0.0, MatchClass::Exact),
                };
                Hit {
                    doc: d as u32,
                    score,
                    tier,
                }
            })
            .collect();
        match sort {
            Sort::Relevance => hits.sort_by(|a, b| {
                a.tier
                    .cmp(&b.tier)
                    .then(b.score.total_cmp(&a.score))
                    .then(a.doc.cmp(&b.doc))
            }),
            Sort::ListOrder => hits.sort_by_key(|h| h.doc),
            Sort::Title => hits.sort_by_key(|h| self.title_rank[h.doc as usize]),
        }
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

    /// Disjunctive faceting: the results are `base` ∩ every facet's selection
    /// (OR within a facet); each facet's counts lift its own selection. One
    /// pass over the documents in `base`: a document failing no selection
    /// counts for every facet, one failing exactly one facet's selection
    /// counts for that facet only.
    /// Extras take part as facets numbered after the corpus's.
    fn facets(
        &self,
        base: &FixedBitSet,
        selection: &Selection,
        extras: [Extra; 2],
    ) -> (FixedBitSet, Vec<Vec<u32>>, [u32; 2]) {
        let n = self.len();
        let nf = self.facet_docs.len();
        let extra_sets: Vec<FixedBitSet> = extras
            .iter()
            .map(|e| {
                let mut m = FixedBitSet::with_capacity(n);
                for &d in e.docs {
                    if (d as usize) < n {
                        m.insert(d as usize);
                    }
                }
                m
            })
            .collect();
        let mut masks: Vec<(usize, FixedBitSet)> = self
            .facet_docs
            .iter()
            .enumerate()
            .filter_map(|(f, values)| {
                let sel = selection.get(f).filter(|s| !s.is_empty())?;
                let mut m = FixedBitSet::with_capacity(n);
                for &v in sel {
                    for &d in values.get(v as usize).map_or(&[][..], Vec::as_slice) {
                        m.insert(d as usize);
                    }
                }
                Some((f, m))
            })
            .collect();
        masks.extend(
            extras
                .iter()
                .zip(&extra_sets)
                .enumerate()
                .filter(|(_, (e, _))| e.active)
                .map(|(i, (_, m))| (nf + i, m.clone())),
        );
        let mut results = base.clone();
        for (_, m) in &masks {
            results.intersect_with(m);
        }
        let mut counts: Vec<Vec<u32>> = self
            .facet_docs
            .iter()
            .map(|values| vec![0; values.len()])
            .collect();
        let mut extra_counts = [0u32; 2];
        for d in base.ones() {
            let mut failed = None;
            let mut fails = 0;
            for (f, m) in &masks {
                if !m.contains(d) {
                    fails += 1;
                    failed = Some(*f as u32);
                }
            }
            if fails > 1 {
                continue;
            }
            for t in &self.corpus.papers[d].tags {
                if failed.is_none_or(|g| g == t.facet) {
                    counts[t.facet as usize][t.value as usize] += 1;
                }
            }
            for (i, m) in extra_sets.iter().enumerate() {
                if failed.is_none_or(|g| g as usize == nf + i) && m.contains(d) {
                    extra_counts[i] += 1;
                }
            }
        }
        (results, counts, extra_counts)
    }

    /// The stems a query word matches, each with the best class by which it
    /// matched.
    fn resolve(&self, t: &Term) -> Vec<(u32, MatchClass)> {
        let mut stems: Vec<(u32, MatchClass)> = Vec::new();
        let add = |id: u32, class: MatchClass, stems: &mut Vec<(u32, MatchClass)>| match stems
            .iter_mut()
            .find(|(s, _)| *s == id)
        {
            Some(e) => e.1 = e.1.min(class),
            None => stems.push((id, class)),
        };
        for id in self.exact_ids(t) {
            add(id, MatchClass::Exact, &mut stems);
        }
        if t.prefix {
            for id in self.index().prefix_stems(&t.folded) {
                add(id, MatchClass::Prefix, &mut stems);
            }
        }
        let len = t.folded.chars().count();
        let distance = match len {
            0..=4 => 0,
            5..=8 => 1,
            _ => 2,
        };
        if distance > 0 && t.folded.chars().all(char::is_alphabetic) {
            for id in self.index().fuzzy_stems(&t.folded, distance) {
                add(id, MatchClass::Fuzzy, &mut stems);
            }
        }
        stems
    }

    /// The stems a word matches as written: its own stem, and the stem its
    /// folded form was indexed under.
    fn exact_ids(&self, t: &Term) -> impl Iterator<Item = u32> {
        self.index()
            .stem_id(&t.stem)
            .into_iter()
            .chain(self.index().surface_id(&t.folded))
    }

    /// A phrase's stem ids, or `None` when one of its words is not in the
    /// corpus (then nothing matches it).
    fn phrase_ids(&self, words: &[Term]) -> Option<Vec<u32>> {
        words
            .iter()
            .map(|w| self.index().stem_id(&w.stem))
            .collect()
    }

    fn bm25f(&self, stem: u32, p: &Posting) -> f32 {
        self.idf(stem) * self.bm25f_tf(p)
    }

    fn idf(&self, stem: u32) -> f32 {
        let n = self.index().doc_count() as f32;
        let df = self.index().df(stem) as f32;
        (1.0 + (n - df + 0.5) / (df + 0.5)).ln()
    }

    /// The saturated, length-normalised, field-weighted term frequency.
    fn bm25f_tf(&self, p: &Posting) -> f32 {
        let len = self.index().doc_len[p.doc as usize];
        let avg = self.index().avg_len;
        let norm = |field: usize| 1.0 - B + B * len[field] as f32 / avg[field].max(1.0);
        let weight = |field: usize| p.tf[field] as f32 / norm(field);
        let tf = TITLE_WEIGHT * weight(FIELD_TITLE)
            + weight(FIELD_TEXT)
            + AUTHORS_WEIGHT * weight(FIELD_AUTHORS);
        tf * (K1 + 1.0) / (tf + K1)
    }

    /// Documents matching a clause, with score and class.
    fn eval_clause(&self, clause: &Clause, matched: &mut Matched) -> Vec<(u32, f32, MatchClass)> {
        match clause {
            Clause::Term(t) => {
                // Per document, the best (class, score) over the word's
                // expansions: dense arrays, as a short prefix reaches
                // thousands of words and most documents.
                let n = self.len();
                let mut class_of = vec![NO_MATCH; n];
                let mut score_of = vec![0f32; n];
                let mut touched = Vec::new();
                for (stem, class) in self.resolve(t) {
                    matched.stems.push(stem);
                    let (c, idf) = (class as u8, self.idf(stem));
                    for p in self.index().postings(stem, false) {
                        let s = idf * self.bm25f_tf(&p) * class.weight();
                        let d = p.doc as usize;
                        if class_of[d] == NO_MATCH {
                            touched.push(p.doc);
                        }
                        if (c, -s) < (class_of[d], -score_of[d]) {
                            (class_of[d], score_of[d]) = (c, s);
                        }
                    }
                }
                touched
                    .into_iter()
                    .map(|d| {
                        let i = d as usize;
                        (d, score_of[i], MatchClass::from_u8(class_of[i]))
                    })
                    .collect()
            }
            Clause::Phrase(words) => {
                let Some(ids) = self.phrase_ids(words) else {
                    return Vec::new();
                };
                matched.phrases.push(ids.clone());
                self.phrase_docs(&ids)
                    .into_iter()
                    .map(|(d, postings)| {
                        let s = ids
                            .iter()
                            .zip(&postings)
                            .map(|(&id, p)| self.bm25f(id, p))
                            .sum();
                        (d, s, MatchClass::Exact)
                    })
                    .collect()
            }
        }
    }

    /// Documents where the stems occur consecutively, with their postings.
    fn phrase_docs(&self, ids: &[u32]) -> Vec<(u32, Vec<Posting>)> {
        let lists: Vec<Vec<Posting>> = ids
            .iter()
            .map(|&i| self.index().postings(i, true))
            .collect();
        let mut out = Vec::new();
        'doc: for first in &lists[0] {
            let mut ps = vec![first];
            for list in &lists[1..] {
                match list.binary_search_by_key(&first.doc, |p| p.doc) {
                    Ok(i) => ps.push(&list[i]),
                    Err(_) => continue 'doc,
                }
            }
            let found = first.positions.iter().any(|&start| {
                ps.iter()
                    .enumerate()
                    .skip(1)
                    .all(|(k, p)| p.positions.binary_search(&(start + k as u32)).is_ok())
            });
            if found {
                out.push((first.doc, ps.into_iter().cloned().collect()));
            }
        }
        out
    }

    /// Documents matching a clause exactly (no prefix or typo expansion):
    /// what `-word` removes.
    fn clause_docs_exact(&self, clause: &Clause) -> Vec<u32> {
        match clause {
            Clause::Term(t) => self
                .exact_ids(t)
                .flat_map(|i| self.index().postings(i, false).into_iter().map(|p| p.doc))
                .collect(),
            Clause::Phrase(words) => match self.phrase_ids(words) {
                Some(ids) => self.phrase_docs(&ids).into_iter().map(|(d, _)| d).collect(),
                None => Vec::new(),
            },
        }
    }

    /// Byte ranges to highlight in a document's title, abstract text and
    /// author list: the words the query matched, found by the same word
    /// splitter and folding the index was built with. Only the documents on
    /// screen are looked at; the index keeps no per-document token lists.
    pub fn highlights(&self, doc: u32, matched: &Matched) -> Highlights {
        if matched.is_empty() {
            return Highlights::default();
        }
        self.doc_words(doc).highlights(matched)
    }

    /// A document's words with their stem ids, for highlighting it query
    /// after query: a card on screen keeps them, so that a keystroke costs
    /// it a lookup per word instead of splitting and stemming its text again.
    pub fn doc_words(&self, doc: u32) -> DocWords {
        match self.corpus.papers.get(doc as usize) {
            Some(paper) if self.has_index() => DocWords {
                fields: crate::index::fields(paper).map(|(_, s, _)| self.index().spans(&s)),
            },
            _ => DocWords::default(),
        }
    }
}

impl Matched {
    /// True when the query matched no word (nothing to highlight).
    pub fn is_empty(&self) -> bool {
        self.stems.is_empty() && self.phrases.is_empty()
    }
}

/// A document's title, abstract and author words as (stem id, byte range);
/// see [`Engine::doc_words`].
#[derive(Debug, Clone, Default, PartialEq)]
pub struct DocWords {
    fields: [Vec<(u32, Range<usize>)>; crate::index::N_FIELDS],
}

impl DocWords {
    pub fn highlights(&self, matched: &Matched) -> Highlights {
        let [title, text, authors] = &self.fields;
        Highlights {
            title: ranges(title, matched),
            text: ranges(text, matched),
            authors: ranges(authors, matched),
        }
    }
}

fn ranges(toks: &[(u32, Range<usize>)], matched: &Matched) -> Vec<Range<usize>> {
    let mut out: Vec<Range<usize>> = Vec::new();
    for (id, r) in toks {
        if matched.stems.binary_search(id).is_ok() {
            out.push(r.clone());
        }
    }
    for phrase in &matched.phrases {
        let n = phrase.len();
        for w in 0..toks.len().saturating_sub(n - 1) {
            if phrase.iter().enumerate().all(|(k, &s)| toks[w + k].0 == s) {
                out.push(toks[w].1.start..toks[w + n - 1].1.end);
            }
        }
    }
    merge(out)
}

/// Highlight ranges (byte offsets, on character boundaries, sorted, disjoint).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Highlights {
    pub title: Vec<Range<usize>>,
    pub text: Vec<Range<usize>>,
    /// In the authors joined by “, ”.
    pub authors: Vec<Range<usize>>,
}

fn merge(mut ranges: Vec<Range<usize>>) -> Vec<Range<usize>> {
    ranges.sort_by_key(|r| (r.start, r.end));
    let mut out: Vec<Range<usize>> = Vec::with_capacity(ranges.len());
    for r in ranges {
        match out.last_mut() {
            Some(last) if r.start <= last.end => last.end = last.end.max(r.end),
            _ => out.push(r),
        }
    }
    out
}

/// Splits `range` of a text into pieces that are inside or outside the
/// (sorted, disjoint) highlight ranges: how a run of styled text is rendered
/// with `<mark>`s without breaking the run.
pub fn split_by_marks(range: Range<usize>, marks: &[Range<usize>]) -> Vec<(Range<usize>, bool)> {
    let mut out = Vec::new();
    let mut pos = range.start;
    for m in marks {
        if m.end <= pos || m.start >= range.end {
            continue;
        }
        let (s, e) = (m.start.max(pos), m.end.min(range.end));
        if s > pos {
            out.push((pos..s, false));
        }
        out.push((s..e, true));
        pos = e;
    }
    if pos < range.end {
        out.push((pos..range.end, false));
    }
    out
}

/// Whether any highlight touches `range` (a formula is marked whole).
pub fn overlaps(range: &Range<usize>, marks: &[Range<usize>]) -> bool {
    marks
        .iter()
        .any(|m| m.start < range.end && m.end > range.start)
}

#[cfg(test)]
#[allow(clippy::single_range_in_vec_init)] // one highlight range is a real case
mod tests {
    use super::*;

    #[test]
    fn splits_runs_at_marks() {
        assert_eq!(split_by_marks(0..10, &[]), vec![(0..10, false)]);
        assert_eq!(
            split_by_marks(2..10, &[0..3, 5..6, 9..20]),
            vec![
                (2..3, true),
                (3..5, false),
                (5..6, true),
                (6..9, false),
                (9..10, true)
            ]
        );
        assert_eq!(split_by_marks(4..6, &[0..3, 7..9]), vec![(4..6, false)]);
        assert!(overlaps(&(4..6), &[5..9]));
        assert!(!overlaps(&(4..6), &[6..9]));
    }
}
