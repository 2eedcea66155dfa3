use leptos::prelude::*;

use super::paper_card::PaperCard;
use crate::Explorer;

/// The ranked results; cards are keyed by paper so unchanged ones are reused.
#[component]
pub fn ResultList() -> impl IntoView {
    let x = expect_context::<Explorer>();
    let docs = move || {
        x.response
            .with(|r| r.hits.iter().map(|h| h.doc).collect::<Vec<_>>())
    };
    view! {
        <ol class="results" aria-label="Papers">
            <For each=docs key=|d| *d let(doc)>
                <li>
                    <PaperCard doc=doc />
                </li>
            </For>
        </ol>
    }
}
