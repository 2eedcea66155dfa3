use leptos::prelude::*;

use crate::shortcuts::SHORTCUTS;

/// The list of keyboard shortcuts (`?`), and the button that shows it.
#[component]
pub fn ShortcutsHelp(open: RwSignal<bool>) -> impl IntoView {
    view! {
        <button
            type="button"
            class="pill-button shortcuts-button"
            aria-expanded=move || open.get().to_string()
            aria-controls="shortcuts"
            title="Keyboard shortcuts (?)"
            on:click=move |_| open.update(|o| *o = !*o)
        >
            "Shortcuts"
        </button>
        <Show when=move || open.get()>
            <section id="shortcuts" class="shortcuts" role="dialog" aria-label="Keyboard shortcuts">
                <h2>"Keyboard shortcuts"</h2>
                <dl>
                    {SHORTCUTS
                        .iter()
                        .map(|(key, what)| view! { <dt><kbd>{*key}</kbd></dt><dd>{*what}</dd> })
                        .collect_view()}
                </dl>
                <button type="button" class="shortcuts-close" on:click=move |_| open.set(false)>
                    "Close"
                </button>
            </section>
        </Show>
    }
}
