//! The core's native tests, one module per area, in one test binary: one
//! link of the core and its dependencies instead of one per file.

mod common;

mod best_matches;
mod card;
mod compile_never_panics;
mod documents;
mod export;
mod exports;
mod formats;
mod host_api;
mod layers;
mod malformed_corpus;
mod meaning;
mod packs;
mod properties;
mod real_list;
mod real_list_tags;
mod scale;
mod seed_corpus;
mod titles_apart;
mod vocabulary;
