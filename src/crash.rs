//! When the app panics, or its WebAssembly stops on a trap: the message in
//! the console (as before) and, at the top of the page, a notice saying
//! what happened with a link that reloads the page, in place of a page
//! that silently stopped answering. Built with web-sys alone: after a panic
//! the reactive runtime cannot be trusted, and a release build aborts right
//! after this hook.

use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

use crate::i18n::Lang;

pub fn install() {
    std::panic::set_hook(Box::new(|info| {
        console_error_panic_hook::hook(info);
        show(&info.to_string(), |t| t.crash_text);
    }));
    // A trap is no panic, and no hook runs: an out-of-bounds access (the
    // open WebKit defect, docs/testing.md) left a page that never
    // started, or stopped answering, with nothing said. The trap reaches
    // the window as an uncaught error, or as an unhandled rejection when it
    // happened in a promise's callback. (After a panic, the abort's trap
    // comes here too; the panic's notice is already shown.)
    let on_error = Closure::<dyn FnMut(JsValue)>::new(|event: JsValue| {
        let thrown = ["error", "reason"]
            .into_iter()
            .filter_map(|key| js_sys::Reflect::get(&event, &key.into()).ok())
            .find(|v| v.is_instance_of::<js_sys::WebAssembly::RuntimeError>());
        // The gate script is retrying a failed start: the page reloads.
        let restarting = root().is_some_and(|root| root.has_attribute("data-restarting"));
        if let Some(trap) = thrown.filter(|_| !restarting) {
            let message = String::from(trap.unchecked_into::<js_sys::Error>().message());
            show(&message, |t| t.crash_text);
        }
    });
    if let Some(window) = web_sys::window() {
        for event in ["error", "unhandledrejection"] {
            let _ =
                window.add_event_listener_with_callback(event, on_error.as_ref().unchecked_ref());
        }
    }
    // Kept for the page's life, as the panic hook is.
    on_error.forget();
}

/// The app is up (its first screen painted): from here on a failure is no
/// failed start, and the gate script (`public/first-screen.js`) no longer
/// retries one by reloading; the retry it may have made is forgotten, so
/// that a later start that fails is retried too.
pub fn started() {
    if let Some(root) = root() {
        let _ = root.set_attribute("data-app-started", "");
    }
    crate::storage::forget_in_session(RESTARTED);
}

/// The page's `<html>` element, where the app and the gate script mark
/// the start's progress.
fn root() -> Option<web_sys::Element> {
    web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.document_element())
}

/// Where the gate script notes, for this tab, the start it retried.
const RESTARTED: &str = "paper-explorer-restarted";

/// The same notice when the paper list could not be loaded.
pub fn load_failed(message: &str) {
    web_sys::console::error_1(&format!("paper list: {message}").into());
    show(message, |t| t.load_failed);
}

fn show(message: &str, text: fn(&crate::i18n::Strings) -> &'static str) {
    let Some(doc) = web_sys::window().and_then(|w| w.document()) else {
        return;
    };
    if doc.get_element_by_id("crash").is_some() {
        return;
    }
    let (Some(body), Some(root)) = (doc.body(), doc.document_element()) else {
        return;
    };
    // The language the page was showing (the reactive one is gone).
    let lang = root.get_attribute("lang").unwrap_or_default();
    let t = Lang::from_preferences([lang.as_str()]).strings();
    let el = |tag: &str, text: &str| {
        let e = doc.create_element(tag).ok()?;
        // Text only: a message may quote corpus text or a query.
        e.set_text_content(Some(text));
        Some(e)
    };
    let (Some(notice), Some(title), Some(what), Some(reload)) = (
        el("div", ""),
        el("h2", t.crash_title),
        el("p", &format!("{} {}", text(t), clip(message, 300))),
        el("a", t.crash_reload),
    ) else {
        return;
    };
    notice.set_id("crash");
    notice.set_class_name("crash");
    let _ = notice.set_attribute("role", "alert");
    let href = web_sys::window()
        .and_then(|w| w.location().href().ok())
        .unwrap_or_default();
    let _ = reload.set_attribute("href", &href);
    let _ = notice.append_with_node_3(&title, &what, &reload);
    let _ = body.prepend_with_node_1(&notice);
    if let Ok(link) = reload.dyn_into::<web_sys::HtmlElement>() {
        let _ = link.focus();
    }
}

fn clip(s: &str, max: usize) -> String {
    match s.char_indices().nth(max) {
        Some((i, _)) => format!("{}…", &s[..i]),
        None => s.to_string(),
    }
}
