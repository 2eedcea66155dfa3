//! What a lab checks of a list, and how the project measures itself on
//! real ones: derived titles against real titles, tags against the records'
//! keywords, formulas' searched text against their MathML, judged queries;
//! and the records' abstracts as a bare seed list to judge them on.

use std::io::Write;
use std::path::{Path, PathBuf};

use explorer_core::build::{build_meaning, StaticModel};
use explorer_core::FacetKind;

use crate::error::{read_text, write, Error, OnPath};

/// The records of each file (any record format, or seed lists), read as
/// the compiler reads them.
fn read_records(files: &[String]) -> Result<Vec<explorer_core::build::Record>, Error> {
    use explorer_core::build::{read_records as read, RecordFormat as Format};
    let mut records = Vec::new();
    for file in files {
        let path = PathBuf::from(file);
        let format = Format::of(&path).unwrap_or(Format::Seed);
        let bytes = crate::error::read(&path)?;
        records.extend(read(file, &bytes, format)?.records);
    }
    Ok(records)
}

/// `abstracts-only FILE… --out DIR`: the records' abstracts as one seed
/// list, `DIR/abstracts.txt` (DIR is made if missing).
pub fn abstracts_only(files: &[String], name: &str, out: &Path) -> Result<(), Error> {
    let records = read_records(files)?;
    let text = explorer_core::build::write_seed(
        name,
        records.iter().filter_map(|r| r.abstract_text.as_deref()),
    );
    std::fs::create_dir_all(out).on(out)?;
    write(out.join("abstracts.txt"), text)
}

/// `eval-meaning DIR --queries FILE`: recall@10 and MRR of the judged
/// queries in FILE, for words only, meaning only and both; with `dump`,
/// the papers' abstracts and the queries are written there too,
/// for the teacher to rank (`tools/distill/teacher.py`).
pub fn eval_meaning(
    corpus: &explorer_core::Corpus,
    file: &Path,
    dump: Option<&Path>,
    exact: bool,
) -> Result<(), Error> {
    use explorer_core::build::meaning_eval::{evaluate, read, RANKINGS};
    let judged = read(&read_text(file)?).map_err(|e| Error::unexpected(file, e))?;
    if let Some(dir) = dump {
        dump_judged(dir, corpus, &judged)?;
    }
    let mut models = vec![("", StaticModel::committed())];
    if exact {
        models.push((", table unquantized", StaticModel::committed_exact()));
    }
    println!("| queries | ranking | recall@10 | MRR |\n|---|---|---|---|");
    for (table, model) in models {
        let e = explorer_core::Engine::new(corpus.clone());
        e.open_meaning(build_meaning(&model, &corpus.papers))?;
        for (label, kind) in [
            ("all", None),
            ("lexical", Some("lexical")),
            ("paraphrased", Some("paraphrase")),
        ] {
            for (name, s) in RANKINGS.iter().zip(evaluate(&e, &judged, kind)) {
                println!(
                    "| {label} ({}) | {name}{table} | {:.3} | {:.3} |",
                    s.queries, s.recall_at_10, s.mrr
                );
            }
        }
    }
    Ok(())
}

/// The papers' abstracts (`papers.jsonl`, one JSON string a paper, in the
/// corpus's order: the teacher's figures in the issue tracker and in
/// docs/search.md are on abstracts) and the judged queries with
/// their papers' positions (`judged.jsonl`: kind, query, relevant), for
/// the teacher's row (`tools/distill/teacher.py`).
fn dump_judged(
    dir: &Path,
    corpus: &explorer_core::Corpus,
    judged: &[explorer_core::build::meaning_eval::Judged],
) -> Result<(), Error> {
    std::fs::create_dir_all(dir).on(dir)?;
    let papers: String = (corpus.papers.iter())
        .map(|p| serde_json::to_string(&p.text).expect("a string serializes") + "\n")
        .collect();
    let doc_of = |id: &String| corpus.papers.iter().position(|p| &p.id == id);
    let queries: String = (judged.iter())
        .map(|j| {
            let relevant: Vec<usize> = j.relevant.iter().filter_map(doc_of).collect();
            serde_json::json!({"kind": j.kind, "query": j.query, "relevant": relevant}).to_string()
                + "\n"
        })
        .collect();
    for (name, text) in [("papers.jsonl", papers), ("judged.jsonl", queries)] {
        write(dir.join(name), text)?;
    }
    Ok(())
}

