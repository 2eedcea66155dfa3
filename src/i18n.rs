//! The interface's language: the reader's choice if they made one (kept
//! in localStorage), else the first of the browser's languages we have.
//! The strings themselves are `explorer_core::view`'s.

use leptos::prelude::*;

pub use explorer_core::view::{Lang, Strings};

const KEY: &str = "paper-explorer-lang";

/// Where the reader's language comes from, in the browser.
trait Chosen {
    fn stored() -> Option<Lang>;
    fn from_browser() -> Lang;
}

impl Chosen for Lang {
    fn stored() -> Option<Lang> {
        match crate::storage::get_choice(KEY)?.as_str() {
            "en" => Some(Lang::En),
            "zh" => Some(Lang::Zh),
            _ => None,
        }
    }

    fn from_browser() -> Lang {
        let langs: Vec<String> = window()
            .navigator()
            .languages()
            .iter()
            .filter_map(|v| v.as_string())
            .collect();
        Lang::from_preferences(langs.iter().map(String::as_str))
    }
}

/// The interface's language, provided to every component.
#[derive(Clone, Copy)]
pub struct I18n {
    lang: RwSignal<Lang>,
}

impl I18n {
    /// Chooses the language, keeps `<html lang>` in step with it and
    /// remembers a choice made with the toggle.
    pub fn start() -> I18n {
        let lang = RwSignal::new(Lang::stored().unwrap_or_else(Lang::from_browser));
        Effect::new(move |_| {
            if let Some(root) = document().document_element() {
                let _ = root.set_attribute("lang", lang.get().strings().html_lang);
            }
        });
        I18n { lang }
    }

    pub fn get(&self) -> &'static Strings {
        self.lang.get().strings()
    }

    /// The strings, outside the reactive graph (event handlers).
    pub fn now(&self) -> &'static Strings {
        self.lang.get_untracked().strings()
    }

    pub fn switch(&self) {
        let next = match self.lang.get_untracked() {
            Lang::En => Lang::Zh,
            Lang::Zh => Lang::En,
        };
        self.lang.set(next);
        crate::storage::set_choice(KEY, Some(next.code()));
    }
}

/// The interface's language, from context.
pub fn use_i18n() -> I18n {
    expect_context::<I18n>()
}
