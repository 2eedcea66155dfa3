//! A paper's card. It is written as one HTML string
//! ([`explorer_core::view`]), which the browser parses natively, instead of
//! a Leptos view tree built one element and one reactive closure at a time
//! across the WebAssembly boundary (0.5–0.75 ms a card: a facet click on
//! the seeds rebuilt most of 57). Its buttons are heard once, on the
//! document ([`listen`]), and what the reader changes afterwards — a
//! chip's state, the star and note, the expanded abstract, the paper the
//! address names, the language — is written into the cards in place, so
//! that a focused button keeps its focus.

use std::collections::HashMap;

use explorer_core::view::{self as card, CardState};
use explorer_core::{DocWords, Engine, Highlights, Selection};
use leptos::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::Element;

use super::keyed_items::parse;
use crate::i18n::{use_i18n, I18n, Strings};
use crate::reading_list::Stars;
use crate::Explorer;

/// How many papers' words are kept for highlighting: the cards on screen
/// and the ones that were recently (a card leaving the list and coming back
/// as the user types does not split and stem its text again).
const WORDS_KEPT: usize = 512;

thread_local! {
    static WORDS: std::cell::RefCell<HashMap<u32, DocWords>> = Default::default();
}

/// Splits and stems a paper's words for highlighting, unless they are
/// kept already; false once the cache is full (it is not emptied for
/// this). Done ahead of the first keystroke while the page is idle
/// ([`super::idle::in_slices`]): on first use it was most of the first
/// keystroke's cost on the seeds (20 ms of splitting and stemming for 57
/// papers, in the bench's CPU profile).
pub fn prepare_words(engine: &Engine, doc: u32) -> bool {
    with_words(engine, doc, false, |_| ()).is_some()
}

/// A paper's highlights for the query's matched words, its words split and
/// stemmed at most once while they are kept.
pub fn highlights(engine: &Engine, doc: u32, matched: &explorer_core::Matched) -> Highlights {
    if matched.is_empty() {
        return Highlights::default();
    }
    with_words(engine, doc, true, |words| words.highlights(matched))
        .expect("room is made for a paper's words")
}

/// `f` of a paper's kept words, split and kept if they were not, up to
/// [`WORDS_KEPT`] papers (the rule of [`explorer_core::search::kept_or_made`]:
/// when full, all forgotten to make room, or, without `make_room`, `None`).
fn with_words<R>(
    engine: &Engine,
    doc: u32,
    make_room: bool,
    f: impl FnOnce(&DocWords) -> R,
) -> Option<R> {
    WORDS.with_borrow_mut(|kept| {
        explorer_core::search::kept_or_made(kept, doc, WORDS_KEPT, make_room, || {
            engine.doc_words(doc)
        })
        .map(|words| f(words))
    })
}

/// What a card needs from the app to be written: read outside the reactive
/// graph, as it is now.
#[derive(Clone, Copy)]
pub struct CardMaker {
    x: Explorer,
    stars: Stars,
    tr: I18n,
}

impl CardMaker {
    /// From the app's context (in a component or an effect).
    pub fn new() -> CardMaker {
        CardMaker {
            x: expect_context::<Explorer>(),
            stars: expect_context::<Stars>(),
            tr: use_i18n(),
        }
    }

    /// One card's HTML, with `marks` and, when given, the reader's own
    /// expanded state (else: expanded when the address names it).
    pub fn html(&self, doc: u32, marks: &Highlights, expanded: Option<bool>) -> String {
        let x = self.x;
        let id = x.engine.corpus.papers[doc as usize].id.as_str();
        let target = x.open.with_untracked(|o| o.as_deref() == Some(id));
        let (starred, note) = (self.stars.is_starred_now(id), self.stars.note_now(id));
        let text = self.tr.now();
        x.selection_untracked(|selection| {
            card::card_html(
                &x.engine.corpus,
                doc,
                &CardState {
                    marks,
                    selection,
                    starred,
                    note: &note,
                    expanded: expanded.unwrap_or(target),
                    target,
                    similar_open: false,
                },
                text,
            )
        })
    }
}

/// Every card on the page (results and opened related papers) of `doc`.
fn cards_of(doc: u32) -> Vec<Element> {
    all(&format!("article.paper[data-doc=\"{doc}\"]"))
}

