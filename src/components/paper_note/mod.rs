use leptos::prelude::*;

use crate::i18n::use_i18n;
use crate::reading_list::Stars;
use crate::Explorer;

/// The reader's private note on a starred paper, kept with the reading
/// list as it is typed.
#[component]
pub fn PaperNote(doc: u32) -> impl IntoView {
    let x = expect_context::<Explorer>();
    let stars = expect_context::<Stars>();
    let tr = use_i18n();
    let id = x.engine.corpus.papers[doc as usize].id.as_str();
    view! {
        <Show when=move || stars.is_starred(id)>
            <details class="paper-note" open=move || !stars.note(id).is_empty()>
                <summary>{move || tr.get().note}</summary>
                <textarea
                    rows="3"
                    aria-label=move || tr.get().note_label
                    prop:value=move || stars.note(id)
                    on:input:target=move |ev| stars.set_note(id, &ev.target().value())
                ></textarea>
            </details>
        </Show>
    }
}
