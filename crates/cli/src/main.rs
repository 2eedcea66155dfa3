//! `explorer-cli`: the corpus compiler on the command line.
//!
//! ```text
//! explorer-cli inspect DIR              the compiled papers as JSON (id, title and whether it
//!                                       was derived, list, tags with reasons, links)
//! explorer-cli noscript DIR --into FILE replace <!-- noscript --> in FILE with a link to
//!                                       papers.html, written beside FILE: every paper as static
//!                                       HTML (run by the Trunk post-build hook)
//! explorer-cli manifest DIR --into FILE name the web app manifest FILE after the corpus
//! explorer-cli stage DIR --into STAGING the three steps of the Trunk post-build hook from one
//!                                       compile: the corpus as STAGING/corpus-<hash>.bin,
//!                                       index-<hash>.bin and meaning-<hash>.bin, linked from
//!                                       index.html; noscript; manifest
//! explorer-cli synth N --seed S --out DIR
//!                                       N synthetic papers (deterministic for a seed), trained
//!                                       on the seed lists in corpus/, as DIR/papers.jsonl
//! explorer-cli eval-formulas FILE…    each formula's searched plain text against its shown MathML
//! explorer-cli eval-titles FILE…      derive each record's title from its abstract alone and
//!                                       compare with the real one (four measures, broken titles
//!                                       by kind, 20 worst)
//! explorer-cli eval-tags DIR            how many papers get a topic, and how the topics agree
//!                                       with the records' own keywords and primary areas
//! explorer-cli eval-meaning DIR --queries FILE
//!                                       recall@10 and MRR of judged queries (JSON lines): words
//!                                       only, meaning only, and the page's order of both
//! explorer-cli single-file DIST --out FILE
//!                                       one self-contained HTML file from a built DIST (CSS,
//!                                       JS and WASM inlined): opens from file://, can be mailed
//! ```

mod single_file;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Parser, Subcommand};
use explorer_core::compile::{compile_dir_with, Options};
use explorer_core::html::{escape, listing, noscript, LISTING_FILE, NOSCRIPT_MARKER};
use explorer_core::meaning;
use explorer_core::model::RunKind;
use explorer_core::FacetKind;
use serde_json::json;

/// The compiler on the command line.
#[derive(Parser)]
#[command(name = "explorer-cli", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// The compiled papers as JSON (id, title and whether it was derived,
    /// list, tags with reasons, links).
    Inspect { dir: PathBuf },
    /// Replace <!-- noscript --> in FILE with a link to papers.html, written
    /// beside FILE.
    Noscript {
        dir: PathBuf,
        #[arg(long)]
        into: String,
    },
    /// Name the web app manifest FILE after the corpus.
    Manifest {
        dir: PathBuf,
        #[arg(long)]
        into: String,
    },
    /// The Trunk post-build hook: the corpus, index and meaning files in
    /// STAGING, linked from its index.html; noscript; manifest.
    Stage {
        dir: PathBuf,
        #[arg(long)]
        into: PathBuf,
    },
    /// N synthetic papers (deterministic for a seed) as OUT/papers.jsonl.
    Synth {
        n: usize,
        #[arg(long)]
        seed: u64,
        #[arg(long)]
        out: PathBuf,
    },
    /// Derive each record's title from its abstract and compare with the
    /// real one.
    EvalTitles {
        /// Every paper as a tab-separated line.
        #[arg(long)]
        cases: bool,
        /// Every candidate title of every paper, with its features and its
        /// overlap with the real title (to fit the ranker:
        /// tools/titles/train.py).
        #[arg(long)]
        candidates: bool,
        /// Each paper's title chosen with the ranker weights fitted without
        /// its fold: held-out figures.
        #[arg(long)]
        held_out: bool,
        #[arg(required = true)]
        files: Vec<String>,
    },
    /// Check that each formula's plain text (searched) and MathML (shown)
    /// hold the same letters and digits.
    EvalFormulas {
        #[arg(required = true)]
        files: Vec<String>,
    },
    /// How many papers get a topic, and how topics agree with the records'
    /// keywords and areas.
    EvalTags { dir: PathBuf },
    /// Recall@10 and MRR of judged queries: words, meaning, both.
    EvalMeaning {
        dir: PathBuf,
        #[arg(long)]
        queries: String,
    },
    /// One self-contained HTML file from a built DIST.
    SingleFile {
        dist: PathBuf,
        #[arg(long)]
        out: PathBuf,
    },
    /// Move the JS loader out of DIST's index.html (strict CSP).
    ExternalLoader { dist: PathBuf },
    /// Merge DIST's stylesheets into one file, in the page's order.
    OneStylesheet { dist: PathBuf },
}

