//! The engine on a synthetic corpus of conference size, checked against a
//! brute-force scan of the same papers: what the compressed index, the
//! sparse facet counts and the highlights return must be exactly what reading
//! every paper would give.

use std::collections::BTreeSet;
use std::path::PathBuf;
use std::sync::OnceLock;

use explorer_core::model::tokenize;
use explorer_core::search::fields;
use explorer_core::{Engine, FacetKind, Sort};

const PAPERS: usize = 2_000;

fn engine() -> &'static Engine {
    static E: OnceLock<Engine> = OnceLock::new();
    E.get_or_init(new_engine)
}

/// An engine over the synthetic corpus, as the page opens it.
fn new_engine() -> Engine {
    let seeds = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../corpus");
    let corpus = explorer_core::build::synth::corpus(&seeds, PAPERS, 7).unwrap();
    Engine::from_bytes(&corpus.to_bytes()).unwrap()
}

/// Every paper's stems per field, by reading it.
fn stems() -> &'static [Vec<Vec<String>>] {
    static S: OnceLock<Vec<Vec<Vec<String>>>> = OnceLock::new();
    S.get_or_init(|| {
        engine()
            .corpus
            .papers
            .iter()
            .map(|p| {
                fields(&p.title, &p.text, &p.authors)
                    .iter()
                    .map(|(_, text, _)| tokenize(text).into_iter().map(|t| t.stem).collect())
                    .collect()
            })
            .collect()
    })
}

fn scan(pred: impl Fn(&[Vec<String>]) -> bool) -> BTreeSet<u32> {
    (0..engine().len())
        .filter(|&d| pred(&stems()[d]))
        .map(|d| d as u32)
        .collect()
}

fn found(q: &str) -> BTreeSet<u32> {
    let e = engine();
    let none = e.no_selection();
    e.search(q, &none, Sort::Relevance)
        .hits
        .iter()
        .map(|h| h.doc)
        .collect()
}

#[test]
fn every_paper_is_compiled_and_searchable() {
    assert_eq!(engine().len(), PAPERS);
    assert_eq!(found("").len(), PAPERS);
}

#[test]
fn words_and_phrases_find_exactly_the_papers_that_contain_them() {
    // Common, mid-frequency and rare words of the corpus, typed whole (a
    // trailing space: no prefix expansion) and long enough to be exact.
    for word in [
        "model ",
        "reasoning ",
        "diffusion ",
        "benchmark ",
        "unlearning ",
        "gradient ",
    ] {
        let stem = tokenize(word)[0].stem.clone();
        let want = scan(|f| f.iter().any(|s| s.contains(&stem)));
        // Typo tolerance may add papers (ranked last), never lose any.
        let have = found(word);
        assert!(
            want.is_subset(&have),
            "{word}: missing {:?}",
            want.difference(&have).collect::<Vec<_>>()
        );
        let exact: BTreeSet<u32> = {
            let e = engine();
            let none = e.no_selection();
            e.search(word, &none, Sort::Relevance)
                .hits
                .iter()
                .filter(|h| h.tier == explorer_core::MatchClass::Exact)
                .map(|h| h.doc)
                .collect()
        };
        assert_eq!(exact, want, "{word}");
        assert!(!want.is_empty(), "{word} occurs in the synthetic corpus");
    }
    for phrase in [
        "\"language models\"",
        "\"reinforcement learning\"",
        "\"in this paper\"",
    ] {
        let words: Vec<String> = tokenize(phrase).into_iter().map(|t| t.stem).collect();
        let want = scan(|f| {
            f.iter()
                .any(|s| s.windows(words.len()).any(|w| w == words.as_slice()))
        });
        assert_eq!(found(phrase), want, "{phrase}");
        assert!(!want.is_empty(), "{phrase}");
    }
    // AND and exclusion compose as sets.
    let a = found("model ");
    let b = found("reasoning ");
    let both = found("model reasoning ");
    // AND is the intersection, exactly: no paper with only one of the
    // words, none with both left out.
    assert_eq!(both, a.intersection(&b).copied().collect::<BTreeSet<u32>>());
    assert!(!both.is_empty() && both.len() < a.len().min(b.len()));
    let exact_b = scan(|f| f.iter().any(|s| s.contains(&"reason".to_string())));
    let without = found("model -reasoning ");
    assert!(without.is_disjoint(&exact_b));
}

