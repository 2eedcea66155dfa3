use std::collections::{HashMap, HashSet};

use leptos::prelude::*;

use super::paper_card::PaperCard;
use crate::i18n::use_i18n;
use crate::Explorer;

/// At most this many new cards are created per animation frame: a keystroke
/// or facet click that brings back the whole list paints its first cards in
/// the same frame and the rest over the next few.
const NEW_CARDS_PER_FRAME: usize = 10;

/// Above this many results, only the cards on screen (and a screenful either
/// side) are in the document: 20,000 results are 20,000 heights, not cards.
const WINDOW_AT: usize = 200;
/// Cards' height before they have been measured, in CSS pixels.
const ESTIMATED_HEIGHT: f64 = 260.0;

/// A card's measured height, or the estimate before it has been rendered.
fn height_of(heights: &HashMap<u32, f64>, doc: u32) -> f64 {
    heights.get(&doc).copied().unwrap_or(ESTIMATED_HEIGHT)
}

/// Which slice of the ranked results is rendered, and the space the rest
/// takes above and below it.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Window {
    start: usize,
    end: usize,
    above: f64,
    below: f64,
}

/// The ranked results. Cards are keyed by paper, so the cards that stay are
/// reused, moved rather than rebuilt. Leptos's keyed diff (tachys 0.2)
/// decides which moved cards need a DOM move from a running count of adds
/// and removes, which is wrong for some permutations (a browser test caught
/// it in Firefox): after each update, before the frame is painted, the
/// cards are put back in the ranked order if they are not. Long result
/// lists are windowed: cards outside the screen are replaced by their
/// measured (or estimated) height.
#[component]
pub fn ResultList() -> impl IntoView {
    let x = expect_context::<Explorer>();
    let tr = use_i18n();
    let ranked = move || -> Vec<u32> {
        x.response
            .with_untracked(|r| r.hits.iter().map(|h| h.doc).collect())
    };
    let list = NodeRef::<leptos::html::Ol>::new();
    let (shown, set_shown) = signal(Vec::<u32>::new());
    let (window_, set_window) = signal(None::<Window>);
    // Measured card heights (including the gap), by paper.
    let heights = StoredValue::new(HashMap::<u32, f64>::new());
    // Bumped on every new response so a stale fill stops.
    let generation = StoredValue::new(0u64);

    // The slice of `hits` on screen now, from the list's place in the page
    // and the heights known so far.
    let compute_window = move |hits: &[u32]| -> Option<Window> {
        if hits.len() <= WINDOW_AT {
            return None;
        }
        // Before the list is mounted, it is taken to start at the top.
        let top = list
            .get_untracked()
            .map_or(0.0, |el| el.get_bounding_client_rect().top());
        let view = window().inner_height().ok()?.as_f64().unwrap_or(800.0);
        // The visible part of the list, one screen of margin either side.
        let (from, to) = (-top - view, -top + 2.0 * view);
        heights.with_value(|h| {
            let mut w = Window {
                start: 0,
                end: 0,
                above: 0.0,
                below: 0.0,
            };
            let mut y = 0.0;
            let mut started = false;
            for (i, d) in hits.iter().enumerate() {
                let hgt = height_of(h, *d);
                if !started {
                    if y + hgt >= from {
                        started = true;
                        w.start = i;
                        w.above = y;
                        w.end = i;
                    }
                } else if y > to {
                    w.below += hgt;
                    continue;
                }
                if started {
                    w.end = i + 1;
                }
                y += hgt;
            }
            if !started {
                // Scrolled past the end (the list got shorter): the last few.
                w.start = hits.len().saturating_sub(10);
                w.end = hits.len();
                w.above = hits[..w.start].iter().map(|&d| height_of(h, d)).sum();
            }
            Some(w)
        })
    };

    // Grows the shown list toward the ranked hits (or their window),
    // creating a bounded number of new cards at a time (scheduling frames
    // is the outside world).
    let fill = move |gen: u64| {
        fn step(
            ranked: impl Fn() -> Vec<u32> + Copy + 'static,
            gen: u64,
            generation: StoredValue<u64>,
            shown: ReadSignal<Vec<u32>>,
            set_shown: WriteSignal<Vec<u32>>,
            set_window: WriteSignal<Option<Window>>,
            window_of: impl Fn(&[u32]) -> Option<Window> + Copy + 'static,
            measure: impl Fn() + Copy + 'static,
            repair: impl Fn() + Copy + 'static,
        ) {
            if generation.get_value() != gen {
                return;
            }
            let hits = ranked();
            let w = window_of(&hits);
            let target = match w {
                Some(w) => &hits[w.start..w.end],
                None => &hits[..],
            };
            let have: HashSet<u32> = shown.with_untracked(|s| s.iter().copied().collect());
            let mut budget = NEW_CARDS_PER_FRAME;
            let next: Vec<u32> = target
                .iter()
                .copied()
                .filter(|d| {
                    have.contains(d)
                        || (budget > 0 && {
                            budget -= 1;
                            true
                        })
                })
                .collect();
            let done = next.len() == target.len();
            set_window.set(w);
            set_shown.set(next);
            request_animation_frame(move || {
                repair();
                measure();
                if !done {
                    step(
                        ranked, gen, generation, shown, set_shown, set_window, window_of, measure,
                        repair,
                    );
                }
            });
        }
        step(
            ranked,
            gen,
            generation,
            shown,
            set_shown,
            set_window,
            compute_window,
            measure_cards(list, heights),
            repair_order(list, shown),
        );
    };
    let refill = move || {
        let gen = generation.get_value() + 1;
        generation.set_value(gen);
        fill(gen);
    };

    Effect::new(move |_| {
        x.response.track();
        refill();
    });
    // Scrolling and resizing move the window (at most once a frame).
    let pending = StoredValue::new(false);
    let on_move = move || {
        if pending.get_value() || window_.with_untracked(Option::is_none) {
            return;
        }
        pending.set_value(true);
        request_animation_frame(move || {
            pending.set_value(false);
            let hits = ranked();
            let w = compute_window(&hits);
            let moved = w.is_some_and(|w| {
                shown.with_untracked(|s| {
                    s.first().copied() != hits.get(w.start).copied() || s.len() != w.end - w.start
                })
            });
            if moved {
                refill();
            }
        });
    };
    let scroll = window_event_listener(leptos::ev::scroll, move |_| on_move());
    let resize = window_event_listener(leptos::ev::resize, move |_| on_move());
    on_cleanup(move || {
        scroll.remove();
        resize.remove();
    });
    // A `#p-…` link to a paper outside the window scrolls to where it will
    // be: first the window is laid out (the page gets its full height), then
    // the page scrolls, and the scroll moves the window there.
    Effect::new(move |_| {
        let Some(id) = x.open.get() else { return };
        let Some(doc) = x.engine.corpus.doc_of(&id) else {
            return;
        };
        let rank = x
            .response
            .with_untracked(|r| r.hits.iter().position(|h| h.doc == doc));
        let Some(rank) = rank.filter(|_| x.response.with_untracked(|r| r.hits.len() > WINDOW_AT))
        else {
            return;
        };
        refill();
        request_animation_frame(move || {
            let Some(el) = list.get_untracked() else {
                return;
            };
            let offset: f64 = x.response.with_untracked(|r| {
                heights.with_value(|h| {
                    r.hits[..rank.min(r.hits.len())]
                        .iter()
                        .map(|hit| height_of(h, hit.doc))
                        .sum()
                })
            });
            let y = el.get_bounding_client_rect().top() + window().scroll_y().unwrap_or(0.0);
            window().scroll_to_with_x_and_y(0.0, y + offset);
        });
    });

    view! {
        <ol
            class="results"
            aria-label=move || tr.get().results_label
            node_ref=list
            style:padding-top=move || window_.get().map(|w| format!("{}px", w.above))
            style:padding-bottom=move || window_.get().map(|w| format!("{}px", w.below))
        >
            <For each=move || shown.get() key=|d| *d let(doc)>
                <li data-doc=doc>
                    <PaperCard doc=doc />
                </li>
            </For>
        </ol>
    }
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

/// Records the rendered cards' heights, each with the gap after it.
fn measure_cards(
    list: NodeRef<leptos::html::Ol>,
    heights: StoredValue<HashMap<u32, f64>>,
) -> impl Fn() + Copy + 'static {
    move || {
        let Some(el) = list.get_untracked() else {
            return;
        };
        let boxes: Vec<(u32, f64, f64)> = rendered_cards(&el)
            .into_iter()
            .map(|(doc, li)| {
                let r = li.get_bounding_client_rect();
                (doc, r.top(), r.height())
            })
            .collect();
        let gap = match boxes.as_slice() {
            [a, b, ..] => (b.1 - a.1 - a.2).max(0.0),
            _ => 0.0,
        };
        heights.update_value(|h| {
            for (doc, _, height) in boxes {
                if height > 0.0 {
                    h.insert(doc, height + gap);
                }
            }
        });
    }
}

/// Puts the rendered cards back in the order of `shown` when the keyed
/// diff left them otherwise. The cards move among themselves, in front of
/// whatever follows them (the list's end marker), so the framework's own
/// view of the list is what the document shows again.
fn repair_order(
    list: NodeRef<leptos::html::Ol>,
    shown: ReadSignal<Vec<u32>>,
) -> impl Fn() + Copy + 'static {
    move || {
        let Some(ol) = list.get_untracked() else {
            return;
        };
        let rendered = rendered_cards(&ol);
        let in_order = shown.with_untracked(|want| {
            rendered.len() == want.len() && rendered.iter().zip(want).all(|(r, w)| r.0 == *w)
        });
        if in_order || rendered.is_empty() {
            return;
        }
        let anchor = rendered.last().and_then(|(_, li)| li.next_sibling());
        let by_doc: HashMap<u32, web_sys::Element> = rendered.into_iter().collect();
        shown.with_untracked(|want| {
            for d in want {
                if let Some(li) = by_doc.get(d) {
                    let _ = ol.insert_before(li, anchor.as_ref());
                }
            }
        });
    }
}
