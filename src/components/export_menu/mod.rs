use explorer_core::export::{export, Format};
use leptos::prelude::*;
use wasm_bindgen::{JsCast, JsValue};

use crate::explorer::page_address;
use crate::Explorer;

/// “Export”: the results shown, in the order shown, as CSV, JSON, Markdown
/// or BibTeX, downloaded as a file (made in the page; nothing is sent).
#[component]
pub fn ExportMenu() -> impl IntoView {
    let x = expect_context::<Explorer>();
    let download = move |format: Format| {
        let docs = x.response.with_untracked(|r| r.docs());
        let text = export(&x.engine.corpus, &docs, format, &page_address());
        if let Err(e) = save(&text, format) {
            web_sys::console::error_2(&"export failed:".into(), &e);
        }
    };
    view! {
        <details class="export">
            <summary>"Export"</summary>
            <ul class="export-formats" aria-label="Export the results as">
                {Format::ALL
                    .into_iter()
                    .map(|f| {
                        view! {
                            <li>
                                <button type="button" data-format=f.key() on:click=move |_| download(f)>
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

/// Offers `text` as a file download (`papers.csv`, …).
fn save(text: &str, format: Format) -> Result<(), JsValue> {
    let parts = js_sys::Array::of1(&JsValue::from_str(text));
    let options = web_sys::BlobPropertyBag::new();
    options.set_type(format.mime());
    let blob = web_sys::Blob::new_with_str_sequence_and_options(&parts, &options)?;
    let url = web_sys::Url::create_object_url_with_blob(&blob)?;
    let a: web_sys::HtmlAnchorElement = document().create_element("a")?.unchecked_into();
    a.set_href(&url);
    a.set_download(&format!("papers.{}", format.key()));
    a.click();
    // The download has started from the URL; it can go once this task ends.
    set_timeout(
        move || {
            let _ = web_sys::Url::revoke_object_url(&url);
        },
        std::time::Duration::from_secs(10),
    );
    Ok(())
}
