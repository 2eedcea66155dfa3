//! A paper's card as the page writes it (`explorer_core::view::card_html`): what a
//! reader sees on the seeds, and hostile text kept inert.

use crate::common;

use explorer_core::view::Strings;
use explorer_core::view::{card_html, note_html, selection_changes, CardState};
use explorer_core::{Corpus, FacetKind, Highlights, PaperPack};

fn english() -> &'static Strings {
    &explorer_core::view::EN
}

fn plain<'a>(marks: &'a Highlights, selection: &'a [Vec<u32>]) -> CardState<'a> {
    CardState {
        marks,
        selection,
        starred: false,
        note: "",
        expanded: false,
        target: false,
        similar_open: false,
    }
}

/// Every element name a card may contain: the card's own and the
/// abstract's (emphasis, links, marks, MathML from the sanitizer).
const ELEMENTS: &[&str] = &[
    "article",
    "div",
    "h2",
    "a",
    "button",
    "span",
    "p",
    "ul",
    "ol",
    "li",
    "details",
    "summary",
    "textarea",
    "mark",
    "strong",
    "em",
    "small",
    "code",
    "math",
    "mi",
    "mn",
    "mo",
    "mrow",
    "msub",
    "msup",
    "msubsup",
    "mfrac",
    "msqrt",
    "mroot",
    "mtext",
    "mspace",
    "mover",
    "munder",
    "munderover",
    "mtable",
    "mtr",
    "mtd",
    "mstyle",
    "semantics",
    "annotation",
    "mpadded",
    "mphantom",
    "menclose",
];

/// The element names and attribute names in an HTML string, as a browser's
/// tokenizer would start them (text is escaped, so `<` only opens tags).
fn tags(html: &str) -> Vec<(String, Vec<String>)> {
    let mut out = Vec::new();
    for part in html.split('<').skip(1) {
        if part.starts_with('/') {
            continue;
        }
        let inside = &part[..part.find('>').expect("a tag is closed")];
        let name: String = inside
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric())
            .collect();
        let mut attrs = Vec::new();
        let mut rest = &inside[name.len()..];
        while let Some(eq) = rest.find("=\"") {
            attrs.push(rest[..eq].trim().to_string());
            let after = &rest[eq + 2..];
            rest = &after[after.find('"').expect("an attribute is closed") + 1..];
        }
        out.push((name, attrs));
    }
    out
}

fn hostile() -> Corpus {
    let dir = common::seed_dir().join("../tests/corpora/hostile");
    explorer_core::build::compile_dir(&dir).expect("the hostile list compiles")
}

#[test]
fn a_card_shows_its_paper_and_the_chips_of_its_tags() {
    let corpus = common::seed_corpus();
    let none = Highlights::default();
    for (doc, p) in corpus.papers.iter().enumerate() {
        let html = card_html(
            corpus,
            corpus,
            doc as u32,
            corpus.papers.get(doc).map(Into::into),
            &plain(&none, &[]),
            english(),
        );
        assert!(
            html.starts_with(&format!(
                "<article class=\"paper\" id=\"{0}\" aria-labelledby=\"{0}-title\" data-doc=\"{doc}\">",
                p.id
            )),
            "{html}"
        );
        assert!(html.contains(&format!("<a href=\"#{}\">", p.id)));
        assert!(html.contains(&explorer_core::view::escape(&p.title)));
        // Chips: every tag but the list, authors and year, each a button
        // naming its facet and value, none pressed.
        let chip_tags = p
            .tags
            .iter()
            .filter(|t| {
                let kind = corpus.facets[t.facet as usize].kind;
                ![FacetKind::List, FacetKind::Author, FacetKind::Year].contains(&kind)
            })
            .count();
        assert_eq!(html.matches("class=\"chip\"").count(), chip_tags, "{html}");
        assert_eq!(html.matches("aria-pressed=\"true\"").count(), 0);
        // A long abstract is clamped, with its button; a short one is not.
        let long = explorer_core::view::is_long(p);
        assert_eq!(html.contains("class=\"abstract clamped\""), long);
        assert_eq!(html.contains("class=\"expand\""), long);
        // The note is there only when starred; similar papers only listed
        // when opened.
        assert!(!html.contains("paper-note"));
        assert_eq!(html.contains("similar-toggle"), !p.similar.is_empty());
        assert!(!html.contains("similar-list"));
    }
}

