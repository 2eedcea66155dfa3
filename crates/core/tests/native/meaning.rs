//! Find by meaning: the tokenizer against the model's own reference
//! outputs, and the distilled table on the seed corpus.

use std::path::Path;

use explorer_core::build::{build_meaning as build, StaticModel};
use explorer_core::search::{wordpiece, Meaning};

fn vocab_only() -> Meaning {
    build(&StaticModel::committed(), &[])
}

/// The meaning of no paper with every token of the model's vocabulary,
/// those the page leaves out included.
fn whole_vocab() -> Meaning {
    let mut model = StaticModel::committed();
    model.kept.fill(true);
    build(&model, &[])
}

#[test]
fn the_tokenizer_agrees_with_the_models_reference_outputs() {
    let m = whole_vocab();
    // The page's vocabulary leaves out tokens no English text yields: a
    // text whose reference holds none of them is tokenized the same.
    let model = StaticModel::committed();
    let page = build(&model, &[]);
    let mut english = 0;
    let fixture =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/meaning/wordpiece.jsonl");
    let text = std::fs::read_to_string(fixture).unwrap();
    let mut texts = 0;
    let mut wrong = Vec::new();
    for line in text.lines() {
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        let want: Vec<u32> = v["ids"]
            .as_array()
            .unwrap()
            .iter()
            .map(|i| i.as_u64().unwrap() as u32)
            .collect();
        let got = wordpiece::tokenize(v["text"].as_str().unwrap(), &m);
        if got != want {
            wrong.push(format!("{}\n  ours: {got:?}\n  want: {want:?}", v["text"]));
        }
        if want.iter().all(|&id| model.kept[id as usize]) {
            let got = wordpiece::tokenize(v["text"].as_str().unwrap(), &page);
            if got != want {
                wrong.push(format!("page's vocabulary: {}", v["text"]));
            }
            english += 1;
        }
        texts += 1;
    }
    assert!(texts >= 60, "{texts} texts");
    assert!(english >= 60, "{english} texts in the page's vocabulary");
    assert!(
        wrong.is_empty(),
        "{} of {texts} differ:\n{}",
        wrong.len(),
        wrong.join("\n")
    );
}

#[test]
fn the_meaning_file_round_trips_and_refuses_damage() {
    let m = vocab_only();
    let bytes = m.to_bytes();
    let back = Meaning::from_bytes(&bytes).unwrap();
    assert_eq!(back.to_bytes(), bytes);
    // As the page opens it: the arrays used where they lie.
    let kept: &'static [u8] = Box::leak(bytes.clone().into_boxed_slice());
    assert_eq!(Meaning::from_static(kept).unwrap().to_bytes(), bytes);
    let mut bad = bytes.clone();
    let last = bad.len() - 1;
    bad[last] ^= 1;
    assert!(Meaning::from_bytes(&bad).is_err());
    assert!(Meaning::from_bytes(&bytes[..bytes.len() / 2]).is_err());
    assert!(Meaning::from_bytes(b"PXE\x02").is_err());
}

use crate::common;

pub(crate) fn seed_engine() -> explorer_core::Engine {
    let corpus = explorer_core::build::compile_dir(&common::seed_dir()).unwrap();
    let meaning = build(&StaticModel::committed(), &corpus.papers);
    let e = explorer_core::Engine::new(corpus);
    e.open_meaning(Meaning::from_bytes(&meaning.to_bytes()).unwrap())
        .unwrap();
    e
}

