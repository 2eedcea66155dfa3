//! Files made in the page and handed to the browser as downloads (nothing
//! is sent anywhere).

use leptos::prelude::*;
use wasm_bindgen::{JsCast, JsValue};

/// Offers `text` as a file called `name`.
pub fn offer_download(text: &str, mime: &str, name: &str) -> Result<(), JsValue> {
    offer(&JsValue::from_str(text), mime, name)
}

/// Offers `bytes` as a file called `name`.
pub fn offer_bytes(bytes: &js_sys::Uint8Array, mime: &str, name: &str) -> Result<(), JsValue> {
    offer(bytes, mime, name)
}

/// Offers a Blob of `part` (text or bytes) as a file called `name`.
fn offer(part: &JsValue, mime: &str, name: &str) -> Result<(), JsValue> {
    let parts = js_sys::Array::of1(part);
    let options = web_sys::BlobPropertyBag::new();
    options.set_type(mime);
    let blob = web_sys::Blob::new_with_blob_sequence_and_options(&parts, &options)?;
    let url = web_sys::Url::create_object_url_with_blob(&blob)?;
    let a: web_sys::HtmlAnchorElement = document().create_element("a")?.unchecked_into();
    a.set_href(&url);
    a.set_download(name);
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
