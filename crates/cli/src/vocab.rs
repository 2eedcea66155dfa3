//! `vocab LIST…`: how each list's vocabulary grows with its papers, beside
//! the law the synthetic lists follow (`synth::fit`), as a Markdown table
//! and, for the bench, as JSON.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use explorer_core::build::synth::fit;
use explorer_core::build::vocab::{self, Figures, Heaps, Report};
use explorer_core::build::{read_records, RecordFormat};
use serde_json::json;

use crate::error::{read, write, Error, OnPath};

/// The visible texts of the abstracts of one list: a directory (its
/// lists, in file-name order, as the compiler reads them) or one file.
pub fn read_list(path: &Path) -> Result<Vec<String>, Error> {
    let files: Vec<PathBuf> = if path.is_dir() {
        let mut files: Vec<PathBuf> = std::fs::read_dir(path)
            .on(path)?
            .filter_map(Result::ok)
            .map(|e| e.path())
            .filter(|p| RecordFormat::of(p).is_some())
            .collect();
        files.sort();
        files
    } else {
        vec![path.to_path_buf()]
    };
    let mut texts = Vec::new();
    for f in &files {
        let format = RecordFormat::of(f).ok_or_else(|| {
            Error::unexpected(f, "not a paper list (.txt, .json, .jsonl or .csv)")
        })?;
        let list = read_records(&f.display().to_string(), &read(f)?, format)?;
        texts.extend(vocab::abstracts(list));
    }
    if texts.is_empty() {
        return Err(Error::unexpected(path, "no abstracts here"));
    }
    Ok(texts)
}

/// One list measured: its name (the path's last part) and its report.
struct Measured {
    name: String,
    path: PathBuf,
    report: Report,
}

/// Measures each list and prints the table; writes it and the JSON where
/// asked.
pub fn vocab(lists: &[PathBuf], json: Option<&Path>, markdown: Option<&Path>) -> Result<(), Error> {
    let mut measured = Vec::new();
    for path in lists {
        let name = path.file_name().map_or(path.display().to_string(), |n| {
            n.to_string_lossy().into_owned()
        });
        eprintln!("reading {}", path.display());
        let report = vocab::measure(&read_list(path)?);
        measured.push(Measured {
            name,
            path: path.clone(),
            report,
        });
    }
    let table = table(&measured);
    print!("{table}");
    if let Some(out) = markdown {
        write(out, &table)?;
    }
    if let Some(out) = json {
        let text = serde_json::to_string_pretty(&as_json(&measured)).expect("JSON of numbers");
        write(out, text + "\n")?;
    }
    Ok(())
}

/// Every figure, and the law at each list's size.
fn as_json(measured: &[Measured]) -> serde_json::Value {
    let lists: Vec<_> = measured
        .iter()
        .map(|m| {
            let papers = m.report.all().map_or(0, |f| f.papers);
            json!({
                "name": m.name,
                "path": m.path,
                "measured": m.report,
                "law": fit::predict(papers),
            })
        })
        .collect();
    json!({
        "law": {
            "acl": fit::ACL,
            "acl_only": fit::ACL_ONLY,
            "field": fit::FIELD,
            "field_heaps": fit::field_heaps(),
        },
        "lists": lists,
    })
}

/// How a row's figures are written.
#[derive(Clone, Copy)]
enum Kind {
    Count,
    Share,
    Mean,
}

/// The table's rows: a label, how to read the figure and how to write it.
type Row = (String, Box<dyn Fn(&Figures) -> f64>, Kind);

fn row(label: impl Into<String>, kind: Kind, value: impl Fn(&Figures) -> f64 + 'static) -> Row {
    (label.into(), Box::new(value), kind)
}

fn rows() -> Vec<Row> {
    let mut rows = vec![
        row("papers", Kind::Count, |f| f.papers as f64),
        row("distinct words", Kind::Count, |f| f.words as f64),
        row("in one paper only", Kind::Count, |f| f.hapax as f64),
        row("share in one paper only", Kind::Share, |f| f.hapax_share),
        row("median words an abstract", Kind::Mean, |f| f.median_length),
        row("share beginning with two letters", Kind::Share, |f| {
            f.letter_share
        }),
        row("share beginning with a digit", Kind::Share, |f| {
            f.digit_share
        }),
    ];
    for p in vocab::NAMED_2 {
        rows.push(row(format!("words `{p}` opens"), Kind::Count, move |f| {
            named(f, p)
        }));
    }
    rows.push(row("2 letters: mean over prefixes", Kind::Mean, |f| {
        f.prefix2.mean
    }));
    rows.push(row("2 letters: reader's mean", Kind::Mean, |f| {
        f.prefix2.typed_mean
    }));
    for p in vocab::NAMED_3 {
        rows.push(row(format!("words `{p}` opens"), Kind::Count, move |f| {
            named(f, p)
        }));
    }
    rows.push(row("3 letters: mean over prefixes", Kind::Mean, |f| {
        f.prefix3.mean
    }));
    rows.push(row("3 letters: reader's mean", Kind::Mean, |f| {
        f.prefix3.typed_mean
    }));
    rows
}