#[test]
fn judged_queries_are_found_by_meaning() {
    use explorer_core::build::meaning_eval::{evaluate, read, RANKINGS};
    let e = seed_engine();
    let text = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/meaning/seed_queries.jsonl"),
    )
    .unwrap();
    let judged = read(&text).unwrap();
    assert!(judged.len() >= 40);
    for kind in [None, Some("lexical"), Some("paraphrase")] {
        let s = evaluate(&e, &judged, kind);
        for (name, s) in RANKINGS.iter().zip(s) {
            eprintln!(
                "{kind:?} {name}: recall@10 {:.3} MRR {:.3} ({} queries)",
                s.recall_at_10, s.mrr, s.queries
            );
        }
    }
    // The target: the page (matches and best matches, then related by
    // meaning) finds 85 % of the expected papers in its first ten.
    let [_, _, page, _] = evaluate(&e, &judged, None);
    assert!(page.recall_at_10 >= 0.85, "{page:?}");
    // On queries in other words than the abstracts', the page finds what
    // meaning alone finds, and more than words (best matches included).
    let [lexical, meaning, page, _] = evaluate(&e, &judged, Some("paraphrase"));
    assert!(
        page.recall_at_10 >= meaning.recall_at_10
            && page.recall_at_10 - lexical.recall_at_10 >= 0.10,
        "{page:?} vs {meaning:?} and {lexical:?}"
    );
}

#[test]
fn a_paraphrase_finds_its_paper_first_with_the_words_that_bring_it() {
    let e = seed_engine();
    // A judged query (seed_queries.jsonl): the paper on shortening
    // Lean proofs. ("teaching models to forget what they saw", which this
    // test asked before the table was trained on research text, now finds
    // papers on forgetting in continual learning before the two on
    // unlearning; the teacher finds unlearning first.)
    let q = "shortening machine-checked mathematical arguments";
    let r = e.related(q, &e.no_selection(), Default::default(), &[], 10);
    let first = &e.corpus.papers[r[0].doc as usize];
    assert_eq!(first.id, "p-4f109a1d60b7", "{}", first.title);
    assert!(!r[0].via.is_empty(), "{r:?}");
    // No shared word brought it: the query's words are not in the paper.
    for w in ["shortening", "checked", "arguments"] {
        assert!(
            !first.text.to_lowercase().contains(&format!(" {w} ")),
            "{w}"
        );
    }
    // Matches already listed are left out, and the selection applies.
    let again = e.related(q, &e.no_selection(), Default::default(), &[r[0].doc], 10);
    assert!(again.iter().all(|x| x.doc != r[0].doc));
    let topic = e
        .corpus
        .facet_index(explorer_core::FacetKind::Topic)
        .unwrap();
    let mut sel = e.no_selection();
    sel[topic] = vec![0];
    let filtered = e.related(q, &sel, Default::default(), &[], 10);
    assert!(filtered.len() < r.len() || filtered != r);
    for x in &filtered {
        let tags = &e.corpus.papers[x.doc as usize].tags;
        assert!(tags
            .iter()
            .any(|t| t.facet as usize == topic && t.value == 0));
    }
}

/// A query that matches nothing: its related papers are a set the
/// filters narrow and count as they do the matches.
#[test]
fn the_filters_narrow_and_count_the_related_papers_as_they_do_matches() {
    use explorer_core::{FacetKind, RELATED_POOL};
    let e = seed_engine();
    // No paper has either word, nor a near spelling.
    let q = "wiping recollections";
    assert!(e
        .search(q, &e.no_selection(), explorer_core::Sort::Relevance)
        .hits
        .is_empty());
    let all = e
        .related_set(
            q,
            &e.no_selection(),
            Default::default(),
            &[],
            usize::MAX,
            true,
        )
        .unwrap();
    assert!(all.total > 10 && all.total <= RELATED_POOL, "{}", all.total);
    assert_eq!(all.papers.len(), all.total);
    // Every count is a recount of the set's papers.
    let has = |doc: u32, f: usize, v: u32| {
        e.corpus.papers[doc as usize]
            .tags
            .iter()
            .any(|t| t.facet as usize == f && t.value == v)
    };
    for (f, counts) in all.counts.iter().enumerate() {
        for (v, &n) in counts.iter().enumerate() {
            let recount = all
                .papers
                .iter()
                .filter(|r| has(r.doc, f, v as u32))
                .count();
            assert_eq!(n as usize, recount, "facet {f} value {v}");
        }
    }
    // A topic ticked: exactly the set's papers with it, in the set's
    // order, as many as its count said; its own facet still counted whole.
    let topic = e.corpus.facet_index(FacetKind::Topic).unwrap();
    let (value, &count) = all.counts[topic]
        .iter()
        .enumerate()
        .filter(|(_, &n)| n > 0 && (n as usize) < all.total)
        .max_by_key(|(_, &n)| n)
        .unwrap();
    let mut sel = e.no_selection();
    sel[topic] = vec![value as u32];
    let ticked = e
        .related_set(q, &sel, Default::default(), &[], usize::MAX, true)
        .unwrap();
    assert_eq!(ticked.total, count as usize);
    let want: Vec<u32> = all
        .papers
        .iter()
        .map(|r| r.doc)
        .filter(|&d| has(d, topic, value as u32))
        .collect();
    let got: Vec<u32> = ticked.papers.iter().map(|r| r.doc).collect();
    assert_eq!(got, want);
    assert_eq!(ticked.counts[topic], all.counts[topic]);
    // The list shows the first ten of the set.
    let ten = e.related(q, &sel, Default::default(), &[], 10);
    assert_eq!(
        ten.iter().map(|r| r.doc).collect::<Vec<_>>(),
        want[..want.len().min(10)]
    );
}

