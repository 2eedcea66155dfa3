//! `./dev bench`: measures release builds in headless Chromium and writes
//! `bench/results.json` and `bench/results.md`. For the seed corpus
//! (`dist/`) and the 20,000-paper synthetic corpus (`target/dist-20k`, built
//! by `./dev bench` from `target/synthetic-20k`):
//!
//! - bytes of every shipped file: raw, gzip -9, brotli q11
//! - corpus compile time (native, release), indexed text and shipped index
//! - time from navigation start to the first result in the DOM
//! - per keystroke: input event → search, facet counts, highlights and DOM
//!   updated and laid out (p50 / p95 / max), over a fixed script of queries
//!   typed character by character, and per facet click
//! - wasm memory and JS heap after load
//! - side by side in the same browser run: the engine alone
//!   (`count_matches`: search, ranking and all facet counts) against
//!   MiniSearch (npm, prefix + fuzzy, title boosted) with the same facet
//!   counting in JavaScript, on the same papers and the same typed prefixes
//!
//! A harness, not a test: it asserts nothing about time.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Instant;

use browser_tests::{dist_dir, Browser};
use explorer_core::Engine;
use serde_json::{json, Value};

/// Typed into the page, one character at a time. Operators included: they
/// are what users type.
const QUERIES: &[&str] = &[
    "diffusion models",
    "reinforcement learning",
    "\"catastrophic forgetting\"",
    "llm agents -video",
    "reinforcment",
    "bokmal",
    "topic:agents memory",
    "audio OR speech",
];

/// For the side-by-side engine comparison: plain words, which both engines
/// read the same way.
const COMPARE: &[&str] = &[
    "diffusion models",
    "reinforcement learning",
    "language model agents",
    "unlearning",
    "graph neural networks",
    "reasoning benchmark",
    "reinforcment",
];

/// Types each query into the field one character at a time and times each
/// keystroke from the input event to the DOM being updated and laid out.
const TYPE_SCRIPT: &str = r#"
const [queries, done] = [arguments[0], arguments[arguments.length - 1]];
const input = document.querySelector('input[type=search]');
const frame = () => new Promise(r => requestAnimationFrame(() => setTimeout(r, 0)));
const settle = () => new Promise(r => setTimeout(r, 0));
(async () => {
  const times = [];
  for (const q of queries) {
    for (let i = 1; i <= q.length; i++) {
      input.value = q.slice(0, i);
      const t0 = performance.now();
      input.dispatchEvent(new Event('input', { bubbles: true }));
      await settle();
      document.body.getBoundingClientRect();
      times.push(performance.now() - t0);
      await frame();
    }
    input.value = '';
    input.dispatchEvent(new Event('input', { bubbles: true }));
    await frame();
  }
  const clicks = [];
  for (const box of [...document.querySelectorAll('.facet input[type=checkbox]')].slice(0, 12)) {
    for (let k = 0; k < 2; k++) {
      const t0 = performance.now();
      box.click();
      await settle();
      document.body.getBoundingClientRect();
      clicks.push(performance.now() - t0);
      await frame();
    }
  }
  if (window.gc) gc();
  done({
    times, clicks,
    wasm_memory: window.__wasm ? window.__wasm.memory.buffer.byteLength : null,
    js_heap: performance.memory ? performance.memory.usedJSHeapSize : null,
  });
})();
"#;

/// The engine alone, in the app's page: every prefix of every query.
const OURS_SCRIPT: &str = r#"
const queries = arguments[0];
const times = [];
for (const q of queries) for (let i = 1; i <= q.length; i++) {
  const t0 = performance.now();
  wasmBindings.count_matches(q.slice(0, i));
  times.push(performance.now() - t0);
}
return times;
"#;

