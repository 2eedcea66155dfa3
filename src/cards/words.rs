//! Each paper's words, split and stemmed for highlighting once and kept
//! for the cards that show it.

use std::collections::HashMap;

use explorer_core::{DocWords, Engine, Highlights};

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
/// ([`crate::idle::in_slices`]): on first use it was most of the first
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
    // A paper whose body or title is not in yet: the words it has, not
    // kept (its card is written again when the pack comes). Nor while the
    // index's word list is not all in: a word whose pack is not in is
    // unknown, and a later query may match it.
    if engine.body(doc).is_none() || engine.title(doc).is_none() || !engine.words_all_in() {
        return Some(f(&engine.doc_words(doc)));
    }
    WORDS.with_borrow_mut(|kept| {
        explorer_core::search::kept_or_made(kept, doc, WORDS_KEPT, make_room, || {
            engine.doc_words(doc)
        })
        .map(|words| f(words))
    })
}
