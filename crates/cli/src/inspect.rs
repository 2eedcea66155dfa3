//! `inspect DIR`: every compiled paper as JSON, for checking a list and
//! tuning its taxonomy without a browser.

use std::io::Write;

use explorer_core::build::Compiled;
use explorer_core::model::RunKind;
use serde_json::json;

/// Prints the compiled list: each paper's id, title (and whether it was
/// derived), list, tags with their reasons and links; the records skipped
/// and the fields ignored.
pub fn inspect(compiled: &Compiled) {
    let corpus = &compiled.corpus;
    let papers: Vec<_> = corpus
        .papers
        .iter()
        .map(|p| {
            let tags: Vec<_> = p
                .tags
                .iter()
                .map(|t| {
                    let f = &corpus.facets[t.facet as usize];
                    json!({ "facet": f.kind.key(), "value": f.values[t.value as usize], "reason": corpus.reason(t) })
                })
                .collect();
            let links: Vec<_> = p
                .runs
                .iter()
                .filter_map(|r| match &r.kind {
                    RunKind::Link { href, .. } => Some(href.clone()),
                    _ => None,
                })
                .collect();
            let record_links: Vec<_> = p
                .links
                .iter()
                .map(|l| json!({ "kind": l.kind.label(), "href": l.href }))
                .collect();
            json!({
                "id": p.id,
                "title": p.title,
                "title_derived": p.title_derived,
                "authors": p.authors,
                "year": p.year,
                "list": corpus.lists[p.list as usize].label,
                "line": p.line,
                "tags": tags,
                "record_links": record_links,
                "links_in_abstract": links,
                "similar": p.similar.iter().map(|s| json!({
                    "id": corpus.papers[s.doc as usize].id,
                    "shared_terms": corpus.shared_terms(s).collect::<Vec<_>>(),
                })).collect::<Vec<_>>(),
            })
        })
        .collect();
    // A closed pipe (`| head`) is not an error worth a panic.
    let _ = writeln!(
        std::io::stdout(),
        "{}",
        serde_json::to_string_pretty(&json!({
            "title": corpus.title(),
            "skipped": compiled.warnings.iter().map(ToString::to_string).collect::<Vec<_>>(),
            "ignored_fields": compiled.ignored_fields.iter().map(|(f, names)| json!({ "file": f, "fields": names })).collect::<Vec<_>>(),
            "papers": papers,
        }))
            .unwrap()
    );
}
