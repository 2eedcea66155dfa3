use leptos::prelude::*;

use crate::reading_list::Stars;
use crate::Explorer;

/// “Star”: puts the paper on the reading list, or takes it off (asking
/// first when that would drop a note).
#[component]
pub fn StarButton(doc: u32) -> impl IntoView {
    let x = expect_context::<Explorer>();
    let stars = expect_context::<Stars>();
    let p = &x.engine.corpus.papers[doc as usize];
    let id = p.id.as_str();
    let starred = move || stars.is_starred(id);
    let toggle = move |_| {
        let note = stars.note(id);
        if starred() && !note.trim().is_empty() {
            let drop = window()
                .confirm_with_message("Unstar this paper and delete your note on it?")
                .unwrap_or(false);
            if !drop {
                return;
            }
        }
        stars.toggle(id, &p.title);
    };
    view! {
        <button
            type="button"
            class="star-button"
            aria-pressed=move || starred().to_string()
            aria-label=move || if starred() { "Starred (click to unstar)" } else { "Star: add to the reading list" }
            on:click=toggle
        >
            <span aria-hidden="true">{move || if starred() { "★" } else { "☆" }}</span>
        </button>
    }
}
