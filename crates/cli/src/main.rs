//! `explorer-cli`: the corpus compiler on the command line.
//!
//! ```text
//! explorer-cli inspect DIR              the compiled papers as JSON (id, title and whether it
//!                                       was derived, list, tags with reasons, links)
//! explorer-cli noscript DIR --into FILE replace <!-- noscript --> in FILE with every paper
//!                                       as static HTML (run by the Trunk post-build hook)
//! explorer-cli single-file DIST --out FILE
//!                                       one self-contained HTML file from a built DIST (CSS,
//!                                       JS and WASM inlined): opens from file://, can be mailed
//! ```

mod single_file;

use std::path::PathBuf;
use std::process::ExitCode;

use explorer_core::compile::compile_dir;
use explorer_core::html::{escape, noscript, NOSCRIPT_MARKER};
use explorer_core::model::RunKind;
use serde_json::json;

fn usage() -> ExitCode {
    eprintln!(
        "usage: explorer-cli inspect DIR\n       explorer-cli noscript DIR --into FILE\n       explorer-cli single-file DIST --out FILE"
    );
    ExitCode::from(2)
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (Some(cmd), Some(dir)) = (args.first(), args.get(1)) else {
        return usage();
    };
    if cmd == "single-file" {
        let (Some("--out"), Some(out)) = (args.get(2).map(String::as_str), args.get(3)) else {
            return usage();
        };
        return match single_file::build(&PathBuf::from(dir)) {
            Ok(html) => match std::fs::write(out, html) {
                Ok(()) => ExitCode::SUCCESS,
                Err(e) => {
                    eprintln!("error: {out}: {e}");
                    ExitCode::FAILURE
                }
            },
            Err(e) => {
                eprintln!("error: {e}");
                ExitCode::FAILURE
            }
        };
    }
    let corpus = match compile_dir(&PathBuf::from(dir)) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::FAILURE;
        }
    };
    match (cmd.as_str(), args.get(2).map(String::as_str), args.get(3)) {
        ("inspect", None, None) => {
            let papers: Vec<_> = corpus
                .papers
                .iter()
                .map(|p| {
                    let tags: Vec<_> = p
                        .tags
                        .iter()
                        .map(|t| {
                            let f = &corpus.facets[t.facet as usize];
                            json!({ "facet": f.key, "value": f.values[t.value as usize], "reason": t.reason })
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
                    json!({
                        "id": p.id,
                        "title": p.title,
                        "title_derived": p.title_derived,
                        "list": corpus.lists[p.list as usize].label,
                        "line": p.line,
                        "tags": tags,
                        "links": links,
                    })
                })
                .collect();
            println!(
                "{}",
                serde_json::to_string_pretty(&json!({ "title": corpus.title(), "papers": papers }))
                    .unwrap()
            );
            ExitCode::SUCCESS
        }
        ("noscript", Some("--into"), Some(file)) => {
            let html = match std::fs::read_to_string(file) {
                Ok(h) => h,
                Err(e) => {
                    eprintln!("error: {file}: {e}");
                    return ExitCode::FAILURE;
                }
            };
            if !html.contains(NOSCRIPT_MARKER) {
                eprintln!("error: {file}: no {NOSCRIPT_MARKER} marker to replace");
                return ExitCode::FAILURE;
            }
            let html = html
                .replacen(NOSCRIPT_MARKER, &noscript(&corpus), 1)
                .replacen(
                    "<title>Paper explorer</title>",
                    &format!("<title>{}</title>", escape(&corpus.title())),
                    1,
                );
            if let Err(e) = std::fs::write(file, html) {
                eprintln!("error: {file}: {e}");
                return ExitCode::FAILURE;
            }
            ExitCode::SUCCESS
        }
        _ => usage(),
    }
}