#[test]
fn facet_counts_match_a_scan_under_any_selection() {
    let e = engine();
    let c = &e.corpus;
    let area = c.facet_index(FacetKind::Area).unwrap();
    let venue = c.facet_index(FacetKind::Venue).unwrap();
    let author = c.facet_index(FacetKind::Author).unwrap();
    let has = |doc: u32, f: usize, v: u32| {
        c.papers[doc as usize]
            .tags
            .iter()
            .any(|t| t.facet as usize == f && t.value == v)
    };
    let mut sel = vec![Vec::new(); c.facets.len()];
    sel[area] = vec![0, 2];
    sel[venue] = vec![0];
    let r = e.search("learning ", &sel, Sort::Relevance);
    let base = found("learning ");
    let in_sel = |d: u32, skip: usize| {
        sel.iter()
            .enumerate()
            .all(|(f, vs)| f == skip || vs.is_empty() || vs.iter().any(|&v| has(d, f, v)))
    };
    let results: BTreeSet<u32> = r.hits.iter().map(|h| h.doc).collect();
    let want: BTreeSet<u32> = base
        .iter()
        .copied()
        .filter(|&d| in_sel(d, usize::MAX))
        .collect();
    assert_eq!(results, want);
    assert!(!want.is_empty());
    // Disjunctive: each facet's counts lift its own selection only.
    for f in [area, venue, author] {
        for v in 0..c.facets[f].values.len().min(50) as u32 {
            let n = base
                .iter()
                .filter(|&&d| in_sel(d, f) && has(d, f, v))
                .count() as u32;
            assert_eq!(
                r.counts[f][v as usize],
                n,
                "{} = {}",
                c.facets[f].kind.key(),
                c.facets[f].values[v as usize]
            );
        }
    }
}

#[test]
fn facet_counts_match_a_scan_when_a_query_finds_most_papers() {
    // The first letters typed find most papers; with nothing selected the
    // engine then counts the papers it did not find and subtracts: the
    // counts must be the scan's all the same, for every value of every
    // facet.
    let e = engine();
    let c = &e.corpus;
    let none = e.no_selection();
    // Every seventh paper starred, counted (not ticked) like a facet.
    let starred: Vec<u32> = (0..e.len() as u32).step_by(7).collect();
    let extras = explorer_core::Extras {
        starred: explorer_core::Extra {
            docs: &starred,
            active: false,
        },
        ..Default::default()
    };
    let mut broad = 0;
    for q in ["", "a", "learning -reasoning", "the", "model"] {
        let r = e.search_with(q, &none, extras, Sort::Relevance);
        let base: BTreeSet<u32> = r.hits.iter().map(|h| h.doc).collect();
        let starred_found = starred.iter().filter(|d| base.contains(d)).count();
        assert_eq!(r.extra_counts.starred as usize, starred_found, "{q:?}");
        if base.len() * 2 > e.len() && base.len() < e.len() {
            broad += 1;
        }
        for (f, facet) in c.facets.iter().enumerate() {
            let mut want = vec![0u32; facet.values.len()];
            for &d in &base {
                for t in &c.papers[d as usize].tags {
                    if t.facet as usize == f {
                        want[t.value as usize] += 1;
                    }
                }
            }
            assert_eq!(r.counts[f], want, "{q:?}: {}", facet.kind.key());
        }
    }
    assert!(
        broad >= 2,
        "queries finding most papers but not all: {broad}"
    );
}

#[test]
fn facet_counts_match_a_scan_keystroke_after_keystroke() {
    // Typing changes the results a little at a time, and the engine counts
    // a keystroke's facets from the last keystroke's counts and the papers
    // gained and lost: after every keystroke, under a selection and
    // without, every count must be the scan's.
    let e = engine();
    let c = &e.corpus;
    let mut selected = vec![Vec::new(); c.facets.len()];
    selected[c.facet_index(FacetKind::Area).unwrap()] = vec![0, 1];
    selected[c.facet_index(FacetKind::Venue).unwrap()] = vec![1];
    let typed = "learning reasoning models";
    let checked =
        crate::common::facet_counts_match_a_scan_while_typing(&new_engine(), e, typed, &selected);
    assert_eq!(checked, 4 * typed.len());
}

#[test]
fn highlights_mark_only_matched_words_inside_the_text() {
    let e = engine();
    let none = e.no_selection();
    let r = e.search("reasoning \"language models\"", &none, Sort::Relevance);
    assert!(!r.hits.is_empty());
    for h in r.hits.iter().take(50) {
        let p = &e.corpus.papers[h.doc as usize];
        let hl = e.highlights(h.doc, &r.matched);
        assert!(!hl.text.is_empty() || !hl.title.is_empty());
        for m in &hl.text {
            assert!(p.text.is_char_boundary(m.start) && p.text.is_char_boundary(m.end));
            let marked = &p.text[m.clone()];
            let stems: Vec<String> = tokenize(marked).into_iter().map(|t| t.stem).collect();
            assert!(
                stems.iter().all(|s| s == "reason")
                    || stems.windows(2).any(|w| w == ["languag", "model"]),
                "{marked:?} in {}",
                p.id
            );
        }
    }
}