/// `eval-title-queries FILE… --sample N`: the records' real titles typed
/// as queries over their abstracts (titles derived), whole and without
/// their `NAME:`, and where each ranking puts the paper meant.
///
/// With `exact`, meaning ranks with the committed table unquantized
/// ([`StaticModel::committed_exact`]): what the page's quantization costs.
pub fn eval_title_queries(
    files: &[String],
    sample: usize,
    dump: Option<&Path>,
    exact: bool,
) -> Result<(), Error> {
    use explorer_core::build::title_queries::{
        abstracts_only, evaluate, without_name, Bm25, RANKINGS,
    };
    use explorer_core::MEANING_WEIGHT;
    let records = read_records(files)?;
    let (corpus, kept) = abstracts_only(&records);
    let queries = explorer_core::build::title_queries::sample(&kept, sample);
    let model = if exact {
        println!("meaning from the table unquantized (128 bytes a token)\n");
        StaticModel::committed_exact()
    } else {
        StaticModel::committed()
    };
    let m = build_meaning(&model, &corpus.papers);
    let bm25 = Bm25::new(&corpus);
    // Two halves: the weight of meaning in the best matches' order is
    // chosen on the first (every other query) and reported on the second.
    let (tune, held): (Vec<_>, Vec<_>) = queries.iter().enumerate().partition(|(i, _)| i % 2 == 0);
    let tune: Vec<_> = tune.into_iter().map(|(_, q)| q).collect();
    let held: Vec<_> = held.into_iter().map(|(_, q)| q).collect();
    if let Some(dir) = dump {
        dump_title_queries(dir, &corpus.papers, &held)?;
    }
    let e = explorer_core::Engine::new(corpus);
    e.open_meaning(m)?;
    println!(
        "{} papers as abstracts only; {} real titles typed as queries, half to choose the weight of meaning, half to report\n",
        e.len(),
        queries.len()
    );
    println!("| weight of meaning | first half: real title recall@10 (found in ten) / MRR | without `NAME:` |\n|---|---|---|");
    // The targets are recall@10 and MRR: the weight that finds the most
    // titles in the first ten, both forms together, then the best MRR.
    let mut chosen = (0.0f32, (0usize, f64::MIN));
    for weight in [0.0, 0.25, 0.5, 0.75, 1.0, 1.5, 2.0] {
        let [w, ..] = evaluate(&e, &bm25, &tune, |t| t, weight);
        let [n, ..] = evaluate(&e, &bm25, &tune, without_name, weight);
        println!("| {weight} | {} | {} |", w.cell(4), n.cell(4));
        let score = (w.found_in_ten() + n.found_in_ten(), w.mrr + n.mrr);
        let better =
            score.0 > chosen.1 .0 || (score.0 == chosen.1 .0 && score.1 > chosen.1 .1 + 1e-9);
        if better {
            chosen = (weight, score);
        }
    }
    println!(
        "\nchosen on the first half: {}; the engine's MEANING_WEIGHT: {MEANING_WEIGHT}\n",
        chosen.0
    );
    println!(
        "second half ({} queries), the engine's weight:\n\n\
         | ranking | real title: recall@10 (titles found in the first ten) / MRR | title without its `NAME:`: the same |\n|---|---|---|",
        held.len()
    );
    let whole = evaluate(&e, &bm25, &held, |t| t, MEANING_WEIGHT);
    let nameless = evaluate(&e, &bm25, &held, without_name, MEANING_WEIGHT);
    for ((name, w), n) in RANKINGS.iter().zip(whole).zip(nameless) {
        println!("| {name} | {} | {} |", w.cell(3), n.cell(3));
    }
    Ok(())
}

