use leptos::prelude::*;

use crate::i18n::use_i18n;

/// Switches the interface between English and Chinese (remembered in this
/// browser). Its label is the other language, written in that language.
#[component]
pub fn LanguageToggle() -> impl IntoView {
    let tr = use_i18n();
    view! {
        <button
            type="button"
            class="button pill language-toggle"
            lang=move || if tr.get().html_lang == "en" { "zh-Hans" } else { "en" }
            title=move || tr.get().switch_language
            on:click=move |_| tr.switch()
        >
            {move || tr.get().other_language}
        </button>
    }
}