/// An exit code for a step's result, the error printed.
fn done(r: Result<(), String>) -> ExitCode {
    match r {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}

fn main() -> ExitCode {
    explorer_core::compile::report_panics_with_paper();
    let (dir, step) = match Cli::parse().command {
        Command::Synth { n, seed, out } => {
            let seeds = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../corpus");
            return done(
                explorer_core::synth::generate(&seeds, n, seed, &out).map_err(|e| e.to_string()),
            );
        }
        Command::EvalTitles {
            cases,
            candidates,
            held_out,
            files,
        } => return eval_titles(cases, candidates, held_out, &files),
        Command::EvalFormulas { files } => return eval_formulas(&files),
        Command::ExternalLoader { dist } => {
            return done(
                single_file::external_loader(&dist).map(|name| eprintln!("loader moved to {name}")),
            );
        }
        Command::OneStylesheet { dist } => {
            return done(
                single_file::one_stylesheet(&dist)
                    .map(|name| eprintln!("stylesheets merged into {name}")),
            );
        }
        Command::SingleFile { dist, out } => {
            return done(single_file::build(&dist).and_then(|html| {
                std::fs::write(&out, html).map_err(|e| format!("{}: {e}", out.display()))
            }));
        }
        Command::Inspect { dir } => (dir, Step::Inspect),
        Command::EvalTags { dir } => (dir, Step::EvalTags),
        Command::Noscript { dir, into } => (dir, Step::Noscript(into)),
        Command::Manifest { dir, into } => (dir, Step::Manifest(into)),
        Command::Stage { dir, into } => (dir, Step::Stage(into)),
        Command::EvalMeaning { dir, queries } => (dir, Step::EvalMeaning(queries)),
    };
    let compiled = match compile_dir_with(&dir, Options::from_env()) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::FAILURE;
        }
    };
    for w in &compiled.warnings {
        eprintln!("warning: skipped {w}");
    }
    let corpus = &compiled.corpus;
    match step {
        Step::EvalMeaning(file) => done(eval_meaning(corpus, &file)),
        Step::Noscript(file) => done(write_noscript(corpus, &file)),
        Step::Manifest(file) => done(write_manifest(corpus, &file)),
        Step::Stage(dir) => done(stage(corpus, &dir)),
        Step::EvalTags => eval_tags(corpus),
        Step::Inspect => {
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
            ExitCode::SUCCESS
        }
    }
}

/// What to do with the compiled corpus.
enum Step {
    Inspect,
    EvalTags,
    Noscript(String),
    Manifest(String),
    Stage(PathBuf),
    EvalMeaning(String),
}

/// `eval-meaning DIR --queries FILE`: recall@10 and MRR of the judged
/// queries in FILE, for words only, meaning only and both.
fn eval_meaning(corpus: &explorer_core::Corpus, file: &str) -> Result<(), String> {
    use explorer_core::meaning::eval::{evaluate, read, RANKINGS};
    let judged = read(&std::fs::read_to_string(file).map_err(|e| format!("{file}: {e}"))?)
        .map_err(|e| format!("{file}: {e}"))?;
    let m = meaning::build::build(&meaning::build::StaticModel::committed(), &corpus.papers);
    let e = explorer_core::Engine::new(corpus.clone());
    e.open_meaning(m).map_err(|e| e.to_string())?;
    println!("| queries | ranking | recall@10 | MRR |\n|---|---|---|---|");
    for (label, kind) in [
        ("all", None),
        ("lexical", Some("lexical")),
        ("paraphrased", Some("paraphrase")),
    ] {
        for (name, s) in RANKINGS.iter().zip(evaluate(&e, &judged, kind)) {
            println!(
                "| {label} ({}) | {name} | {:.3} | {:.3} |",
                s.queries, s.recall_at_10, s.mrr
            );
        }
    }
    Ok(())
}

/// Everything the Trunk post-build hook writes from the corpus, from one
/// compile: the corpus file, the noscript note and `papers.html`, the
/// manifest's name.
fn stage(corpus: &explorer_core::Corpus, dir: &Path) -> Result<(), String> {
    let index = dir.join("index.html");
    let index = index
        .to_str()
        .ok_or("the staging directory's path is not UTF-8")?;
    write_corpus(corpus, dir, index)?;
    write_noscript(corpus, index)?;
    write_first_screen(corpus, index)?;
    write_manifest(
        corpus,
        dir.join("manifest.webmanifest")
            .to_str()
            .ok_or("the staging directory's path is not UTF-8")?,
    )
}