/// The abstracts as embedded (`papers.jsonl`: one JSON string per paper,
/// in the corpus's order) and the queries (`queries.jsonl`: the title, the
/// title without its `NAME:`, the paper's position), for a ranking run
/// outside (the full transformer, `tools/distill/teacher.py`).
fn dump_title_queries(
    dir: &Path,
    papers: &[explorer_core::Paper],
    queries: &[&explorer_core::build::title_queries::TitleQuery],
) -> Result<(), Error> {
    use explorer_core::build::title_queries::without_name;
    std::fs::create_dir_all(dir).on(dir)?;
    let papers: String = (papers.iter())
        .map(|p| {
            let text = explorer_core::search::paper_text(p);
            serde_json::to_string(&text).expect("a string serializes") + "\n"
        })
        .collect();
    let queries: String = (queries.iter())
        .map(|q| {
            serde_json::json!({"title": q.query, "nameless": without_name(&q.query), "doc": q.doc})
                .to_string()
                + "\n"
        })
        .collect();
    for (name, text) in [("papers.jsonl", papers), ("queries.jsonl", queries)] {
        write(dir.join(name), text)?;
    }
    Ok(())
}

/// `eval-formulas FILE…`: for every distinct formula of the records that
/// renders to MathML, whether its plain text (what search sees) and its
/// MathML (what is shown) hold the same letters and digits; each one that
/// does not is printed.
pub fn eval_formulas(files: &[String]) -> Result<(), Error> {
    use explorer_core::build::{letters, mathml_letters, to_mathml};
    use explorer_core::model::RunKind;
    let records = read_records(files)?;
    let (mut seen, mut rendered, mut agree) = (std::collections::HashSet::new(), 0, 0);
    for rec in &records {
        let Some(src) = rec.abstract_text.as_deref() else {
            continue;
        };
        let m = explorer_core::build::parse_markup(src);
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
    Ok(())
}

/// `eval-titles FILE…`: records with real titles (any record format, or
/// seed lists, which have none) read as the compiler reads them.
pub fn eval_titles(
    all: bool,
    candidates: bool,
    held_out: bool,
    files: &[String],
) -> Result<(), Error> {
    use explorer_core::build::title_eval::Report;
    let records = read_records(files)?;
    if candidates {
        print_title_candidates(&records);
        return Ok(());
    }
    let report = if held_out {
        Report::held_out(&records)
    } else {
        Report::new(&records)
    };
    if all {
        print_title_cases(&report);
        return Ok(());
    }
    print_title_summary(&report);
    Ok(())
}

/// `eval-titles --candidates`: every candidate title of every paper as a
/// tab-separated line, the columns named on stderr.
fn print_title_candidates(records: &[explorer_core::build::Record]) {
    use explorer_core::build::title_eval::{candidate_rows, FEATURES};
    // paper, fold, overlap, the features, the candidate.
    eprintln!(
        "columns: paper, fold, overlap, {}, candidate",
        FEATURES.join(", ")
    );
    for row in candidate_rows(records) {
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
}

/// `eval-titles --cases`: every paper as a tab-separated line (for
/// tuning): overlap, name, real title, derived title, flaws.
fn print_title_cases(report: &explorer_core::build::title_eval::Report) {
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
}

/// The report's figures, each flaw's count with a few examples, and the
/// 20 worst derived titles, on stdout.
fn print_title_summary(report: &explorer_core::build::title_eval::Report) {
    use explorer_core::build::title_eval::Flaw;
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
pub fn eval_tags(corpus: &explorer_core::Corpus) -> Result<(), Error> {
    let facet = |kind: FacetKind| corpus.facet_index(kind);
    let Some(topic) = facet(FacetKind::Topic) else {
        return Err(Error::unexpected("taxonomy.toml", "no topic facet"));
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
    Ok(())
}
