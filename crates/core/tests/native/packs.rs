//! The index in packs, as the page opens it: the index's head first, its
//! word list's packs fetched ahead, then only the packs of postings a
//! query reads. A page that fetches the packs each answer names, and asks
//! again, answers exactly as the whole index does (hits, scores, order,
//! facet counts, highlights), in one round of fetching (two when typed
//! before the word list is in), and a title typed into a real list
//! fetches a small part of the postings.

use explorer_core::build::title_queries::{sample, without_name};
use explorer_core::search::{IndexData, PACK_BYTES, WORD_PACK_BYTES};
use explorer_core::{Corpus, Engine, Response, Selection, Sort};

use crate::common::{acl_abstracts, acl_abstracts_engine, seed_corpus, seed_engine};

/// An engine over `corpus` as the page has it once its word list came
/// ahead: the papers, then the head of the index in packs of
/// `pack_bytes` (decoded from its bytes) and the word list's packs,
/// without a pack of postings; and the packs' bytes, to add when an
/// answer asks.
fn opened_in_packs(corpus: &Corpus, pack_bytes: usize) -> (Engine, Vec<Vec<u8>>) {
    let (engine, packs) = opened_cold(corpus, pack_bytes, WORD_PACK_BYTES);
    for k in 0..packs.len() as u32 {
        if engine.is_words_pack(k) {
            engine
                .add_pack(k, packs[k as usize].clone().into())
                .unwrap();
        }
    }
    assert!(engine.words_all_in());
    (engine, packs)
}

