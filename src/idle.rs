//! Work done ahead of need while the page is idle.

use leptos::prelude::{request_animation_frame, set_timeout};

/// One slice of work, in ms: well under a frame, so that a keystroke
/// arriving meanwhile waits at most this long.
const SLICE_MS: f64 = 4.0;

/// Runs `work` on each of `items` in order, a few milliseconds at a time,
/// each slice in its own task; stops early when `work` returns false.
pub fn in_slices<T: 'static>(items: Vec<T>, work: impl Fn(T) -> bool + 'static) {
    slice(items.into_iter(), work);
}

fn slice<T: 'static>(mut items: std::vec::IntoIter<T>, work: impl Fn(T) -> bool + 'static) {
    let start = js_sys::Date::now();
    for item in items.by_ref() {
        if !work(item) {
            return;
        }
        if js_sys::Date::now() - start > SLICE_MS {
            break;
        }
    }
    if items.len() > 0 {
        set_timeout(move || slice(items, work), std::time::Duration::ZERO);
    }
}

/// Runs `f` once the next frame has been painted.
pub fn after_paint(f: impl FnOnce() + 'static) {
    request_animation_frame(move || set_timeout(f, std::time::Duration::ZERO));
}