#[test]
fn more_like_my_reading_list_ranks_a_known_neighbour_first() {
    let e = seed_engine();
    // One machine-unlearning paper starred: the other one (how to evaluate
    // unlearning) comes first, and the starred one is left out.
    let rem = e.doc_of("p-b84b86847445").unwrap();
    let other = e
        .corpus
        .papers
        .iter()
        .position(|p| p.id.starts_with("p-6ce605"))
        .unwrap() as u32;
    let r = e.like_these(&[rem], 5);
    let titles: Vec<&str> = r
        .iter()
        .map(|x| e.corpus.papers[x.doc as usize].title.as_str())
        .collect();
    assert_eq!(r[0].doc, other, "{titles:?}");
    assert!(r.iter().all(|x| x.doc != rem));
}

#[test]
#[ignore = "a report, not a test: cargo test --test meaning report -- --ignored --nocapture"]
fn report_each_query() {
    use explorer_core::build::meaning_eval::{rankings, read};
    let e = seed_engine();
    let text = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/meaning/seed_queries.jsonl"),
    )
    .unwrap();
    for j in read(&text).unwrap() {
        let rel: Vec<u32> = j.relevant.iter().filter_map(|id| e.doc_of(id)).collect();
        let [_, meaning, page, _] = rankings(&e, &j.query);
        let rank = |l: &[u32]| l.iter().position(|d| rel.contains(d)).map_or(0, |p| p + 1);
        let top = &e.corpus.papers[meaning[0] as usize].title;
        eprintln!(
            "{:>3} {:>3}  {:<10} {}  [top: {top}]",
            rank(&meaning),
            rank(&page),
            j.kind,
            j.query
        );
    }
}

#[test]
fn a_pasted_paragraph_finds_the_paper_it_describes() {
    let e = seed_engine();
    // In other words than the abstract's: what a reader might paste from a
    // colleague's email about the DARP paper.
    let text = "Copying an expert's behaviour goes wrong once the agent drifts into \
                situations its demonstrations never covered. Our fix stores past \
                situations, fetches the closest ones at run time, and adjusts the \
                action by how the current situation differs from them.";
    let matched = e.search(text, &e.no_selection(), explorer_core::Sort::Relevance);
    let r = e.related(
        text,
        &e.no_selection(),
        Default::default(),
        &matched.docs(),
        10,
    );
    // The page's order: the matches (the best matches, for so long a
    // text), then the related papers.
    let titles: Vec<&str> = matched
        .docs()
        .into_iter()
        .chain(r.iter().map(|x| x.doc))
        .map(|d| e.corpus.papers[d as usize].title.as_str())
        .collect();
    // Among the first ten the page lists.
    assert!(
        titles.iter().take(10).any(|t| t.starts_with("DARP:")),
        "{titles:?}"
    );
}

