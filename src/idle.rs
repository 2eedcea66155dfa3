//! Work done ahead of need while the page is idle.

use leptos::prelude::{request_animation_frame, set_timeout, GetValue, SetValue, StoredValue};

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

/// Something done once, when the view has rested: each change
/// ([`OnceAtRest::changed`]) puts off what was waiting, as the address
/// bar waits for a pause. The meaning file and the service worker's
/// install wait so, for they would share the link with an answer's packs.
#[derive(Clone, Copy)]
pub struct OnceAtRest {
    changes: StoredValue<u32>,
    done: StoredValue<bool>,
}

impl OnceAtRest {
    pub fn new() -> Self {
        OnceAtRest {
            changes: StoredValue::new(0),
            done: StoredValue::new(false),
        }
    }

    /// Notes a change, which puts off what was waiting; its number.
    pub fn changed(self) -> u32 {
        let change = self.changes.get_value().wrapping_add(1);
        self.changes.set_value(change);
        change
    }

    /// Whether it has been done.
    pub fn done(self) -> bool {
        self.done.get_value()
    }

    /// Does `act` after `pause`, unless a change came after `change`
    /// meanwhile or it was done.
    pub fn after(self, change: u32, pause: std::time::Duration, act: impl FnOnce() + 'static) {
        set_timeout(
            move || {
                if self.changes.get_value() == change && !self.done() {
                    self.done.set_value(true);
                    act();
                }
            },
            pause,
        );
    }
}
