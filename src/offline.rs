//! Offline use: registers the service worker that `explorer_core::build::service_worker`
//! generates at build time (it precaches every file of the build under a
//! cache named for the build's content hash), and says when a newer build is
//! waiting. The new worker takes over only when the user asks, and the page
//! then reloads: an old page never runs against a new build's files.

use leptos::prelude::*;
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::JsFuture;
use web_sys::{ServiceWorker, ServiceWorkerRegistration, ServiceWorkerState};

/// Whether a service worker can run here: it needs a secure context
/// (https, localhost) and a server; a page opened from file:// (the
/// single-file build) works without one.
pub fn supported() -> bool {
    let win = window();
    let has_worker =
        js_sys::Reflect::has(&win.navigator(), &"serviceWorker".into()).unwrap_or(false);
    let from_file = win.location().protocol().is_ok_and(|p| p == "file:");
    win.is_secure_context() && has_worker && !from_file
}

/// Registers `./sw.js` (relative: the app may live in any folder). Sets
/// `waiting` to the new worker when an update has been installed.
pub fn register(set_waiting: WriteSignal<Option<ServiceWorker>, LocalStorage>) {
    if !supported() {
        return;
    }
    let container = window().navigator().service_worker();
    if container.controller().is_none() {
        keep_what_came_before(&container);
    }
    let promise = container.register("./sw.js");
    leptos::task::spawn_local(async move {
        let Ok(reg) = JsFuture::from(promise).await else {
            return;
        };
        let reg: ServiceWorkerRegistration = reg.unchecked_into();
        // An update is a newly installed worker while another one is active
        // (the very first install has no active worker yet). The browser may
        // have started installing it before this page registered: look at
        // the waiting and installing workers now, and at every later one.
        let ready = move |reg: &ServiceWorkerRegistration, w: ServiceWorker| {
            if w.state() == ServiceWorkerState::Installed && reg.active().is_some() {
                set_waiting.set(Some(w));
            }
        };
        let watch = move |reg: ServiceWorkerRegistration, w: ServiceWorker| {
            let worker = w.clone();
            let on_state = Closure::<dyn FnMut()>::new(move || ready(&reg, worker.clone()));
            w.set_onstatechange(Some(on_state.as_ref().unchecked_ref()));
            on_state.forget();
        };
        if let Some(w) = reg.waiting() {
            ready(&reg, w);
        }
        if let Some(w) = reg.installing() {
            watch(reg.clone(), w);
        }
        let reg2 = reg.clone();
        let on_update = Closure::<dyn FnMut()>::new(move || {
            if let Some(w) = reg2.installing() {
                watch(reg2.clone(), w);
            }
        });
        reg.set_onupdatefound(Some(on_update.as_ref().unchecked_ref()));
        on_update.forget();
        // Ask for the newest worker on every load; not every browser checks
        // on navigation.
        if let Ok(p) = reg.update() {
            let _ = JsFuture::from(p).await;
        }
    });
}

/// On a first visit the page fetched files before its worker took over (the
/// first screen's titles and abstracts, a first query's packs): the worker
/// keeps a file fetched on first use only when it sees the request. Once it
/// controls the page, each such file the page has fetched is asked for
/// again, through it, from the browser's HTTP cache (`force-cache`: no
/// bytes on the link), so that what the reader has seen works offline.
fn keep_what_came_before(container: &web_sys::ServiceWorkerContainer) {
    let on_control = Closure::once_into_js(|| {
        let Some(performance) = window().performance() else {
            return;
        };
        let init = web_sys::RequestInit::new();
        init.set_cache(web_sys::RequestCache::ForceCache);
        for entry in performance.get_entries_by_type("resource") {
            let name = entry.unchecked_into::<web_sys::PerformanceEntry>().name();
            if fetched_on_first_use(&name) {
                let request = window().fetch_with_str_and_init(&name, &init);
                // Offline or refused: nothing to keep, nothing to report.
                leptos::task::spawn_local(async move {
                    let _ = JsFuture::from(request).await;
                });
            }
        }
    });
    let _ =
        container.add_event_listener_with_callback("controllerchange", on_control.unchecked_ref());
}

/// Whether the worker keeps a file when the page first fetches it, rather
/// than at install: a file of the build named `<kind>-<16 hex digits>.bin`
/// of a kind in [`explorer_core::model::FETCHED_ON_FIRST_USE`].
fn fetched_on_first_use(url: &str) -> bool {
    let path = url.split(['?', '#']).next().unwrap_or_default();
    let file = path.rsplit('/').next().unwrap_or_default();
    explorer_core::model::kind_of_file(file)
        .is_some_and(|kind| explorer_core::model::FETCHED_ON_FIRST_USE.contains(&kind))
}

/// Lets the waiting worker take over, then reloads once it has: on the
/// controller changing, or on the worker reaching “activated” (Firefox does
/// not always report the former to the page).
pub fn apply_update(worker: &ServiceWorker) {
    // Firefox may activate the new worker on its own when the page reloads
    // (for a moment no page uses the old one): then there is nothing to wait
    // for, and reloading loads this build's files from its cache.
    if worker.state() == ServiceWorkerState::Activated {
        let _ = window().location().reload();
        return;
    }
    let container = window().navigator().service_worker();
    let reload = Closure::<dyn FnMut()>::new(|| {
        let _ = window().location().reload();
    });
    container.set_oncontrollerchange(Some(reload.as_ref().unchecked_ref()));
    reload.forget();
    let w = worker.clone();
    let on_state = Closure::<dyn FnMut()>::new(move || {
        if w.state() == ServiceWorkerState::Activated {
            let _ = window().location().reload();
        }
    });
    worker.set_onstatechange(Some(on_state.as_ref().unchecked_ref()));
    on_state.forget();
    let _ = worker.post_message(&JsValue::from_str("skipWaiting"));
}

/// How long the view rests before the service worker is registered
/// ([`UpdateBanner`]).
const REGISTER_PAUSE: std::time::Duration = std::time::Duration::from_millis(800);

/// “A new version is ready — Reload”, shown only when one is.
#[component]
pub fn UpdateBanner() -> impl IntoView {
    let (waiting, set_waiting) = signal_local(None::<ServiceWorker>);
    // Registered once the index's head is in, no answer waits for packs of
    // postings, and the view has rested for [`REGISTER_PAUSE`]: the
    // worker's install then takes the build's files named for their
    // content from the HTTP cache, and fetches the rest (the page again,
    // the icons: 48 KB) after a first answer, not beside its postings and
    // cards. Registered before the head, it fetched the head a second time
    // (0.66 MB at 100,000 papers, on the same link).
    let x = expect_context::<crate::Explorer>();
    let rest = crate::idle::OnceAtRest::new();
    Effect::new(move |_| {
        let ready = x.has_index() && !x.search.response.with(|r| r.waiting_for_index);
        x.view.state.with(|_| ());
        let change = rest.changed();
        if ready && !rest.done() {
            rest.after(change, REGISTER_PAUSE, move || register(set_waiting));
        }
    });
    let tr = crate::i18n::use_i18n();
    view! {
        <Show when=move || waiting.with(Option::is_some)>
            <div class="update-banner" role="status">
                {move || tr.get().update_ready}
                <button type="button" class="button" on:click=move |_| waiting.with(|w| if let Some(w) = w { apply_update(w) })>
                    {move || tr.get().reload}
                </button>
            </div>
        </Show>
    }
}
