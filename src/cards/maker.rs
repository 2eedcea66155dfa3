//! A card's HTML, from the app's state as it is now.

use explorer_core::view::{self as card, CardState};
use explorer_core::Highlights;
use leptos::prelude::*;

use crate::i18n::{use_i18n, I18n};
use crate::reading_list::Stars;
use crate::Explorer;

/// What a card needs from the app to be written: read outside the reactive
/// graph, as it is now.
#[derive(Clone, Copy)]
pub struct CardMaker {
    pub(super) x: Explorer,
    pub(super) stars: Stars,
    pub(super) tr: I18n,
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
        let target = x.view.open.with_untracked(|o| o.as_deref() == Some(id));
        let (starred, note) = (self.stars.is_starred_now(id), self.stars.note_now(id));
        let text = self.tr.now();
        x.selection_untracked(|selection| {
            card::card_html(
                &x.engine.corpus,
                x.engine,
                doc,
                x.engine.body(doc),
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
