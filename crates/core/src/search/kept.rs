//! The one rule of the bounded caches that keep a paper's words (for
//! highlighting in the app, for explaining in the engine): up to a number
//! of papers, then all forgotten at once to make room. Work done ahead of
//! use asks not to make room, so that preparing never forgets what is in
//! use.

use std::collections::HashMap;
use std::hash::Hash;

/// The value kept for `key`, made and kept if it was not. When `most`
/// values are kept already, all are forgotten to make room, or, without
/// `make_room`, nothing is made or kept (`None`).
///
/// ```
/// use std::collections::HashMap;
/// use explorer_core::search::kept_or_made;
///
/// let mut kept = HashMap::new();
/// assert_eq!(kept_or_made(&mut kept, 1, 1, false, || "one"), Some(&mut "one"));
/// // Full: preparing another is refused, and the first stays.
/// assert_eq!(kept_or_made(&mut kept, 2, 1, false, || "two"), None);
/// assert_eq!(kept.len(), 1);
/// // Needed now: room is made.
/// assert_eq!(kept_or_made(&mut kept, 2, 1, true, || "two"), Some(&mut "two"));
/// assert!(!kept.contains_key(&1));
/// ```
pub fn kept_or_made<K: Hash + Eq, V>(
    kept: &mut HashMap<K, V>,
    key: K,
    most: usize,
    make_room: bool,
    make: impl FnOnce() -> V,
) -> Option<&mut V> {
    if kept.len() >= most && !kept.contains_key(&key) {
        if !make_room {
            return None;
        }
        kept.clear();
    }
    Some(kept.entry(key).or_insert_with(make))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_kept_value_is_not_made_again_even_when_full() {
        let mut kept = HashMap::new();
        kept_or_made(&mut kept, 1, 2, true, || 10);
        kept_or_made(&mut kept, 2, 2, true, || 20);
        let mut made = false;
        let v = kept_or_made(&mut kept, 1, 2, false, || {
            made = true;
            0
        });
        assert_eq!(v, Some(&mut 10));
        assert!(!made);
        assert_eq!(kept.len(), 2);
    }

    #[test]
    fn a_full_cache_refuses_to_prepare_and_empties_for_what_is_needed() {
        let mut kept = HashMap::new();
        for k in 0..3 {
            kept_or_made(&mut kept, k, 3, true, || k * 10);
        }
        assert_eq!(kept_or_made(&mut kept, 7, 3, false, || 70), None);
        assert_eq!(kept.len(), 3);
        assert_eq!(kept_or_made(&mut kept, 7, 3, true, || 70), Some(&mut 70));
        assert_eq!(kept.len(), 1);
    }
}