#[test]
fn a_selected_value_presses_its_chip_on_every_card_that_has_it() {
    let corpus = common::seed_corpus();
    let topic = corpus.facet_index(FacetKind::Topic).unwrap();
    let mut selection = vec![Vec::new(); corpus.facets.len()];
    selection[topic].push(0);
    let none = Highlights::default();
    let mut pressed = 0;
    for (doc, p) in corpus.papers.iter().enumerate() {
        let html = card_html(
            corpus,
            corpus,
            doc as u32,
            corpus.papers.get(doc).map(Into::into),
            &plain(&none, &selection),
            english(),
        );
        let has = p
            .tags
            .iter()
            .any(|t| t.facet as usize == topic && t.value == 0);
        let chip = format!("data-f=\"{topic}\" data-v=\"0\"");
        assert_eq!(html.contains(&chip), has);
        assert_eq!(html.contains("aria-pressed=\"true\""), has, "{html}");
        pressed += has as usize;
    }
    assert!(pressed > 0, "the first topic is on some seed paper");
}

#[test]
fn a_starred_expanded_target_card_with_its_similar_papers_open() {
    let corpus = common::seed_corpus();
    let (doc, p) = corpus
        .papers
        .iter()
        .enumerate()
        .find(|(_, p)| explorer_core::view::is_long(*p) && !p.similar.is_empty())
        .expect("a long seed abstract with similar papers");
    let none = Highlights::default();
    let state = CardState {
        starred: true,
        note: "read <this> & cite",
        expanded: true,
        target: true,
        similar_open: true,
        ..plain(&none, &[])
    };
    let html = card_html(
        corpus,
        corpus,
        doc as u32,
        corpus.papers.get(doc).map(Into::into),
        &state,
        english(),
    );
    assert!(html.starts_with("<article class=\"paper target\""));
    assert!(
        html.contains("aria-pressed=\"true\" aria-label=\"Starred (click to unstar)\"><span aria-hidden=\"true\">★")
    );
    assert!(html.contains("<details class=\"paper-note\" open>"));
    assert!(html.contains("read &lt;this&gt; &amp; cite</textarea>"));
    assert!(html.contains(&format!(
        "<div class=\"abstract\" id=\"{}-abstract\">",
        p.id
    )));
    assert!(html.contains("aria-expanded=\"true\""));
    assert!(html.contains("Show less"));
    let first = &corpus.papers[p.similar[0].doc as usize];
    assert!(
        html.contains(&format!("<li><a href=\"#{}\">", first.id)),
        "{html}"
    );
}

#[test]
fn the_query_s_matches_are_marked_in_title_abstract_and_authors() {
    let corpus = common::seed_corpus();
    let engine = common::seed_engine();
    let r = engine.search("diffusion", &Vec::new(), explorer_core::Sort::Relevance);
    let hit = r.hits[0].doc;
    let marks = engine.doc_words(hit).highlights(&r.matched);
    assert!(!marks.text.is_empty());
    let html = card_html(
        corpus,
        corpus,
        hit,
        corpus.papers.get(hit as usize).map(Into::into),
        &plain(&marks, &[]),
        english(),
    );
    let marked: Vec<&str> = html
        .split("<mark>")
        .skip(1)
        .map(|s| &s[..s.find("</mark>").unwrap()])
        .collect();
    assert_eq!(marked.len(), marks.title.len() + marks.text.len());
    for m in marked {
        assert!(m.to_lowercase().starts_with("diffusion"), "{m}");
    }
}

#[test]
fn hostile_text_in_a_card_is_inert() {
    let corpus = hostile();
    let none = Highlights::default();
    for doc in 0..corpus.papers.len() as u32 {
        let state = CardState {
            starred: true,
            note: "</textarea><script>alert(1)</script>",
            similar_open: true,
            ..plain(&none, &[])
        };
        let html = card_html(
            &corpus,
            &corpus,
            doc,
            corpus.papers.get(doc as usize).map(Into::into),
            &state,
            english(),
        );
        for (name, attrs) in tags(&html) {
            assert!(ELEMENTS.contains(&name.as_str()), "<{name}> in {html}");
            for a in attrs {
                assert!(!a.to_ascii_lowercase().starts_with("on"), "{a} on <{name}>");
            }
        }
        for href in html.split("href=\"").skip(1) {
            assert!(
                href.starts_with('#')
                    || href.starts_with("http://")
                    || href.starts_with("https://"),
                "{href}"
            );
        }
        assert_eq!(html.matches("<textarea").count(), 1);
        assert_eq!(html.matches("</textarea>").count(), 1);
    }
}

#[test]
fn a_note_keeps_its_leading_newline_through_the_parser() {
    let html = note_html("\nsecond line", english());
    // The parser drops the one newline after <textarea>: the one written.
    assert!(html.contains(
        "<textarea rows=\"3\" aria-label=\"Your note on this paper (kept in this browser)\">\n\nsecond line</textarea>"
    ));
    assert!(!note_html("", english()).contains(" open"));
}

