//! The index in packs, as the page opens it: the index's head first, then
//! only the packs of postings a query reads. A page that fetches the packs
//! each answer names, and asks again, answers exactly as the whole index
//! does (hits, scores, order, facet counts, highlights), in one round of
//! fetching, and a title typed into a real list fetches a small part of
//! the postings.

use explorer_core::build::title_queries::{sample, without_name};
use explorer_core::search::{IndexData, PACK_BYTES};
use explorer_core::{Corpus, Engine, Response, Selection, Sort};

use crate::common::{acl_abstracts, acl_abstracts_engine, seed_corpus, seed_engine};

/// An engine over `corpus` as the page has it: the papers, then the head
/// of the index in packs of `pack_bytes` (decoded from its bytes), without
/// a pack; and the packs' bytes, to add when an answer asks.
fn opened_in_packs(corpus: &Corpus, pack_bytes: usize) -> (Engine, Vec<Vec<u8>>) {
    let packed = corpus.index.in_packs(pack_bytes);
    let engine = Engine::without_index(corpus.clone());
    let head = IndexData::from_bytes(&packed.head.to_frame()).expect("the head decodes");
    engine
        .open_index(head)
        .expect("the head is this corpus's index");
    (engine, packed.packs)
}

/// What the page does: search; while the answer names missing packs,
/// add them and search again. The answer, and how many rounds of
/// fetching it took.
fn search_fetching(
    e: &Engine,
    packs: &[Vec<u8>],
    q: &str,
    selection: &Selection,
) -> (Response, usize) {
    let mut rounds = 0;
    loop {
        let r = e.search(q, selection, Sort::Relevance);
        if r.missing_packs.is_empty() {
            return (r, rounds);
        }
        assert!(r.waiting_for_index && r.hits.is_empty(), "{q}");
        rounds += 1;
        assert!(rounds < 5, "{q}: packs asked for again and again");
        for &k in &r.missing_packs {
            e.add_pack(k, packs[k as usize].clone().into())
                .expect("the build's own pack");
        }
    }
}

/// Each query's answer through the packs is the whole index's, after at
/// most one round of fetching.
fn assert_same_answers(whole: &Engine, corpus: &Corpus, pack_bytes: usize, queries: &[String]) {
    let (packed, packs) = opened_in_packs(corpus, pack_bytes);
    assert!(packs.len() > 4, "{} packs", packs.len());
    let none = whole.no_selection();
    for q in queries {
        let (answer, rounds) = search_fetching(&packed, &packs, q, &none);
        assert!(rounds <= 1, "{q}: {rounds} rounds");
        let expected = whole.search(q, &none, Sort::Relevance);
        assert!(
            answer == expected,
            "{q}: {} hits through the packs, {} whole",
            answer.hits.len(),
            expected.hits.len()
        );
    }
}

/// A title as it is typed, one keystroke at a time: every prefix of it.
fn typed(title: &str) -> Vec<String> {
    title
        .char_indices()
        .map(|(i, c)| title[..i + c.len_utf8()].to_string())
        .collect()
}

#[test]
fn real_titles_typed_key_by_key_answer_as_the_whole_index_does() {
    let (corpus, kept) = acl_abstracts();
    let whole = acl_abstracts_engine();
    let titles = sample(kept, 40);
    let mut queries: Vec<String> = titles.iter().flat_map(|q| typed(&q.query)).collect();
    // Forms the page reads apart: phrases, exclusions, a typo, filters.
    for q in &titles[..10] {
        let words: Vec<&str> = q.query.split_whitespace().collect();
        queries.push(format!("\"{}\"", words[..words.len().min(2)].join(" ")));
        queries.push(format!("{} -{}", words[0], words[words.len() - 1]));
        queries.push(without_name(&q.query).to_string());
    }
    queries.extend(
        [
            "transfromer",
            "\"machine translation\" -neural",
            "year:2023 dialogue",
        ]
        .map(String::from),
    );
    assert_same_answers(whole, corpus, PACK_BYTES, &queries);
}

#[test]
fn the_seeds_in_small_packs_answer_as_the_whole_index_does() {
    let queries: Vec<String> = typed("diffusion language models for reasoning")
        .into_iter()
        .chain(["\"reinforcement learning\" -robot", "graph transfomer"].map(String::from))
        .collect();
    assert_same_answers(seed_engine(), seed_corpus(), 2048, &queries);
}

#[test]
fn a_typed_title_fetches_a_small_part_of_the_postings() {
    let (corpus, kept) = acl_abstracts();
    let (packed, packs) = opened_in_packs(corpus, PACK_BYTES);
    let total: usize = packs.iter().map(Vec::len).sum();
    let none = packed.no_selection();
    // Each query cold: the engine never gets a pack, so every answer names
    // all the packs its query reads.
    let mut shares: Vec<f64> = sample(kept, 100)
        .iter()
        .map(|q| {
            let r = packed.search(&q.query, &none, Sort::Relevance);
            assert!(r.waiting_for_index, "{}", q.query);
            let bytes: usize = r
                .missing_packs
                .iter()
                .map(|&k| packs[k as usize].len())
                .sum();
            bytes as f64 / total as f64
        })
        .collect();
    shares.sort_by(f64::total_cmp);
    let median = shares[shares.len() / 2];
    // A sixth of the postings for a title of eight words (each word's
    // near spellings lie in packs of their own), where the whole index
    // would be all of them.
    assert!(median < 0.25, "median share of the postings: {median:.3}");
}

#[test]
fn a_pack_that_is_not_the_index_s_is_refused_and_the_answer_still_waits() {
    let (packed, packs) = opened_in_packs(seed_corpus(), 2048);
    let none = packed.no_selection();
    let r = packed.search("diffusion", &none, Sort::Relevance);
    let k = r.missing_packs[0];
    let mut damaged = packs[k as usize].clone();
    damaged[0] ^= 1;
    assert!(packed.add_pack(k, damaged.into()).is_err());
    let other = (k + 1) % packs.len() as u32;
    assert!(packed
        .add_pack(k, packs[other as usize].clone().into())
        .is_err());
    let again = packed.search("diffusion", &none, Sort::Relevance);
    assert!(again.waiting_for_index && again.missing_packs.contains(&k));
    packed
        .add_pack(k, packs[k as usize].clone().into())
        .unwrap();
    assert!(!packed
        .search("diffusion", &none, Sort::Relevance)
        .hits
        .is_empty());
}
