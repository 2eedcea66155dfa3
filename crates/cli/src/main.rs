//! `explorer-cli`: the corpus compiler on the command line. Its commands
//! and their arguments are `explorer-cli --help`, written by clap from the
//! doc comments of [`Command`] below: the one usage text.

mod error;
mod eval;
mod inspect;
mod precompress;
mod single_file;
mod split;
mod stage;
mod vocab;
mod worker;

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Parser, Subcommand};
use explorer_core::build::{compile_dir_with, Compiled, Options};

use error::{write, Error};

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
    /// The Trunk post-build hook: the list's files in STAGING, its page
    /// (index.html: the files' link, title, noscript note, first screen;
    /// Trunk's, or one staged for another list), papers.html, the
    /// manifest's name.
    Stage {
        dir: PathBuf,
        #[arg(long)]
        into: PathBuf,
    },
    /// N synthetic papers (deterministic for a seed) as OUT/papers.jsonl.
    ///
    /// Their vocabulary grows as real lists' do: the law `vocab` prints
    /// beside each list.
    Synth {
        n: usize,
        #[arg(long)]
        seed: u64,
        #[arg(long)]
        out: PathBuf,
    },
    /// How each LIST's vocabulary grows, beside the law the synthetic lists
    /// follow.
    ///
    /// Distinct words, words in one paper only, median words an abstract,
    /// words a two- or three-letter prefix opens, Heaps' law fitted on
    /// nested subsets of the papers (1/64 … all). Words are the abstracts'
    /// as the index's word list holds them (folded, not stemmed). Prints a
    /// Markdown table.
    Vocab {
        /// A list: a directory (its lists read together, as the build reads
        /// them) or one file.
        #[arg(required = true)]
        lists: Vec<PathBuf>,
        /// Also write every figure of every subset as JSON here.
        #[arg(long)]
        json: Option<PathBuf>,
        /// Also write the table (Markdown) here.
        #[arg(long)]
        markdown: Option<PathBuf>,
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
    /// The abstracts of FILE… (records with real titles) as one seed-format
    /// list in OUT/abstracts.txt: the same papers without their titles,
    /// tags or links, as a list of bare abstracts is.
    AbstractsOnly {
        #[arg(required = true)]
        files: Vec<String>,
        /// The list's name (its header line).
        #[arg(long, default_value = "Abstracts")]
        name: String,
        #[arg(long)]
        out: PathBuf,
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
    /// Each sampled record's real title typed as a query over the records
    /// built as abstracts only: recall@10 and MRR of the page's order, words
    /// only, meaning only, and a textbook BM25 over the same abstracts.
    EvalTitleQueries {
        /// How many titles, spread evenly over the list.
        #[arg(long, default_value_t = 400)]
        sample: usize,
        /// Also write the abstracts (`papers.jsonl`) and the reported half
        /// of the queries (`queries.jsonl`) here, for a peer ranked outside
        /// (`tools/distill/teacher.py`).
        #[arg(long)]
        dump: Option<PathBuf>,
        /// Meaning from the committed table unquantized, not the page's.
        #[arg(long)]
        exact: bool,
        #[arg(required = true)]
        files: Vec<String>,
    },
    /// Recall@10 and MRR of judged queries: words, meaning, both.
    EvalMeaning {
        dir: PathBuf,
        #[arg(long)]
        queries: PathBuf,
        /// Also write the papers' abstracts (`papers.jsonl`) and
        /// the queries (`judged.jsonl`) here, for the teacher to rank
        /// (`tools/distill/teacher.py`).
        #[arg(long)]
        dump: Option<PathBuf>,
        /// Also rank by the table unquantized (128 bytes a token, the
        /// page's 32): what the quantization costs.
        #[arg(long)]
        exact: bool,
    },
    /// One self-contained HTML file from a built DIST.
    SingleFile {
        dist: PathBuf,
        #[arg(long)]
        out: PathBuf,
    },
    /// The app's module in DIST split at its lazy functions: when Trunk
    /// staged it whole, made again from MODULE (cargo's) in WORK, through
    /// wasm-opt with --optimise; the chunks and their link module placed
    /// beside the glue.
    PlaceSplit {
        dist: PathBuf,
        #[arg(long)]
        module: PathBuf,
        #[arg(long)]
        work: PathBuf,
        #[arg(long)]
        optimise: bool,
    },
    /// Move the JS loader out of DIST's index.html (strict CSP).
    ExternalLoader { dist: PathBuf },
    /// Merge DIST's stylesheets into one file, in the page's order.
    OneStylesheet { dist: PathBuf },
    /// Name the page's compiler (a Web Worker) in DIST for its content.
    NameCompiler { dist: PathBuf },
    /// Write DIST's service worker (sw.js), which precaches the build.
    ServiceWorker { dist: PathBuf },
    /// Write NAME.br (brotli, quality 11) beside each file of DIST that
    /// every first visit downloads, for servers that send it as it is.
    Precompress {
        dist: PathBuf,
        /// Keep each compressed file in DIR, by its bytes' hash, and reuse it
        /// when the same bytes come again (the module, in every build).
        #[arg(long, value_name = "DIR")]
        cache: Option<PathBuf>,
    },
}

fn main() -> ExitCode {
    explorer_core::build::report_panics_with_paper();
    match run(Cli::parse().command) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}

/// Runs one command.
fn run(command: Command) -> Result<(), Error> {
    match command {
        Command::Synth { n, seed, out } => {
            let seeds = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../corpus");
            Ok(explorer_core::build::synth::generate(
                &seeds, n, seed, &out,
            )?)
        }
        Command::Vocab {
            lists,
            json,
            markdown,
        } => vocab::vocab(&lists, json.as_deref(), markdown.as_deref()),
        Command::EvalTitles {
            cases,
            candidates,
            held_out,
            files,
        } => eval::eval_titles(cases, candidates, held_out, &files),
        Command::EvalFormulas { files } => eval::eval_formulas(&files),
        Command::EvalTitleQueries {
            sample,
            dump,
            exact,
            files,
        } => eval::eval_title_queries(&files, sample, dump.as_deref(), exact),
        Command::AbstractsOnly { files, name, out } => eval::abstracts_only(&files, &name, &out),
        Command::PlaceSplit {
            dist,
            module,
            work,
            optimise,
        } => split::place(&dist, &module, &work, optimise)
            .map(|n| eprintln!("{n} files of the split placed")),
        Command::ExternalLoader { dist } => {
            single_file::external_loader(&dist).map(|name| eprintln!("loader moved to {name}"))
        }
        Command::NameCompiler { dist } => {
            worker::name_compiler(&dist).map(|name| eprintln!("compiler starts from {name}"))
        }
        Command::ServiceWorker { dist } => stage::write_service_worker(&dist).map(|sw| {
            eprintln!(
                "service worker: {} files precached as {}, {} cached on first use",
                sw.precached, sw.cache, sw.on_first_use
            )
        }),
        Command::Precompress { dist, cache } => precompress::precompress(&dist, cache.as_deref())
            .map(|n| eprintln!("{n} files precompressed (brotli, quality 11)")),
        Command::OneStylesheet { dist } => single_file::one_stylesheet(&dist)
            .map(|name| eprintln!("stylesheets merged into {name}")),
        Command::SingleFile { dist, out } => match single_file::build_within_limit(&dist)? {
            Ok(html) => write(&out, html),
            Err(size) => {
                // A stale one from an earlier build would mislead.
                let _ = std::fs::remove_file(&out);
                eprintln!(
                    "{} not written: this list's would be at least {:.0} MB, above the {} MB a browser \
                     opens from disk in good time (about 8,000 papers); serve dist/ instead",
                    out.file_name().map_or(out.display().to_string(), |n| n.to_string_lossy().into_owned()),
                    size as f64 / 1e6,
                    explorer_core::build::single_file::MAX_BYTES / 1_000_000
                );
                Ok(())
            }
        },
        Command::Inspect { dir } => {
            inspect::inspect(&compile(&dir)?);
            Ok(())
        }
        Command::EvalTags { dir } => eval::eval_tags(&compile(&dir)?.corpus),
        Command::Stage { dir, into } => stage::stage(&compile(&dir)?.corpus, &into),
        Command::EvalMeaning {
            dir,
            queries,
            dump,
            exact,
        } => eval::eval_meaning(&compile(&dir)?.corpus, &queries, dump.as_deref(), exact),
    }
}

/// Compiles a corpus directory as the build does (`CORPUS_STRICT` read
/// from the environment), each record repaired or skipped said on
/// standard error, then the summary.
fn compile(dir: &Path) -> Result<Compiled, Error> {
    let compiled = compile_dir_with(dir, Options::from_env())?;
    for w in &compiled.warnings {
        eprintln!("warning: {w}");
    }
    eprintln!("{}", compiled.summary());
    Ok(compiled)
}
