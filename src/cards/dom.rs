//! What changes in a card after it is written, done to its elements in
//! place: highlights, the expanded abstract, the star and note, the similar
//! papers.

use explorer_core::view as card;
use explorer_core::{Engine, Highlights};
use leptos::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::Element;

use super::keyed_items::parse;
use super::maker::CardMaker;
use crate::i18n::Strings;

/// Every card on the page (results and opened related papers) of `doc`.
pub(super) fn cards_of(doc: u32) -> Vec<Element> {
    all(&format!("article.paper[data-doc=\"{doc}\"]"))
}

pub(super) fn all(selector: &str) -> Vec<Element> {
    let Ok(found) = document().query_selector_all(selector) else {
        return Vec::new();
    };
    (0..found.length())
        .filter_map(|i| found.item(i))
        .filter_map(|n| n.dyn_into::<Element>().ok())
        .collect()
}

pub(super) fn find(el: &Element, selector: &str) -> Option<Element> {
    el.query_selector(selector).ok().flatten()
}

pub(super) fn doc_of(card: &Element) -> Option<u32> {
    card.get_attribute("data-doc")?.parse().ok()
}

/// A card's highlights, written in place (title, authors, abstract): only
/// the parts whose marks differ from `before`, the marks the card shows
/// (every part when that is not known). Rewriting a part reparses it and
/// restyles all it holds (an abstract's MathML too); typing a word's next
/// letter leaves most cards' marks as they were.
pub fn write_marks(
    card: &Element,
    engine: &Engine,
    doc: u32,
    marks: &Highlights,
    before: Option<&Highlights>,
) {
    let p = &engine.corpus.papers[doc as usize];
    let changed = |part: fn(&Highlights) -> &Vec<std::ops::Range<usize>>| {
        before.is_none_or(|b| part(b) != part(marks))
    };
    // A title not in yet says so until its card is written again.
    if let (true, Some(title)) = (changed(|h| &h.title), engine.title(doc)) {
        if let Some(a) = find(card, ".paper-title a") {
            a.set_inner_html(&explorer_core::view::marked_html(title, &marks.title));
        }
    }
    if changed(|h| &h.authors) {
        if let Some(authors) = find(card, ".paper-authors") {
            let body = engine.body(doc);
            authors.set_inner_html(&card::authors_html(p.authors_with(body), marks));
        }
    }
    if changed(|h| &h.text) {
        if let (Some(text), Some(body)) = (find(card, ".abstract"), engine.body(doc)) {
            text.set_inner_html(&explorer_core::view::abstract_html(body, &marks.text));
        }
    }
}

pub(super) fn set_expanded(card: &Element, expanded: bool, text: &Strings) {
    if let Some(abs) = find(card, ".abstract") {
        let _ = abs.class_list().toggle_with_force("clamped", !expanded);
    }
    if let Some(button) = find(card, ".expand") {
        let _ = button.set_attribute("aria-expanded", &expanded.to_string());
        button.set_text_content(Some(card::expand_label(expanded, text)));
    }
}

pub(super) fn is_expanded(card: &Element) -> bool {
    find(card, ".expand")
        .is_some_and(|b| b.get_attribute("aria-expanded").as_deref() == Some("true"))
}

/// The star and the note of a card, as the reading list has them.
pub(super) fn write_star(card: &Element, starred: bool, note: &str, text: &Strings) {
    if let Some(button) = find(card, ".star-button") {
        let (glyph, label) = card::star_face(starred, text);
        let _ = button.set_attribute("aria-pressed", &starred.to_string());
        let _ = button.set_attribute("aria-label", label);
        button.set_inner_html(&format!("<span aria-hidden=\"true\">{glyph}</span>"));
    }
    let existing = find(card, ".paper-note");
    match (starred, existing) {
        (true, None) => {
            // The note goes after the abstract and its button, before the
            // similar papers.
            let before = find(card, ".similar");
            if let Some(note) = parse(&card::note_html(note, text)).pop() {
                let _ = card.insert_before(&note, before.as_ref().map(|e| e as &web_sys::Node));
            }
        }
        (false, Some(el)) => el.remove(),
        _ => {}
    }
}

/// A card's similar papers listed under their toggle, or not. Titles not
/// in yet say they are loading: their packs are fetched, and the list is
/// written again when they come, if it is still open.
pub(super) fn show_similar(
    engine: &'static Engine,
    card: &Element,
    doc: u32,
    open: bool,
    text: &'static Strings,
) {
    let Some(button) = find(card, ".similar-toggle") else {
        return;
    };
    let _ = button.set_attribute("aria-expanded", &open.to_string());
    if let Some(list) = find(card, ".similar-list") {
        list.remove();
    }
    if let (true, Some(body)) = (open, engine.body(doc)) {
        let p = &engine.corpus.papers[doc as usize];
        let list = card::similar_html(engine, &engine.corpus, p, body, text);
        let _ = button.insert_adjacent_html("afterend", &list);
        let card = card.clone();
        crate::load::when_titles_in(body.similar.iter().map(|s| s.doc), move |came| {
            let still_open = find(&card, ".similar-toggle")
                .is_some_and(|b| b.get_attribute("aria-expanded").as_deref() == Some("true"));
            if came && still_open {
                show_similar(engine, &card, doc, true, text);
            }
        });
    }
}

/// The star button: puts the paper on the reading list, or takes it off
/// (asking first when that would drop a note).
pub(super) fn toggle_star(make: CardMaker, doc: u32) {
    let CardMaker { x, stars, tr } = make;
    let p = &x.engine.corpus.papers[doc as usize];
    let starred = stars.is_starred_now(&p.id);
    if starred && !stars.note_now(&p.id).trim().is_empty() {
        let drop = window()
            .confirm_with_message(tr.now().confirm_unstar)
            .unwrap_or(false);
        if !drop {
            return;
        }
    }
    stars.toggle(&p.id, x.engine.title(doc).unwrap_or_default());
}
