use leptos::prelude::*;

use crate::i18n::use_i18n;
use crate::shortcuts::KEYS;

/// The list of keyboard shortcuts (`?`), and the button that shows it.
#[component]
pub fn ShortcutsHelp(open: RwSignal<bool>) -> impl IntoView {
    let tr = use_i18n();
    view! {
        <button
            type="button"
            class="button pill shortcuts-button"
            aria-expanded=move || open.get().to_string()
            aria-controls="shortcuts"
            title=move || tr.get().shortcuts_tooltip
            on:click=move |_| open.update(|o| *o = !*o)
        >
            {move || tr.get().shortcuts}
        </button>
        <Show when=move || open.get()>
            <section id="shortcuts" class="shortcuts" role="dialog" aria-label=move || tr.get().shortcuts_title>
                <h2>{move || tr.get().shortcuts_title}</h2>
                <dl>
                    {KEYS
                        .iter()
                        .enumerate()
                        .map(|(i, key)| {
                            view! {
                                <dt><kbd>{*key}</kbd></dt>
                                <dd>{move || tr.get().shortcut_actions[i]}</dd>
                            }
                        })
                        .collect_view()}
                </dl>
                <button type="button" class="shortcuts-close" on:click=move |_| open.set(false)>
                    {move || tr.get().close}
                </button>
            </section>
        </Show>
    }
}
