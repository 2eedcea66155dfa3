use leptos::html::Div;
use leptos::prelude::*;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

use super::paper_card::PaperCard;
use crate::i18n::use_i18n;
use crate::Explorer;

/// Below the matches (and in their place when there are none): the papers
/// closest in meaning to the query that it does not match, or most like
/// the reading list. Each is a title with the words that bring it; its
/// card (abstract, tags, star) is built when the reader opens it, so that a
/// keystroke re-renders ten lines, not ten cards.
#[component]
pub fn RelatedPapers() -> impl IntoView {
    let x = expect_context::<Explorer>();
    let tr = use_i18n();
    let like = move || x.state.with(|s| s.like_starred);
    let place = NodeRef::<Div>::new();
    watch_place(place, x);
    view! {
        // Always there, empty or not: what the screen's distance is watched on.
        <div class="related-place" node_ref=place></div>
        <Show when=move || x.related.with(|r| !r.is_empty())>
            <section class="related" aria-labelledby="related-heading">
                <h2 id="related-heading">
                    {move || if like() { tr.get().like_heading } else { tr.get().related_heading }}
                </h2>
                <p class="related-note">
                    {move || if like() { tr.get().like_note } else { tr.get().related_note }}
                </p>
                <ol class="related-list">
                    <For
                        each=move || x.related.get()
                        key=|r| (r.doc, r.via.clone())
                        let(r)
                    >
                        <RelatedPaper doc=r.doc via=r.via.join(", ") />
                    </For>
                </ol>
            </section>
        </Show>
    }
}

/// One related paper: its title and why, opening to its card.
#[component]
fn RelatedPaper(doc: u32, via: String) -> impl IntoView {
    let x = expect_context::<Explorer>();
    let tr = use_i18n();
    let open = RwSignal::new(false);
    let title = x.engine.corpus.papers[doc as usize].title.clone();
    view! {
        <li data-doc=doc>
            <details on:toggle=move |ev| {
                open.set(event_target::<web_sys::HtmlDetailsElement>(&ev).open())
            }>
                <summary>
                    <span class="related-title">{title}</span>
                    " "
                    <span class="related-via">
                        {move || tr.get().related_via} " "
                        <span class="related-words">{via}</span>
                    </span>
                </summary>
                <Show when=move || open.get()>
                    <PaperCard doc=doc />
                </Show>
            </details>
        </li>
    }
}

/// Tells the explorer whether the related list's place is within a screen
/// of the viewport (an IntersectionObserver: the outside world, hence an
/// Effect). Without the observer (an old browser), the list is always made.
fn watch_place(place: NodeRef<Div>, x: Explorer) {
    // The observer speaks only when the place comes near or leaves. A new
    // view moves the place (its results are laid out anew), so the place is
    // observed afresh: the observer's first report, made after that layout,
    // says near or not for this view. (Trusting the last report instead
    // showed the list for a frame and hid it again when a view with few
    // results was followed by one with many.)
    let observer = StoredValue::new_local(None::<web_sys::IntersectionObserver>);
    Effect::new(move |_| {
        x.state.track();
        observer.with_value(|o| {
            if let (Some(o), Some(el)) = (o, place.get_untracked()) {
                o.unobserve(&el);
                o.observe(&el);
            }
        });
    });
    Effect::new(move |_| {
        let Some(el) = place.get() else { return };
        let on_change = Closure::<dyn FnMut(js_sys::Array)>::new(move |entries: js_sys::Array| {
            // The last entry is the newest state of the one element watched.
            if let Some(entry) = entries
                .iter()
                .last()
                .and_then(|e| e.dyn_into::<web_sys::IntersectionObserverEntry>().ok())
            {
                x.related_place_near(entry.is_intersecting());
            }
        });
        let options = web_sys::IntersectionObserverInit::new();
        options.set_root_margin("100% 0px");
        match web_sys::IntersectionObserver::new_with_options(
            on_change.as_ref().unchecked_ref(),
            &options,
        ) {
            Ok(o) => {
                o.observe(&el);
                observer.set_value(Some(o.clone()));
                on_cleanup(move || o.disconnect());
            }
            Err(_) => x.related_place_near(true),
        }
        on_change.forget();
    });
}
