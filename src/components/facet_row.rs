//! One value of a facet as a row (a checkbox, its label, its count and a
//! bar for its share of the results): the facet panel's and the reading
//! list's (“Starred”). Its style is the facet panel's
//! (`facet_panel.css`, `.facet-value`).

use leptos::prelude::*;

use crate::i18n::use_i18n;

/// A facet value's bar: the share of the `shown` results that have it,
/// in whole percent, as the `--share` its row is drawn with.
pub fn bar(count: u32, shown: usize) -> String {
    let pct = (u64::from(count) * 100)
        .div_ceil(shown.max(1) as u64)
        .min(100);
    format!("{pct}%")
}

/// One value of a facet (or the reading list's “Starred”): a checkbox with
/// its label, its count among the results and a bar for its share of them.
#[component]
pub fn FacetRow(
    #[prop(into)] label: Signal<String>,
    #[prop(into)] count: Signal<u32>,
    #[prop(into)] share: Signal<String>,
    #[prop(into)] checked: Signal<bool>,
    on_toggle: impl Fn() + 'static,
    /// The count is not known yet (a long list's tags are on their way).
    #[prop(optional, into)]
    pending: MaybeProp<bool>,
) -> impl IntoView {
    let tr = use_i18n();
    let pending = move || pending.get().unwrap_or(false);
    view! {
        <label
            class="facet-value"
            class:zero=move || count.get() == 0 && !checked.get() && !pending()
            class:pending=pending
            style:--share=move || if pending() { "0%".to_string() } else { share.get() }
        >
            <input type="checkbox" prop:checked=move || checked.get() on:change=move |_| on_toggle() />
            <span class="facet-label">{move || label.get()}</span>
            // One element either way: a count that comes in changes its text.
            <span
                class="facet-count"
                title=move || pending().then(|| tr.get().count_pending_label)
                aria-label=move || pending().then(|| tr.get().count_pending_label)
            >
                {move || if pending() { tr.get().count_pending.to_string() } else { count.get().to_string() }}
            </span>
        </label>
    }
}
