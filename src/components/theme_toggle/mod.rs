use leptos::prelude::*;

use crate::i18n::{use_i18n, Strings};

/// The colour theme: the system's, or light or dark as chosen here
/// (remembered in this browser when storage is available).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Theme {
    System,
    Light,
    Dark,
}

const KEY: &str = "paper-explorer-theme";

impl Theme {
    fn key(self) -> &'static str {
        match self {
            Theme::System => "system",
            Theme::Light => "light",
            Theme::Dark => "dark",
        }
    }

    fn next(self) -> Theme {
        match self {
            Theme::System => Theme::Light,
            Theme::Light => Theme::Dark,
            Theme::Dark => Theme::System,
        }
    }

    fn label(self, t: &Strings) -> &'static str {
        match self {
            Theme::System => t.themes[0],
            Theme::Light => t.themes[1],
            Theme::Dark => t.themes[2],
        }
    }

    fn stored() -> Theme {
        match crate::storage::get_choice(KEY).as_deref() {
            Some("light") => Theme::Light,
            Some("dark") => Theme::Dark,
            _ => Theme::System,
        }
    }
}

/// A button that cycles the theme: system → light → dark.
#[component]
pub fn ThemeToggle() -> impl IntoView {
    let (theme, set_theme) = signal(Theme::stored());
    let tr = use_i18n();
    // The document's attribute and the stored choice are the outside world.
    Effect::new(move |_| {
        let t = theme.get();
        let root = document().document_element().expect("a root element");
        let _ = match t {
            Theme::System => root.remove_attribute("data-theme"),
            _ => root.set_attribute("data-theme", t.key()),
        };
        crate::storage::set_choice(KEY, (t != Theme::System).then(|| t.key()));
    });
    view! {
        <button
            type="button"
            class="button pill theme-toggle"
            data-theme-choice=move || theme.get().key()
            on:click=move |_| set_theme.update(|t| *t = t.next())
        >
            {move || theme.get().label(tr.get())}
        </button>
    }
}