/// The compiled corpus's two parts in `dir`, each named for its content:
/// `corpus-<hash>.bin` (the papers: what the first results need), which
/// `index` preloads while the WebAssembly compiles, and `index-<hash>.bin`
/// (the search index), which the app fetches after the first results. One
/// `<link data-corpus href=… data-index=…>` names both.
fn write_corpus(corpus: &explorer_core::Corpus, dir: &Path, index: &str) -> Result<(), String> {
    let parts = corpus.to_parts();
    let name =
        |kind: &str, bytes: &[u8]| format!("{kind}-{:016x}.bin", xxhash_rust::xxh3::xxh3_64(bytes));
    let meaning =
        meaning::build::build(&meaning::build::StaticModel::committed(), &corpus.papers).to_bytes();
    let (papers, search, close) = (
        name("corpus", &parts.papers),
        name("index", &parts.index),
        name("meaning", &meaning),
    );
    for (file, bytes) in [
        (&papers, &parts.papers),
        (&search, &parts.index),
        (&close, &meaning),
    ] {
        std::fs::write(dir.join(file), bytes).map_err(|e| format!("{file}: {e}"))?;
    }
    let html = std::fs::read_to_string(index).map_err(|e| format!("{index}: {e}"))?;
    if !html.contains("</head>") || html.contains("data-corpus") {
        return Err(format!("{index}: no </head>, or a corpus link already"));
    }
    let link = format!(
        "<link rel=\"preload\" href=\"./{papers}\" as=\"fetch\" crossorigin=\"anonymous\" data-corpus data-index=\"./{search}\" data-meaning=\"./{close}\" />\n"
    );
    std::fs::write(index, html.replacen("</head>", &(link + "</head>"), 1))
        .map_err(|e| format!("{index}: {e}"))
}

/// Replaces the noscript marker in `file` with a note linking to
/// `papers.html`, written beside it, and names the page after the corpus.
fn write_noscript(corpus: &explorer_core::Corpus, file: &str) -> Result<(), String> {
    let html = std::fs::read_to_string(file).map_err(|e| format!("{file}: {e}"))?;
    if !html.contains(NOSCRIPT_MARKER) {
        return Err(format!("{file}: no {NOSCRIPT_MARKER} marker to replace"));
    }
    let html = html
        .replacen(NOSCRIPT_MARKER, &noscript(corpus), 1)
        .replacen(
            "<title>Paper explorer</title>",
            &format!("<title>{}</title>", escape(&corpus.title())),
            1,
        );
    std::fs::write(file, html).map_err(|e| format!("{file}: {e}"))?;
    let page = PathBuf::from(file).with_file_name(LISTING_FILE);
    std::fs::write(&page, listing(corpus)).map_err(|e| format!("{}: {e}", page.display()))
}

/// The marker in `index.html` replaced by the first screen.
const FIRST_SCREEN_MARKER: &str = "<!-- first-screen -->";

/// Replaces the first-screen marker in `file` with what the page shows
/// before the app has started: the first papers, as the app's default view
/// shows them (`explorer_core::card::first_screen`).
fn write_first_screen(corpus: &explorer_core::Corpus, file: &str) -> Result<(), String> {
    let html = std::fs::read_to_string(file).map_err(|e| format!("{file}: {e}"))?;
    if !html.contains(FIRST_SCREEN_MARKER) {
        return Err(format!(
            "{file}: no {FIRST_SCREEN_MARKER} marker to replace"
        ));
    }
    let screen = explorer_core::card::first_screen(corpus, &explorer_core::i18n::EN);
    std::fs::write(file, html.replacen(FIRST_SCREEN_MARKER, &screen, 1))
        .map_err(|e| format!("{file}: {e}"))
}

