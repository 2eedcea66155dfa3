//! "Open a list…": a list of the reader's own (a file chosen or dropped on
//! the page, or `?source=URL`) compiled in the page's compiler (a Web
//! Worker, [`crate::opened`]) while the list in view stays usable, with its
//! stage, a cancel button and the compiler's own errors; and "Your lists",
//! the lists this browser keeps.

mod your_lists;

use explorer_core::model::opened::{
    is_list_id, open_search, CompilerReply, KeptList, OpenError, OpenRequest, OpenStage,
};
use explorer_core::Corpus;
use leptos::prelude::*;

use crate::explorer::Explorer;
use crate::i18n::use_i18n;
pub use your_lists::YourLists;

/// Where opening a list is.
#[derive(Clone, PartialEq)]
enum Opening {
    Idle,
    Running(OpenStage),
    Failed(OpenError),
}

/// The button, the drop target (the whole page), the progress and the
/// errors. Shown where the page has its compiler and can keep a list.
#[component]
pub fn OpenList() -> impl IntoView {
    let tr = use_i18n();
    let opening = RwSignal::new(Opening::Idle);
    let input = NodeRef::<leptos::html::Input>::new();
    let supported = crate::opened::compiler_href().is_some();
    let corpus = &expect_context::<Explorer>().engine.corpus;
    if supported {
        open_dropped(opening);
        open_address_url(opening, corpus);
    }
    let chosen = move |_| {
        let Some(input) = input.get() else { return };
        if let Some(file) = input.files().and_then(|f| f.get(0)) {
            start(opening, request_for(&file.name(), None), Some(file));
        }
        input.set_value("");
    };
    let choose = move |_| {
        if let Some(input) = input.get() {
            input.click();
        }
    };
    let not_opened = crate::opened::not_opened(corpus);
    view! {
        <Show when=move || supported>
            <div class="open-list">
                <button type="button" class="button pill" title=move || tr.get().open_list_hint on:click=choose>
                    {move || tr.get().open_list}
                </button>
                <input
                    type="file"
                    class="visually-hidden"
                    tabindex="-1"
                    aria-hidden="true"
                    accept=".bib,.ris,.json,.jsonl,.ndjson,.csv,.txt"
                    node_ref=input
                    on:change=chosen
                />
                <Progress opening />
            </div>
        </Show>
        <Summary />
        <Show when=move || not_opened.is_some()>
            <p class="open-list-error" role="status">
                {move || match not_opened {
                    Some(crate::opened::NotOpened::FilesGone) => tr.get().list_files_gone,
                    _ => tr.get().list_not_kept,
                }}
            </p>
        </Show>
    }
}

/// What the compile of the list in view kept: its summary, and what the
/// reader repaired or skipped, line by line (a list kept by an older page
/// has no summary).
#[component]
fn Summary() -> impl IntoView {
    let tr = use_i18n();
    let list = crate::opened::in_view().filter(|l| l.records > 0);
    list.map(|list| {
        let KeptList { records, papers, without_abstract, skipped, said, .. } = list;
        let n = said.len();
        view! {
            <p class="open-list-summary" role="status">
                {move || (tr.get().opened_summary)(records, papers, without_abstract, skipped)}
            </p>
            <Show when=move || n != 0>
                <details class="open-list-said">
                    <summary>{move || (tr.get().opened_said)(n)}</summary>
                    <ul>{said.iter().map(|line| view! { <li>{line.clone()}</li> }).collect_view()}</ul>
                </details>
            </Show>
        }
    })
}

/// The stage and its cancel button while a list compiles; why it failed
/// after.
#[component]
fn Progress(opening: RwSignal<Opening>) -> impl IntoView {
    let tr = use_i18n();
    let cancel = move |_| {
        crate::opened::cancel();
        opening.set(Opening::Idle);
    };
    move || {
        let t = tr.get();
        match opening.get() {
            Opening::Idle => ().into_any(),
            Opening::Running(stage) => view! {
                <progress max=OpenStage::ALL.len() value=stage.step() + 1 aria-label=(t.open_stage)(stage)></progress>
                <span role="status">{(t.open_stage)(stage)}</span>
                <button type="button" class="button pill" on:click=cancel>{t.open_cancel}</button>
            }
            .into_any(),
            Opening::Failed(error) => view! {
                <p class="open-list-error" role="alert">{(t.open_failed)(&error)}</p>
            }
            .into_any(),
        }
    }
}

/// What to ask the compiler for a list named `name` (at `url`, if fetched).
fn request_for(name: &str, url: Option<String>) -> OpenRequest {
    OpenRequest {
        name: name.to_string(),
        url,
        publish: None,
    }
}

/// Starts compiling; once the list is kept, the page opens it (the
/// address names it: `?source=<id>`, or the URL it already names).
fn start(opening: RwSignal<Opening>, request: OpenRequest, file: Option<web_sys::File>) {
    opening.set(Opening::Running(OpenStage::Reading));
    let by_url = request.url.is_some();
    let heard = move |reply| match reply {
        CompilerReply::Stage { stage } => opening.set(Opening::Running(stage)),
        CompilerReply::Failed { error } => opening.set(Opening::Failed(error)),
        CompilerReply::Done { list, .. } => {
            let location = window().location();
            let _ = if by_url {
                location.reload()
            } else {
                location.set_search(&open_search(&list.id))
            };
        }
        CompilerReply::Published { .. } => {}
    };
    crate::opened::start_compile(request, file, heard);
}

/// A file dropped anywhere on the page is opened. (The outside world:
/// the window's drag events.)
fn open_dropped(opening: RwSignal<Opening>) {
    let files = |e: &web_sys::DragEvent| e.data_transfer().and_then(|d| d.files());
    let over = window_event_listener(leptos::ev::dragover, move |e| {
        if e.data_transfer()
            .is_some_and(|d| d.types().includes(&"Files".into(), 0))
        {
            e.prevent_default();
        }
    });
    let drop = window_event_listener(leptos::ev::drop, move |e| {
        let Some(file) = files(&e).and_then(|f| f.get(0)) else {
            return;
        };
        e.prevent_default();
        start(opening, request_for(&file.name(), None), Some(file));
    });
    on_cleanup(move || {
        over.remove();
        drop.remove();
    });
}

/// `?source=URL` names a list this browser does not keep yet: it is
/// fetched and compiled, the built-in list shown meanwhile.
fn open_address_url(opening: RwSignal<Opening>, corpus: &Corpus) {
    if crate::opened::in_view().is_some() {
        return;
    }
    // A list's id is not a URL: a list this browser does not keep (said
    // by `not_opened`).
    let Some(named) = crate::opened::address_list(Some(corpus)).filter(|n| !is_list_id(n)) else {
        return;
    };
    let Some(url) = crate::opened::source_url(&named) else {
        return;
    };
    let name = url
        .rsplit('/')
        .find(|s| !s.is_empty())
        .unwrap_or("list")
        .to_string();
    start(opening, request_for(&name, Some(url)), None);
}
