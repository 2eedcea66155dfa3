use explorer_core::view as card;
use leptos::html::{Div, Ol};
use leptos::prelude::*;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

use crate::cards::{CardMaker, KeyedItems};
use crate::i18n::use_i18n;
use crate::Explorer;

/// Below the matches (and in their place when there are none): the papers
/// closest in meaning to the query that it does not match, or most like
/// the reading list. Each is a title with the words that bring it, written
/// as one HTML string ([`explorer_core::view::related_item_html`]: building
/// ten Leptos items a keystroke was 4 ms of the seeds' 7 ms p50); its card
/// (abstract, tags, star) is written when the reader first opens it.
#[component]
pub fn RelatedPapers() -> impl IntoView {
    let x = expect_context::<Explorer>();
    let tr = use_i18n();
    let like = move || x.view.state.with(|s| s.like_starred);
    let place = NodeRef::<Div>::new();
    watch_place(place, x);
    let list = NodeRef::<Ol>::new();
    write_items(x, list);
    let open_card = open_card_on_click(CardMaker::new());
    view! {
        // Always there, empty or not: what the screen's distance is watched on.
        <div class="related-place" node_ref=place></div>
        <Show when=move || x.related.list.with(|r| !r.papers.is_empty())>
            <section class="related" aria-labelledby="related-heading">
                <h2 id="related-heading">
                    {move || if like() { tr.get().like_heading } else { tr.get().related_heading }}
                </h2>
                <p class="related-note">
                    {move || if like() { tr.get().like_note } else { tr.get().related_note }}
                    {move || {
                        x.counts_related()
                            .then(|| format!(" {}", (tr.get().related_counted)(x.counted())))
                    }}
                </p>
                <ol class="related-list" node_ref=list on:click=open_card></ol>
            </section>
        </Show>
    }
}

/// Writes the related papers into the list element shown (the outside
/// world: its items are string-rendered and keyed, hence an Effect), again
/// whole when the language changes or titles it showed loading come.
fn write_items(x: Explorer, list: NodeRef<Ol>) {
    let tr = use_i18n();
    // The items of the list element shown (a new one each time the list
    // reappears), and the language they were written in.
    let items = StoredValue::new_local((None::<web_sys::Element>, KeyedItems::default(), None));
    // A long list's titles come in packs: the list is written again, whole,
    // once some it showed loading have come.
    let titles_came = RwSignal::new(0u32);
    Effect::new(move |_| {
        titles_came.track();
        let lang = tr.get().html_lang;
        let Some(ol) = list.get() else { return };
        let ol: web_sys::Element = ol.into();
        let docs: Vec<u32> = x.related.list.with(|related| {
            items.update_value(|(shown_in, keyed, written_in)| {
                if shown_in.as_ref() != Some(&ol) || *written_in != Some(lang) {
                    if shown_in.as_ref() == Some(&ol) {
                        keyed.clear();
                    } else {
                        *keyed = KeyedItems::default();
                    }
                    *shown_in = Some(ol.clone());
                    *written_in = Some(lang);
                }
                let keys: Vec<(u32, String)> = related
                    .papers
                    .iter()
                    .map(|r| (r.doc, r.via.join(", ")))
                    .collect();
                let via_label = tr.now().related_via;
                keyed.show(
                    &ol,
                    &keys,
                    |(doc, via), html| {
                        html.push_str(&card::related_item_html(x.engine, *doc, via_label, via))
                    },
                    |_, _| {},
                );
            });
            related.papers.iter().map(|r| r.doc).collect()
        });
        crate::load::when_titles_in(docs, move |came| {
            if came {
                // Written as new, in the same language: every item again.
                items.update_value(|(_, _, written_in)| *written_in = None);
                titles_came.update(|n| *n += 1);
            }
        });
    });
}

/// What a click in the list does: a related paper opened for the first
/// time gets its card.
fn open_card_on_click(make: CardMaker) -> impl Fn(leptos::ev::MouseEvent) + Copy + 'static {
    move |ev: leptos::ev::MouseEvent| {
        let Some(summary) = ev
            .target()
            .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
            .and_then(|t| t.closest("summary").ok().flatten())
        else {
            return;
        };
        let Some(li) = summary.closest("li[data-doc]").ok().flatten() else {
            return;
        };
        let doc = li.get_attribute("data-doc").and_then(|d| d.parse().ok());
        if let Some(doc) = doc.filter(|_| li.query_selector("article").ok().flatten().is_none()) {
            let card = make.html(doc, &explorer_core::Highlights::default(), None);
            let _ = summary.insert_adjacent_html("afterend", &card);
        }
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
        x.view.state.track();
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
