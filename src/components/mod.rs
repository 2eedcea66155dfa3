//! The Leptos components, one folder each with its stylesheet (linked from
//! `index.html`), but `facet_row.rs`, a row the facet panel and the
//! reading list share, which has no style of its own. The paper cards
//! inside the result and related lists are not components: see
//! [`crate::cards`].

mod copy_field;
mod export_menu;
mod facet_panel;
mod facet_row;
mod language_toggle;
mod offline_save;
mod open_list;
mod reading_list_panel;
mod related_papers;
mod result_list;
mod search_box;
mod share_panel;
mod shared_list_notice;
mod shortcuts_help;
mod status_bar;
mod theme_toggle;
mod topic_map;

pub use facet_panel::FacetPanel;
pub use language_toggle::LanguageToggle;
pub use offline_save::OfflineSave;
pub use open_list::{OpenList, YourLists};
pub use related_papers::RelatedPapers;
pub use result_list::ResultList;
pub use search_box::SearchBox;
pub use share_panel::SharePanel;
pub use shared_list_notice::SharedListNotice;
pub use shortcuts_help::ShortcutsHelp;
pub use status_bar::StatusBar;
pub use theme_toggle::ThemeToggle;
pub use topic_map::TopicMap;
