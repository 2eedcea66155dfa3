//! A long list's titles apart from its papers part, as the build ships
//! them (`explorer-cli stage`): the page's cards, lists of titles, exports
//! and sorting by title, once the packs each names are in, are the whole
//! list's. Tried on the real ACL list, with real titles typed as queries.

use std::collections::HashMap;

use crate::common;

use explorer_core::model::{body_pack_papers, title_pack_papers};
use explorer_core::view::{card_html, export, export_with, similar_html, CardState, Format};
use explorer_core::{Corpus, Engine, Highlights, PaperPack, Sort};

/// The real list split as the build splits a long list, and shipped: its
/// head decoded from its papers part, each pack's bytes by file name, and
/// the title order's.
struct Shipped {
    head: Corpus,
    files: HashMap<String, Vec<u8>>,
    order: Vec<u8>,
}

fn shipped(whole: &Corpus) -> Shipped {
    let (head, _tags) = whole.tags_apart();
    let (head, bodies) = head.in_body_packs(body_pack_papers(whole.papers.len()));
    // The map too: the head then has no table of words, and each card's
    // similar papers are explained by the words its body brings.
    let (head, _map) = head.map_apart();
    assert!(head.similar_terms.is_empty());
    let (head, titles, order) = head.titles_apart(title_pack_papers(whole.papers.len()));
    let mut files = HashMap::new();
    for (r, bytes) in head.body_packs.iter().zip(bodies) {
        files.insert(explorer_core::model::body_pack_file_name(r.hash), bytes);
    }
    for (r, bytes) in head.title_packs().iter().zip(titles) {
        files.insert(explorer_core::model::title_pack_file_name(r.hash), bytes);
    }
    let head = Corpus::from_papers_part(&head.to_parts().papers).expect("the part decodes");
    Shipped { head, files, order }
}

/// The page's engine, with the index (the head alone has none).
fn page(s: &Shipped, whole: &Corpus) -> Engine {
    let e = Engine::without_index(s.head.clone());
    e.open_index(whole.index.clone()).expect("the index fits");
    e
}

/// Fetches what `missing` names, as the page does.
fn fetch(e: &Engine, s: &Shipped, missing: &[PaperPack]) {
    for &p in missing {
        let file = e.paper_pack_file(p).expect("a pack of the list");
        e.add_paper_pack(p, &s.files[&file])
            .expect("the pack is whole");
    }
}

fn plain(marks: &Highlights) -> CardState<'_> {
    CardState {
        marks,
        selection: &[],
        starred: false,
        note: "",
        expanded: false,
        target: false,
        similar_open: true,
    }
}

