use explorer_core::view::{export_with, Format};
use leptos::prelude::*;

use crate::download::offer_download;
use crate::explorer::page_address;
use crate::i18n::use_i18n;
use crate::Explorer;

/// “Export”: the results shown, in the order shown, as CSV, JSON, Markdown
/// or BibTeX, downloaded as a file (made in the page; nothing is sent).
#[component]
pub fn ExportMenu() -> impl IntoView {
    let x = expect_context::<Explorer>();
    let tr = use_i18n();
    let write = move |docs: Vec<u32>, format: Format| {
        let e = x.engine;
        let text = export_with(&e.corpus, e, &docs, |d| e.body(d), format, &page_address());
        if let Err(e) = offer_download(&text, format.mime(), &format!("papers.{}", format.key())) {
            web_sys::console::error_2(&"export failed:".into(), &e);
        }
    };
    // The papers' links (and a long list's titles and authors) are in
    // packs: those not in are fetched first.
    let download = move |format: Format| {
        let docs = x.search.response.with_untracked(|r| r.docs());
        let missing = x.engine.missing_card_packs(docs.iter().copied());
        if missing.is_empty() {
            return write(docs, format);
        }
        crate::load::fetch_paper_packs_then(&missing, move |result| match result {
            Ok(()) => write(docs, format),
            Err(e) => web_sys::console::error_1(&format!("export failed: {e}").into()),
        });
    };
    view! {
        <details class="export">
            <summary>{move || tr.get().export}</summary>
            <ul class="export-formats" aria-label=move || tr.get().export_as>
                {Format::ALL
                    .into_iter()
                    .map(|f| {
                        view! {
                            <li>
                                <button type="button" class="button" data-format=f.key() on:click=move |_| download(f)>
                                    {f.label()}
                                </button>
                            </li>
                        }
                    })
                    .collect_view()}
            </ul>
        </details>
    }
}
