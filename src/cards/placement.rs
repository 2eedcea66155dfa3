//! The result list's cards: which are in the document, in what order,
//! and where the list is. The window over a long list (only the cards on
//! screen and a screenful either side), the cards' measured heights, and
//! the keyed update that keeps the cards that stay, rewrites their
//! highlights only when they changed, and parses the new ones from one
//! string.

use std::collections::HashMap;

use explorer_core::view::window::{self as windowing, Heights, Window};
use explorer_core::view::FIRST_SCREEN;
use explorer_core::{Highlights, PaperPack};
use leptos::prelude::*;

use super::dom::write_marks;
use super::keyed_items::KeyedItems;
use super::maker::CardMaker;
use super::words::highlights;
use crate::i18n::Strings;
use crate::idle::after_paint;
use crate::Explorer;

/// Above this many results, only the cards on screen (and a screenful either
/// side) are in the document: 20,000 results are 20,000 heights, not cards.
/// Up to it, every card is (find-in-page finds every result); off-screen
/// cards cost no layout (`content-visibility: auto`). This is set by
/// keystrokes, not by screens: at 200 (as it was), `rein` on a real list
/// of 2,932 papers built 193 cards in one task, 150 ms, when a card was a
/// Leptos view tree (`BENCH_PAGES=1 ./dev bench`); at 60 it builds the
/// dozen on screen. A conference track of 60 papers is still whole in the
/// page.
pub const WINDOW_AT: usize = 60;
/// Cards' height before they have been measured, in CSS pixels.
const ESTIMATED_HEIGHT: f64 = 260.0;
/// At most this many cards in a window, however short they are.
const MOST_CARDS: usize = 60;

/// Whether a paper's title and body are in (a long list's come in packs).
fn parts_in(engine: &explorer_core::Engine, doc: u32) -> (bool, bool) {
    (engine.title(doc).is_some(), engine.body(doc).is_some())
}

/// A length in whole CSS pixels (whole numbers: the WebAssembly carries no
/// float formatting).
pub fn px(v: f64) -> String {
    format!("{}px", v.round() as i64)
}

/// An element's top in document coordinates (reads layout).
fn document_top(el: &web_sys::Element) -> f64 {
    el.get_bounding_client_rect().top() + window().scroll_y().unwrap_or(0.0)
}

/// Where the list is, as last seen: read in the frame after the window
/// changed or while the page scrolls, never between a keystroke and its
/// update.
#[derive(Debug, Clone, Copy)]
struct Geometry {
    /// The list's top, in document coordinates.
    list_top: f64,
    scroll_y: f64,
    view: f64,
}

impl Geometry {
    /// The part of the list to render, in the list's coordinates: what is
    /// on screen and a screenful either side.
    fn span(&self) -> (f64, f64) {
        let top = self.scroll_y - self.list_top;
        (top - self.view, top + 2.0 * self.view)
    }

    /// The part of the list on screen.
    fn visible(&self) -> (f64, f64) {
        let top = self.scroll_y - self.list_top;
        (top, top + self.view)
    }
}

/// What a card (shown or pooled) was written with: a kept card is written
/// again only where this differs from what the keystroke wants.
struct Written {
    /// A hash of the query's [`explorer_core::Matched`] it is highlighted
    /// for.
    matched: u64,
    /// The marks it shows.
    marks: Highlights,
    /// Its best-match label (in the language in use), if any.
    label: Option<Label>,
}

