use explorer_core::view::{export_with, Format};
use explorer_core::Engine;
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
        let job = Export {
            engine: x.engine,
            docs,
            format,
            address: page_address(),
        };
        let first = QUEUE.with(|q| {
            let mut q = q.borrow_mut();
            q.push_back(job);
            q.len() == 1
        });
        if first {
            leptos::task::spawn_local(write_queued());
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
    // The formats' writers are fetched as the menu opens, before a click.
    let opened = move |_| {
        leptos::task::spawn_local(async {
            let _ = preload_export().await;
        })
    };
    view! {
        <details class="export" on:toggle=opened>
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

/// One export asked for.
#[derive(Clone)]
struct Export {
    engine: &'static Engine,
    docs: Vec<u32>,
    format: Format,
    address: String,
}

thread_local! {
    /// Exports asked for and not written yet, in the order asked.
    static QUEUE: std::cell::RefCell<std::collections::VecDeque<Export>> =
        std::cell::RefCell::default();
}

/// Writes the queued exports in order (one task: the downloads come in
/// the order the reader asked for them, the chunk fetched or not).
async fn write_queued() {
    while let Some(job) = QUEUE.with(|q| q.borrow().front().cloned()) {
        if export_in_chunk(job.engine, job.docs, job.format, job.address)
            .await
            .is_err()
        {
            web_sys::console::error_1(&"export failed: the page is offline".into());
        }
        QUEUE.with(|q| q.borrow_mut().pop_front());
    }
}

/// The results written as `format` and offered as a download, in a chunk
/// of the module of its own ([`crate::chunks`]), fetched the first time a
/// reader exports: the formats' writers are not on every visitor's page.
#[leptos::wasm_split::wasm_split(
    export,
    fallible,
    preload(preload_export),
    wasm_split_path = ::leptos::wasm_split
)]
fn export_in_chunk(
    e: &'static Engine,
    docs: Vec<u32>,
    format: Format,
    address: String,
) -> Result<(), crate::chunks::Unfetched> {
    let text = export_with(&e.corpus, e, &docs, |d| e.body(d), format, &address);
    if let Err(e) = offer_download(&text, format.mime(), &format!("papers.{}", format.key())) {
        web_sys::console::error_2(&"export failed:".into(), &e);
    }
    Ok(())
}
