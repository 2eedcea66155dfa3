//! Embedding in a wiki: with `?embed=1`, or whenever the page is inside a
//! frame, the layout is compact and the page reports its content height to
//! the parent (`postMessage({type: "paper-explorer:height", height})`) so the
//! wiki can size the iframe without scrollbars.

use leptos::prelude::*;
use wasm_bindgen::prelude::*;

/// The message type a parent page listens for.
pub const HEIGHT_MESSAGE: &str = explorer_core::embed::HEIGHT;

fn framed() -> bool {
    let win = window();
    match win.top() {
        Ok(Some(top)) => !js_sys::Object::is(&top, &win),
        // A cross-origin top that cannot even be named: framed.
        _ => true,
    }
}

/// Sets up embed mode if asked for or framed; returns whether it is on.
pub fn start(asked: bool) -> bool {
    let framed = framed();
    if !(asked || framed) {
        return false;
    }
    if let Some(root) = document().document_element() {
        let _ = root.class_list().add_1("embedded");
    }
    if framed {
        report_height();
    }
    true
}

fn post_height() {
    let Some(root) = document().document_element() else {
        return;
    };
    let message = explorer_core::embed::Height::new(root.scroll_height());
    let Ok(msg) = serde_wasm_bindgen::to_value(&message) else {
        return;
    };
    if let Ok(Some(parent)) = window().parent() {
        // The height is no secret: any embedding page may read it.
        let _ = parent.post_message(&msg, "*");
    }
}

fn report_height() {
    let on_resize = Closure::<dyn FnMut()>::new(post_height);
    if let Ok(observer) = web_sys::ResizeObserver::new(on_resize.as_ref().unchecked_ref()) {
        if let Some(body) = document().body() {
            observer.observe(&body);
        }
    }
    on_resize.forget();
    post_height();
}