/// Which cards are in the document and where the list is: the window over
/// the ranked results, the cards' measured heights and the list's place.
#[derive(Clone, Copy)]
pub struct Placement {
    x: Explorer,
    /// The list's element, once mounted.
    pub list: NodeRef<leptos::html::Ol>,
    /// The cards in the document, by paper (made once the list is). Cards
    /// that left the list wait in a hidden element at the end of the page
    /// (after the related papers, whose opened cards may show the same
    /// paper: an id is found in the page's order).
    pub cards: StoredValue<Option<KeyedItems<u32>>, LocalStorage>,
    /// What each card (shown or pooled) was written with.
    written: StoredValue<HashMap<u32, Written>>,
    make: CardMaker,
    /// The window, when the list is long enough to have one.
    pub window: ReadSignal<Option<Window>>,
    set_window: WriteSignal<Option<Window>>,
    /// Measured card heights (gap included), by paper.
    heights: StoredValue<Heights>,
    geometry: StoredValue<Geometry>,
    /// Asks for the window to be laid out again (the list's Effect does it).
    pub relayout: Trigger,
    /// The page's first results are yet to be shown.
    first: StoredValue<bool>,
    /// The height of the first results' cards still to be written.
    pub waiting: ReadSignal<Option<f64>>,
    set_waiting: WriteSignal<Option<f64>>,
    /// A scroll or resize is waiting for the next frame.
    pending: StoredValue<bool>,
    /// Cards written before their paper's title or body came (its pack is
    /// on its way), with whether each had them: written again when one
    /// comes.
    incomplete: StoredValue<std::collections::HashMap<u32, (bool, bool)>>,
    /// The paper a link named, kept at the top of the screen until the
    /// reader scrolls, types or clicks ([`Placement::release`]): the cards
    /// around it are measured only once they are in, and each measurement
    /// that moves it moves the page with it.
    pinned: StoredValue<Option<u32>>,
}

impl Placement {
    pub fn new(x: Explorer) -> Placement {
        let (window_, set_window) = signal(None);
        let (waiting, set_waiting) = signal(None);
        Placement {
            x,
            list: NodeRef::new(),
            cards: StoredValue::new_local(None),
            written: StoredValue::new(HashMap::new()),
            make: CardMaker::new(),
            window: window_,
            set_window,
            heights: StoredValue::new(Heights::new(x.engine.len(), ESTIMATED_HEIGHT)),
            geometry: StoredValue::new(Geometry {
                list_top: 0.0,
                scroll_y: 0.0,
                view: window()
                    .inner_height()
                    .ok()
                    .and_then(|h| h.as_f64())
                    .unwrap_or(800.0),
            }),
            relayout: Trigger::new(),
            first: StoredValue::new(true),
            waiting,
            set_waiting,
            pending: StoredValue::new(false),
            incomplete: StoredValue::new(Default::default()),
            pinned: StoredValue::new(None),
        }
    }

    /// The window over `span` (none for a list short enough to be whole
    /// in the page), and the results' papers in display order through its
    /// end and at least through `through` (every one without a window).
    /// Past the first few hundred, a long list's results lie in no order
    /// until read so ([`explorer_core::Hits`]), and the heights of the
    /// results below the window are summed from the few measured
    /// ([`Heights::total`]): a keystroke that finds 100,000 papers reads
    /// the window's, not theirs.
    fn window_over(self, (from, to): (f64, f64), through: usize) -> (Vec<u32>, Option<Window>) {
        self.x.search.response.with_untracked(|r| {
            let n = r.hits.len();
            if n <= WINDOW_AT {
                return (r.hits.in_order().iter().map(|h| h.doc).collect(), None);
            }
            self.heights.with_value(|h| {
                let total = h.total(n, |d| r.hits.contains(d));
                let over = |hits: &[explorer_core::Hit]| {
                    let height = |i: usize| h.of(hits[i].doc);
                    windowing::window_within(n, height, total, from, to, MOST_CARDS)
                };
                let (lying, ordered) = r.hits.partly_ordered();
                let (w, hits) = match over(lying) {
                    w if w.end.max(through) <= ordered => (w, lying),
                    _ => (over(r.hits.in_order()), r.hits.in_order()),
                };
                let end = w.end.max(through).min(n);
                (hits[..end].iter().map(|h| h.doc).collect(), Some(w))
            })
        })
    }

    /// Moves the window when what is on screen is not rendered (a scroll, a
    /// resize, heights that turned out other than estimated), and only when
    /// it would then be laid out otherwise: no frame after frame of the same.
    fn follow(self) {
        let Some(w) = self.window.get_untracked() else {
            return;
        };
        let (from, to) = self.geometry.with_value(Geometry::visible);
        let (hits, next) = self.window_over(self.geometry.with_value(Geometry::span), w.end);
        let covered = self
            .heights
            .with_value(|h| w.end <= hits.len() && w.covers(|i| h.of(hits[i]), from, to));
        let moved = next.is_some_and(|next| next != w);
        if !covered && moved {
            self.relayout.notify();
        }
    }

