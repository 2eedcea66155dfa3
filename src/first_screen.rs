//! The first screen the build writes into `index.html`
//! (`explorer_core::view::first_screen`): shown until the app starts,
//! then taken away, keeping what the reader typed into its search field.

use explorer_core::view::FIRST_SCREEN_ID;
use leptos::prelude::*;
use wasm_bindgen::JsCast;

/// What the reader did on the first screen before the app started.
pub struct Typed {
    /// The text in its search field, if any.
    pub query: Option<String>,
    /// The field had the focus.
    pub focused: bool,
}

/// Removes the first screen (the app is about to draw the page), saying
/// what was typed into it.
pub fn take() -> Typed {
    let doc = document();
    let field = doc
        .get_element_by_id("q0")
        .and_then(|e| e.dyn_into::<web_sys::HtmlInputElement>().ok());
    let typed = Typed {
        query: field.as_ref().map(|f| f.value()).filter(|v| !v.is_empty()),
        focused: doc.active_element().is_some_and(|a| a.id() == "q0"),
    };
    if let Some(screen) = doc.get_element_by_id(FIRST_SCREEN_ID) {
        screen.remove();
    }
    typed
}

/// Gives the app's search field the focus the first screen's had.
pub fn refocus() {
    request_animation_frame(|| {
        if let Some(field) = document()
            .get_element_by_id("q")
            .and_then(|e| e.dyn_into::<web_sys::HtmlElement>().ok())
        {
            let _ = field.focus();
        }
    });
}