/// The peer page: MiniSearch and the same papers (id, title, abstract text,
/// authors, and each paper's facet tags as [facet, value] pairs).
fn peer_page(minisearch: &str, docs: &str, facets: &str) -> String {
    format!(
        r#"<!doctype html><meta charset="utf-8"><title>MiniSearch</title>
<script>{minisearch}</script>
<script type="application/json" id="docs">{docs}</script>
<script>
window.preparePeer = () => {{
  if (window.gc) gc();
  const heap0 = performance.memory ? performance.memory.usedJSHeapSize : 0;
  window.docs = JSON.parse(document.getElementById('docs').textContent);
  if (window.gc) gc();
  const heap1 = performance.memory ? performance.memory.usedJSHeapSize : 0;
  const t0 = performance.now();
  window.ms = new MiniSearch({{
    fields: ['title', 'text', 'authors'],
    searchOptions: {{ boost: {{ title: 3, authors: 2 }}, prefix: true, fuzzy: 0.2, combineWith: 'AND' }},
  }});
  ms.addAll(docs);
  const build = performance.now() - t0;
  if (window.gc) gc();
  const heap2 = performance.memory ? performance.memory.usedJSHeapSize : 0;
  return {{ build, docs_heap: heap1 - heap0, index_heap: heap2 - heap1 }};
}};
window.runPeer = (queries) => {{
  const facetSizes = {facets};
  const times = [];
  for (const q of queries) for (let i = 1; i <= q.length; i++) {{
    const t = performance.now();
    const results = ms.search(q.slice(0, i));
    const counts = facetSizes.map((n) => new Uint32Array(n));
    for (const r of results) for (const [f, v] of docs[r.id].tags) counts[f][v]++;
    times.push(performance.now() - t);
  }}
  return times;
}};
</script>"#
    )
}

fn stats(v: &[f64]) -> Value {
    if v.is_empty() {
        return Value::Null;
    }
    let mut s = v.to_vec();
    s.sort_by(|a, b| a.total_cmp(b));
    let pick = |q: f64| s[((s.len() as f64 - 1.0) * q).round() as usize];
    json!({
        "n": s.len(),
        "p50_ms": round(pick(0.5)),
        "p95_ms": round(pick(0.95)),
        "max_ms": round(*s.last().unwrap()),
        "total_ms": round(s.iter().sum()),
    })
}

fn round(x: f64) -> f64 {
    (x * 100.0).round() / 100.0
}

fn compressed(raw: &[u8]) -> (usize, usize) {
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
    gz.write_all(raw).unwrap();
    let gz = gz.finish().unwrap().len();
    let mut br = Vec::new();
    brotli::BrotliCompress(
        &mut &raw[..],
        &mut br,
        &brotli::enc::BrotliEncoderParams {
            quality: 11,
            ..Default::default()
        },
    )
    .unwrap();
    (gz, br.len())
}

fn sizes(dist: &Path) -> Vec<Value> {
    let mut files: Vec<_> = std::fs::read_dir(dist)
        .unwrap()
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.is_file())
        .collect();
    files.sort();
    files
        .iter()
        .map(|p| {
            let raw = std::fs::read(p).unwrap();
            let name = p.file_name().unwrap().to_string_lossy();
            // Not part of the page: a large single file is not compressed
            // (brotli q11 over 90 MB takes minutes).
            if name == "explorer-single-file.html" && raw.len() > 16 << 20 {
                return json!({ "file": name, "raw": raw.len(), "gzip": null, "brotli": null });
            }
            let (gz, br) = compressed(&raw);
            json!({ "file": name, "raw": raw.len(), "gzip": gz, "brotli": br })
        })
        .collect()
}

fn numbers(v: &Value) -> Vec<f64> {
    v.as_array()
        .map(|a| a.iter().filter_map(Value::as_f64).collect())
        .unwrap_or_default()
}

