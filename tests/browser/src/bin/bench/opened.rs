//! A list opened in the page (`BENCH_OPEN=1`, and in every whole run): the
//! page's compiler (a Web Worker) against the native compiler on the same
//! file in the same run, the compiler's peak memory (its WebAssembly
//! memory when done, which never shrinks), and typing in the list in view
//! while another compiles. Lists: the real ACL list as records (JSON Lines, and the same
//! list written as BibTeX by the explorer's export), as bare abstracts
//! (titles derived), and 20,000 synthetic papers, each where `./dev test`
//! or `./dev bench` left it.

use std::path::Path;
use std::time::Instant;

use browser_tests::Browser;
use explorer_core::build::{compile_file, site, Options, Source, StaticModel};
use serde_json::{json, Value};

/// One list as a reader would open it: a file's name and bytes.
struct Case {
    name: &'static str,
    file: String,
    bytes: Vec<u8>,
}

/// The lists measured, those whose sources are where `./dev test` and
/// `./dev bench` leave them.
fn cases(top: &Path) -> Vec<Case> {
    let target = top.join("target");
    let mut cases = Vec::new();
    let acl = target.join("acl-records");
    let jsonl: Vec<u8> = ["acl2021", "acl2022", "naacl2021", "naacl2022", "naacl2024"]
        .iter()
        .filter_map(|f| std::fs::read(acl.join(format!("{f}.jsonl"))).ok())
        .flatten()
        .collect();
    if !jsonl.is_empty() {
        let corpus = native(&Source {
            file: "acl.jsonl".into(),
            bytes: jsonl.clone(),
        })
        .0;
        let docs: Vec<u32> = (0..corpus.papers.len() as u32).collect();
        let bib = explorer_core::view::export(
            &corpus,
            &docs,
            explorer_core::view::Format::Bibtex,
            "https://example.org/",
        );
        cases.push(case("ACL, records (JSON Lines)", "acl.jsonl", jsonl));
        cases.push(case("ACL, records (BibTeX)", "acl.bib", bib.into_bytes()));
    }
    let abstracts = target.join("acl-abstracts/abstracts.txt");
    if let Ok(text) = std::fs::read(&abstracts) {
        cases.push(case("ACL, bare abstracts", "abstracts.txt", text));
    }
    if let Ok(text) = std::fs::read(target.join("synthetic-20k/papers.jsonl")) {
        cases.push(case("synthetic 20k", "papers.jsonl", text));
    }
    cases
}

fn case(name: &'static str, file: &str, bytes: Vec<u8>) -> Case {
    Case {
        name,
        file: file.into(),
        bytes,
    }
}

/// The native compiler's work for one file, as the page's compiler does
/// it (compile, then the files): the corpus and the seconds it took.
fn native(source: &Source) -> (explorer_core::Corpus, f64) {
    let t = Instant::now();
    let options = Options::default();
    let compiled = compile_file(source, options).expect("the list compiles natively");
    let built = site(
        &compiled.corpus,
        &StaticModel::committed(),
        explorer_core::search::LISTS_FROM,
    );
    std::hint::black_box(built);
    (compiled.corpus, t.elapsed().as_secs_f64())
}

/// Marks in the tab's session (kept across the page's switch to the new
/// list) when the file was dropped and when the compile was done (the
/// stage that keeps it begins), then drops it, skipping records without
/// an abstract as the CLI's `CORPUS_LENIENT` does.
const DROP: &str = r#"
const [name, href, storing, done] = arguments;
new MutationObserver(() => {
  // Records without an abstract (BibTeX written from records whose
  // abstract is empty): skipped, as CORPUS_LENIENT does natively, timed
  // from the click.
  const skip = document.querySelector('.open-list [role=alert] ~ button');
  if (skip && !sessionStorage.getItem('bench-skipped')) {
    sessionStorage.setItem('bench-skipped', '1');
    sessionStorage.setItem('bench-dropped', String(Date.now()));
    skip.click();
  }
  const s = document.querySelector('.open-list [role=status]');
  if (s && s.textContent === storing && !sessionStorage.getItem('bench-compiled')) {
    sessionStorage.setItem('bench-compiled', String(Date.now()));
  }
}).observe(document.body, { subtree: true, childList: true, characterData: true });
// The compiler's last word carries its WebAssembly memory, its peak.
const PageWorker = window.Worker;
window.Worker = function (url, options) {
  const worker = new PageWorker(url, options);
  worker.addEventListener('message', (e) => {
    const last = Array.isArray(e.data) ? e.data[0] : e.data;
    if (last && last.done) sessionStorage.setItem('bench-memory', String(last.done.memory_bytes));
  });
  return worker;
};
window.Worker.prototype = PageWorker.prototype;
fetch(href).then((r) => r.arrayBuffer()).then((bytes) => {
  const dt = new DataTransfer();
  dt.items.add(new File([bytes], name));
  sessionStorage.setItem('bench-dropped', String(Date.now()));
  document.body.dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
  done();
});
"#;

