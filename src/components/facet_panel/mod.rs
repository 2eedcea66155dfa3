use leptos::prelude::*;

use crate::Explorer;

/// Facets with more values than this show the most frequent first, and the
/// rest behind “Show all”.
const LONG_FACET: usize = 12;
const SHORT_LIST: usize = 8;

/// The facet sidebar: one group of labelled checkboxes per facet, with live
/// counts. Collapsible on narrow screens.
#[component]
pub fn FacetPanel() -> impl IntoView {
    let x = expect_context::<Explorer>();
    let (open, set_open) = signal(false);
    let selected_count = move || {
        x.state
            .with(|s| s.selection.iter().map(Vec::len).sum::<usize>())
    };
    view! {
        <aside class="facets" class:open=open aria-label="Filters">
            <button
                type="button"
                class="facets-toggle"
                aria-expanded=move || open.get().to_string()
                aria-controls="facet-groups"
                on:click=move |_| set_open.update(|o| *o = !*o)
            >
                "Filters"
                {move || match selected_count() {
                    0 => String::new(),
                    n => format!(" ({n})"),
                }}
            </button>
            <div id="facet-groups" class="facet-groups">
                {x
                    .engine
                    .corpus
                    .facets
                    .iter()
                    .enumerate()
                    .filter(|(_, f)| !f.values.is_empty())
                    .map(|(f, _)| view! { <FacetGroup facet=f /> })
                    .collect_view()}
            </div>
        </aside>
    }
}

#[component]
fn FacetGroup(facet: usize) -> impl IntoView {
    let x = expect_context::<Explorer>();
    let def = &x.engine.corpus.facets[facet];
    let long = def.values.len() > LONG_FACET;
    let (show_all, set_show_all) = signal(false);
    let count = move |v: u32| x.response.with(|r| r.counts[facet][v as usize]);
    // Short facets keep their order (and show zero counts, dimmed); long ones
    // list the values present, most frequent first.
    let values = move || -> Vec<u32> {
        let n = def.values.len() as u32;
        if !long {
            return (0..n).collect();
        }
        let mut vs: Vec<(u32, u32)> = (0..n)
            .map(|v| (v, count(v)))
            .filter(|&(v, c)| c > 0 || x.is_selected(facet, v))
            .collect();
        vs.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
        let keep = if show_all.get() {
            vs.len()
        } else {
            SHORT_LIST.min(vs.len())
        };
        vs.into_iter().take(keep).map(|(v, _)| v).collect()
    };
    let hidden = move || {
        let present = (0..def.values.len() as u32)
            .filter(|&v| count(v) > 0)
            .count();
        present.saturating_sub(SHORT_LIST)
    };
    view! {
        <fieldset class="facet" data-facet=def.key.clone()>
            <legend>{def.name.clone()}</legend>
            <ul>
                <For each=values key=|v| *v let(v)>
                    <li>
                        <label
                            class="facet-value"
                            class:zero=move || count(v) == 0 && !x.is_selected(facet, v)
                        >
                            <input
                                type="checkbox"
                                prop:checked=move || x.is_selected(facet, v)
                                on:change=move |_| x.toggle(facet, v)
                            />
                            <span class="facet-label">{def.values[v as usize].clone()}</span>
                            <span class="facet-count">{move || count(v)}</span>
                        </label>
                    </li>
                </For>
            </ul>
            <Show when=move || long && (show_all.get() || hidden() > 0)>
                <button
                    type="button"
                    class="facet-more"
                    aria-expanded=move || show_all.get().to_string()
                    on:click=move |_| set_show_all.update(|s| *s = !*s)
                >
                    {move || if show_all.get() { "Show fewer".to_string() } else { format!("Show {} more", hidden()) }}
                </button>
            </Show>
        </fieldset>
    }
}