    /// Heights and the list's place, read in the frame after the window
    /// changed, once, before the browser paints: the one layout the frame
    /// needs anyway. (A ResizeObserver would report them without asking, but
    /// Firefox then reports its own loop error whenever `content-visibility`
    /// resizes the cards it brings on screen.)
    fn measure(self) {
        let Some(ol) = self.list.get_untracked() else {
            return;
        };
        let boxes: Vec<(u32, f64)> = rendered_cards(&ol)
            .into_iter()
            .map(|(doc, li)| (doc, li.get_bounding_client_rect().height()))
            .collect();
        self.hold();
        let (top, scroll_y) = (document_top(&ol), window().scroll_y().unwrap_or(0.0));
        self.geometry.update_value(|g| {
            g.list_top = top;
            g.scroll_y = scroll_y;
        });
        self.heights.update_value(|h| {
            for (doc, height) in boxes {
                h.measured(doc, height);
            }
        });
        self.follow();
    }

    /// Lays out the cards for the results. A windowed list: the window,
    /// whole in this task. A list short enough to be whole in the page:
    /// every card, in this task, except for the page's first results, which
    /// write the first screenful (and the span asked for) and the rest in
    /// the task after the first paint ([`windowing::fill`]), their height
    /// kept as the list's padding until then.
    pub fn refill(self) {
        let span = self.geometry.with_value(Geometry::span);
        let (hits, w) = self.window_over(span, 0);
        if let Some(doc) = self.pinned.get_value() {
            if !self
                .x
                .search
                .response
                .with_untracked(|r| r.hits.contains(doc))
            {
                self.release();
            }
        }
        let first = self.first.get_value();
        self.first.set_value(false);
        let (next, waiting) = match w {
            Some(w) => (hits[w.start..w.end].to_vec(), 0.0),
            None if !first => (hits, 0.0),
            None => {
                let fill = self.heights.with_value(|h| {
                    windowing::fill(hits.len(), |i| h.of(hits[i]), span.1, FIRST_SCREEN)
                });
                if fill.now < hits.len() {
                    // The rest: the next layout is not the first.
                    after_paint(move || self.relayout.notify());
                }
                let mut now = hits;
                now.truncate(fill.now);
                (now, fill.later_height)
            }
        };
        self.set_window.set(w);
        self.set_waiting.set((waiting > 0.0).then_some(waiting));
        self.show(&next);
        self.fetch_bodies(&next);
        if w.is_some() {
            request_animation_frame(move || self.measure());
        } else if self.pinned.with_value(Option::is_some) {
            request_animation_frame(move || self.hold());
        }
    }

    /// Brings the pinned paper's card to the top of the screen if it is in
    /// the list and not there (reads layout: called in the frame after the
    /// cards changed).
    fn hold(self) {
        let (Some(doc), Some(ol)) = (self.pinned.get_value(), self.list.get_untracked()) else {
            return;
        };
        let card = rendered_cards(&ol).into_iter().find(|&(d, _)| d == doc);
        if let Some((_, li)) = card {
            if li.get_bounding_client_rect().top().abs() > 1.0 {
                li.scroll_into_view();
            }
        }
    }

    /// The reader took over (scrolled, typed, clicked): the linked paper
    /// is no longer held on screen.
    pub fn release(self) {
        self.pinned.set_value(None);
    }

    /// Makes the list's items exactly the cards of `docs`, in that order:
    /// cards that leave are removed, cards that stay keep their elements
    /// (and their focus, expanded abstract, open similar papers), with
    /// their highlights rewritten only when they changed, and the new
    /// ones are parsed from one string.
    fn show(self, docs: &[u32]) {
        let Some(ol) = self.list.get_untracked() else {
            return;
        };
        let engine = self.x.engine;
        let t = self.make.tr.now();
        self.x.search.response.with_untracked(|r| {
            let best = best_labels(r, t);
            let matched = matched_hash(&r.matched);
            self.written.update_value(|written| {
                let written = std::cell::RefCell::new(written);
                self.cards.update_value(|cards| {
                    let cards = cards.get_or_insert_with(|| KeyedItems::pooled(card_pool()));
                    cards.show(
                        &ol,
                        docs,
                        |&doc, html| {
                            let marks = highlights(engine, doc, &r.matched);
                            let label = best.get(&doc).copied();
                            open_item(html, doc, label);
                            html.push_str(&self.make.html(doc, &marks, None));
                            html.push_str("</li>");
                            let had = parts_in(engine, doc);
                            if had != (true, true) {
                                self.incomplete.update_value(|u| {
                                    u.insert(doc, had);
                                });
                            }
                            let card = Written {
                                matched,
                                marks,
                                label,
                            };
                            written.borrow_mut().insert(doc, card);
                        },
                        |&doc, li| {
                            let label = best.get(&doc).copied();
                            let mut written = written.borrow_mut();
                            let before = written.remove(&doc);
                            let card = kept_card(engine, doc, li, before, label, r, matched);
                            written.insert(doc, card);
                        },
                    );
                });
            });
        });
    }