/// Measures one build of one corpus.
async fn measure(name: &str, dist: &Path, corpus_dir: &Path, runs: usize) -> Value {
    eprintln!("bench: {name}: compiling {}", corpus_dir.display());
    let t = Instant::now();
    let corpus = explorer_core::compile::compile_dir(corpus_dir).expect("corpus compiles");
    let compile_s = t.elapsed().as_secs_f64();
    let indexed_text: usize = corpus
        .papers
        .iter()
        .map(|p| p.title.len() + p.text.len() + p.authors.join(", ").len())
        .sum();
    let index_bytes = postcard::to_allocvec(&corpus.index).unwrap();
    let (index_gz, index_br) = compressed(&index_bytes);
    let facet_sizes: Vec<usize> = corpus.facets.iter().map(|f| f.values.len()).collect();
    let docs: Vec<Value> = corpus
        .papers
        .iter()
        .enumerate()
        .map(|(i, p)| {
            json!({
                "id": i,
                "title": p.title,
                "text": p.text,
                "authors": p.authors.join(", "),
                "tags": p.tags.iter().map(|t| [t.facet, t.value]).collect::<Vec<_>>(),
            })
        })
        .collect();
    let engine = Engine::new(corpus);

    let mut first = Vec::new();
    let mut keys = Vec::new();
    let mut clicks = Vec::new();
    let mut memory = Value::Null;
    for run in 0..runs {
        eprintln!("bench: {name}: page run {}/{runs}", run + 1);
        let b = Browser::launch_dist(dist, "/", (1280, 900), true).await;
        b.open("").await;
        b.wait_for("window.__firstResults !== undefined", "first results")
            .await;
        first.push(b.js("return window.__firstResults").await.as_f64().unwrap());
        let r = b
            .client
            .execute_async(TYPE_SCRIPT, vec![json!(QUERIES)])
            .await
            .expect("typing script");
        keys.extend(numbers(&r["times"]));
        clicks.extend(numbers(&r["clicks"]));
        memory = json!({ "wasm_memory_bytes": r["wasm_memory"], "js_heap_bytes": r["js_heap"] });
        b.close().await;
    }

    // The engines alone, side by side in one browser session.
    eprintln!("bench: {name}: engine against MiniSearch");
    let b = Browser::launch_dist(dist, "/", (1280, 900), true).await;
    // Indexing 20,000 papers in JavaScript takes longer than WebDriver's
    // default 30 s script timeout.
    b.client
        .update_timeouts(fantoccini::wd::TimeoutConfiguration::new(
            Some(std::time::Duration::from_secs(600)),
            Some(std::time::Duration::from_secs(300)),
            None,
        ))
        .await
        .unwrap();
    b.open("").await;
    b.wait_for("window.__firstResults !== undefined", "first results")
        .await;
    // Warm both up once, then measure.
    b.js_with(OURS_SCRIPT, vec![json!(COMPARE)]).await;
    let ours = numbers(&b.js_with(OURS_SCRIPT, vec![json!(COMPARE)]).await);
    let minisearch = std::fs::read_to_string(
        PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join("../../tools/node_modules/minisearch/dist/umd/index.js"),
    )
    .expect("tools/node_modules/minisearch (tools/bootstrap.sh installs it)");
    let page = peer_page(
        &minisearch,
        &serde_json::to_string(&docs).unwrap().replace("</", "<\\/"),
        &serde_json::to_string(&facet_sizes).unwrap(),
    );
    b.server
        .pages
        .lock()
        .unwrap()
        .push(("/peer.html".into(), page));
    b.client
        .goto(&format!("{}peer.html", b.server.base))
        .await
        .unwrap();
    b.wait_for("typeof window.runPeer === 'function'", "the peer page")
        .await;
    let peer = b.js("return preparePeer()").await;
    b.js_with("return runPeer(arguments[0]).length", vec![json!(COMPARE)])
        .await;
    let peer_times = numbers(
        &b.js_with("return runPeer(arguments[0])", vec![json!(COMPARE)])
            .await,
    );
    b.close().await;
    let ours_total: f64 = ours.iter().sum();
    let peer_total: f64 = peer_times.iter().sum();

    json!({
        "corpus": name,
        "papers": engine.len(),
        "compile_s": round(compile_s),
        "indexed_text_bytes": indexed_text,
        "index_bytes": { "raw": index_bytes.len(), "gzip": index_gz, "brotli": index_br },
        "page_runs": runs,
        "first_results_ms": stats(&first),
        "keystroke_ms": stats(&keys),
        "facet_click_ms": stats(&clicks),
        "memory_after_typing": memory,
        "engine_only": {
            "queries": COMPARE,
            "ours_ms": stats(&ours),
            "minisearch_ms": stats(&peer_times),
            "minisearch_index_build_ms": round(peer["build"].as_f64().unwrap_or(0.0)),
            "minisearch_index_heap_bytes": peer["index_heap"],
            "minisearch_docs_heap_bytes": peer["docs_heap"],
            "ratio_ours_over_minisearch": round(ours_total / peer_total),
        },
        "files": sizes(dist),
    })
}

