use leptos::prelude::*;

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
    view! {
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
                    <PaperCard doc=doc related=true />
                </Show>
            </details>
        </li>
    }
}
