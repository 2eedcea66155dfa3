//! The cards' buttons and notes, heard once on the document, and the cards
//! kept in step with what the reader changes elsewhere: the selection, the
//! reading list, the paper the address names, the language.

use explorer_core::view as card;
use explorer_core::{Highlights, Selection};
use leptos::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::Element;

use super::dom::{
    all, cards_of, doc_of, find, is_expanded, set_expanded, show_similar, toggle_star, write_star,
};
use super::keyed_items::parse;
use super::maker::CardMaker;
use super::words::highlights;

/// Listens for every card's buttons and note, and keeps the cards in step
/// with the reader's selection, reading list, opened paper and language.
/// Called once, when the app is mounted.
pub fn listen() {
    let make = CardMaker::new();
    hear_buttons(make);
    hear_notes(make);
    keep_chips(make);
    keep_stars(make);
    keep_target(make);
    keep_language(make);
}

/// A click on a card's button: a chip ticks its facet value, the star
/// toggles the reading list, the abstract and the similar papers open.
fn hear_buttons(make: CardMaker) {
    let CardMaker { x, tr, .. } = make;
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
                    x.toggle(f as usize, v);
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
    on_cleanup(move || click.remove());
}

/// A note is kept as it is typed.
fn hear_notes(make: CardMaker) {
    let CardMaker { x, stars, .. } = make;
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
    on_cleanup(move || input.remove());
}

/// A facet value selected or not: its chips, on every card.
fn keep_chips(make: CardMaker) {
    let x = make.x;
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
}

/// The reading list changed: the stars and notes of the papers whose place
/// on it changed, and a note changed elsewhere (an import, another tab) in
/// a field the reader is not typing in.
fn keep_stars(make: CardMaker) {
    let CardMaker { x, stars, tr } = make;
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
}

/// The paper the address names is outlined and expanded; the one it named
/// before goes back, unless the reader expanded it themselves.
fn keep_target(make: CardMaker) {
    let CardMaker { x, tr, .. } = make;
    Effect::new(move |before: Option<Option<String>>| {
        let now = x.view.open.get();
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
}

/// Another language: every card written again, keeping what the reader
/// opened in it.
fn keep_language(make: CardMaker) {
    let CardMaker { x, tr, .. } = make;
    Effect::new(move |first: Option<()>| {
        tr.get();
        if first.is_none() {
            return;
        }
        let matched = x.search.response.with_untracked(|r| r.matched.clone());
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
