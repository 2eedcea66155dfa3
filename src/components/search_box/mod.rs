use leptos::html::Input;
use leptos::prelude::*;

use crate::i18n::use_i18n;
use crate::Explorer;

/// The search field, with the query syntax in a popover.
#[component]
pub fn SearchBox() -> impl IntoView {
    let x = expect_context::<Explorer>();
    let tr = use_i18n();
    let input = NodeRef::<Input>::new();
    // When the query is replaced from outside (back, forward, “clear”), the
    // field shows it. Typing itself never writes back into the field: an
    // update arriving after the next keystroke would overwrite it.
    Effect::new(move |_| {
        x.view.query_replaced.track();
        let q = x.view.state.with_untracked(|s| s.query.clone());
        if let Some(el) = input.get_untracked() {
            if el.value() != q {
                el.set_value(&q);
            }
        }
    });
    let initial = x.view.state.with_untracked(|s| s.query.clone());
    // A link to a paper (`#p-…`) is for reading it: focusing the field would
    // scroll the page back to the top (Firefox and WebKit focus late).
    let focus = x.view.open.with_untracked(Option::is_none);
    view! {
        <div class="search" role="search">
            <label for="q" class="visually-hidden">{move || tr.get().search_label}</label>
            <input
                id="q"
                node_ref=input
                type="search"
                value=initial
                placeholder=move || tr.get().search_placeholder
                autocomplete="off"
                spellcheck="false"
                autofocus=focus
                on:input:target=move |ev| x.set_query(ev.target().value())
            />
            <details class="help">
                <summary aria-label=move || tr.get().syntax_help>"?"</summary>
                <div class="help-body">
                    <h2>{move || tr.get().syntax_title}</h2>
                    <dl>
                        {(0..6)
                            .map(|i| {
                                view! {
                                    <dt><code>{move || tr.get().syntax[i].0}</code></dt>
                                    <dd>{move || tr.get().syntax[i].1}</dd>
                                }
                            })
                            .collect_view()}
                        <dt><code>"topic:agents"</code>" "<code>"code:yes"</code>" "<code>"acronym:RLVR"</code></dt>
                        <dd>{move || tr.get().syntax_facets}<code>"tag:"</code>{move || tr.get().syntax_tag}</dd>
                    </dl>
                    <p>{move || tr.get().syntax_note}</p>
                </div>
            </details>
        </div>
    }
}
