use leptos::prelude::*;

use super::paper_card::PaperCard;
use crate::i18n::use_i18n;
use crate::Explorer;

/// Below the matches (and in their place when there are none): the papers
/// closest in meaning to the query that it does not match, each with the
/// words of the paper that bring it.
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
                        <li data-doc=r.doc>
                            <p class="related-via">
                                {move || tr.get().related_via} " "
                                <span class="related-words">{r.via.join(", ")}</span>
                            </p>
                            <PaperCard doc=r.doc related=true />
                        </li>
                    </For>
                </ol>
            </section>
        </Show>
    }
}