/// A real title typed whole: before the packs, the first result's card
/// says its title is loading (and names it nowhere); once the packs the
/// answer's cards name are in (one round), each card, its similar papers'
/// titles after one more, and the export are the whole list's.
#[test]
fn the_cards_of_an_answer_are_the_whole_lists_once_their_packs_are_in() {
    let whole = common::acl_records_corpus();
    let s = shipped(whole);
    assert!(s.head.papers.iter().all(|p| p.title.is_empty()));
    let reference = Engine::new(whole.clone());
    let e = page(&s, whole);
    let t = &explorer_core::view::EN;
    let mut checked = 0;
    for doc in (0..whole.papers.len()).step_by(97).take(25) {
        let title = &whole.papers[doc].title;
        let found = e.search(title, &e.no_selection(), Sort::Relevance);
        let want = reference.search(title, &reference.no_selection(), Sort::Relevance);
        assert_eq!(found.docs(), want.docs(), "{title}");
        let shown: Vec<u32> = found.docs().into_iter().take(12).collect();
        let first = shown[0];
        let none = Highlights::default();
        if e.title(first).is_none() {
            let before = card_html(&e.corpus, &e, first, e.body(first), &plain(&none), t);
            assert!(before.contains(t.loading_title), "{before}");
            let first_title = &whole.papers[first as usize].title;
            assert!(!before.contains(first_title.as_str()), "{before}");
        }
        let missing = e.missing_card_packs(shown.iter().copied());
        fetch(&e, &s, &missing);
        assert!(e.missing_card_packs(shown.iter().copied()).is_empty());
        for &d in &shown {
            let marks = e.highlights(d, &found.matched);
            assert_eq!(marks, reference.highlights(d, &want.matched), "{title}");
            let body = e.body(d);
            let similar: Vec<u32> = body.unwrap().similar.iter().map(|s| s.doc).collect();
            fetch(&e, &s, &e.missing_title_packs(similar));
            let page_card = card_html(&e.corpus, &e, d, body, &plain(&marks), t);
            let whole_card = card_html(whole, whole, d, reference.body(d), &plain(&marks), t);
            assert_eq!(page_card, whole_card);
            let p = &e.corpus.papers[d as usize];
            assert_eq!(
                similar_html(&e, &e.corpus, p, body.unwrap(), t),
                similar_html(
                    whole,
                    whole,
                    &whole.papers[d as usize],
                    reference.body(d).unwrap(),
                    t
                )
            );
            checked += 1;
        }
        let exported = export_with(&e.corpus, &e, &shown, |d| e.body(d), Format::Bibtex, "u");
        assert_eq!(exported, export(whole, &shown, Format::Bibtex, "u"));
    }
    assert!(checked >= 250, "{checked} cards");
}

/// Sorting by title waits for the title order's file (its size named
/// first), then orders as the whole list does; a damaged or foreign file
/// is refused and the sort keeps waiting.
#[test]
fn sorting_by_title_waits_for_the_title_order_then_orders_as_the_whole_list() {
    let whole = common::acl_records_corpus();
    let s = shipped(whole);
    let reference = Engine::new(whole.clone());
    let e = page(&s, whole);
    let waiting = e.search("language model", &e.no_selection(), Sort::Title);
    assert!(waiting.waiting_for_titles && waiting.hits.is_empty());
    let (name, size) = e.title_order_file().expect("named while not in");
    assert!(name.starts_with("title-order-") && size == s.order.len());
    let mut damaged = s.order.clone();
    damaged[20] ^= 1;
    assert!(e.add_title_order(&damaged).is_err());
    assert!(!e.has_title_order());
    e.add_title_order(&s.order).unwrap();
    assert!(e.title_order_file().is_none());
    for q in ["language model", "", "translation"] {
        let found = e.search(q, &e.no_selection(), Sort::Title);
        let want = reference.search(q, &reference.no_selection(), Sort::Title);
        assert!(!found.waiting_for_titles);
        assert_eq!(found.docs(), want.docs(), "{q}");
        assert!(found.hits.len() > 10, "{q}");
    }
}

/// Saving for offline use names every pack of titles, and a list whose
/// titles are apart is the whole list again once they are joined (as the
/// single file joins them).
#[test]
fn every_title_pack_is_named_for_offline_and_joins_back_whole() {
    let whole = common::acl_records_corpus();
    let s = shipped(whole);
    let e = page(&s, whole);
    let titles: Vec<PaperPack> = e
        .paper_packs_not_in()
        .into_iter()
        .map(|(p, _)| p)
        .filter(|p| matches!(p, PaperPack::Title(_)))
        .collect();
    assert_eq!(titles.len(), s.head.title_packs().len());
    fetch(&e, &s, &titles);
    for d in 0..whole.papers.len() as u32 {
        assert_eq!(e.title(d), Some(whole.papers[d as usize].title.as_str()));
    }
    let joined = s
        .head
        .clone()
        .with_titles(|r| s.files[&explorer_core::model::title_pack_file_name(r.hash)].clone())
        .unwrap();
    let titles_of = |c: &Corpus| c.papers.iter().map(|p| p.title.clone()).collect::<Vec<_>>();
    assert_eq!(titles_of(&joined), titles_of(whole));
}