    /// The packs of the titles and bodies of the cards shown that are not
    /// in are fetched; when they come, the cards written without them are
    /// written again. The titles on their own, first: a card's title (what
    /// a reader scans, and what a query's words mark first) is written as
    /// soon as it comes, not once the abstracts, most of the bytes, have.
    fn fetch_bodies(self, shown: &[u32]) {
        let missing = self.x.engine.missing_card_packs(shown.iter().copied());
        let (titles, bodies): (Vec<PaperPack>, Vec<PaperPack>) = missing
            .into_iter()
            .partition(|p| matches!(p, PaperPack::Title(_)));
        for packs in [titles, bodies] {
            if packs.is_empty() {
                continue;
            }
            // A failed request (offline, a pack never fetched) leaves its
            // cards saying they are loading; those whose packs came are
            // written again all the same.
            let now = crate::load::Priority::Now;
            crate::load::fetch_paper_packs(&packs, now, move |result| {
                if let Err(e) = result {
                    leptos::logging::warn!("{e}");
                }
                self.rewrite_what_came();
            });
        }
    }

    /// Writes again the cards whose title or body has come since they were
    /// written.
    fn rewrite_what_came(self) {
        let engine = self.x.engine;
        let came: Vec<u32> = self.incomplete.with_value(|u| {
            u.iter()
                .filter(|&(&d, &had)| parts_in(engine, d) != had)
                .map(|(&d, _)| d)
                .collect()
        });
        if came.is_empty() {
            return;
        }
        self.incomplete.update_value(|u| {
            came.iter().for_each(|d| {
                u.remove(d);
            })
        });
        self.written.update_value(|m| {
            came.iter().for_each(|d| {
                m.remove(d);
            })
        });
        self.cards.update_value(|cards| {
            if let Some(cards) = cards {
                cards.forget(&came);
            }
        });
        self.refill();
    }

    /// A scroll or a resize: the window follows, at most once a frame.
    pub fn on_move(self) {
        let scroll_y = window().scroll_y().unwrap_or(0.0);
        let view = window().inner_height().ok().and_then(|h| h.as_f64());
        self.geometry.update_value(|g| {
            g.scroll_y = scroll_y;
            g.view = view.unwrap_or(g.view);
        });
        if self.pending.get_value() || self.window.with_untracked(Option::is_none) {
            return;
        }
        self.pending.set_value(true);
        request_animation_frame(move || {
            self.pending.set_value(false);
            // What is above the list may have changed height (the topic
            // map opened): its place is read here, on scroll, never on a
            // keystroke.
            if let Some(ol) = self.list.get_untracked() {
                let top = document_top(&ol);
                self.geometry.update_value(|g| g.list_top = top);
            }
            self.follow();
        });
    }

    /// A `#p-…` link: its paper is shown at the top of the screen, and held
    /// there while the cards around it come and are measured. A paper
    /// outside a long list's window is scrolled to where it will be: first
    /// the window is laid out (the page gets its full height), then the
    /// page scrolls, the scroll moves the window there, and the card is
    /// held once it is in. A paper not among the results (shown in the
    /// related papers) is scrolled to once.
    pub fn scroll_to(self, id: &str) {
        let x = self.x;
        let Some(doc) = x.engine.doc_of(id) else {
            return;
        };
        let (rank, windowed) = x.search.response.with_untracked(|r| {
            let rank = r.hits.iter().position(|h| h.doc == doc);
            (rank, r.hits.len() > WINDOW_AT)
        });
        let Some(rank) = rank else {
            let id = id.to_string();
            request_animation_frame(move || {
                if let Some(el) = document().get_element_by_id(&id) {
                    el.scroll_into_view();
                }
            });
            return;
        };
        self.pinned.set_value(Some(doc));
        if !windowed {
            request_animation_frame(move || self.hold());
            return;
        }
        self.refill();
        request_animation_frame(move || {
            let Some(el) = self.list.get_untracked() else {
                return;
            };
            let offset: f64 = x.search.response.with_untracked(|r| {
                self.heights.with_value(|h| {
                    r.hits[..rank.min(r.hits.len())]
                        .iter()
                        .map(|hit| h.of(hit.doc))
                        .sum()
                })
            });
            window().scroll_to_with_x_and_y(0.0, document_top(&el) + offset);
        });
    }
}

