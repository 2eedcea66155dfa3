use leptos::prelude::*;
use wasm_bindgen::JsCast;

use crate::download::offer_download;
use crate::reading_list::{Notice, Stars};
use crate::Explorer;

/// The reading list in the sidebar: “Starred” as a facet (with its count
/// among the results), export and import of the list with its notes, and
/// what the reader should know about where it is kept.
#[component]
pub fn ReadingListPanel() -> impl IntoView {
    let x = expect_context::<Explorer>();
    let stars = expect_context::<Stars>();
    let active = move || x.state.with(|s| s.starred);
    let count = move || x.starred_count();
    let export = move |_| {
        let json = stars.json();
        if let Err(e) = offer_download(&json, "application/json", "reading-list.json") {
            web_sys::console::error_2(&"export failed:".into(), &e);
        }
    };
    let import = move |ev: leptos::ev::Event| {
        let Some(input) = ev
            .target()
            .and_then(|t| t.dyn_into::<web_sys::HtmlInputElement>().ok())
        else {
            return;
        };
        let Some(file) = input.files().and_then(|f| f.get(0)) else {
            return;
        };
        // The same file can be chosen again later.
        input.set_value("");
        leptos::task::spawn_local(async move {
            match wasm_bindgen_futures::JsFuture::from(file.text()).await {
                Ok(text) => stars.import(&text.as_string().unwrap_or_default(), &x.engine.corpus),
                Err(_) => stars.notice.set(Some(Notice::ImportFailed(
                    "the file could not be read".into(),
                ))),
            }
        });
    };
    view! {
        <fieldset class="facet reading-list" data-facet="starred">
            <legend>"Reading list"</legend>
            <label
                class="facet-value"
                class:zero=move || count() == 0 && !active()
            >
                <input type="checkbox" prop:checked=active on:change=move |_| x.toggle_starred() />
                <span class="facet-label">"★ Starred"</span>
                <span class="facet-count">{count}</span>
            </label>
            <div class="reading-list-actions">
                <button
                    type="button"
                    class="pill-button"
                    disabled=move || stars.len() == 0
                    on:click=export
                >
                    "Export list"
                </button>
                <label class="pill-button import">
                    "Import…"
                    <input type="file" accept=".json,application/json" on:change=import />
                </label>
            </div>
            <p class="reading-list-notice" role="status">
                {move || stars.notice.get().map(|n| describe(&n, stars.len()))}
            </p>
        </fieldset>
    }
}

fn describe(n: &Notice, total: usize) -> String {
    match n {
        Notice::InMemory => "This browser does not let the page keep data here: stars and notes \
                             last until the page is closed. Export the list to keep it."
            .into(),
        Notice::KeptAside { aside, error } => format!(
            "The reading list stored in this browser could not be read ({error}). It is kept \
             unchanged under the key “{aside}”; new stars start a fresh list."
        ),
        Notice::Imported { merged, elsewhere } => {
            let mut s = format!(
                "Imported: {} new, {} notes joined; {total} on the list.",
                merged.added, merged.notes_joined
            );
            if *elsewhere > 0 {
                s.push_str(&format!(
                    " {elsewhere} are not in this corpus (kept, not shown)."
                ));
            }
            s
        }
        Notice::ImportFailed(e) => format!("Nothing imported: {e}."),
    }
}
