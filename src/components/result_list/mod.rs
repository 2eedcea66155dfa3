//! The ranked results as an ordered list. Its items are the cards, written
//! as HTML strings by [`crate::cards::Placement`], not Leptos views
//! (ARCHITECTURE.md, "Why the cards are HTML strings").

use leptos::prelude::*;

use crate::cards::{px, KeyedItems, Placement};
use crate::i18n::use_i18n;
use crate::Explorer;

/// The ranked results. Cards are keyed by paper: the cards that stay are
/// kept (their highlights rewritten when the query's changed) and moved
/// into the ranked order, new ones are written from one HTML string, and a
/// keystroke's cards are in the document in the same task as its search
/// (only the page's first results write what is below the first screen
/// after the first paint). Long result lists are windowed
/// ([`explorer_core::view::window`]): cards outside the screen are replaced by
/// their measured (or estimated) height. Heights and the list's place are
/// read in the next frame, and the scroll position on scroll: nothing in
/// the path of a keystroke reads layout.
#[component]
pub fn ResultList() -> impl IntoView {
    let x = expect_context::<Explorer>();
    let tr = use_i18n();
    let at = Placement::new(x);
    Effect::new(move |_| {
        x.search.response.track();
        at.relayout.track();
        at.refill();
    });
    // Scrolling and resizing move the window (at most once a frame).
    let scroll = window_event_listener(leptos::ev::scroll, move |_| at.on_move());
    let resize = window_event_listener(leptos::ev::resize, move |_| at.on_move());
    // A linked paper is held on screen until the reader takes over.
    let taken = [
        window_event_listener(leptos::ev::wheel, move |_| at.release()),
        window_event_listener(leptos::ev::touchstart, move |_| at.release()),
        window_event_listener(leptos::ev::keydown, move |_| at.release()),
        window_event_listener(leptos::ev::mousedown, move |_| at.release()),
    ];
    on_cleanup(move || {
        scroll.remove();
        resize.remove();
        taken.into_iter().for_each(|h| h.remove());
    });
    Effect::new(move |_| {
        if let Some(id) = x.view.open.get() {
            at.scroll_to(&id);
        }
    });
    // Cards waiting in the pool are in the language they were written in.
    Effect::new(move |first: Option<()>| {
        tr.get();
        if first.is_some() {
            at.cards
                .update_value(|c| c.as_mut().map_or((), KeyedItems::drop_pool));
        }
    });
    let window_ = at.window;
    let waiting = at.waiting;
    // The list's items are the cards, written by `Placement::show`.
    view! {
        <ol
            class="results"
            aria-label=move || tr.get().results_label
            node_ref=at.list
            style:padding-top=move || window_.get().map(|w| px(w.above))
            style:padding-bottom=move || {
                window_.get().map(|w| w.below).or(waiting.get()).map(px)
            }
        ></ol>
    }
}