/// Words' tokens are kept across papers (`PiecesMemo`): a paper's
/// explaining words are the same whichever papers were explained before.
#[test]
fn a_papers_words_do_not_depend_on_the_papers_explained_before() {
    use explorer_core::search::{paper_text, PiecesMemo};
    let e = seed_engine();
    let m = e.meaning().unwrap();
    let q = m.embed_query("forgetting what was learned").unwrap();
    let mut memo = PiecesMemo::default();
    let mut explained = 0;
    // Forwards then backwards: every paper meets a memo the others filled.
    let docs: Vec<usize> = (0..e.len()).chain((0..e.len()).rev()).collect();
    for d in docs {
        let text = paper_text(&e.corpus.papers[d]);
        let kept = m
            .explainer(&q)
            .explain_words(&m.paper_words_with(&text, &mut memo));
        let fresh = m.explainer(&q).explain_words(&m.paper_words(&text));
        assert_eq!(kept, fresh, "paper {d}");
        explained += usize::from(!fresh.is_empty());
    }
    assert!(explained > e.len(), "{explained} explanations");
}

/// A paper's explaining words are its distinct words of three letters or
/// more, in order and folded, each with the tokens WordPiece gives it on its
/// own, whether the memo knew the word from an earlier paper or not.
#[test]
fn a_papers_words_are_its_distinct_words_with_their_own_tokens() {
    use explorer_core::search::{wordpiece, PiecesMemo};
    use wordpiece::Vocab;
    let e = seed_engine();
    let m = e.meaning().unwrap();
    let mut memo = PiecesMemo::default();
    // An earlier paper puts two of the words in the memo.
    m.paper_words_with("Forgetting models", &mut memo);
    let text =
        "Unlearning: forgetting, FORGETTING and re-learning 3D with GPT-4o; unlearning models.";
    let words = m.paper_words_with(text, &mut memo);
    let got: Vec<(&str, &[u32])> = words.words().collect();
    let names: Vec<&str> = got.iter().map(|(w, _)| *w).collect();
    assert_eq!(
        names,
        [
            "unlearning",
            "forgetting",
            "and",
            "learning",
            "with",
            "gpt",
            "models"
        ]
    );
    for (word, ids) in &got {
        let mut alone = Vec::new();
        wordpiece::pieces(word, m, &mut alone);
        alone.retain(|&id| id != m.unknown());
        assert_eq!(*ids, &alone[..], "{word}");
    }
    // Some word is several tokens: the words' bounds in the token list are
    // exercised.
    assert!(got.iter().any(|(_, ids)| ids.len() > 1), "{got:?}");
}

/// Papers whose words were tokenized ahead of use (as the page does while
/// idle) are explained as a fresh engine explains them; without the
/// meaning file, or past the last paper, nothing is prepared.
#[test]
fn papers_prepared_ahead_are_explained_as_fresh_ones_are() {
    let (prepared, fresh) = (seed_engine(), seed_engine());
    // Backwards: each paper is kept where the next would sit if keyed wrongly.
    for d in (0..prepared.len() as u32).rev() {
        assert!(prepared.prepare_explaining(d), "paper {d}");
    }
    assert!(!prepared.prepare_explaining(prepared.len() as u32));
    let related = |e: &explorer_core::Engine, q: &str| {
        e.related(
            q,
            &e.no_selection(),
            explorer_core::Extras::default(),
            &[],
            explorer_core::RELATED,
        )
    };
    for q in [
        "forgetting what was learned",
        "robots that plan their moves",
    ] {
        let have = related(&prepared, q);
        assert!(have.iter().any(|r| !r.via.is_empty()), "{q}: {have:?}");
        assert_eq!(have, related(&fresh, q), "{q}");
    }
    let words_only =
        explorer_core::Engine::new(explorer_core::build::compile_dir(&common::seed_dir()).unwrap());
    assert!(!words_only.prepare_explaining(0));
}