/// One list opened in a fresh page of the seed build: seconds from the
/// drop to the compile done, and to the list shown; with the native time.
async fn open_once(dist: &Path, c: &Case, typing: bool) -> Value {
    let source = Source {
        file: c.file.clone(),
        bytes: c.bytes.clone(),
    };
    let (corpus, native_s) = native(&source);
    let b = Browser::launch_dist(dist, "/", (1280, 900), true).await;
    let href = format!("/bench-list/{}", c.file);
    let text = String::from_utf8_lossy(&c.bytes).into_owned();
    b.server.pages.lock().unwrap().push((href.clone(), text));
    b.open("").await;
    if typing {
        super::install_typing(&b).await;
    }
    let storing =
        (explorer_core::view::EN.open_stage)(explorer_core::model::opened::OpenStage::Storing);
    b.client
        .execute_async(DROP, vec![json!(c.file), json!(href), json!(storing)])
        .await
        .expect("the file dropped");
    let typed = if typing {
        type_while_compiling(&b).await
    } else {
        Value::Null
    };
    let shown = format!(
        "{} && document.querySelector('h1').textContent === {}",
        browser_tests::APP_STARTED,
        json!(corpus.title())
    );
    if !b
        .becomes_true(&shown, std::time::Duration::from_secs(300))
        .await
    {
        let said = b
            .js("const o = document.querySelector('.open-list'); return o && o.textContent")
            .await;
        panic!("{}: the list was not shown; the page says {said}", c.name);
    }
    let times = b
        .js("const t = (k) => Number(sessionStorage.getItem(k));
             return [t('bench-compiled') - t('bench-dropped'), Date.now() - t('bench-dropped'), t('bench-memory')];")
        .await;
    b.close().await;
    let secs = |i: usize| times[i].as_f64().unwrap_or(f64::NAN) / 1000.0;
    json!({
        "list": c.name,
        "file": c.file,
        "bytes": c.bytes.len(),
        "papers": corpus.papers.len(),
        "native_s": native_s,
        "page_compiled_s": secs(0),
        "page_shown_s": secs(1),
        "ratio": secs(0) / native_s,
        "page_memory_bytes": times[2],
        "typing_while_compiling": typed,
    })
}

/// The typing script typed into the list in view while the other
/// compiles, keystroke by keystroke until it is done: keystroke → last
/// DOM mutation (the first typing's measure), p50 / p95 / max.
async fn type_while_compiling(b: &Browser) -> Value {
    let compiling = "document.querySelector('.open-list progress') !== null \
                     && !sessionStorage.getItem('bench-compiled')";
    let mut ms = Vec::new();
    for typed in super::typed_letters(super::FIRST_TYPING) {
        if b.js(&format!("return {compiling}")).await != json!(true) {
            break;
        }
        let r = b
            .client
            .execute_async(super::KEY_SCRIPT, vec![json!(typed)])
            .await
            .expect("a keystroke");
        ms.extend(r["ms"].as_f64());
    }
    json!({ "keystrokes": ms.len(), "to_last_mutation_ms": super::stats(&ms) })
}

/// Every list opened in the page, each in a fresh browser (the seed
/// build's page, on loopback): the compile, and for the largest the
/// typing while it runs.
pub async fn measure_opened(top: &Path) -> Vec<Value> {
    let dist = browser_tests::dist_dir();
    let mut out = Vec::new();
    let cases = cases(top);
    // Typed into during the longest compile: the most keystrokes.
    let longest = cases.iter().map(|c| c.bytes.len()).max().unwrap_or(0);
    for c in &cases {
        eprintln!("bench: {} opened in the page", c.name);
        out.push(open_once(&dist, c, c.bytes.len() == longest).await);
    }
    out
}

/// The table of a run's lists opened in the page.
pub fn opened_table(rows: &[Value]) -> String {
    if rows.is_empty() {
        return String::new();
    }
    let mut md = String::from(
        "\n### A list opened in the page (its compiler in a Web Worker), against the native compiler\n\n\
         The file dropped on the seed list's page in a fresh Chromium, on loopback; native: the same \
         compile and files in this process, the same run.\n\n\
         | list | file | papers | native | in the page: compiled / shown | ratio | the compiler's peak memory (its WebAssembly memory) | typing in the list in view meanwhile: keystrokes, p50 / p95 |\n\
         |---|---|---|---|---|---|---|---|\n",
    );
    for r in rows {
        let t = &r["typing_while_compiling"];
        let typing = if t.is_null() {
            "–".to_string()
        } else {
            let m = &t["to_last_mutation_ms"];
            format!("{}, {} / {} ms", t["keystrokes"], m["p50_ms"], m["p95_ms"])
        };
        md += &format!(
            "| {} | `{}` ({:.1} MB) | {} | {:.1} s | {:.1} s / {:.1} s | **{:.2}** | {:.0} MB | {} |\n",
            r["list"].as_str().unwrap_or(""),
            r["file"].as_str().unwrap_or(""),
            r["bytes"].as_f64().unwrap_or(0.0) / 1e6,
            r["papers"],
            r["native_s"].as_f64().unwrap_or(f64::NAN),
            r["page_compiled_s"].as_f64().unwrap_or(f64::NAN),
            r["page_shown_s"].as_f64().unwrap_or(f64::NAN),
            r["ratio"].as_f64().unwrap_or(f64::NAN),
            r["page_memory_bytes"].as_f64().unwrap_or(f64::NAN) / 1e6,
            typing
        );
    }
    md
}