/// The words prefix `p` opens.
fn named(f: &Figures, p: &str) -> f64 {
    let fanout = if p.len() == 2 { &f.prefix2 } else { &f.prefix3 };
    fanout.named.get(p).copied().unwrap_or(0) as f64
}

fn cell(kind: Kind, v: f64) -> String {
    match kind {
        Kind::Count => thousands(v.round() as u64),
        Kind::Share => format!("{:.1} %", v * 100.0),
        Kind::Mean => format!("{v:.1}"),
    }
}

/// `n` with a comma every three digits.
fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, d) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(d);
    }
    out
}

fn law_text(h: &Heaps) -> String {
    format!("{:.1}·N^{:.3}", h.k, h.beta)
}

/// The field list's figures, as measured on 87.4k real abstracts of several conferences.
fn field_cell(label: &str) -> String {
    let f = fit::FIELD;
    match label {
        "papers" => thousands(f.papers as u64),
        "distinct words" => thousands(f.words as u64),
        "in one paper only" => thousands(f.hapax as u64),
        "share in one paper only" => cell(Kind::Share, f.hapax as f64 / f.words as f64),
        "words `di` opens" => thousands(f.di as u64),
        // Counted otherwise: the 173 for the old synthetic list of
        // 100,000 papers are 187 words as `vocab` counts them.
        "median words an abstract" => "148 (counted otherwise)".into(),
        _ => "–".into(),
    }
}

/// The Markdown table: each list measured, the law at its size (and how
/// far the list is from it), the field list's figures.
fn table(measured: &[Measured]) -> String {
    let mut out = String::new();
    out.push_str(&intro());
    out.push_str("| measure | field, 87.4k real abstracts |");
    for m in measured {
        let _ = write!(out, " {} | law |", m.name);
    }
    out.push_str("\n|---|---:|");
    out.push_str(&"---:|---:|".repeat(measured.len()));
    out.push('\n');
    for (label, value, kind) in rows() {
        let _ = write!(out, "| {label} | {} |", field_cell(&label));
        for m in measured {
            let Some(all) = m.report.all() else { continue };
            let (got, want) = (value(all), value(&fit::predict(all.papers)));
            let off = if want > 0.0 {
                (got / want - 1.0) * 100.0
            } else {
                0.0
            };
            let _ = write!(
                out,
                " {} | {} ({off:+.0} %) |",
                cell(kind, got),
                cell(kind, want)
            );
        }
        out.push('\n');
    }
    out.push_str("| Heaps' law on its subsets | – |");
    for m in measured {
        let own = m.report.heaps_papers.as_ref().map_or("–".into(), law_text);
        let papers = m.report.all().map_or(0.0, |f| f.papers as f64);
        let law = if fit::ACL_ONLY.heaps.at(papers) >= fit::field_heaps().at(papers) {
            fit::ACL_ONLY.heaps
        } else {
            fit::field_heaps()
        };
        let _ = write!(out, " {own} | {} |", law_text(&law));
    }
    out.push('\n');
    out
}

fn intro() -> String {
    format!(
        "Vocabulary of the abstracts (words as the index's word list holds them: folded, \
         not stemmed), beside the law `explorer-cli synth` follows \
         (crates/core/src/build/synth/fit.rs): distinct words V = max({}, {}) for N papers, \
         the ACL list's own law up to its size, then the power law through the ACL list \
         ({} papers, measured by `explorer-cli vocab`) and a real field list ({} \
         papers; its median abstract was counted otherwise, 173 words for the old synthetic \
         list of 100,000 papers where `vocab` counts 187); each law cell says how far the \
         list is from it.\n\n",
        law_text(&fit::ACL_ONLY.heaps),
        law_text(&fit::field_heaps()),
        thousands(fit::ACL.papers as u64),
        thousands(fit::FIELD.papers as u64),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn writes_thousands() {
        assert_eq!(thousands(0), "0");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(148_085), "148,085");
        assert_eq!(thousands(1_234_567), "1,234,567");
    }
}