/// Questions in other words than the abstracts' on the real list
/// (`acl_queries.jsonl`, written from reading the abstracts): meaning finds
/// a third of their papers in its first ten, where words find almost
/// none; the questions in the abstracts' words stay found. With the
/// papers embedded from the quantized table, as the page embeds queries,
/// meaning found a quarter (0.274) and the page 0.248; the target, 0.40,
/// is not met (docs/search.md).
#[test]
fn the_real_lists_questions_in_other_words_are_found_by_meaning() {
    use explorer_core::build::meaning_eval::{evaluate, read};
    let corpus = common::acl_records_corpus();
    let built = build(&StaticModel::committed(), &corpus.papers);
    let e = explorer_core::Engine::new(corpus.clone());
    e.open_meaning(Meaning::from_bytes(&built.to_bytes()).unwrap())
        .unwrap();
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/meaning");
    let judged =
        read(&std::fs::read_to_string(fixtures.join("acl_queries.jsonl")).unwrap()).unwrap();
    let [words, meaning, page, _] = evaluate(&e, &judged, Some("paraphrase"));
    assert!(words.queries >= 39, "{words:?}");
    assert!(meaning.recall_at_10 >= 0.33, "meaning alone: {meaning:?}");
    assert!(
        page.recall_at_10 >= 0.30 && page.recall_at_10 >= words.recall_at_10 + 0.25,
        "the page {page:?}, words only {words:?}"
    );
    let [_, _, page, _] = evaluate(&e, &judged, Some("lexical"));
    assert!(
        page.recall_at_10 >= 0.94,
        "in the abstracts' words: {page:?}"
    );
}

/// The papers' vectors are shipped product-quantized (a byte for four
/// dimensions, a quarter of their int8 size): on the real list, with its
/// real titles typed as queries, meaning alone ranks first what the exact
/// vectors rank first, and finds the paper a title belongs to as often.
#[test]
fn the_shipped_paper_vectors_rank_as_the_exact_ones_do() {
    let corpus = common::acl_records_corpus();
    let (m, exact) =
        explorer_core::build::build_meaning_with_exact(&StaticModel::committed(), &corpus.papers);
    let m = Meaning::from_bytes(&m.to_bytes()).unwrap();
    let (mut queries, mut shared, mut found_exact, mut found_shipped) = (0, 0, 0, 0);
    for (doc, q, exact_ten) in titles_as_queries(corpus, &m, &exact) {
        let shipped_ten = first_ten(&m.similarities(&q));
        queries += 1;
        shared += exact_ten.iter().filter(|d| shipped_ten.contains(d)).count();
        found_exact += usize::from(exact_ten.contains(&doc));
        found_shipped += usize::from(shipped_ten.contains(&doc));
    }
    assert!(queries > 900, "{queries} titles");
    let overlap = shared as f64 / (10 * queries) as f64;
    eprintln!(
        "{queries} titles: first ten shared {overlap:.3}; the title's paper in them: \
         exact {found_exact}, shipped {found_shipped}"
    );
    assert!(overlap >= 0.6, "the first ten shared: {overlap:.3}");
    assert!(
        found_shipped as f64 >= 0.95 * found_exact as f64,
        "the title's paper in the first ten: {found_shipped} shipped, {found_exact} exact"
    );
}

