use leptos::prelude::*;

use crate::i18n::{use_i18n, Strings};

/// A text to copy: a one-line field (a link) beside its copy button, or a
/// few rows (a snippet) above it. The field is read-only and selects itself
/// whole when focused; the button puts the text on the clipboard.
#[component]
pub fn CopyField(
    /// What is shown and copied.
    #[prop(into)]
    text: Signal<String>,
    /// The button's words.
    button: fn(&Strings) -> &'static str,
    /// The field's `id`, for a `<label for>` beside it.
    #[prop(optional)]
    id: Option<&'static str>,
    /// The field's class.
    #[prop(optional)]
    class: Option<&'static str>,
    /// The field's accessible name when no `<label>` names it.
    #[prop(optional)]
    label: Option<fn(&Strings) -> &'static str>,
    /// Rows of a multi-line field; a one-line field without.
    #[prop(optional)]
    rows: Option<u32>,
) -> impl IntoView {
    let tr = use_i18n();
    let copy = move |_| {
        let _ = window()
            .navigator()
            .clipboard()
            .write_text(&text.get_untracked());
    };
    let name = move || label.map(|l| l(tr.get()));
    let copy_button = move || {
        view! { <button type="button" class="button" on:click=copy>{move || button(tr.get())}</button> }
    };
    match rows {
        None => view! {
            <div class="share-row">
                <input id=id class=class type="text" readonly aria-label=name prop:value=text on:focus:target=move |ev| ev.target().select() />
                {copy_button()}
            </div>
        }
        .into_any(),
        Some(rows) => view! {
            <textarea id=id class=class readonly rows=rows aria-label=name prop:value=text on:focus:target=move |ev| ev.target().select()></textarea>
            {copy_button()}
        }
        .into_any(),
    }
}