/// [`opened_in_packs`] before any pack came, the word list's neither (in
/// packs of about `word_pack_bytes`): a query typed as the page starts.
fn opened_cold(
    corpus: &Corpus,
    pack_bytes: usize,
    word_pack_bytes: usize,
) -> (Engine, Vec<Vec<u8>>) {
    let packed = corpus.index.in_packs_with(pack_bytes, word_pack_bytes);
    assert!(packed.head.surface.is_empty() && packed.head.word_packs.len() > 1);
    let engine = Engine::without_index(corpus.clone());
    let head = IndexData::from_bytes(&packed.head.to_frame()).expect("the head decodes");
    engine
        .open_index(head)
        .expect("the head is this corpus's index");
    assert!(!engine.words_all_in());
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

/// Each query typed on a page of its own before the word list is in:
/// the answer is the whole index's after at most four rounds (its words,
/// their postings; for a word in fewer than three papers, its near
/// spellings' words and their postings), and so are its first cards'
/// highlights, read with only the word packs the query fetched (in packs
/// of about `word_pack_bytes`: small ones cut the list in many places).
/// Returns each query's share of the word list's bytes fetched, and its
/// rounds.
fn assert_same_answers_cold(
    whole: &Engine,
    corpus: &Corpus,
    word_pack_bytes: usize,
    queries: &[String],
) -> Vec<(f64, usize)> {
    let none = whole.no_selection();
    let mut shares = Vec::new();
    for q in queries {
        let (packed, packs) = opened_cold(corpus, PACK_BYTES, word_pack_bytes);
        let (answer, rounds) = search_fetching(&packed, &packs, q, &none);
        assert!(rounds <= 4, "{q}: {rounds} rounds");
        let expected = whole.search(q, &none, Sort::Relevance);
        assert!(answer == expected, "{q}: not the whole index's answer");
        for hit in expected.hits.any_order().iter().take(10) {
            let marks = |e: &Engine, r: &Response| e.doc_words(hit.doc).highlights(&r.matched);
            assert_eq!(
                marks(&packed, &answer),
                marks(whole, &expected),
                "{q}: paper {}",
                hit.doc
            );
        }
        let words = |k: u32| packed.is_words_pack(k);
        let size = |k: u32| packs[k as usize].len();
        let all: usize = (0..packs.len() as u32)
            .filter(|&k| words(k))
            .map(size)
            .sum();
        let fetched = (0..packs.len() as u32).filter(|&k| words(k) && packed.has_pack(k));
        shares.push((fetched.map(size).sum::<usize>() as f64 / all as f64, rounds));
    }
    shares
}

/// The median share of the word list the queries fetched
/// ([`assert_same_answers_cold`]'s answers).
fn median_share(found: &[(f64, usize)]) -> f64 {
    let mut shares: Vec<f64> = found.iter().map(|f| f.0).collect();
    shares.sort_by(f64::total_cmp);
    shares[shares.len() / 2]
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
fn real_titles_typed_before_the_word_list_is_in_answer_and_highlight_as_the_whole_index() {
    let (corpus, kept) = acl_abstracts();
    let whole = acl_abstracts_engine();
    let mut queries: Vec<String> = sample(kept, 30).into_iter().map(|q| q.query).collect();
    // A typo, a phrase, a prefix being typed, a plural acronym.
    queries.extend(
        [
            "transfromer",
            "\"machine translation\"",
            "neural mach",
            "LLMs",
        ]
        .map(String::from),
    );
    // Cut in hundreds of places, the list still highlights as the whole.
    // A word the list knows well reads the packs of its own range, not
    // its first letter's (for near spellings): then a title reads a tenth
    // of the list (read so, 0.37), and most titles are answered after
    // two rounds (their words, their postings) where a word in fewer than
    // three papers takes two more for its near spellings.
    let found = assert_same_answers_cold(whole, corpus, 512, &queries);
    let median = median_share(&found);
    assert!(median < 0.15, "median share of the word list: {median:.3}");
    let two_rounds = found.iter().filter(|f| f.1 <= 2).count();
    assert!(
        two_rounds * 5 >= found.len() * 4,
        "{two_rounds} of {} in two rounds",
        found.len()
    );
    let found = assert_same_answers_cold(whole, corpus, WORD_PACK_BYTES, &queries);
    let median = median_share(&found);
    assert!(median < 0.8, "median share of the word list: {median:.3}");
    let two: Vec<String> = (queries.iter())
        .map(|q| q.split_whitespace().take(2).collect::<Vec<_>>().join(" "))
        .collect();
    let found = assert_same_answers_cold(whole, corpus, WORD_PACK_BYTES, &two);
    let median = median_share(&found);
    assert!(
        median < 0.3,
        "median share of the word list, two words: {median:.3}"
    );
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

/// The real list's index built with lists for its short prefixes (a bar
/// low enough that most two- and three-letter prefixes get one), and
/// without any.
fn with_and_without_prefix_lists() -> (Corpus, Corpus) {
    let (corpus, _) = acl_abstracts();
    let with = IndexData::build_with(&corpus.papers, 2_000);
    let without = IndexData::build_with(&corpus.papers, usize::MAX);
    assert!(without.prefixes.is_empty());
    assert!(
        with.prefixes.len() >= 50,
        "{} prefix lists",
        with.prefixes.len()
    );
    let corpus_with = |index| Corpus {
        index,
        ..corpus.clone()
    };
    (corpus_with(with), corpus_with(without))
}

/// Every prefix with a list, alone and as the word being typed after
/// others, in a phrase, beside an exclusion and a filter.
fn prefix_queries(prefixes: &[String]) -> Vec<String> {
    let mut queries = prefixes.to_vec();
    for p in prefixes.iter().step_by(5) {
        queries.extend([
            format!("language {p}"),
            format!("\"machine {p}"),
            format!("-neural {p}"),
            format!("year:2023 {p}"),
        ]);
    }
    queries
}

#[test]
fn short_prefixes_read_from_their_lists_answer_as_their_words_postings_do() {
    let (with, without) = with_and_without_prefix_lists();
    let queries = prefix_queries(&with.index.prefixes);
    let (listed, plain) = (Engine::new(with), Engine::new(without));
    let none = plain.no_selection();
    for q in &queries {
        let (a, b) = (
            listed.search(q, &none, Sort::Relevance),
            plain.search(q, &none, Sort::Relevance),
        );
        assert!(!b.hits.is_empty() || q.contains(' '), "{q}: nothing found");
        // Same papers, scores (as floats, equal), order, counts, highlights.
        assert!(
            a == b,
            "{q}: {} hits from the lists, {} from the words",
            a.hits.len(),
            b.hits.len()
        );
    }
}

#[test]
fn a_short_prefix_typed_cold_fetches_its_list_not_its_words_postings() {
    let (with, without) = with_and_without_prefix_lists();
    // Through packs, the answers are the whole index's.
    let whole = Engine::new(with.clone());
    assert_same_answers(
        &whole,
        &with,
        PACK_BYTES,
        &prefix_queries(&with.index.prefixes),
    );
    // And typing the prefix whose words are most fetches a few packs.
    let (listed, listed_packs) = opened_in_packs(&with, PACK_BYTES);
    let (plain, plain_packs) = opened_in_packs(&without, PACK_BYTES);
    let cold = |e: &Engine, packs: &[Vec<u8>], q: &str| -> usize {
        let r = e.search(q, &e.no_selection(), Sort::Relevance);
        r.missing_packs
            .iter()
            .map(|&k| packs[k as usize].len())
            .sum()
    };
    let widest = with
        .index
        .prefixes
        .iter()
        .filter(|p| p.chars().count() == 2)
        .max_by_key(|p| cold(&plain, &plain_packs, p))
        .expect("two-letter prefixes");
    let (list, words) = (
        cold(&listed, &listed_packs, widest),
        cold(&plain, &plain_packs, widest),
    );
    // The words' postings carry no positions (those come apart), so the
    // list's byte of score a paper makes it less than half, not a tenth.
    assert!(
        list * 2 < words,
        "{widest:?}: {list} bytes with its list, {words} reading its words"
    );
}

/// No facet value selected in `corpus`.
fn page_none(corpus: &Corpus) -> Selection {
    vec![Vec::new(); corpus.facets.len()]
}

/// A long list's tags come in a file of their own, after the first answer:
/// the page (papers part decoded from its bytes, bodies in packs) answers
/// a query with the whole list's hits before they are in, says its counts
/// are pending, and makes a filter wait; once they are in, every answer
/// (hits, scores, counts, highlights) is the whole list's.
#[test]
fn with_its_tags_apart_the_real_list_answers_and_then_counts_as_the_whole() {
    use explorer_core::FacetKind;
    let corpus = crate::common::acl_records_corpus();
    let whole = Engine::new(corpus.clone());
    let (apart, tag_file) = corpus.tags_apart();
    let (head, _) =
        apart.in_body_packs(explorer_core::model::body_pack_papers(corpus.papers.len()));
    let mut page = Corpus::from_papers_part(&head.to_parts().papers).expect("the part decodes");
    assert!(page
        .papers
        .iter()
        .all(|p| p.tags.is_empty() && p.authors.is_empty()));
    // While the index is on its way, a query is not answered, and wants
    // no tags yet: they would share the link with it.
    let cold = Engine::without_index(page.clone()).search(
        "translation",
        &page_none(&page),
        Sort::Relevance,
    );
    assert!(cold.waiting_for_index && !cold.counts_pending && !cold.waiting_for_tags);
    page.index = corpus.index.clone();
    let e = Engine::new(page);
    assert!(!e.has_tags());
    let none = e.no_selection();
    let queries = [
        "machine translation",
        "low-resource",
        "dialogue state tracking",
        "bert",
    ];
    answers_before_its_tags(&e, &whole, &queries);
    // A filter waits for them: a selected venue, a `key:value` in the query.
    let venue = corpus.facet_index(FacetKind::Venue).expect("venues");
    let mut by_venue = none.clone();
    by_venue[venue] = vec![0];
    let waiting = e.search("translation", &by_venue, Sort::Relevance);
    assert!(waiting.waiting_for_tags && waiting.hits.is_empty());
    let typed = format!("translation venue:\"{}\"", corpus.facets[venue].values[0]);
    assert!(e.search(&typed, &none, Sort::Relevance).waiting_for_tags);
    // Another build's file, or a damaged one, is refused; nothing changes.
    let mut damaged = tag_file.clone();
    damaged[40] ^= 1;
    assert!(e.add_tag_part(&damaged).is_err());
    assert!(!e.has_tags());
    e.add_tag_part(&tag_file).expect("the build's own file");
    assert!(e.has_tags());
    counts_as_the_whole(&e, &whole, &queries, &typed, by_venue);
}

/// Before its tags, a list split as the page gets it answers as the whole
/// list does (`whole`), its counts pending; the reader's own filters need
/// no tags but narrow what is counted.
fn answers_before_its_tags(e: &Engine, whole: &Engine, queries: &[&str]) {
    let none = e.no_selection();
    let corpus = &whole.corpus;
    // The whole list, before the tags: its counts are its totals.
    let first = e.search("", &none, Sort::Relevance);
    assert_eq!(first, whole.search("", &none, Sort::Relevance));
    for f in 0..corpus.facets.len() {
        assert_eq!(e.facet_totals(f), whole.facet_totals(f), "facet {f}");
    }
    // A query: the whole list's hits, its counts pending.
    for &q in queries {
        let before = e.search(q, &none, Sort::Relevance);
        let want = whole.search(q, &none, Sort::Relevance);
        assert!(before.counts_pending && !before.hits.is_empty(), "{q}");
        assert_eq!(before.hits, want.hits, "{q}");
        assert_eq!(before.matched, want.matched, "{q}");
    }
    // The reader's own filters need no tags, but narrow what is counted.
    let starred = explorer_core::Extras {
        starred: explorer_core::Extra {
            docs: &[1, 2, 3],
            active: true,
        },
        ..Default::default()
    };
    let mine = e.search_with("", &none, starred, Sort::Relevance);
    assert_eq!(mine.docs(), [1, 2, 3]);
    assert!(mine.counts_pending);
}

/// Once its tags are in, every answer (hits, scores, counts, highlights)
/// under filters by venue and author is the whole list's.
fn counts_as_the_whole(
    e: &Engine,
    whole: &Engine,
    queries: &[&str],
    typed: &str,
    by_venue: explorer_core::Selection,
) {
    use explorer_core::FacetKind;
    let none = e.no_selection();
    let corpus = &whole.corpus;
    let author = corpus.facet_index(FacetKind::Author).expect("authors");
    let mut by_author = none.clone();
    by_author[author] = vec![0, 1];
    let mut selections = vec![none.clone(), by_venue.clone(), by_author];
    let mut both = by_venue;
    both[author] = vec![0];
    selections.push(both);
    for sel in &selections {
        for q in queries
            .iter()
            .map(|q| q.to_string())
            .chain([typed.to_string(), String::new()])
        {
            let got = e.search(&q, sel, Sort::Relevance);
            assert!(!got.counts_pending && !got.waiting_for_tags, "{q}");
            assert_eq!(
                got,
                whole.search(&q, sel, Sort::Relevance),
                "{q} under {sel:?}"
            );
        }
    }
}
