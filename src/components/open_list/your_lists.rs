//! "Your lists": the lists this browser keeps (name, papers, size, date),
//! each a link that opens it, with a button that downloads its explorer
//! (the site the CLI builds for it, as a zip) and one that deletes it; and
//! the built-in list. Rendered by the `open_list` chunk
//! ([`crate::chunks`]), which reads the records: a visitor who keeps no
//! list downloads neither.

use explorer_core::model::opened::{open_search, CompilerReply, KeptList, OpenError, OpenRequest};
use leptos::prelude::*;
use send_wrapper::SendWrapper;

use crate::i18n::use_i18n;

/// Shown once this browser keeps a list (when the chunk has come).
#[component]
pub fn YourLists() -> impl IntoView {
    crate::opened::keeps_any().then(|| {
        // The chunk's call is a future of this thread (a view's, here).
        Suspend::new(SendWrapper::new(async {
            lists_in_chunk().await.unwrap_or_else(|_| ().into_any())
        }))
    })
}

/// [`Lists`], in the `open_list` chunk.
#[leptos::wasm_split::wasm_split(open_list, fallible, wasm_split_path = ::leptos::wasm_split)]
fn lists_in_chunk() -> Result<AnyView, crate::chunks::Unfetched> {
    Ok(view! { <Lists /> }.into_any())
}

/// The kept lists and the built-in one.
#[component]
fn Lists() -> impl IntoView {
    let tr = use_i18n();
    let lists = RwSignal::new(crate::opened::kept());
    let in_view = StoredValue::new(crate::opened::in_view().map(|l| l.id));
    let is_in_view = move |id: &str| in_view.with_value(|v| v.as_deref() == Some(id));
    let delete = Callback::new(move |id: String| {
        crate::opened::forget(&id);
        lists.set(crate::opened::kept());
        if is_in_view(&id) {
            let _ = window().location().set_href("./");
        }
    });
    view! {
        <Show when=move || lists.with(|l| !l.is_empty())>
            <details class="your-lists">
                <summary>{move || (tr.get().your_lists)(lists.with(Vec::len))}</summary>
                <ul>
                    <li>
                        <a href="./" aria-current=in_view.with_value(Option::is_none).then_some("page")>
                            {move || tr.get().builtin_list}
                        </a>
                    </li>
                    <For each=move || lists.get() key=|l| l.id.clone() let:list>
                        <Kept current=is_in_view(&list.id) list delete />
                    </For>
                </ul>
            </details>
        </Show>
    }
}

/// One kept list's line.
#[component]
fn Kept(list: KeptList, current: bool, delete: Callback<String>) -> impl IntoView {
    let tr = use_i18n();
    let href = open_search(list.url.as_deref().unwrap_or(&list.id));
    let size = format!("{:.1} MB", list.bytes as f64 / 1e6);
    let date: String = String::from(js_sys::Date::new(&list.date.into()).to_iso_string())
        .chars()
        .take(10)
        .collect();
    let (name, id) = (list.name.clone(), list.id.clone());
    let hint = {
        let name = name.clone();
        move || (tr.get().publish_list_hint)(&name)
    };
    let label = move || (tr.get().delete_list)(&name);
    let publishing = RwSignal::new(Publishing::Idle);
    let publish = {
        let (file, id) = (list.file.clone(), list.id.clone());
        move |_| publish(&file, &id, publishing)
    };
    view! {
        <li>
            <a href=href aria-current=current.then_some("page")>{list.name.clone()}</a>
            " "
            <span class="kept-line">{move || (tr.get().kept_list_line)(list.papers, &size, &date)}</span>
            " "
            <button type="button" class="button pill" title=hint on:click=publish>
                {move || tr.get().publish_list}
            </button>
            " "
            <button
                type="button"
                class="button pill"
                aria-label=label.clone()
                title=label
                on:click=move |_| delete.run(id.clone())
            >
                "×"
            </button>
            <span class="kept-status" role="status">
                {move || match publishing.get() {
                    Publishing::Idle => String::new(),
                    Publishing::Making => tr.get().publishing.to_string(),
                    Publishing::Failed(e) => (tr.get().open_failed)(&e),
                }}
            </span>
        </li>
    }
}

/// Where making a kept list's site is.
#[derive(Clone, PartialEq)]
enum Publishing {
    Idle,
    Making,
    Failed(OpenError),
}

/// Asks the page's compiler for the site of the kept list `id` (compiled
/// from `file`), offered as a download when made.
fn publish(file: &str, id: &str, publishing: RwSignal<Publishing>) {
    let request = OpenRequest {
        name: file.to_string(),
        url: None,
        publish: Some(id.to_string()),
    };
    publishing.set(Publishing::Making);
    let heard = move |reply| match reply {
        CompilerReply::Published { .. } => publishing.set(Publishing::Idle),
        CompilerReply::Failed { error } => publishing.set(Publishing::Failed(error)),
        _ => {}
    };
    crate::opened::start_compile(request, None, heard);
}
