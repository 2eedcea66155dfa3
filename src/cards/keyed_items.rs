//! The items of a list element, keyed, written from HTML strings: the
//! result list's cards and the related papers.

use std::collections::{HashMap, HashSet};
use std::hash::Hash;

use web_sys::Element;

/// The elements a list holds, by key. An item whose key stays keeps its
/// element (its focus, what the reader opened in it); new items are parsed
/// from one string, however many there are. With a pool, items that leave
/// wait in it (a hidden element of the document, so that whatever updates
/// the page's items in place updates them too) and come back without being
/// parsed again: a facet ticked and unticked, a query typed and cleared.
pub struct KeyedItems<K> {
    items: HashMap<K, Element>,
    /// The keys of the list's children, in the order they are shown.
    order: Vec<K>,
    pool: Option<Element>,
    /// Items waiting in the pool, oldest first.
    spare: Vec<(K, Element)>,
}

/// At most this many items wait in a pool.
const POOLED: usize = 200;

impl<K> Default for KeyedItems<K> {
    fn default() -> Self {
        KeyedItems {
            items: HashMap::new(),
            order: Vec::new(),
            pool: None,
            spare: Vec::new(),
        }
    }
}

impl<K: Hash + Eq + Clone> KeyedItems<K> {
    /// Items that leave wait in `pool` (a hidden element).
    pub fn pooled(pool: Element) -> Self {
        KeyedItems {
            pool: Some(pool),
            ..KeyedItems::default()
        }
    }

    /// Makes `list`'s children exactly the items of `keys`, in that order:
    /// items that leave are removed (or pooled), items that stay or come
    /// back from the pool are passed to `keep` and moved where they belong
    /// (as few as can be: [`explorer_core::view::unmoved`]), and `make` writes
    /// each new item's HTML (one element) into the string all new items
    /// are parsed from.
    pub fn show(
        &mut self,
        list: &Element,
        keys: &[K],
        mut make: impl FnMut(&K, &mut String),
        mut keep: impl FnMut(&K, &Element),
    ) {
        self.let_go(keys);
        let mut html = String::new();
        let mut new = Vec::new();
        for k in keys {
            if !self.items.contains_key(k) {
                if let Some(at) = self.spare.iter().position(|(s, _)| s == k) {
                    let (k, el) = self.spare.remove(at);
                    self.items.insert(k, el);
                }
            }
            match self.items.get(k) {
                Some(el) => keep(k, el),
                None => {
                    make(k, &mut html);
                    new.push(k.clone());
                }
            }
        }
        // Where each item was in the list (not if it was pooled: `order`
        // holds only what is in the list, as `forget` keeps it; nor if it
        // is parsed anew, whatever `order` says: it is not an item yet).
        let was: HashMap<&K, usize> = self.order.iter().enumerate().map(|(i, k)| (k, i)).collect();
        let previous: Vec<Option<usize>> = keys
            .iter()
            .map(|k| was.get(k).copied().filter(|_| self.items.contains_key(k)))
            .collect();
        for (k, el) in new.into_iter().zip(parse(&html)) {
            self.items.insert(k, el);
        }
        self.put_in_order(list, keys, &previous);
        self.order = keys.to_vec();
    }

    /// The items not among `keys` leave the list: to the pool (in one
    /// call: a keystroke that narrows a list sends most of its cards
    /// there), of which the oldest are dropped past [`POOLED`], or removed.
    fn let_go(&mut self, keys: &[K]) {
        let wanted: HashSet<&K> = keys.iter().collect();
        let mut left = Vec::new();
        self.items.retain(|k, el| {
            let stays = wanted.contains(k);
            if !stays {
                left.push((k.clone(), el.clone()));
            }
            stays
        });
        match &self.pool {
            Some(pool) if !left.is_empty() => {
                let nodes: js_sys::Array = left.iter().map(|(_, el)| el).collect();
                let _ = pool.append_with_node(&nodes);
                self.spare.extend(left);
            }
            Some(_) => {}
            None => left.into_iter().for_each(|(_, el)| el.remove()),
        }
        if self.spare.len() > POOLED {
            for (_, el) in self.spare.drain(..self.spare.len() - POOLED) {
                el.remove();
            }
        }
    }

    /// Moves the items of `keys` where they belong, as few as can be
    /// (`previous`: where each was in the list, if it was).
    fn put_in_order(&self, list: &Element, keys: &[K], previous: &[Option<usize>]) {
        let stays = explorer_core::view::unmoved(previous);
        // From the last item to the first, each run of items that move goes
        // before the item after it, in one call: a query cleared brings a
        // whole list back from the pool, and a call per card was most of
        // that keystroke (`BENCH_PAGES=1`).
        let mut next: Option<&Element> = None;
        let mut run: Vec<&Element> = Vec::new();
        let place = |run: &mut Vec<&Element>, next: Option<&Element>| {
            if run.is_empty() {
                return;
            }
            run.reverse();
            let nodes: js_sys::Array = run.drain(..).collect();
            let _ = match next {
                Some(n) => n.before_with_node(&nodes),
                None => list.append_with_node(&nodes),
            };
        };
        for (k, stays) in keys.iter().zip(stays).rev() {
            let Some(el) = self.items.get(k) else {
                continue;
            };
            if stays {
                place(&mut run, next);
                next = Some(el);
            } else {
                run.push(el);
            }
        }
        place(&mut run, next);
    }

    /// Empties the pool (what waits there was written for a page that is
    /// no longer shown: another language).
    pub fn drop_pool(&mut self) {
        for (_, el) in self.spare.drain(..) {
            el.remove();
        }
    }

    /// Forgets the items of `keys`, removing them: the next
    /// [`KeyedItems::show`] writes them anew (a card written before its
    /// paper's body came).
    pub fn forget(&mut self, keys: &[K]) {
        for k in keys {
            if let Some(el) = self.items.remove(k) {
                el.remove();
            }
        }
        self.order.retain(|k| !keys.contains(k));
        self.spare.retain(|(k, el)| {
            let gone = keys.contains(k);
            if gone {
                el.remove();
            }
            !gone
        });
    }

    /// Forgets every item, removing it (the next [`KeyedItems::show`]
    /// writes all anew).
    pub fn clear(&mut self) {
        for el in self
            .items
            .values()
            .chain(self.spare.iter().map(|(_, el)| el))
        {
            el.remove();
        }
        self.items.clear();
        self.order.clear();
        self.spare.clear();
    }
}

/// Elements parsed from one HTML string, in order (one parse for any
/// number of items).
pub fn parse(html: &str) -> Vec<Element> {
    use wasm_bindgen::JsCast;
    let template: web_sys::HtmlTemplateElement = leptos::prelude::document()
        .create_element("template")
        .expect("a template element")
        .unchecked_into();
    template.set_inner_html(html);
    let items = template.content().children();
    (0..items.length()).filter_map(|i| items.item(i)).collect()
}
