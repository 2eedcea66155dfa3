use std::collections::HashSet;

use leptos::prelude::*;

use super::paper_card::PaperCard;
use crate::Explorer;

/// At most this many new cards are created per animation frame: a keystroke
/// or facet click that brings back the whole list paints its first cards in
/// the same frame and the rest over the next few.
const NEW_CARDS_PER_FRAME: usize = 10;

/// The ranked results. Cards are keyed by paper, so a keystroke that only
/// removes or adds papers reuses the cards that stay. When the papers that
/// stay change their relative order, the list is rebuilt under a new epoch
/// instead of moved: Leptos's keyed diff (tachys 0.2) can leave moved cards
/// out of order, which a browser test caught in Firefox.
#[component]
pub fn ResultList() -> impl IntoView {
    let x = expect_context::<Explorer>();
    let (shown, set_shown) = signal(Vec::<(u64, u32)>::new());
    // Bumped on every new response so a stale fill stops.
    let generation = StoredValue::new(0u64);

    // Grows the shown list toward the ranked hits, creating a bounded number
    // of new cards at a time (scheduling frames is the outside world).
    fn fill(
        x: Explorer,
        set_shown: WriteSignal<Vec<(u64, u32)>>,
        shown: ReadSignal<Vec<(u64, u32)>>,
        generation: StoredValue<u64>,
        gen: u64,
    ) {
        if generation.get_value() != gen {
            return;
        }
        let target: Vec<u32> = x
            .response
            .with_untracked(|r| r.hits.iter().map(|h| h.doc).collect());
        let (mut epoch, mut have) = shown.with_untracked(|s| {
            (
                s.first().map_or(0, |e| e.0),
                s.iter().map(|e| e.1).collect::<Vec<u32>>(),
            )
        });
        if !same_relative_order(&have, &target) {
            epoch += 1;
            have.clear();
        }
        let have: HashSet<u32> = have.into_iter().collect();
        let mut budget = NEW_CARDS_PER_FRAME;
        let next: Vec<(u64, u32)> = target
            .iter()
            .copied()
            .filter(|d| {
                have.contains(d)
                    || (budget > 0 && {
                        budget -= 1;
                        true
                    })
            })
            .map(|d| (epoch, d))
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
            <For each=move || shown.get() key=|e| *e let((_, doc))>
                <li>
                    <PaperCard doc=doc />
                </li>
            </For>
        </ol>
    }
}

/// Whether the papers in both lists appear in the same order in each.
fn same_relative_order(old: &[u32], new: &[u32]) -> bool {
    let rank: std::collections::HashMap<u32, usize> =
        new.iter().enumerate().map(|(i, &d)| (d, i)).collect();
    let mut last = None;
    for r in old.iter().filter_map(|d| rank.get(d)) {
        if last.is_some_and(|l| r < l) {
            return false;
        }
        last = Some(r);
    }
    true
}

#[cfg(test)]
mod tests {
    use super::same_relative_order;

    #[test]
    fn detects_reordering_of_the_papers_that_stay() {
        assert!(same_relative_order(&[1, 2, 3], &[1, 3]));
        assert!(same_relative_order(&[1, 2, 3], &[0, 1, 4, 2, 3]));
        assert!(same_relative_order(&[], &[2, 1]));
        assert!(!same_relative_order(&[1, 2, 3], &[3, 1]));
        assert!(!same_relative_order(&[1, 2], &[2, 5, 1]));
    }
}