/// The best matches' labels, by paper: their cards say so
/// (`li.best-match`, the label in `data-label`, shown above the first of
/// a run of them: result_list.css), and those close in meaning without
/// the words say that (`li.by-meaning`).
fn best_labels(r: &explorer_core::Response, t: &'static Strings) -> HashMap<u32, Label> {
    let any_best = r.all_words < r.hits.len();
    let hits = if any_best { r.hits.any_order() } else { &[] };
    (hits.iter())
        .filter(|h| !h.all_words)
        .map(|h| {
            let label = match h.by_meaning {
                true => (t.best_by_meaning, true),
                false => (t.best_match, false),
            };
            (h.doc, label)
        })
        .collect()
}

/// A hash of what a query matched: a kept card's marks are rewritten only
/// when it changed.
fn matched_hash(matched: &explorer_core::Matched) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut h = std::collections::hash_map::DefaultHasher::new();
    matched.hash(&mut h);
    h.finish()
}

/// A new card's item opened, marked as a best match when it is one.
fn open_item(html: &mut String, doc: u32, label: Option<Label>) {
    if let Some((label, by_meaning)) = label {
        let class = match by_meaning {
            true => "best-match by-meaning",
            false => "best-match",
        };
        html.push_str(&format!(
            "<li data-doc=\"{doc}\" class=\"{class}\" data-label=\"{label}\">"
        ));
    } else {
        html.push_str(&format!("<li data-doc=\"{doc}\">"));
    }
}

/// A card that stays, brought up to date: its item is touched only when
/// its label changed (and never read), its marks rewritten only when the
/// query's matches did.
fn kept_card(
    engine: &'static explorer_core::Engine,
    doc: u32,
    li: &web_sys::Element,
    before: Option<Written>,
    label: Option<Label>,
    r: &explorer_core::Response,
    matched: u64,
) -> Written {
    if before.as_ref().map(|w| w.label) != Some(label) {
        mark_best_match(li, label);
    }
    let marks = match before {
        Some(w) if w.matched == matched => w.marks,
        before => {
            let marks = highlights(engine, doc, &r.matched);
            if let Some(card) = li.first_element_child() {
                let before = before.as_ref().map(|w| &w.marks);
                write_marks(&card, engine, doc, &marks, before);
            }
            marks
        }
    };
    Written {
        matched,
        marks,
        label,
    }
}

/// A best match's label (in the language in use), and whether it is one
/// by meaning, without the words.
type Label = (&'static str, bool);

/// A kept card's item marked as a best match with its label, or not:
/// called when that changed.
fn mark_best_match(li: &web_sys::Element, label: Option<Label>) {
    let classes = li.class_list();
    if let Some((label, by_meaning)) = label {
        let _ = classes.add_1("best-match");
        let _ = classes.toggle_with_force("by-meaning", by_meaning);
        let _ = li.set_attribute("data-label", label);
    } else {
        let _ = classes.remove_2("best-match", "by-meaning");
        let _ = li.remove_attribute("data-label");
    }
}

/// A hidden element at the end of the page for cards to wait in.
fn card_pool() -> web_sys::Element {
    let pool = document().create_element("div").expect("a div");
    pool.set_class_name("card-pool");
    let _ = pool.set_attribute("hidden", "");
    if let Some(body) = document().body() {
        let _ = body.append_child(&pool);
    }
    pool
}

/// The cards in the list, in document order, with the paper each shows.
fn rendered_cards(ol: &web_sys::HtmlElement) -> Vec<(u32, web_sys::Element)> {
    let items = ol.children();
    (0..items.length())
        .filter_map(|i| items.item(i))
        .filter_map(|li| {
            let doc = li.get_attribute("data-doc")?.parse().ok()?;
            Some((doc, li))
        })
        .collect()
}