fn all(selector: &str) -> Vec<Element> {
    let Ok(found) = document().query_selector_all(selector) else {
        return Vec::new();
    };
    (0..found.length())
        .filter_map(|i| found.item(i))
        .filter_map(|n| n.dyn_into::<Element>().ok())
        .collect()
}

fn find(el: &Element, selector: &str) -> Option<Element> {
    el.query_selector(selector).ok().flatten()
}

fn doc_of(card: &Element) -> Option<u32> {
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
    if changed(|h| &h.title) {
        if let Some(a) = find(card, ".paper-title a") {
            a.set_inner_html(&explorer_core::view::marked_html(&p.title, &marks.title));
        }
    }
    if changed(|h| &h.authors) {
        if let Some(authors) = find(card, ".paper-authors") {
            authors.set_inner_html(&card::authors_html(p, marks));
        }
    }
    if changed(|h| &h.text) {
        if let Some(text) = find(card, ".abstract") {
            text.set_inner_html(&explorer_core::view::abstract_html(p, &marks.text));
        }
    }
}

fn set_expanded(card: &Element, expanded: bool, text: &Strings) {
    if let Some(abs) = find(card, ".abstract") {
        let _ = abs.class_list().toggle_with_force("clamped", !expanded);
    }
    if let Some(button) = find(card, ".expand") {
        let _ = button.set_attribute("aria-expanded", &expanded.to_string());
        button.set_text_content(Some(card::expand_label(expanded, text)));
    }
}

fn is_expanded(card: &Element) -> bool {
    find(card, ".expand")
        .is_some_and(|b| b.get_attribute("aria-expanded").as_deref() == Some("true"))
}