/// A long list's paper vectors come in lists of papers near in meaning
/// (here the real list's, which is short enough to ship them whole, cut
/// into lists as a field-size list is): a query asks for the lists
/// nearest it, ranks every paper by its list's centre until they are in,
/// then reads them. With the real titles typed as queries, it reads about
/// half the list's vectors, and the paper a title belongs to is among the
/// ten nearest nine times in ten as often as when every vector is read.
#[test]
fn a_query_reads_the_lists_of_vectors_nearest_it() {
    let corpus = common::acl_records_corpus();
    let model = StaticModel::committed();
    let (built, exact) =
        explorer_core::build::build_meaning_in_lists_from(&model, &corpus.papers, 1);
    let head = built.to_bytes();
    let m = Meaning::from_bytes(&head).unwrap();
    let files = built.list_files();
    assert_eq!(files.len(), m.list_count());
    assert!(files.len() > 10, "{} lists", files.len());
    // What saving for offline use fetches besides the meaning file.
    let named = Meaning::list_files_named(&head).unwrap();
    assert_eq!(named.len(), files.len());
    for ((name, size), file) in named.iter().zip(&files) {
        assert_eq!(*size, file.len());
        assert_eq!(*name, explorer_core::search::vectors_file_name(xxh3(file)));
    }
    // A list's file is checked against the name the meaning file gives it.
    let l = 0;
    let mut damaged = files[l].clone();
    *damaged.last_mut().unwrap() ^= 1;
    assert!(m.add_list(l as u32, damaged.into()).is_err());
    assert!(m.add_list(1, files[l].clone().into()).is_err());
    assert!(!m.has_list(l as u32));

    let (mut queries, mut read, mut found_exact, mut found_lists) = (0, 0, 0, 0);
    for (doc, q, exact_ten) in titles_as_queries(corpus, &m, &exact) {
        // Once every list it wants is in, a query wants none.
        let mut wanted = Vec::new();
        let sims = loop {
            let sims = m.similarities(&q);
            let more = m.take_wanted_lists();
            if more.is_empty() {
                break sims;
            }
            for &l in &more {
                m.add_list(l, files[l as usize].clone().into()).unwrap();
            }
            wanted.extend(more);
        };
        // What it reads: its nearest lists, about PROBE_PAPERS papers.
        let probed = Meaning::from_bytes(&head).unwrap();
        probed.similarities(&q);
        let mut asked = probed.take_wanted_lists();
        asked.sort_unstable();
        let papers: usize = asked
            .iter()
            .map(|&l| (files[l as usize].len() - 4) / 32)
            .sum();
        let probe = explorer_core::search::PROBE_PAPERS;
        assert!(
            (probe..probe + 400).contains(&papers),
            "{papers} papers read"
        );
        read += papers;
        queries += 1;
        found_exact += usize::from(exact_ten.contains(&doc));
        found_lists += usize::from(first_ten(&sims).contains(&doc));
    }
    assert!(queries > 900, "{queries} titles");
    let share = read as f64 / (queries * corpus.papers.len()) as f64;
    eprintln!(
        "{queries} titles, {share:.2} of the vectors read each: the title's paper in the first \
         ten: every vector {found_exact}, the lists read {found_lists}"
    );
    assert!(
        found_lists as f64 >= 0.9 * found_exact as f64,
        "the title's paper in the first ten: {found_lists} with lists, {found_exact} exact"
    );
}

/// The ten papers nearest first in `sims` (of equals, the lower id).
fn first_ten(sims: &[f32]) -> Vec<usize> {
    let mut order: Vec<usize> = (0..sims.len()).collect();
    order.sort_by(|&a, &b| sims[b].total_cmp(&sims[a]).then(a.cmp(&b)));
    order.truncate(10);
    order
}

/// Every fourth real title typed as a query: its paper, the query's
/// vector, and the ten papers nearest it by the exact vectors (`exact`,
/// one after another in paper order).
fn titles_as_queries<'a>(
    corpus: &'a explorer_core::Corpus,
    m: &'a Meaning,
    exact: &'a [f32],
) -> impl Iterator<Item = (usize, Vec<f32>, Vec<usize>)> + 'a {
    let dims = exact.len() / corpus.papers.len();
    let papers = corpus.papers.iter().enumerate().step_by(4);
    papers.filter_map(move |(doc, paper)| {
        let q = m.embed_query(&paper.title)?;
        let by_exact: Vec<f32> = (exact.chunks_exact(dims))
            .map(|p| p.iter().zip(&q).map(|(a, b)| a * b).sum())
            .collect();
        Some((doc, q, first_ten(&by_exact)))
    })
}

fn xxh3(bytes: &[u8]) -> u64 {
    xxhash_rust::xxh3::xxh3_64(bytes)
}