/// Names the web app manifest `file` after the corpus.
fn write_manifest(corpus: &explorer_core::Corpus, file: &str) -> Result<(), String> {
    let manifest = std::fs::read_to_string(file).map_err(|e| format!("{file}: {e}"))?;
    let mut manifest = match serde_json::from_str::<serde_json::Value>(&manifest) {
        Ok(serde_json::Value::Object(m)) => m,
        Ok(_) => return Err(format!("{file}: not a JSON object")),
        Err(e) => return Err(format!("{file}: {e}")),
    };
    // The home-screen label: the first list's name when it is short.
    let short = corpus
        .lists
        .first()
        .map(|l| l.name.clone())
        .filter(|n| n.chars().count() <= 16)
        .unwrap_or_else(|| "Papers".into());
    manifest.insert("name".into(), json!(corpus.title()));
    manifest.insert("short_name".into(), json!(short));
    let text = serde_json::to_string_pretty(&manifest).unwrap();
    std::fs::write(file, text + "\n").map_err(|e| format!("{file}: {e}"))
}

/// The records of each file (any record format, or seed lists), read as
/// the compiler reads them.
fn read_records(files: &[String]) -> Result<Vec<explorer_core::records::Record>, String> {
    use explorer_core::records::{read, Format};
    let mut records = Vec::new();
    for file in files {
        let path = PathBuf::from(file);
        let format = Format::of(&path).unwrap_or(Format::Seed);
        let bytes = std::fs::read(&path).map_err(|e| format!("{file}: {e}"))?;
        records.extend(
            read(file, &bytes, format)
                .map_err(|e| e.to_string())?
                .records,
        );
    }
    Ok(records)
}

/// `eval-formulas FILE…`: for every distinct formula of the records that
/// renders to MathML, whether its plain text (what search sees) and its
/// MathML (what is shown) hold the same letters and digits; each one that
/// does not is printed.
fn eval_formulas(files: &[String]) -> ExitCode {
    use explorer_core::mathml::{letters, mathml_letters, to_mathml};
    use explorer_core::model::RunKind;
    let records = match read_records(files) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::FAILURE;
        }
    };
    let (mut seen, mut rendered, mut agree) = (std::collections::HashSet::new(), 0, 0);
    for rec in &records {
        let Some(src) = rec.abstract_text.as_deref() else {
            continue;
        };
        let m = explorer_core::markup::parse(src);
        let mut start = 0;
        for r in &m.runs {
            let plain = &m.text[start..r.end as usize];
            start = r.end as usize;
            let RunKind::Math { tex, .. } = &r.kind else {
                continue;
            };
            if !seen.insert(tex.clone()) {
                continue;
            }
            let Some(mathml) = to_mathml(tex) else {
                continue;
            };
            rendered += 1;
            if letters(plain) == mathml_letters(&mathml) {
                agree += 1;
            } else {
                println!("{tex}\n  plain:  {plain}\n  MathML: {mathml}");
            }
        }
    }
    println!(
        "{} distinct formulas, {rendered} render to MathML, {agree} of them agree with their plain text",
        seen.len()
    );
    ExitCode::SUCCESS
}

/// `eval-titles FILE…`: records with real titles (any record format, or
/// seed lists, which have none) read as the compiler reads them.
fn eval_titles(all: bool, candidates: bool, held_out: bool, files: &[String]) -> ExitCode {
    use explorer_core::title_eval::{candidate_rows, Flaw, Report};
    // `--cases`: every paper as a tab-separated line (for tuning).
    let records = match read_records(files) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::FAILURE;
        }
    };
    if candidates {
        // paper, fold, overlap, the features, the candidate.
        for row in candidate_rows(&records) {
            let features: Vec<String> = row
                .candidate
                .features
                .iter()
                .map(|f| format!("{f:.4}"))
                .collect();
            println!(
                "{}\t{}\t{:.4}\t{}\t{}",
                row.paper,
                row.fold,
                row.overlap,
                features.join("\t"),
                row.candidate.text.replace('\t', " ")
            );
        }
        return ExitCode::SUCCESS;
    }
    let report = if held_out {
        Report::held_out(&records)
    } else {
        Report::new(&records)
    };
    if all {
        for c in &report.cases {
            let name = c.name.as_deref().unwrap_or("");
            let flaws: Vec<&str> = c.flaws.iter().map(|f| f.label()).collect();
            println!(
                "{:.2}\t{name}\t{}\t{}\t{}",
                c.overlap,
                c.real,
                c.derived,
                flaws.join(", ")
            );
        }
        return ExitCode::SUCCESS;
    }
    let pct = |v: Option<f64>| v.map_or("n/a".to_string(), |v| format!("{:.1} %", 100.0 * v));
    let named = report.cases.iter().filter(|c| c.name.is_some()).count();
    let mut out = std::io::stdout();
    let _ = writeln!(
        out,
        "{} papers with a real title\n\
         real `NAME: …` titles whose NAME is in the abstract ({named}): derived title starts with NAME  {}\n\
         derived titles cut short with `…`  {}\n\
         derived titles with markup left in  {}\n\
         content-word overlap with the real title (ROUGE-1 F1, stop words out), median  {}, mean  {}\n\
         broken derived titles  {} ({})",
        report.cases.len(),
        pct(report.name_kept()),
        pct(report.truncated()),
        report.with_markup(),
        report.median_overlap().map_or("n/a".into(), |m| format!("{m:.3}")),
        report.mean_overlap().map_or("n/a".into(), |m| format!("{m:.3}")),
        report.cases.iter().filter(|c| !c.flaws.is_empty()).count(),
        pct(report.broken()),
    );
    for flaw in Flaw::ALL {
        let n = report.with_flaw(flaw);
        let _ = writeln!(out, "  {:<34} {n}", flaw.label());
        for c in report
            .cases
            .iter()
            .filter(|c| c.flaws.contains(&flaw))
            .take(3)
        {
            let _ = writeln!(out, "      e.g. {}", c.derived);
        }
    }
    let _ = writeln!(out, "\n20 worst (overlap, real | derived):");
    for c in report.worst(20) {
        let _ = writeln!(out, "{:.2}  {}\n      | {}", c.overlap, c.real, c.derived);
    }
    ExitCode::SUCCESS
}

