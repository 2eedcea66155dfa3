use leptos::prelude::*;

use crate::i18n::use_i18n;
use crate::reading_list::Stars;
use crate::Explorer;

/// “Star”: puts the paper on the reading list, or takes it off (asking
/// first when that would drop a note).
#[component]
pub fn StarButton(doc: u32) -> impl IntoView {
    let x = expect_context::<Explorer>();
    let stars = expect_context::<Stars>();
    let tr = use_i18n();
    let p = &x.engine.corpus.papers[doc as usize];
    let id = p.id.as_str();
    let starred = move || stars.is_starred(id);
    let toggle = move |_| {
        let note = stars.note(id);
        if starred() && !note.trim().is_empty() {
            let drop = window()
                .confirm_with_message(tr.now().confirm_unstar)
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
            aria-label=move || if starred() { tr.get().unstar } else { tr.get().star }
            on:click=toggle
        >
            <span aria-hidden="true">{move || if starred() { "★" } else { "☆" }}</span>
        </button>
    }
}
