use leptos::prelude::*;

use crate::i18n::use_i18n;
use crate::Explorer;

/// Where this browser remembers that a build was saved for offline use
/// (the index file's name: a new build is saved anew).
const KEY: &str = "paper-explorer-offline";

/// Where saving for offline use is.
#[derive(Clone, Copy, PartialEq)]
enum Saving {
    /// Not asked for (or stopped: `failed`).
    Idle { failed: bool },
    /// Under way: the percent of the bytes in.
    Running(u32),
    /// Everything is in the service worker's cache.
    Done,
}

/// "Save for offline use (up to 12.3 MB)": fetches what a large list
/// fetches only when a query needs it (the packs of postings not in yet,
/// the meaning file), so that the service worker keeps it, with a progress
/// bar. Shown once the index is in, where a service worker can run, and
/// while something is left to fetch (a small list has its packs
/// precached, and only the meaning file is left).
#[component]
pub fn OfflineSave() -> impl IntoView {
    let x = expect_context::<Explorer>();
    let tr = use_i18n();
    let build = crate::load::index_file();
    let saved_before = build.is_some() && crate::storage::get_choice(KEY) == build;
    let saving = RwSignal::new(if saved_before {
        Saving::Done
    } else {
        Saving::Idle { failed: false }
    });
    // What is left to fetch, once the index (which names the packs) is in.
    let left =
        move || (x.has_index() && crate::offline::supported()).then(crate::load::offline_bytes);
    let start = move |_| {
        saving.set(Saving::Running(0));
        let progress = Box::new(move |percent| saving.set(Saving::Running(percent)));
        let done = Box::new(move |result: Result<(), String>| match result {
            Ok(()) => {
                crate::storage::set_choice(KEY, crate::load::index_file().as_deref());
                saving.set(Saving::Done);
            }
            Err(e) => {
                web_sys::console::warn_1(&e.into());
                saving.set(Saving::Idle { failed: true });
            }
        });
        leptos::task::spawn_local(async move {
            if save_in_chunk(progress, done).await.is_err() {
                saving.set(Saving::Idle { failed: true });
            }
        });
    };
    let shown = move || {
        saving.get() == Saving::Done && crate::offline::supported()
            || left().is_some_and(|bytes| bytes > 0)
    };
    view! {
        <Show when=shown>
            <div class="offline-save">
                {move || {
                    let t = tr.get();
                    match saving.get() {
                        Saving::Idle { failed } => {
                            let size = format!("{:.1} MB", left().unwrap_or(0) as f64 / 1e6);
                            view! {
                                <button type="button" class="button pill" on:click=start>
                                    {(t.offline_save)(&size)}
                                </button>
                                {failed.then(|| view! { <span role="status">{t.offline_failed}</span> })}
                            }
                                .into_any()
                        }
                        Saving::Running(percent) => {
                            view! {
                                <progress max="100" value=percent aria-label=(t.offline_saving)(percent)></progress>
                                <span role="status">{(t.offline_saving)(percent)}</span>
                            }
                                .into_any()
                        }
                        Saving::Done => {
                            view! { <span class="offline-saved" role="status">{t.offline_saved}</span> }
                                .into_any()
                        }
                    }
                }}
            </div>
        </Show>
    }
}

/// [`crate::load::save_for_offline`], in a chunk of the module of its own
/// ([`crate::chunks`]), fetched when a reader first saves for offline use.
#[leptos::wasm_split::wasm_split(offline_save, fallible, wasm_split_path = ::leptos::wasm_split)]
fn save_in_chunk(
    progress: Box<dyn Fn(u32)>,
    done: Box<dyn FnOnce(Result<(), String>)>,
) -> Result<(), crate::chunks::Unfetched> {
    crate::load::save_for_offline(progress, move |result| {
        done(result.map_err(|e| e.to_string()))
    });
    Ok(())
}
