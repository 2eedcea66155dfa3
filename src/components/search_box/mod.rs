use leptos::html::Input;
use leptos::prelude::*;

use crate::Explorer;

/// The search field, with the query syntax in a popover.
#[component]
pub fn SearchBox() -> impl IntoView {
    let x = expect_context::<Explorer>();
    let input = NodeRef::<Input>::new();
    // When the query is replaced from outside (back, forward, “clear”), the
    // field shows it. Typing itself never writes back into the field: an
    // update arriving after the next keystroke would overwrite it.
    Effect::new(move |_| {
        x.query_replaced.track();
        let q = x.state.with_untracked(|s| s.query.clone());
        if let Some(el) = input.get_untracked() {
            if el.value() != q {
                el.set_value(&q);
            }
        }
    });
    let initial = x.state.with_untracked(|s| s.query.clone());
    // A link to a paper (`#p-…`) is for reading it: focusing the field would
    // scroll the page back to the top (Firefox and WebKit focus late).
    let focus = x.open.with_untracked(Option::is_none);
    view! {
        <div class="search" role="search">
            <label for="q" class="visually-hidden">"Search papers"</label>
            <input
                id="q"
                node_ref=input
                type="search"
                value=initial
                placeholder="Search titles and abstracts — try \"catastrophic forgetting\" or rl -video"
                autocomplete="off"
                spellcheck="false"
                autofocus=focus
                on:input:target=move |ev| x.set_query(ev.target().value())
            />
            <details class="help">
                <summary aria-label="Search syntax help">"?"</summary>
                <div class="help-body">
                    <h2>"Search syntax"</h2>
                    <dl>
                        <dt><code>"diffusion video"</code></dt>
                        <dd>"papers with both words (any form: model, models, modelling)"</dd>
                        <dt><code>"diffu"</code></dt>
                        <dd>"the word being typed also matches as a prefix"</dd>
                        <dt><code>"\"catastrophic forgetting\""</code></dt>
                        <dd>"an exact phrase; hyphenated words like DPH-RL are phrases too"</dd>
                        <dt><code>"-video"</code></dt>
                        <dd>"exclude papers with a word or \"phrase\""</dd>
                        <dt><code>"audio OR speech"</code></dt>
                        <dd>"either word"</dd>
                        <dt><code>"reinforcment"</code></dt>
                        <dd>"typos are forgiven (1 in words of 5+ letters, 2 in 9+); such matches rank last"</dd>
                        <dt><code>"topic:agents"</code>" "<code>"code:yes"</code>" "<code>"acronym:RLVR"</code></dt>
                        <dd>"filter by a facet; "<code>"tag:"</code>" searches every facet"</dd>
                    </dl>
                    <p>"Case and accents are ignored: bokmal finds Bokmål."</p>
                </div>
            </details>
        </div>
    }
}
