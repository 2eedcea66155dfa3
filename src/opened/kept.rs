//! The lists this browser keeps: their records (in localStorage, under
//! [`super::KEY`]) and their files (each list's own cache in Cache
//! Storage). All of it runs in the `open_list` chunk ([`crate::chunks`]):
//! only a reader who opens or keeps a list reads a record, and such a
//! reader's service worker already holds the chunk.

use explorer_core::model::opened::{cache_name, is_list_id, KeptList, OpenError};
use leptos::prelude::*;
use std::cell::RefCell;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;

use crate::said;

/// The lists this browser keeps, latest first.
pub fn kept() -> Vec<KeptList> {
    crate::storage::get(super::KEY).unwrap_or_default()
}

/// A kept list the address names, as this browser has it.
pub enum Named {
    Kept(Box<KeptList>),
    NotKept,
    /// Named by its id, a record but not its files: the browser's site
    /// data was cleared but for `localStorage`. The record is forgotten.
    /// (Named by its URL, it is forgotten too, and is `NotKept`: the page
    /// fetches it again.)
    FilesGone,
}

/// The kept list the address names (`named`: its id, or the URL it was
/// fetched from, resolved as `url`), in the `open_list` chunk.
#[leptos::wasm_split::wasm_split(open_list, fallible, wasm_split_path = ::leptos::wasm_split)]
pub fn named_in_chunk(
    named: String,
    url: Option<String>,
) -> Result<std::pin::Pin<Box<dyn std::future::Future<Output = Named>>>, crate::chunks::Unfetched> {
    Ok(Box::pin(async move {
        let found = |named: &str| {
            kept()
                .into_iter()
                .find(|l| l.id == named || url.is_some() && l.url == url)
        };
        let Some(list) = found(&named) else {
            return Named::NotKept;
        };
        if !files_gone(&list).await {
            return Named::Kept(Box::new(list));
        }
        // Looked at again under the lists' lock (another tab may be
        // storing the same list), and only then: the lock waits for a
        // store to end, and the page's start would wait with it.
        holding_lists_lock(async move {
            let Some(list) = found(&named) else {
                return Named::NotKept;
            };
            if !files_gone(&list).await {
                return Named::Kept(Box::new(list));
            }
            forget(&list.id);
            if is_list_id(&named) {
                Named::FilesGone
            } else {
                Named::NotKept
            }
        })
        .await
    }))
}

/// Whether a kept list's cache has lost any of the files the page opens
/// it from. A failure to look says nothing: the page tries to open it.
async fn files_gone(list: &KeptList) -> bool {
    let Ok(caches) = window().caches() else {
        return false;
    };
    for file in [&list.papers_file, &list.index_file, &list.meaning_file] {
        let found = JsFuture::from(caches.match_with_str(&list.href(file))).await;
        if found.is_ok_and(|f| f.is_undefined()) {
            return true;
        }
    }
    false
}

/// Records `list` as kept (in place of one of the same id).
fn keep(list: KeptList) -> Result<(), OpenError> {
    let mut lists = kept();
    lists.retain(|l| l.id != list.id);
    lists.insert(0, list);
    crate::storage::set(super::KEY, &lists).map_err(|e| OpenError::Storage {
        reason: e.to_string(),
    })
}

/// Forgets a kept list and deletes its files.
pub fn forget(id: &str) {
    let mut lists = kept();
    lists.retain(|l| l.id != id);
    let _ = crate::storage::set(super::KEY, &lists);
    if let Ok(caches) = window().caches() {
        let _ = caches.delete(&cache_name(id));
    }
}

thread_local! {
    /// The cache of the list this page is storing, until its record is
    /// written (or the store failed).
    static STORING: RefCell<Option<String>> = const { RefCell::new(None) };
}

/// [`sweep`], from the page's module: a compile was cancelled. (The chunk
/// is in: the compile came from it.)
#[leptos::wasm_split::wasm_split(open_list, fallible, wasm_split_path = ::leptos::wasm_split)]
pub fn sweep_in_chunk() -> Result<(), crate::chunks::Unfetched> {
    sweep();
    Ok(())
}

/// Deletes the files of lists no record names: a compile cancelled while
/// it stored them, or a record lost. Never the cache this page is storing
/// a list in: its record comes once its files are in, and the cache's
/// names may come after that store has begun.
pub fn sweep() {
    let Ok(caches) = window().caches() else {
        return;
    };
    leptos::task::spawn_local(holding_lists_lock(async move {
        let Ok(keys) = JsFuture::from(caches.keys()).await else {
            return;
        };
        let names: Vec<String> = kept().iter().map(|l| cache_name(&l.id)).collect();
        let storing = STORING.with(|s| s.borrow().clone());
        for key in js_sys::Array::from(&keys)
            .iter()
            .filter_map(|k| k.as_string())
        {
            let named = names.contains(&key) || storing.as_ref() == Some(&key);
            if key.starts_with(&cache_name("")) && !named {
                let _ = JsFuture::from(caches.delete(&key)).await;
            }
        }
    }));
}