/// Keywords or primary areas (lower-cased, a part of the value is enough)
/// and the topic a paper having them should carry.
const TOPIC_OF_KEYWORD: &[(&str, &str)] = &[
    ("reinforcement learning", "Reinforcement learning"),
    ("generative adversarial", "Generative models"),
    ("variational autoencoder", "Generative models"),
    ("graph neural", "Graphs"),
    ("adversarial example", "Robustness"),
    ("adversarial attack", "Robustness"),
    (
        "machine translation",
        "Machine translation & multilinguality",
    ),
    ("question answering", "Question answering"),
    ("interpretab", "Interpretability"),
    ("optimization", "Optimization & training"),
    ("bayesian", "Probabilistic & Bayesian methods"),
    ("representation learning", "Representation learning"),
    ("continual learning", "Continual learning & unlearning"),
    ("federated", "Federated learning"),
    ("privacy", "Privacy & security"),
    ("fairness", "Fairness & bias"),
    ("robotics", "Robotics & control"),
    ("diffusion", "Diffusion & generation"),
    ("large language model", "Large language models"),
];

/// `eval-tags DIR`: topic coverage and agreement with the records' own
/// keywords and primary areas.
fn eval_tags(corpus: &explorer_core::Corpus) -> ExitCode {
    let facet = |kind: FacetKind| corpus.facet_index(kind);
    let Some(topic) = facet(FacetKind::Topic) else {
        eprintln!("error: no topic facet");
        return ExitCode::FAILURE;
    };
    let values_of = |p: &explorer_core::model::Paper, f: Option<usize>| -> Vec<String> {
        p.tags
            .iter()
            .filter(|t| Some(t.facet as usize) == f)
            .map(|t| corpus.facets[t.facet as usize].values[t.value as usize].to_lowercase())
            .collect()
    };
    let n = corpus.papers.len();
    let tagged = corpus
        .papers
        .iter()
        .filter(|p| p.tags.iter().any(|t| t.facet as usize == topic))
        .count();
    let mut out = std::io::stdout();
    let _ = writeln!(
        out,
        "{n} papers; with a topic tag: {tagged} ({:.1} %)\n\nrecords whose keywords or primary area name …  | papers | tagged with the topic",
        100.0 * tagged as f64 / n.max(1) as f64
    );
    for (needle, want) in TOPIC_OF_KEYWORD {
        let want_lower = want.to_lowercase();
        let having: Vec<_> = corpus
            .papers
            .iter()
            .filter(|p| {
                values_of(p, facet(FacetKind::Keyword))
                    .into_iter()
                    .chain(values_of(p, facet(FacetKind::Area)))
                    .any(|v| v.contains(needle))
            })
            .collect();
        if having.len() < 10 {
            continue;
        }
        let agree = having
            .iter()
            .filter(|p| values_of(p, Some(topic)).contains(&want_lower))
            .count();
        let _ = writeln!(
            out,
            "“{needle}” → {want}  | {} | {:.1} %",
            having.len(),
            100.0 * agree as f64 / having.len() as f64
        );
    }
    ExitCode::SUCCESS
}
