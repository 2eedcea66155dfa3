//! `./dev bench`: measures the release build in headless Chromium and writes
//! `bench/results.json` and `bench/results.md`.
//!
//! - bytes of every shipped file: raw, gzip -9, brotli q11
//! - time from navigation start to the first result in the DOM
//! - per keystroke: input event → search, facet counts, highlights and DOM
//!   updated and laid out (p50 / p95 / max), over a fixed script of queries
//!   typed character by character, and per facet click
//!
//! A harness, not a test: it asserts nothing about time.

use std::io::Write;
use std::path::PathBuf;

use browser_tests::{dist_dir, Browser};
use serde_json::{json, Value};

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
  done({ times, clicks });
})();
"#;

fn stats(v: &[f64]) -> Value {
    let mut s = v.to_vec();
    s.sort_by(|a, b| a.total_cmp(b));
    let pick = |q: f64| s[((s.len() as f64 - 1.0) * q).round() as usize];
    json!({ "n": s.len(), "p50_ms": round(pick(0.5)), "p95_ms": round(pick(0.95)), "max_ms": round(*s.last().unwrap()) })
}

fn round(x: f64) -> f64 {
    (x * 100.0).round() / 100.0
}

fn sizes() -> Vec<Value> {
    let mut files: Vec<_> = std::fs::read_dir(dist_dir())
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
            let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
            gz.write_all(&raw).unwrap();
            let gz = gz.finish().unwrap().len();
            let mut br = Vec::new();
            brotli::BrotliCompress(&mut &raw[..], &mut br, &brotli::enc::BrotliEncoderParams { quality: 11, ..Default::default() }).unwrap();
            json!({ "file": p.file_name().unwrap().to_string_lossy(), "raw": raw.len(), "gzip": gz, "brotli": br.len() })
        })
        .collect()
}

#[tokio::main]
async fn main() {
    let runs = 5;
    let mut first = Vec::new();
    let mut keys = Vec::new();
    let mut clicks = Vec::new();
    for _ in 0..runs {
        let b = Browser::start().await;
        b.open("").await;
        b.wait_for("window.__firstResults !== undefined", "first results")
            .await;
        first.push(b.js("return window.__firstResults").await.as_f64().unwrap());
        let r = b
            .client
            .execute_async(TYPE_SCRIPT, vec![json!(QUERIES)])
            .await
            .expect("typing script");
        keys.extend(
            r["times"]
                .as_array()
                .unwrap()
                .iter()
                .map(|v| v.as_f64().unwrap()),
        );
        clicks.extend(
            r["clicks"]
                .as_array()
                .unwrap()
                .iter()
                .map(|v| v.as_f64().unwrap()),
        );
        b.close().await;
    }
    let files = sizes();
    // What a visitor loads: everything but the single-file alternative.
    let page_files = || {
        files
            .iter()
            .filter(|f| f["file"] != "explorer-single-file.html")
    };
    let total = |k: &str| page_files().map(|f| f[k].as_u64().unwrap()).sum::<u64>();
    let report = json!({
        "corpus_papers": browser_tests::engine().len(),
        "browser": "Debian Chromium, headless, via chromedriver",
        "runs": runs,
        "first_results_ms": stats(&first),
        "keystroke_ms": stats(&keys),
        "facet_click_ms": stats(&clicks),
        "files": files,
        "total_bytes": { "raw": total("raw"), "gzip": total("gzip"), "brotli": total("brotli"), "excludes": "explorer-single-file.html" },
        "queries": QUERIES,
    });
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../bench");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join("results.json"),
        serde_json::to_string_pretty(&report).unwrap() + "\n",
    )
    .unwrap();

    let s = |k: &str, f: &str| report[k][f].clone();
    let mut md = String::from("| measure | p50 | p95 | max | n |\n|---|---|---|---|---|\n");
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
    md += "\n| file | raw | gzip | brotli |\n|---|---|---|---|\n";
    for f in report["files"].as_array().unwrap() {
        md += &format!(
            "| {} | {} | {} | {} |\n",
            f["file"].as_str().unwrap(),
            f["raw"],
            f["gzip"],
            f["brotli"]
        );
    }
    md += &format!(
        "| **total for the page** (all but the single file) | {} | {} | {} |\n",
        report["total_bytes"]["raw"],
        report["total_bytes"]["gzip"],
        report["total_bytes"]["brotli"]
    );
    std::fs::write(dir.join("results.md"), &md).unwrap();
    println!("{md}");
}