fn table(r: &Value) -> String {
    let s = |k: &str, f: &str| r[k][f].clone();
    let mut md = format!(
        "### {} ({} papers)\n\n| measure | p50 | p95 | max | n |\n|---|---|---|---|---|\n",
        r["corpus"].as_str().unwrap(),
        r["papers"]
    );
    for (label, k) in [
        ("navigation → first results (ms)", "first_results_ms"),
        ("keystroke → DOM updated (ms)", "keystroke_ms"),
        ("facet click → DOM updated (ms)", "facet_click_ms"),
    ] {
        md += &format!(
            "| {label} | {} | {} | {} | {} |\n",
            s(k, "p50_ms"),
            s(k, "p95_ms"),
            s(k, "max_ms"),
            s(k, "n")
        );
    }
    let e = &r["engine_only"];
    for (label, k) in [
        ("engine only, per typed prefix (ms)", "ours_ms"),
        (
            "MiniSearch + facet counts, same prefixes (ms)",
            "minisearch_ms",
        ),
    ] {
        md += &format!(
            "| {label} | {} | {} | {} | {} |\n",
            e[k]["p50_ms"], e[k]["p95_ms"], e[k]["max_ms"], e[k]["n"]
        );
    }
    md += &format!(
        "\nEngine time / MiniSearch time over the same {} prefixes: **{}** ({} ms against {} ms). \
         MiniSearch index build: {} ms in the page, {} bytes of heap.\n",
        e["ours_ms"]["n"],
        e["ratio_ours_over_minisearch"],
        e["ours_ms"]["total_ms"],
        e["minisearch_ms"]["total_ms"],
        e["minisearch_index_build_ms"],
        e["minisearch_index_heap_bytes"],
    );
    md += &format!(
        "Corpus compile (native): {} s. Indexed text {} bytes; shipped index {} raw / {} gzip / {} brotli. \
         After typing: wasm memory {} bytes, JS heap {} bytes.\n",
        r["compile_s"],
        r["indexed_text_bytes"],
        r["index_bytes"]["raw"],
        r["index_bytes"]["gzip"],
        r["index_bytes"]["brotli"],
        r["memory_after_typing"]["wasm_memory_bytes"],
        r["memory_after_typing"]["js_heap_bytes"],
    );
    md += "\n| file | raw | gzip | brotli |\n|---|---|---|---|\n";
    let mut total = [0u64; 3];
    for f in r["files"].as_array().unwrap() {
        md += &format!(
            "| {} | {} | {} | {} |\n",
            f["file"].as_str().unwrap(),
            f["raw"],
            f["gzip"],
            f["brotli"]
        );
        if f["file"] != "explorer-single-file.html" {
            for (t, k) in total.iter_mut().zip(["raw", "gzip", "brotli"]) {
                *t += f[k].as_u64().unwrap();
            }
        }
    }
    md += &format!(
        "| **total for the page** (all but the single file) | {} | {} | {} |\n\n",
        total[0], total[1], total[2]
    );
    md
}

#[tokio::main]
async fn main() {
    let top = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..");
    let mut reports = vec![measure("seed", &dist_dir(), &top.join("corpus"), 5).await];
    let big = top.join("target/dist-20k");
    if big.join("index.html").is_file() {
        reports.push(measure("synthetic-20k", &big, &top.join("target/synthetic-20k"), 3).await);
    } else {
        eprintln!("bench: no target/dist-20k (./dev bench builds it); seed corpus only");
    }
    let report = json!({
        "browser": "Debian Chromium, headless, via chromedriver",
        "peer": "MiniSearch 7.2.0 (npm), prefix + fuzzy 0.2, title boost 3, authors 2, AND",
        "corpora": reports,
    });
    let dir = top.join("bench");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join("results.json"),
        serde_json::to_string_pretty(&report).unwrap() + "\n",
    )
    .unwrap();
    let md: String = reports.iter().map(table).collect();
    std::fs::write(dir.join("results.md"), &md).unwrap();
    println!("{md}");
}