#[test]
fn a_change_of_selection_names_exactly_the_chips_to_redraw() {
    let before = vec![vec![1, 2], vec![], vec![7]];
    let after = vec![vec![2, 3], vec![4]];
    let mut changes = selection_changes(&before, &after);
    changes.sort();
    assert_eq!(
        changes,
        vec![(0, 1, false), (0, 3, true), (1, 4, true), (2, 7, false)]
    );
    assert!(selection_changes(&after, &after).is_empty());
}

#[test]
fn a_related_paper_is_its_title_and_why_escaped() {
    let corpus = hostile();
    for doc in 0..corpus.papers.len() as u32 {
        let via = "<b>bold</b>, x & y";
        let html = explorer_core::view::related_item_html(&corpus, doc, "via:", via);
        let title = explorer_core::view::escape(&corpus.papers[doc as usize].title);
        assert!(
            html.starts_with(&format!(
                "<li data-doc=\"{doc}\"><details><summary><span class=\"related-title\">{title}</span>"
            )),
            "{html}"
        );
        assert!(html
            .contains("<span class=\"related-words\">&lt;b&gt;bold&lt;/b&gt;, x &amp; y</span>"));
        for (name, _) in tags(&html) {
            assert!(ELEMENTS.contains(&name.as_str()), "<{name}> in {html}");
        }
    }
}

#[test]
fn a_card_whose_body_came_in_a_pack_is_the_card_of_the_whole_paper() {
    let whole = common::seed_corpus();
    let (head, packs) = whole.in_body_packs(4);
    let engine = explorer_core::Engine::new(head.clone());
    let none = Highlights::default();
    let card = |corpus: &Corpus, doc: u32, body| {
        card_html(corpus, corpus, doc, body, &plain(&none, &[]), english())
    };
    let source = |html: &str| {
        let at = html
            .find("class=\"paper-list\" title=\"")
            .expect("the list's label")
            + 26;
        html[at..at + html[at..].find('"').unwrap()].to_string()
    };
    // Before its pack comes, a card has its chips, without why.
    let html = card(&head, 0, None);
    assert!(html.contains("class=\"chip\""), "{html}");
    assert_eq!(source(&html), "");
    for (k, pack) in packs.iter().enumerate() {
        engine
            .add_paper_pack(PaperPack::Body(k as u32), pack)
            .unwrap();
    }
    for doc in 0..whole.papers.len() as u32 {
        let html = card(&head, doc, engine.body(doc));
        // The source file and line of each paper is its own.
        assert!(source(&html).contains(" line "), "{html}");
        assert_eq!(
            html,
            card(whole, doc, whole.papers.get(doc as usize).map(Into::into))
        );
    }
}

/// With a long list's tags apart, a card's chips and authors come with its
/// body: none before it (the card says its abstract is loading), and once
/// it is in, the card of the whole paper (the real list: authors, venues).
#[test]
fn with_the_tags_apart_a_card_gets_its_chips_and_authors_with_its_body() {
    let whole = common::acl_records_corpus();
    let (apart, _) = whole.tags_apart();
    let (head, packs) =
        apart.in_body_packs(explorer_core::model::body_pack_papers(whole.papers.len()));
    let engine = explorer_core::Engine::new(head.clone());
    let none = Highlights::default();
    let card = |corpus: &Corpus, doc: u32, body| {
        card_html(corpus, corpus, doc, body, &plain(&none, &[]), english())
    };
    let doc = (0..whole.papers.len() as u32)
        .find(|&d| !whole.papers[d as usize].authors.is_empty())
        .expect("a paper with authors");
    let before = card(&head, doc, None);
    assert!(
        !before.contains("class=\"chip\"") && !before.contains("paper-authors"),
        "{before}"
    );
    assert!(before.contains("abstract loading"), "{before}");
    let packs_shown = head.body_pack_of(doc as usize).unwrap() + 2;
    for (k, pack) in packs.iter().enumerate().take(packs_shown) {
        engine
            .add_paper_pack(PaperPack::Body(k as u32), pack)
            .unwrap();
    }
    let shown = head.body_pack_range(packs_shown - 1).unwrap().end as u32;
    let mut authors = 0;
    for doc in 0..shown {
        let html = card(&head, doc, engine.body(doc));
        authors += usize::from(html.contains("paper-authors"));
        assert_eq!(
            html,
            card(whole, doc, whole.papers.get(doc as usize).map(Into::into))
        );
    }
    assert!(
        authors > shown as usize / 2,
        "{authors} of {shown} cards name authors"
    );
}