#[wasm_bindgen]
extern "C" {
    /// The Web Locks API's `navigator.locks` (web-sys has it only behind
    /// `web_sys_unstable_apis`).
    type LockManager;
    #[wasm_bindgen(method, catch)]
    fn request(
        this: &LockManager,
        name: &str,
        granted: &js_sys::Function,
    ) -> Result<js_sys::Promise, JsValue>;
}

/// Runs `work` holding the lock on the kept lists, which every page of
/// this origin shares (Web Locks): a sweep in one tab waits until another
/// has stored its list's files and written its record, instead of taking
/// them for a cancelled compile's. Without the API (or where it refuses),
/// `work` runs as it is.
async fn holding_lists_lock<T>(work: impl std::future::Future<Output = T>) -> T {
    let locks = js_sys::Reflect::get(&window().navigator(), &"locks".into())
        .ok()
        .filter(|l| l.is_object());
    let Some(locks) = locks.map(JsCast::unchecked_into::<LockManager>) else {
        return work.await;
    };
    let mut release = None;
    let held = js_sys::Promise::new(&mut |resolve, _| release = Some(resolve));
    let mut grant = None;
    let granted = js_sys::Promise::new(&mut |resolve, _| grant = Some(resolve));
    let (Some(release), Some(grant)) = (release, grant) else {
        return work.await;
    };
    let on_grant = grant.clone();
    let callback = Closure::once_into_js(move || {
        let _ = on_grant.call0(&JsValue::NULL);
        held
    });
    let Ok(request) = locks.request("paper-explorer-lists", callback.unchecked_ref()) else {
        return work.await;
    };
    // A refused request: the work goes on without the lock. (Its promise
    // is refused before the grant or never: `refused` lives until then.)
    let refused = Closure::once(move |_: JsValue| {
        let _ = grant.call0(&JsValue::NULL);
    });
    let _ = request.catch(&refused);
    let _ = JsFuture::from(granted).await;
    let out = work.await;
    let _ = release.call0(&JsValue::NULL);
    drop(refused);
    out
}

/// Stores a compiled list's files (`[name, bytes]` pairs) in its cache
/// and records it if it is still `wanted` once they are in (`None` if
/// not: the files are swept); on any failure nothing stays (the cache is
/// deleted). The page stores them, not the worker: in WebKitGTK what a
/// worker put in Cache Storage was lost when it ended.
pub async fn kept_with(
    list: KeptList,
    files: js_sys::Array,
    wanted: impl Fn() -> bool,
) -> Result<Option<KeptList>, OpenError> {
    holding_lists_lock(store_and_keep(list, files, wanted)).await
}

/// [`kept_with`], the lists' lock held.
async fn store_and_keep(
    list: KeptList,
    files: js_sys::Array,
    wanted: impl Fn() -> bool,
) -> Result<Option<KeptList>, OpenError> {
    STORING.with(|s| s.replace(Some(cache_name(&list.id))));
    let stored = async {
        let caches = window().caches()?;
        let cache: web_sys::Cache = JsFuture::from(caches.open(&cache_name(&list.id)))
            .await?
            .unchecked_into();
        for pair in files.iter() {
            let pair: js_sys::Array = pair.unchecked_into();
            let name = pair.get(0).as_string().unwrap_or_default();
            let body: js_sys::Uint8Array = pair.get(1).unchecked_into();
            let response = web_sys::Response::new_with_opt_buffer_source(Some(&body))?;
            JsFuture::from(cache.put_with_str(&list.href(&name), &response)).await?;
        }
        Ok::<_, JsValue>(())
    };
    let result = match stored.await {
        Ok(()) if !wanted() => Ok(false),
        // Kept until the reader deletes it, where the browser grants it:
        // not evicted under storage pressure as a cache would be.
        Ok(()) => keep(list.clone()).map(|()| {
            let _ = window().navigator().storage().persist();
            true
        }),
        Err(e) => Err(OpenError::Storage { reason: said(&e) }),
    };
    STORING.with(|s| s.replace(None));
    match result {
        Ok(true) => Ok(Some(list)),
        // Not the cache itself: the same list may be kept already.
        Ok(false) => {
            sweep();
            Ok(None)
        }
        // Not the files of the same list kept before (opened again): the
        // same names, the same bytes.
        Err(error) => {
            let kept_before = kept().iter().any(|l| l.id == list.id);
            if let (false, Ok(caches)) = (kept_before, window().caches()) {
                let _ = JsFuture::from(caches.delete(&cache_name(&list.id))).await;
            }
            Err(error)
        }
    }
}
