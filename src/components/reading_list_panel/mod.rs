use leptos::prelude::*;
use wasm_bindgen::JsCast;

use super::copy_field::CopyField;
use super::facet_row::{bar, FacetRow};
use crate::download::offer_download;
use crate::i18n::{use_i18n, Strings};
use crate::reading_list::{ImportProblem, Notice, Stars};
use crate::Explorer;

/// The reading list in the sidebar: “Starred” as a facet (with its count
/// among the results), export and import of the list with its notes, and
/// what the reader should know about where it is kept.
#[component]
pub fn ReadingListPanel() -> impl IntoView {
    let x = expect_context::<Explorer>();
    let stars = expect_context::<Stars>();
    let tr = use_i18n();
    let active = move || x.view.state.with(|s| s.starred);
    let count = move || x.starred_count();
    let export = move |_| export_list(stars);
    let import = move |ev| import_file(ev, stars, x);
    view! {
        <fieldset class="facet reading-list" data-facet="starred">
            <legend>{move || tr.get().reading_list}</legend>
            <FacetRow
                label=Signal::derive(move || tr.get().starred.to_string())
                count=Memo::new(move |_| count())
                share=Memo::new(move |_| bar(count(), x.counted()))
                checked=Memo::new(move |_| active())
                on_toggle=move || x.toggle_starred()
            />
            <div class="reading-list-actions">
                <button
                    type="button"
                    class="button pill"
                    disabled=move || stars.len() == 0
                    on:click=export
                >
                    {move || tr.get().export_list}
                </button>
                <button
                    type="button"
                    class="button pill like-starred"
                    disabled=move || stars.len() == 0 || !x.has_meaning()
                    aria-pressed=move || x.view.state.with(|s| s.like_starred).to_string()
                    on:click=move |_| x.toggle_like_starred()
                >
                    {move || tr.get().like_starred}
                </button>
                <label class="button pill import">
                    {move || tr.get().import}
                    <input type="file" accept=".json,application/json" on:change=import />
                </label>
            </div>
            <ShareList />
            <p class="reading-list-notice" role="status">
                {move || stars.notice.get().map(|n| describe(tr.get(), &n, stars.len()))}
            </p>
        </fieldset>
    }
}

/// Offers the reading list as a file (written in its chunk of the module).
fn export_list(stars: Stars) {
    leptos::task::spawn_local(async move {
        let Ok(json) = stars.json().await else {
            stars.notice.set(Some(Notice::ExportUnfetched));
            return;
        };
        if let Err(e) = offer_download(&json, "application/json", "reading-list.json") {
            web_sys::console::error_2(&"export failed:".into(), &e);
        }
    });
}

/// Merges the reading-list file chosen in the file input into the list.
fn import_file(ev: leptos::ev::Event, stars: Stars, x: Explorer) {
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
            Ok(text) => {
                stars
                    .import(text.as_string().unwrap_or_default(), x.engine)
                    .await
            }
            Err(_) => stars
                .notice
                .set(Some(Notice::ImportFailed(ImportProblem::Unreadable))),
        }
    });
}

fn describe(t: &Strings, n: &Notice, total: usize) -> String {
    match n {
        Notice::InMemory => t.in_memory.into(),
        Notice::KeptAside { aside, error } => (t.kept_aside)(error, aside),
        Notice::Imported { merged, elsewhere } => {
            let mut s = (t.imported)(merged.added, merged.notes_joined, total);
            if *elsewhere > 0 {
                s.push_str(&(t.elsewhere)(*elsewhere));
            }
            s
        }
        Notice::ImportFailed(ImportProblem::Unreadable) => (t.import_failed)(t.file_unreadable),
        Notice::ImportFailed(ImportProblem::Invalid(e)) => (t.import_failed)(&(t.import_error)(e)),
        Notice::ImportFailed(ImportProblem::Unfetched) => (t.import_failed)(t.file_code_unfetched),
        Notice::ExportUnfetched => (t.export_failed)(t.file_code_unfetched),
    }
}

/// **Share list**: a link that carries the starred papers (and the notes,
/// if the reader ticks that) in its fragment, with a copy button.
#[component]
fn ShareList() -> impl IntoView {
    let x = expect_context::<Explorer>();
    let stars = expect_context::<Stars>();
    let tr = use_i18n();
    let (open, set_open) = signal(false);
    let (notes, set_notes) = signal(false);
    let link = move || {
        if !open.get() {
            return String::new();
        }
        x.share_list_url(&stars.snapshot(), notes.get())
    };
    view! {
        <Show when=move || stars.len() != 0>
            <details class="share-list" on:toggle:target=move |ev| set_open.set(ev.target().open())>
                <summary class="button pill">{move || tr.get().share_list}</summary>
                <label class="share-list-notes">
                    <input type="checkbox" prop:checked=notes on:change:target=move |ev| set_notes.set(ev.target().checked()) />
                    {move || tr.get().share_with_notes}
                </label>
                <CopyField class="share-list-link" label=|t| t.share_list text=Signal::derive(link) button=|t| t.copy />
                <p class="share-note">{move || tr.get().share_list_note}</p>
            </details>
        </Show>
    }
}