/// The star and the note of a card, as the reading list has them.
fn write_star(card: &Element, starred: bool, note: &str, text: &Strings) {
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

/// Listens for every card's buttons and note, and keeps the cards in step
/// with the reader's selection, reading list, opened paper and language.
/// Called once, when the app is mounted.
pub fn listen() {
    let make = CardMaker::new();
    let CardMaker { x, stars, tr } = make;

    let click = window_event_listener(leptos::ev::click, move |ev| {
        let Some(target) = ev.target().and_then(|t| t.dyn_into::<Element>().ok()) else {
            return;
        };
        let Some(button) = target.closest("article.paper button").ok().flatten() else {
            return;
        };
        let Some(card) = button.closest("article.paper").ok().flatten() else {
            return;
        };
        let Some(doc) = doc_of(&card) else { return };
        let class = button.class_name();
        let text = tr.now();
        match class.as_str() {
            "chip" => {
                let at = |a: &str| button.get_attribute(a).and_then(|v| v.parse::<u32>().ok());
                if let (Some(f), Some(v)) = (at("data-f"), at("data-v")) {
                    let f = f as usize;
                    x.toggle(f, v);
                }
            }
            "star-button" => toggle_star(make, doc),
            "expand" => {
                let expanded = !is_expanded(&card);
                let _ = card.set_attribute("data-toggled", "");
                set_expanded(&card, expanded, text);
            }
            "similar-toggle" => {
                let open = button.get_attribute("aria-expanded").as_deref() != Some("true");
                show_similar(x.engine, &card, doc, open, text);
            }
            _ => {}
        }
    });
    // A note is kept as it is typed.
    let input = window_event_listener(leptos::ev::input, move |ev| {
        let Some(area) = ev
            .target()
            .and_then(|t| t.dyn_into::<web_sys::HtmlTextAreaElement>().ok())
        else {
            return;
        };
        let card = area
            .closest(".paper-note")
            .ok()
            .flatten()
            .and_then(|_| area.closest("article.paper").ok().flatten());
        if let Some(doc) = card.as_ref().and_then(doc_of) {
            stars.set_note(&x.engine.corpus.papers[doc as usize].id, &area.value());
        }
    });
    on_cleanup(move || {
        click.remove();
        input.remove();
    });

    // A facet value selected or not: its chips, on every card.
    Effect::new(move |before: Option<Selection>| {
        let now = x.selection_now();
        if let Some(before) = before {
            for (f, v, on) in card::selection_changes(&before, &now) {
                for chip in all(&format!(".chip[data-f=\"{f}\"][data-v=\"{v}\"]")) {
                    let _ = chip.set_attribute("aria-pressed", &on.to_string());
                }
            }
        }
        now
    });
    // The reading list changed: the stars and notes of the papers whose
    // place on it changed, and a note changed elsewhere (an import, another
    // tab) in a field the reader is not typing in.
    Effect::new(move |before: Option<Vec<u32>>| {
        let now = stars.docs.get();
        stars.track();
        let text = tr.now();
        if let Some(before) = before {
            let changed = before
                .iter()
                .filter(|d| !now.contains(d))
                .chain(now.iter().filter(|d| !before.contains(d)));
            for &doc in changed {
                let id = &x.engine.corpus.papers[doc as usize].id;
                let (starred, note) = (stars.is_starred_now(id), stars.note_now(id));
                for c in cards_of(doc) {
                    write_star(&c, starred, &note, text);
                }
            }
        }
        let focused = document().active_element();
        for area in all(".paper-note textarea") {
            let Some(doc) = area
                .closest("article.paper")
                .ok()
                .flatten()
                .and_then(|c| doc_of(&c))
            else {
                continue;
            };
            if focused.as_ref() == Some(&area) {
                continue;
            }
            let note = stars.note_now(&x.engine.corpus.papers[doc as usize].id);
            let area: web_sys::HtmlTextAreaElement = area.unchecked_into();
            if area.value() != note {
                area.set_value(&note);
            }
        }
        now
    });
    // The paper the address names is outlined and expanded; the one it
    // named before goes back, unless the reader expanded it themselves.
    Effect::new(move |before: Option<Option<String>>| {
        let now = x.open.get();
        let text = tr.now();
        if let Some(before) = before.flatten().filter(|b| Some(b) != now.as_ref()) {
            if let Some(card) = document().get_element_by_id(&before) {
                let _ = card.class_list().remove_1("target");
                if !card.has_attribute("data-toggled") {
                    set_expanded(&card, false, text);
                }
            }
        }
        if let Some(card) = now.as_ref().and_then(|id| document().get_element_by_id(id)) {
            let _ = card.class_list().add_1("target");
            set_expanded(&card, true, text);
        }
        now
    });
    // Another language: every card written again, keeping what the reader
    // opened in it.
    Effect::new(move |first: Option<()>| {
        tr.get();
        if first.is_none() {
            return;
        }
        let matched = x.response.with_untracked(|r| r.matched.clone());
        // (The cards waiting in the result list's pool are dropped instead.)
        for old in all(".results article.paper, .related article.paper") {
            let Some(doc) = doc_of(&old) else { continue };
            // A related paper has no marks; a result is marked for the
            // query.
            let related = old.closest(".related").ok().flatten().is_some();
            let marks = if related {
                Highlights::default()
            } else {
                highlights(x.engine, doc, &matched)
            };
            let similar_open = find(&old, ".similar-list").is_some();
            let Some(new) = parse(&make.html(doc, &marks, Some(is_expanded(&old)))).pop() else {
                continue;
            };
            if old.has_attribute("data-toggled") {
                let _ = new.set_attribute("data-toggled", "");
            }
            let _ = old.replace_with_with_node_1(&new);
            if similar_open {
                show_similar(x.engine, &new, doc, true, tr.now());
            }
        }
    });
}

/// A card's similar papers listed under their toggle, or not.
fn show_similar(engine: &Engine, card: &Element, doc: u32, open: bool, text: &Strings) {
    let Some(button) = find(card, ".similar-toggle") else {
        return;
    };
    let _ = button.set_attribute("aria-expanded", &open.to_string());
    if let Some(list) = find(card, ".similar-list") {
        list.remove();
    }
    if open {
        let p = &engine.corpus.papers[doc as usize];
        let list = card::similar_html(&engine.corpus, p, text);
        let _ = button.insert_adjacent_html("afterend", &list);
    }
}

/// The star button: puts the paper on the reading list, or takes it off
/// (asking first when that would drop a note).
fn toggle_star(make: CardMaker, doc: u32) {
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
    stars.toggle(&p.id, &p.title);
}
