use std::collections::HashSet;

use leptos::prelude::*;

use super::paper_card::PaperCard;
use crate::Explorer;

/// At most this many new cards are created per animation frame: a keystroke
/// or facet click that brings back the whole list paints its first cards in
/// the same frame and the rest over the next few.
const NEW_CARDS_PER_FRAME: usize = 10;

/// The ranked results; cards are keyed by paper so unchanged ones are reused.
#[component]
pub fn ResultList() -> impl IntoView {
    let x = expect_context::<Explorer>();
    let (shown, set_shown) = signal(Vec::<u32>::new());
    // Bumped on every new response so a stale fill stops.
    let generation = StoredValue::new(0u64);

    // Grows the shown list toward the ranked hits, creating a bounded number
    // of new cards at a time (scheduling frames is the outside world).
    fn fill(
        x: Explorer,
        set_shown: WriteSignal<Vec<u32>>,
        shown: ReadSignal<Vec<u32>>,
        generation: StoredValue<u64>,
        gen: u64,
    ) {
        if generation.get_value() != gen {
            return;
        }
        let target: Vec<u32> = x
            .response
            .with_untracked(|r| r.hits.iter().map(|h| h.doc).collect());
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
        set_shown.set(next);
        if !done {
            request_animation_frame(move || fill(x, set_shown, shown, generation, gen));
        }
    }

    Effect::new(move |_| {
        x.response.track();
        let gen = generation.get_value() + 1;
        generation.set_value(gen);
        fill(x, set_shown, shown, generation, gen);
    });

    view! {
        <ol class="results" aria-label="Papers">
            <For each=move || shown.get() key=|d| *d let(doc)>
                <li>
                    <PaperCard doc=doc />
                </li>
            </For>
        </ol>
    }
}
