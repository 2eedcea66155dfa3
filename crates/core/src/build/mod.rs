//! The build-time compiler (behind the `compile` feature, never in the
//! WebAssembly): source lists read from seed text (`.txt`), JSON, JSON
//! Lines (`.jsonl`, `.ndjson`) or CSV, abstracts' markup parsed and their
//! formulas rendered to MathML, titles derived and acronyms found, tags
//! given from the taxonomy, similar papers found and the topic map laid
//! out, the meaning file built; and the evaluations of derived titles, of
//! real titles typed as queries and of find by meaning, the synthetic
//! lists of the benchmarks and scale tests, and how a list's vocabulary
//! grows, which they follow.
//!
//! The evaluations, the synthetic lists and the vocabulary's measure stay
//! namespaces ([`meaning_eval`], [`title_eval`], [`title_queries`],
//! `synth`, [`vocab`]): their names read only qualified.

pub(crate) mod acronym;
pub(crate) mod compile;
pub(crate) mod markup;
pub(crate) mod mathml;
pub(crate) mod meaning;
pub mod meaning_eval;
pub(crate) mod records;
pub(crate) mod references;
pub(crate) mod seed;
pub(crate) mod service_worker;
pub(crate) mod similar;
pub mod single_file;
pub(crate) mod site;
pub(crate) mod source;
pub(crate) mod stage;
#[cfg(feature = "synth")]
pub mod synth;
pub(crate) mod tags;
pub(crate) mod title;
pub mod title_eval;
pub mod title_queries;
pub(crate) mod topic_map;
pub mod vocab;

/// English stop words (the `stop-words` crate's ISO list), built once: what
/// the title overlap measure leaves out, where a title's topic phrase is
/// cut, and what similar papers are never similar by.
pub(crate) fn stop_words() -> &'static std::collections::HashSet<&'static str> {
    static STOP: std::sync::OnceLock<std::collections::HashSet<&'static str>> =
        std::sync::OnceLock::new();
    STOP.get_or_init(|| stop_words::get("en").iter().copied().collect())
}

pub use acronym::{definitions, Definition};
pub use compile::{
    compile_dir, compile_dir_with, compile_file, compile_sources, compile_sources_with,
    parse_taxonomy, report_panics_with_paper, Compiled, Options, Source, DEFAULT_TAXONOMY,
};
pub use markup::{parse as parse_markup, Markup};
pub use mathml::{letters, mathml_letters, to_mathml};
pub use meaning::{
    build as build_meaning, build_in_lists_from as build_meaning_in_lists_from,
    build_with_exact as build_meaning_with_exact, StaticModel,
};
pub use records::{read as read_records, Format as RecordFormat, Record, RecordList};
pub use seed::{parse_seed, write_seed, Paragraph, SeedList};
pub use service_worker::{
    in_shell, served_by_worker, service_worker, BuiltFile, ServiceWorker, SHELL_FILE,
};
pub use site::{site, Site, SiteLink};
pub use source::SourceError;
pub use stage::{manifest, page, PageParts, StageError};
pub use tags::Taxonomy;
pub use title::derive_title;
