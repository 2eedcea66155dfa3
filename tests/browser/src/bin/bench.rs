//! `./dev bench`: measures release builds in headless Chromium and writes
//! `bench/runs/<date>-<commit>/results.{json,md}` (a new folder each run)
//! and the README's performance table, from that run. For the seed corpus
//! (`dist/`) and the 20,000-paper synthetic corpus (`target/dist-20k`, built
//! by `./dev bench` from `target/synthetic-20k`):
//!
//! - bytes of every shipped file: raw, gzip -9, brotli q11
//! - corpus compile time (native, release), indexed text and shipped index
//! - time from navigation start to the first result in the DOM
//! - per keystroke: input event → search, facet counts, highlights and DOM
//!   updated and laid out (p50 / p95 / max), over a fixed script of queries
//!   typed character by character into the page as it opened, then the
//!   same script typed again (each run's p95 alone too); and per facet click
//! - per keystroke, also to the end of the frame that shows it (the main
//!   thread's work: the cards skipped until a frame finds them on screen
//!   are laid out there), the wait for that frame to begin left out
//! - the same typing script in a plain MiniSearch page over the same papers,
//!   each page the first of a fresh browser of its own: the peer for the
//!   keystroke figures above
//! - the same for an input event that changes nothing (the harness's floor),
//!   and the renderer's script / style / layout time over the typing
//! - wasm memory and JS heap after load
//! - side by side in the same browser run: the engine alone
//!   (`count_matches`: search, ranking and all facet counts) against
//!   MiniSearch (npm, prefix + fuzzy, title boosted) with the same facet
//!   counting in JavaScript, on the same papers and the same typed prefixes
//!
//! - field size (`target/dist-field-100k` and `-250k`, synthetic): the
//!   build's time and peak memory, and visits over an emulated 20 Mbit/s,
//!   40 ms link with files sent brotli-compressed: a cold one typed into
//!   the moment the app has started, then a cold and a warm one typed into
//!   a second after the index's head is in (what a visitor who never types
//!   downloads is measured in that second): navigation → first results,
//!   → the query answered, the bytes and requests before that answer,
//!   memory after it; then, the
//!   link lifted, keystroke → last DOM mutation while typing, and memory
//!   after the typing
//! - first typing, for each list built (the seed, the real list, 20k,
//!   100k and 250k): a first visit in a fresh browser over that link,
//!   [`FIRST_TYPING`] typed once letter by letter, at once (the keystroke
//!   typed by the page itself the moment the app is up) and from 2 s
//!   after navigation (the real list also from 3 s); per keystroke, the
//!   time to its last DOM mutation once nothing on the page says it is
//!   loading, and the bytes the server sent for the requests that came
//!   from it to the next keystroke (p50 / p95 / max, bytes a keystroke,
//!   requests); then the same script typed again on that page (the
//!   second typing)
//!
//! - a list opened in the page (`bench/opened.rs`): the real ACL list (as
//!   JSON Lines, as BibTeX, as bare abstracts) and 20,000 synthetic papers
//!   dropped on the seed page, compiled by the page's compiler, against
//!   the native compiler on the same file in the same run, with the page
//!   compiler's peak memory; and the typing script typed into the list in
//!   view while the first compiles
//!
//! A harness, not a test: it asserts nothing about time.
//!
//! For working on speed: `BENCH_QUICK=1` (one page run per corpus, no peer,
//! nothing written; prints the page-load phases and the slowest keystrokes
//! split into handler / effects / layout, and the slowest to their frame),
//! `BENCH_CORPUS=seed`, `synthetic-20k`, `real` or `field` (one corpus, or the field-size lists; without
//! `BENCH_QUICK` its figures go to a run folder of their own, named for the
//! corpus too, and the README is left as it is; with it, `field-100k` or
//! `field-250k` types into that list's page as into the others),
//! `BENCH_REAL_DIR=DIR` (a real list, built into `target/dist-real` as
//! `./dev bench` builds it; `CORPUS_LENIENT` as for the build),
//! `BENCH_PROFILE=1` with `BENCH_QUICK` (a CPU profile of the typing,
//! `target/bench-<corpus>.cpuprofile`),
//! `BENCH_MEANING=1` (only the engine's own search and related by
//! meaning, each per typed prefix), `BENCH_PAGES=1` (only our page and the
//! plain page typed into, three rounds; prints the median per typed prefix
//! on each, slowest first), `BENCH_FIRST_TYPING=1` (only the first typing
//! of the lists `BENCH_CORPUS` names, all five without it; nothing written:
//! each visit's slowest keystrokes with the files they were sent, the
//! figures as JSON, and the tables the run would write), `BENCH_OPEN=1`
//! (only the lists opened in the page, printed).
//!
//! `BENCH_CORPUS=field` measures every list over the emulated link: the
//! field-size visits and the first typing of all five lists; the README's
//! part about the link is replaced. A corpus named alone gets its first
//! typing too.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Instant;

use browser_tests::{dist_dir, fresh_browsers, Browser};

#[path = "bench/opened.rs"]
mod opened;
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

/// The first typing's script : typed letter by letter into a
/// first visit over the emulated link, then again on the same page.
const FIRST_TYPING: &[&str] = &[
    "diffusion models",
    "reinforcement learning",
    "benchmark",
    "graph neural network",
    "federated",
    "language model reasoning",
];

/// The field-size lists `./dev bench` builds (synthetic, deterministic),
/// by name (`target/dist-<name>`) and size.
const FIELDS: [(&str, usize); 2] = [("field-100k", 100_000), ("field-250k", 250_000)];

/// The query typed into a field-size list the moment its app has started,
/// and the one typed once it is answered: a new query, cold (its words in
/// other packs of postings than the first's).
const FIELD_QUERIES: [&str; 2] = ["diffusion models", "reinforcement learning"];

/// The same for the real list (ACL and NAACL papers).
const REAL_QUERIES: [&str; 2] = ["machine translation", "sarcasm detection"];

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
/// The whole script is typed twice: first into the page as it loaded (the
/// first typing a reader does, every code path, cache and style met for the
/// first time), then again (`again`: what typing on costs).
const TYPE_SCRIPT: &str = r#"
const [queries, done] = [arguments[0], arguments[arguments.length - 1]];
const input = document.querySelector('input[type=search]');
const frame = () => new Promise(r => requestAnimationFrame(() => setTimeout(r, 0)));
// After the input event's handlers and every microtask they queued (the
// app's effects): a message task, which Chrome runs without waiting for a
// rendering opportunity (setTimeout may wait for one and so time a paint).
const channel = new MessageChannel();
const settle = () => new Promise(r => { channel.port1.onmessage = () => r(); channel.port2.postMessage(0); });
// The frame that shows a keystroke: a requestAnimationFrame callback asked
// for before the input event runs first in that frame, so the message it
// posts runs after the frame's other callbacks, style, layout and paint
// (the main thread's part of the frame). Content that is skipped until a
// frame says it is on screen (`content-visibility: auto`) is laid out
// there, not by the forced layout above.
const typeAll = async (times, parts, painted) => {
  for (const q of queries) {
    for (let i = 1; i <= q.length; i++) {
      input.value = q.slice(0, i);
      const frameStart = new Promise(r => requestAnimationFrame(() => r(performance.now())));
      const t0 = performance.now();
      input.dispatchEvent(new Event('input', { bubbles: true }));
      const t1 = performance.now();
      await settle();
      const t2 = performance.now();
      document.body.getBoundingClientRect();
      const t3 = performance.now();
      times.push(t3 - t0);
      parts.push([t1 - t0, t2 - t1, t3 - t2]);
      const t4 = await frameStart;
      await settle();
      // From the input event to the end of its frame, less the wait for
      // the frame to begin (the display's clock, not work).
      painted.push(performance.now() - t0 - Math.max(0, t4 - t3));
      await new Promise(r => setTimeout(r, 0));
    }
    input.value = '';
    input.dispatchEvent(new Event('input', { bubbles: true }));
    await frame();
  }
};
(async () => {
  const times = [], parts = [], again = [], painted = [], paintedAgain = [];
  await typeAll(times, parts, painted);
  await typeAll(again, [], paintedAgain);
  const idle = [];
  input.value = 'x';
  input.dispatchEvent(new Event('input', { bubbles: true }));
  await frame();
  for (let i = 0; i < 40; i++) {
    const t0 = performance.now();
    input.dispatchEvent(new Event('input', { bubbles: true }));
    await settle();
    document.body.getBoundingClientRect();
    idle.push(performance.now() - t0);
    await frame();
  }
  input.value = '';
  input.dispatchEvent(new Event('input', { bubbles: true }));
  await frame();
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
    times, parts, again, idle, clicks, painted, painted_again: paintedAgain,
    wasm_memory: window.__wasm ? window.__wasm.memory.buffer.byteLength : null,
    js_heap: performance.memory ? performance.memory.usedJSHeapSize : null,
  });
})();
"#;

/// Types the same script into a page (ours or the plain MiniSearch page)
/// and times each keystroke from the input event to the last DOM mutation
/// it causes, seen by a MutationObserver over a 250 ms window: what a user
/// waits for, including any work spread over later frames. Keystrokes that
/// change nothing on the page are counted apart.
const MUTATION_SCRIPT: &str = r#"
const [queries, done] = [arguments[0], arguments[arguments.length - 1]];
const input = document.querySelector('input[type=search]');
const wait = (ms) => new Promise(r => setTimeout(r, ms));
let last = 0;
const observer = new MutationObserver(() => { last = performance.now(); });
observer.observe(document.body, { subtree: true, childList: true, attributes: true, characterData: true });
const type = async (value) => {
  input.value = value;
  last = 0;
  const t0 = performance.now();
  input.dispatchEvent(new Event('input', { bubbles: true }));
  await wait(250);
  return last ? last - t0 : null;
};
(async () => {
  const times = [];
  const each = [];
  let unchanged = 0;
  for (const q of queries) {
    for (let i = 1; i <= q.length; i++) {
      const t = await type(q.slice(0, i));
      each.push(t);
      if (t === null) unchanged++; else times.push(t);
    }
    each.push(await type(''));
  }
  observer.disconnect();
  done({ times, unchanged, each });
})();
"#;

/// Clicks facet checkboxes (each twice: on, then off) and times each click
/// to the last DOM mutation it causes, as [`MUTATION_SCRIPT`] does.
const CLICK_SCRIPT: &str = r#"
const done = arguments[arguments.length - 1];
const wait = (ms) => new Promise(r => setTimeout(r, ms));
let last = 0;
const observer = new MutationObserver(() => { last = performance.now(); });
observer.observe(document.body, { subtree: true, childList: true, attributes: true, characterData: true });
(async () => {
  const times = [];
  for (let n = 0; n < 12; n++) {
    for (let k = 0; k < 2; k++) {
      const box = document.querySelectorAll('.facet input[type=checkbox]')[n];
      if (!box) break;
      last = 0;
      const t0 = performance.now();
      box.click();
      await wait(250);
      if (last) times.push(last - t0);
    }
  }
  observer.disconnect();
  done(times);
})();
"#;

/// What a page had downloaded by a moment (the document itself included),
/// by file name: `arguments[0]` names the moment, `"first results"` (in
/// the document: what the first results waited for) or `"app started"`
/// (the module instantiated: what the app waited for).
const FETCHED_BY: &str = r#"
const until = arguments[0] === 'app started' ? window.__started : window.__firstResults;
const names = performance.getEntriesByType('resource')
  .filter(r => r.responseEnd <= until)
  .map(r => new URL(r.name).pathname.split('/').pop());
return ['index.html', ...names];
"#;

/// A plain page over the same papers, as a lab would write it with
/// MiniSearch: prefix + fuzzy search, title boost, AND; on every keystroke
/// the first 100 results are re-rendered with `<mark>` highlights through
/// `innerHTML`, and so are the counts of each facet's values (up to 20 per
/// facet, the app's panel shows no more).
fn plain_page(minisearch: &str, docs: &[Value], facets: &[Value]) -> String {
    // JSON inside a script element: no `</` may close it.
    let json = |v: &[Value]| serde_json::to_string(v).unwrap().replace("</", "<\\/");
    let (docs, facets) = (json(docs), json(facets));
    format!(
        r#"<!doctype html><html lang="en"><meta charset="utf-8"><title>Papers (MiniSearch)</title>
<style>body{{font:16px/1.5 system-ui,sans-serif;margin:0 auto;max-width:72rem;display:grid;grid-template-columns:16rem 1fr;gap:1rem}}
header{{grid-column:1/-1}}input{{width:100%;font-size:1.1rem}}article{{border:1px solid #ccc;border-radius:6px;padding:.5rem 1rem;margin:.5rem 0}}
ol{{list-style:none;padding:0}}mark{{background:#fe8}}label{{display:block}}</style>
<header><input type="search" aria-label="Search"><p id="count"></p></header>
<aside id="facets"></aside><ol id="results"></ol>
<script>{minisearch}</script>
<script type="application/json" id="docs">{docs}</script>
<script>
const docs = JSON.parse(document.getElementById('docs').textContent);
const facets = {facets};
const ms = new MiniSearch({{
  fields: ['title', 'text', 'authors'],
  searchOptions: {{ boost: {{ title: 3, authors: 2 }}, prefix: true, fuzzy: 0.2, combineWith: 'AND' }},
}});
ms.addAll(docs);
const esc = (s) => s.replace(/[&<>"]/g, (c) => ({{ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' }})[c]);
const mark = (text, terms) => {{
  if (!terms.length) return esc(text);
  const re = new RegExp('\\b(' + terms.map((t) => t.replace(/[.*+?^${{}}()|[\]\\]/g, '\\$&')).join('|') + ')', 'gi');
  let out = '', at = 0;
  for (const m of text.matchAll(re)) {{
    out += esc(text.slice(at, m.index)) + '<mark>' + esc(m[0]) + '</mark>';
    at = m.index + m[0].length;
  }}
  return out + esc(text.slice(at));
}};
const input = document.querySelector('input');
const render = () => {{
  const q = input.value.trim();
  const results = q ? ms.search(q) : docs.map((d) => ({{ id: d.id, terms: [] }}));
  const counts = facets.map((f) => new Uint32Array(f.values.length));
  for (const r of results) for (const [f, v] of docs[r.id].tags) counts[f][v]++;
  document.getElementById('count').textContent = results.length + ' papers';
  document.getElementById('results').innerHTML = results.slice(0, 100).map((r) => {{
    const d = docs[r.id];
    return `<li><article><h2>${{mark(d.title, r.terms)}}</h2><p>${{esc(d.authors)}}</p><p>${{mark(d.text, r.terms)}}</p></article></li>`;
  }}).join('');
  document.getElementById('facets').innerHTML = facets.map((f, i) => {{
    const shown = [];
    for (let j = 0; j < f.values.length && shown.length < 20; j++)
      if (counts[i][j]) shown.push(`<label><input type="checkbox"> ${{esc(f.values[j])}} (${{counts[i][j]}})</label>`);
    return `<fieldset class="facet"><legend>${{esc(f.name)}}</legend>${{shown.join('')}}</fieldset>`;
  }}).join('');
}};
input.addEventListener('input', render);
render();
requestAnimationFrame(() => {{ window.__firstResults = performance.now(); }});
</script></html>"#
    )
}

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

/// Meaning alone, in the app's page: for every prefix, the query embedded
/// and every paper scored, the ten nearest with their words.
const MEANING_SCRIPT: &str = r#"
const queries = arguments[0];
const times = [];
for (const q of queries) for (let i = 1; i <= q.length; i++) {
  const t0 = performance.now();
  wasmBindings.count_related(q.slice(0, i));
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
    // A file's `.br` (the build's precompressed copy) is the file again:
    // its brotli column.
    let mut files: Vec<_> = std::fs::read_dir(dist)
        .unwrap()
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.is_file() && p.extension().is_none_or(|e| e != "br"))
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

/// A Chrome DevTools Protocol command, sent through chromedriver.
#[derive(Debug)]
struct Cdp(&'static str, Value);

impl fantoccini::wd::WebDriverCompatibleCommand for Cdp {
    fn endpoint(
        &self,
        base: &url::Url,
        session: Option<&str>,
    ) -> Result<url::Url, url::ParseError> {
        base.join(&format!(
            "session/{}/goog/cdp/execute",
            session.unwrap_or_default()
        ))
    }

    fn method_and_body(&self, _: &url::Url) -> (http::Method, Option<String>) {
        let body = json!({ "cmd": self.0, "params": self.1 });
        (http::Method::POST, Some(body.to_string()))
    }
}

/// The renderer's cumulative time (s) in script, style, layout and all tasks.
async fn renderer_times(b: &Browser) -> Vec<(String, f64)> {
    let _ = b
        .client
        .issue_cmd(Cdp("Performance.enable", json!({})))
        .await;
    let Ok(r) = b
        .client
        .issue_cmd(Cdp("Performance.getMetrics", json!({})))
        .await
    else {
        return Vec::new();
    };
    let wanted = [
        "TaskDuration",
        "ScriptDuration",
        "RecalcStyleDuration",
        "LayoutDuration",
    ];
    r["metrics"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|m| {
            let name = m["name"].as_str()?;
            wanted
                .contains(&name)
                .then(|| (name.to_string(), m["value"].as_f64().unwrap_or(0.0)))
        })
        .collect()
}

fn numbers(v: &Value) -> Vec<f64> {
    v.as_array()
        .map(|a| a.iter().filter_map(Value::as_f64).collect())
        .unwrap_or_default()
}

/// Scripts and page loads may take ten minutes: indexing 20,000 papers in
/// JavaScript, or typing the whole script into the plain page, takes longer
/// than WebDriver's default 30 s.
async fn long_scripts(b: &Browser) {
    let ten_minutes = Some(std::time::Duration::from_secs(600));
    b.client
        .update_timeouts(fantoccini::wd::TimeoutConfiguration::new(
            ten_minutes,
            ten_minutes,
            None,
        ))
        .await
        .unwrap();
}

/// What typing the same script into our page and the plain page measured.
struct BothPages {
    ours: Vec<f64>,
    plain: Vec<f64>,
    clicks: Vec<f64>,
    ours_unchanged: u64,
    plain_unchanged: u64,
    /// Per typed prefix, in script order: each round's time on our page and
    /// on the plain page (`None`: the keystroke changed nothing).
    per_prefix: Vec<(Rounds, Rounds)>,
}

/// One keystroke's time in each round (`None`: it changed nothing).
type Rounds = Vec<Option<f64>>;

/// What typing [`QUERIES`] into one page measured ([`MUTATION_SCRIPT`]).
struct Typed {
    /// Each keystroke that changed the page, to its last mutation.
    times: Vec<f64>,
    /// Keystrokes that changed nothing.
    unchanged: u64,
    /// Every keystroke in script order, emptied boxes included.
    each: Rounds,
}

/// Types [`QUERIES`] into the page open in `b` (`page` names it).
async fn type_queries(b: &Browser, page: &str) -> Typed {
    let r = b
        .client
        .execute_async(MUTATION_SCRIPT, vec![json!(QUERIES)])
        .await
        .unwrap_or_else(|e| panic!("typing into {page}: {e}"));
    Typed {
        times: numbers(&r["times"]),
        unchanged: r["unchanged"].as_u64().unwrap_or(0),
        each: r["each"]
            .as_array()
            .into_iter()
            .flatten()
            .map(Value::as_f64)
            .collect(),
    }
}

/// Types [`QUERIES`] into our page and the plain MiniSearch page, alternately
/// in one browser session, `rounds` times; clicks our facets once a round.
async fn type_both_pages(
    name: &str,
    dist: &Path,
    minisearch: &str,
    docs: &[Value],
    facet_values: &[Value],
    rounds: usize,
) -> BothPages {
    let mut both = BothPages {
        ours: Vec::new(),
        plain: Vec::new(),
        clicks: Vec::new(),
        ours_unchanged: 0,
        plain_unchanged: 0,
        per_prefix: Vec::new(),
    };
    let b = Browser::launch_dist(dist, "/", (1280, 900), true).await;
    long_scripts(&b).await;
    let plain = plain_page(minisearch, docs, facet_values);
    b.server
        .pages
        .lock()
        .unwrap()
        .push(("/plain.html".into(), plain));
    for round in 0..rounds {
        eprintln!("bench: {name}: both pages typed into, round {}", round + 1);
        b.open("").await;
        b.wait_for("window.__firstResults !== undefined", "first results")
            .await;
        let ours = type_queries(&b, "our page").await;
        let c = b
            .client
            .execute_async(CLICK_SCRIPT, vec![])
            .await
            .expect("clicking our facets");
        both.clicks.extend(numbers(&c));
        open_plain_page(&b).await;
        let plain = type_queries(&b, "the plain page").await;
        both.ours.extend(ours.times);
        both.ours_unchanged += ours.unchanged;
        both.plain.extend(plain.times);
        both.plain_unchanged += plain.unchanged;
        if both.per_prefix.is_empty() {
            both.per_prefix = vec![(Vec::new(), Vec::new()); ours.each.len()];
        }
        for (slot, (o, p)) in both
            .per_prefix
            .iter_mut()
            .zip(ours.each.into_iter().zip(plain.each))
        {
            slot.0.push(o);
            slot.1.push(p);
        }
    }
    b.close().await;
    both
}

/// `BENCH_PAGES=1`: only the two pages typed into, and per typed prefix the
/// median time on each page, slowest of ours first (for finding which
/// keystrokes make the ratio).
fn print_per_prefix(name: &str, both: &BothPages) {
    let median = |v: &[Option<f64>]| -> Option<f64> {
        let mut v: Vec<f64> = v.iter().flatten().copied().collect();
        v.sort_by(f64::total_cmp);
        (!v.is_empty()).then(|| v[v.len() / 2])
    };
    // The script's order: each prefix of each query, then the emptied box.
    let prefixes: Vec<String> = QUERIES
        .iter()
        .flat_map(|q| {
            (1..=q.chars().count())
                .map(|i| q.chars().take(i).collect())
                .chain(std::iter::once(String::from("(emptied)")))
        })
        .collect();
    let mut rows: Vec<(Option<f64>, Option<f64>, &String)> = both
        .per_prefix
        .iter()
        .zip(&prefixes)
        .map(|((o, p), q)| (median(o), median(p), q))
        .collect();
    rows.sort_by(|a, b| b.0.unwrap_or(0.0).total_cmp(&a.0.unwrap_or(0.0)));
    let p95 = |v: &[f64]| stats(v)["p95_ms"].as_f64().unwrap_or(f64::NAN);
    let p50 = |v: &[f64]| stats(v)["p50_ms"].as_f64().unwrap_or(f64::NAN);
    eprintln!(
        "bench: {name}: ours p50 {:.1} p95 {:.1}, plain p50 {:.1} p95 {:.1}",
        p50(&both.ours),
        p95(&both.ours),
        p50(&both.plain),
        p95(&both.plain)
    );
    for (o, p, q) in rows.iter().take(25) {
        let f = |v: &Option<f64>| v.map_or("   -  ".into(), |v| format!("{v:6.1}"));
        eprintln!("bench: {name}: ours {} plain {}  {q:?}", f(o), f(p));
    }
}

/// MiniSearch's browser build, from npm (tools/bootstrap.sh installs it).
fn minisearch_source() -> String {
    std::fs::read_to_string(
        PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join("../../tools/node_modules/minisearch/dist/umd/index.js"),
    )
    .expect("tools/node_modules/minisearch (tools/bootstrap.sh installs it)")
}

/// Navigation to the plain MiniSearch page `html` → its first results (ms).
async fn plain_first_results(b: &Browser, html: &str) -> f64 {
    b.server
        .pages
        .lock()
        .unwrap()
        .push(("/plain.html".into(), html.to_string()));
    open_plain_page(b).await;
    b.js("return window.__firstResults").await.as_f64().unwrap()
}

/// Opens the plain page the server holds at `/plain.html` and waits for
/// its first results.
async fn open_plain_page(b: &Browser) {
    b.client
        .goto(&format!("{}plain.html", b.server.base))
        .await
        .unwrap();
    b.wait_for("window.__firstResults !== undefined", "the plain page")
        .await;
}

/// A corpus compiled natively as the build compiles it (`CORPUS_LENIENT`
/// included: the same papers as the page under measurement), with what
/// the plain pages are given of it.
struct Compiled {
    corpus: explorer_core::Corpus,
    compile_s: f64,
    /// Bytes of the text searched: titles, abstracts, authors.
    indexed_text: usize,
    /// The shipped index: raw, gzip, brotli.
    index_bytes: (usize, usize, usize),
    /// Each facet's number of values.
    facet_sizes: Vec<usize>,
    /// Each facet's name and values, for the plain page.
    facet_values: Vec<Value>,
    /// The papers as the plain pages read them.
    docs: Vec<Value>,
}

fn compile(name: &str, corpus_dir: &Path) -> Compiled {
    eprintln!("bench: {name}: compiling {}", corpus_dir.display());
    let t = Instant::now();
    let corpus = explorer_core::build::compile_dir_with(
        corpus_dir,
        explorer_core::build::Options::from_env(),
    )
    .expect("corpus compiles")
    .corpus;
    let compile_s = t.elapsed().as_secs_f64();
    let indexed_text: usize = corpus
        .papers
        .iter()
        .map(|p| p.title.len() + p.text.len() + p.authors.join(", ").len())
        .sum();
    let index = corpus.index.to_frame();
    let (gz, br) = compressed(&index);
    let facet_sizes: Vec<usize> = corpus.facets.iter().map(|f| f.values.len()).collect();
    let facet_values: Vec<Value> = corpus
        .facets
        .iter()
        .map(|f| json!({ "name": f.kind.name_en(), "values": f.values }))
        .collect();
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
    Compiled {
        corpus,
        compile_s,
        indexed_text,
        index_bytes: (index.len(), gz, br),
        facet_sizes,
        facet_values,
        docs,
    }
}

/// What the page runs of one corpus measured: our page, and the plain
/// MiniSearch page's (when it is measured), over [`TYPE_SCRIPT`].
#[derive(Default)]
struct PageRuns {
    first: Vec<f64>,
    started: Vec<f64>,
    plain_first: Vec<f64>,
    keys: Vec<f64>,
    keys_again: Vec<f64>,
    /// Each run's keystroke p95, first typing and typed again: how far one
    /// run's figure can be trusted on this machine.
    p95_per_run: Vec<Value>,
    plain_keys: Vec<f64>,
    plain_keys_again: Vec<f64>,
    /// Input event → the end of its frame (see [`TYPE_SCRIPT`]): ours,
    /// first typing and again, and the plain page's.
    painted: Vec<f64>,
    painted_again: Vec<f64>,
    plain_painted: Vec<f64>,
    plain_painted_again: Vec<f64>,
    clicks: Vec<f64>,
    memory: Value,
    last_parts: Value,
    idle: Vec<f64>,
    renderer: serde_json::Map<String, Value>,
    fetched_first: Value,
    fetched_started: Value,
}

/// `runs` page runs of one build, each in a fresh browser: the plain page
/// `plain` first when given (each page the first one a fresh browser
/// opens: neither pays for the other's start, and ours is not typed into
/// while the browser still collects what the plain page left, at 20,000
/// papers an 83 MB heap), then ours.
async fn page_runs(
    name: &str,
    dist: &Path,
    runs: usize,
    quick: bool,
    plain: Option<&str>,
) -> PageRuns {
    let mut pr = PageRuns::default();
    for run in 0..runs {
        eprintln!("bench: {name}: page run {}/{runs}", run + 1);
        if let Some(html) = plain {
            plain_page_run(dist, html, &mut pr).await;
        }
        our_page_run(name, dist, run == 0, quick, &mut pr).await;
    }
    pr
}

/// The plain page's first results, and the same typing script as ours to
/// the same point (laid out): the peer for the absolute keystroke figures
/// on this machine. At 20,000 papers it types for minutes.
async fn plain_page_run(dist: &Path, html: &str, pr: &mut PageRuns) {
    let b = Browser::launch_dist(dist, "/", (1280, 900), true).await;
    pr.plain_first.push(plain_first_results(&b, html).await);
    long_scripts(&b).await;
    let r = b
        .client
        .execute_async(TYPE_SCRIPT, vec![json!(QUERIES)])
        .await
        .expect("typing script on the plain page");
    pr.plain_keys.extend(numbers(&r["times"]));
    pr.plain_keys_again.extend(numbers(&r["again"]));
    pr.plain_painted.extend(numbers(&r["painted"]));
    pr.plain_painted_again.extend(numbers(&r["painted_again"]));
    b.close().await;
}

/// Our page opened in a fresh browser, its load timed (what it fetched by
/// each moment read on the `first` run), then [`TYPE_SCRIPT`] typed into it.
async fn our_page_run(name: &str, dist: &Path, first: bool, quick: bool, pr: &mut PageRuns) {
    let b = Browser::launch_dist(dist, "/", (1280, 900), true).await;
    b.open("").await;
    b.wait_for("window.__firstResults !== undefined", "first results")
        .await;
    pr.first
        .push(b.js("return window.__firstResults").await.as_f64().unwrap());
    if first {
        pr.fetched_first = b.js_with(FETCHED_BY, vec![json!("first results")]).await;
    }
    b.wait_for("window.__started !== undefined", "the app")
        .await;
    pr.started
        .push(b.js("return window.__started").await.as_f64().unwrap());
    if first {
        pr.fetched_started = b.js_with(FETCHED_BY, vec![json!("app started")]).await;
    }
    // Typed into once the page has loaded: the index, fetched after the
    // first results, opened (in the task that read it, so by the next
    // idle time). The meaning file comes with the first keystroke, as
    // for a reader: the first typing includes it, typing again does not.
    b.wait_for(
        "performance.getEntriesByType('resource').some(r => r.name.includes('/index-') && r.responseEnd > 0)",
        "the index",
    )
    .await;
    b.client
        .execute_async(
            "const done = arguments[0]; requestIdleCallback(() => setTimeout(done, 0), { timeout: 5000 });",
            vec![],
        )
        .await
        .expect("an idle moment");
    if quick {
        print_load_phases(&b, name).await;
    }
    let (r, renderer) = type_script_profiled(&b, name, quick).await;
    pr.renderer = renderer;
    let (these, again) = (numbers(&r["times"]), numbers(&r["again"]));
    pr.p95_per_run
        .push(json!([stats(&these)["p95_ms"], stats(&again)["p95_ms"]]));
    pr.keys.extend(these);
    pr.keys_again.extend(again);
    pr.painted.extend(numbers(&r["painted"]));
    pr.painted_again.extend(numbers(&r["painted_again"]));
    pr.idle.extend(numbers(&r["idle"]));
    pr.last_parts = r["parts"].clone();
    pr.clicks.extend(numbers(&r["clicks"]));
    pr.memory = json!({ "wasm_memory_bytes": r["wasm_memory"], "js_heap_bytes": r["js_heap"] });
    b.close().await;
}

/// `BENCH_QUICK`: when the page's parts came, and when it started.
async fn print_load_phases(b: &Browser, name: &str) {
    let phases = b
        .js(r#"const nav = performance.getEntriesByType('navigation')[0];
            const wasm = performance.getEntriesByType('resource').find(r => r.name.endsWith('.wasm'));
            return { html_received: nav.responseEnd, dom_interactive: nav.domInteractive,
                     wasm_received: wasm && wasm.responseEnd, app_started: window.__started,
                     first_results: window.__firstResults,
                     resources: performance.getEntriesByType('resource').map(r => [r.name.split('/').pop().slice(0, 24), Math.round(r.startTime), Math.round(r.responseEnd)]) }"#)
        .await;
    eprintln!("bench: {name}: page load phases (ms): {phases}");
}

/// [`TYPE_SCRIPT`] typed into the page open in `b`: what it returned, and
/// the renderer's time in script, style, layout and all tasks over it (ms).
/// With `BENCH_PROFILE` and `quick`, a CPU profile of it is written to
/// `target/bench-<name>.cpuprofile`.
async fn type_script_profiled(
    b: &Browser,
    name: &str,
    quick: bool,
) -> (Value, serde_json::Map<String, Value>) {
    let before = renderer_times(b).await;
    let profile = quick && std::env::var_os("BENCH_PROFILE").is_some();
    if profile {
        let _ = b.client.issue_cmd(Cdp("Profiler.enable", json!({}))).await;
        let _ = b
            .client
            .issue_cmd(Cdp(
                "Profiler.setSamplingInterval",
                json!({"interval": 200}),
            ))
            .await;
        let _ = b.client.issue_cmd(Cdp("Profiler.start", json!({}))).await;
    }
    let r = b
        .client
        .execute_async(TYPE_SCRIPT, vec![json!(QUERIES)])
        .await
        .expect("typing script");
    if profile {
        let p = b
            .client
            .issue_cmd(Cdp("Profiler.stop", json!({})))
            .await
            .unwrap();
        let out = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join(format!("../../target/bench-{name}.cpuprofile"));
        std::fs::write(&out, p["profile"].to_string()).unwrap();
        eprintln!(
            "bench: {name}: CPU profile of the typing in {} (open it in DevTools)",
            out.display()
        );
    }
    let after = renderer_times(b).await;
    let renderer = before
        .iter()
        .zip(&after)
        .map(|((k, a), (_, z))| (k.clone(), json!(round((z - a) * 1000.0))))
        .collect();
    (r, renderer)
}

/// What the page runs measured, as the report gives it.
fn page_figures(name: &str, pr: &PageRuns) -> Value {
    json!({
        "corpus": name,
        "first_results_ms": stats(&pr.first),
        "app_started_ms": stats(&pr.started),
        "plain_page_first_results_ms": stats(&pr.plain_first),
        "keystroke_ms": stats(&pr.keys),
        "keystroke_again_ms": stats(&pr.keys_again),
        "keystroke_p95_per_run_ms": pr.p95_per_run,
        "plain_page_keystroke_ms": stats(&pr.plain_keys),
        "plain_page_keystroke_again_ms": stats(&pr.plain_keys_again),
        "keystroke_painted_ms": stats(&pr.painted),
        "keystroke_painted_again_ms": stats(&pr.painted_again),
        "plain_page_keystroke_painted_ms": stats(&pr.plain_painted),
        "plain_page_keystroke_painted_again_ms": stats(&pr.plain_painted_again),
        "unchanged_input_ms": stats(&pr.idle),
        "renderer_during_typing_ms": pr.renderer,
        "facet_click_ms": stats(&pr.clicks),
        "memory_after_typing": pr.memory,
    })
}

/// `BENCH_QUICK`: the slowest keystrokes of the last run, with what had
/// been typed, laid out and to their frame.
fn print_slowest(name: &str, pr: &PageRuns) {
    let prefixes: Vec<String> = QUERIES
        .iter()
        .flat_map(|q| (1..=q.chars().count()).map(|i| q.chars().take(i).collect()))
        .collect();
    let last = &pr.keys[pr.keys.len() - prefixes.len()..];
    let parts = pr.last_parts.as_array().cloned().unwrap_or_default();
    let last_painted = &pr.painted[pr.painted.len() - prefixes.len()..];
    let mut slow: Vec<(f64, f64, &String, String)> = last
        .iter()
        .copied()
        .zip(last_painted.iter().copied())
        .zip(&prefixes)
        .zip(parts.iter().map(|p| p.to_string()))
        .map(|(((ms, painted), p), parts)| (ms, painted, p, parts))
        .collect();
    slow.sort_by(|a, b| b.0.total_cmp(&a.0));
    for (ms, painted, prefix, parts) in slow.iter().take(12) {
        eprintln!(
            "bench: {name}: {ms:7.1} ms  {prefix:?}  [handler, updates, layout] {parts}, \
             its frame painted {painted:.1} ms"
        );
    }
    slow.sort_by(|a, b| b.1.total_cmp(&a.1));
    for (ms, painted, prefix, _) in slow.iter().take(12) {
        eprintln!(
            "bench: {name}: its frame painted {painted:7.1} ms  {prefix:?}  (laid out {ms:.1})"
        );
    }
}

/// The engine alone and MiniSearch, on the same typed prefixes in one
/// browser session, and meaning alone.
struct EnginesAlone {
    ours: Vec<f64>,
    meaning: Vec<f64>,
    peer: Vec<f64>,
    /// The peer page's index build time and heaps ([`peer_page`]).
    peer_build: Value,
}

/// Our engine's own search and related by meaning, per typed prefix of
/// [`COMPARE`], in our page; then MiniSearch with the same facet counting
/// in the peer page. `None` with `BENCH_MEANING` (printed, no peer).
async fn engines_alone(name: &str, dist: &Path, c: &Compiled) -> Option<EnginesAlone> {
    eprintln!("bench: {name}: engine against MiniSearch");
    let b = Browser::launch_dist(dist, "/", (1280, 900), true).await;
    long_scripts(&b).await;
    b.open("").await;
    b.wait_for("window.__firstResults !== undefined", "first results")
        .await;
    // The meaning file comes with the first query: one is typed, and once
    // related papers are found, the index and the meaning file are both
    // open. (Timed as soon as the first results show, which
    // the build's first screen puts up before the app has started, most
    // prefixes at 20,000 papers would be timed before the app had opened its
    // index, and report 0.0 ms.)
    b.type_query("diffusion").await;
    b.wait_for(
        "wasmBindings.count_related('diffusion models') > 0",
        "the index and the meaning file",
    )
    .await;
    // Warm both up once, then measure.
    b.js_with(OURS_SCRIPT, vec![json!(COMPARE)]).await;
    let ours = numbers(&b.js_with(OURS_SCRIPT, vec![json!(COMPARE)]).await);
    // The first pass tokenizes each related paper's words, which the engine
    // keeps; the second, measured, is typing the same queries again.
    let cold = numbers(&b.js_with(MEANING_SCRIPT, vec![json!(COMPARE)]).await);
    let meaning = numbers(&b.js_with(MEANING_SCRIPT, vec![json!(COMPARE)]).await);
    if std::env::var_os("BENCH_MEANING").is_some() {
        eprintln!(
            "bench: {name}: engine only, per typed prefix {}",
            stats(&ours)
        );
        eprintln!(
            "bench: {name}: related by meaning, first pass {}",
            stats(&cold)
        );
        eprintln!(
            "bench: {name}: related by meaning, measured {}",
            stats(&meaning)
        );
        b.close().await;
        return None;
    }
    let page = peer_page(
        &minisearch_source(),
        &serde_json::to_string(&c.docs)
            .unwrap()
            .replace("</", "<\\/"),
        &serde_json::to_string(&c.facet_sizes).unwrap(),
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
    let peer_build = b.js("return preparePeer()").await;
    b.js_with("return runPeer(arguments[0]).length", vec![json!(COMPARE)])
        .await;
    let peer = numbers(
        &b.js_with("return runPeer(arguments[0])", vec![json!(COMPARE)])
            .await,
    );
    b.close().await;
    Some(EnginesAlone {
        ours,
        meaning,
        peer,
        peer_build,
    })
}

/// [`EnginesAlone`] as the report gives it.
fn engines_json(e: &EnginesAlone) -> Value {
    let ours_total: f64 = e.ours.iter().sum();
    let peer_total: f64 = e.peer.iter().sum();
    json!({
        "queries": COMPARE,
        "ours_ms": stats(&e.ours),
        "meaning_ms": stats(&e.meaning),
        "minisearch_ms": stats(&e.peer),
        "minisearch_index_build_ms": round(e.peer_build["build"].as_f64().unwrap_or(0.0)),
        "minisearch_index_heap_bytes": e.peer_build["index_heap"],
        "minisearch_docs_heap_bytes": e.peer_build["docs_heap"],
        "ratio_ours_over_minisearch": round(ours_total / peer_total),
    })
}

/// [`BothPages`] as the report gives it.
fn both_pages_json(both: &BothPages) -> Value {
    let p95 = |v: &[f64]| stats(v)["p95_ms"].as_f64().unwrap_or(f64::NAN);
    let p50 = |v: &[f64]| stats(v)["p50_ms"].as_f64().unwrap_or(f64::NAN);
    json!({
        "queries": QUERIES,
        "measure": "input event → last DOM mutation it causes (MutationObserver, 250 ms window)",
        "ours_ms": stats(&both.ours),
        "ours_unchanged": both.ours_unchanged,
        "plain_minisearch_page_ms": stats(&both.plain),
        "plain_unchanged": both.plain_unchanged,
        "ratio_p50": round(p50(&both.ours) / p50(&both.plain)),
        "ratio_p95": round(p95(&both.ours) / p95(&both.plain)),
        "ours_facet_click_ms": stats(&both.clicks),
    })
}

/// The shipped files' sizes (`files`, from [`sizes`]), what the page had
/// fetched by its first results and by the app's start (names, from
/// [`FETCHED_BY`]), and what the first screen the build writes needs: the
/// page, its gate script and the stylesheets (the module, its glue and the
/// papers come for the app, which takes over).
fn downloads(files: Vec<Value>, by_first: &Value, by_started: &Value) -> Value {
    // The files fetched by a moment, with their sizes, and their totals.
    let fetched = |names: &Value| -> Value {
        let files: Vec<Value> = names
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|n| {
                let n = n.as_str()?;
                files.iter().find(|f| f["file"] == n).cloned()
            })
            .collect();
        let total = |k: &str| -> u64 { files.iter().filter_map(|f| f[k].as_u64()).sum() };
        json!({ "raw": total("raw"), "gzip": total("gzip"), "brotli": total("brotli"), "files": files })
    };
    let screen_files: Vec<&Value> = files
        .iter()
        .filter(|f| {
            f["file"]
                .as_str()
                .is_some_and(|n| n == "index.html" || n == "first-screen.js" || n.ends_with(".css"))
        })
        .collect();
    let screen_total = |k: &str| -> u64 { screen_files.iter().filter_map(|f| f[k].as_u64()).sum() };
    json!({
        "first_screen_needs": {
            "files": screen_files.iter().map(|f| f["file"].clone()).collect::<Vec<_>>(),
            "raw": screen_total("raw"),
            "gzip": screen_total("gzip"),
            "brotli": screen_total("brotli"),
        },
        "before_first_results": fetched(by_first),
        "before_app_started": fetched(by_started),
        "files": files,
    })
}

/// Measures one build of one corpus: its native compile, page runs
/// (ours and the plain page's, each in a fresh browser), the engines
/// alone, both pages typed into alternately, and the shipped files.
async fn measure(name: &str, dist: &Path, corpus_dir: &Path, runs: usize, quick: bool) -> Value {
    let c = compile(name, corpus_dir);
    if std::env::var_os("BENCH_PAGES").is_some() {
        let both = type_both_pages(
            name,
            dist,
            &minisearch_source(),
            &c.docs,
            &c.facet_values,
            3,
        )
        .await;
        print_per_prefix(name, &both);
        return Value::Null;
    }
    // BENCH_MEANING: no page runs, straight to the engines.
    let runs = if std::env::var_os("BENCH_MEANING").is_some() {
        0
    } else {
        runs
    };
    let plain = (!quick).then(|| plain_page(&minisearch_source(), &c.docs, &c.facet_values));
    let pr = page_runs(name, dist, runs, quick, plain.as_deref()).await;
    let measured = page_figures(name, &pr);
    if quick {
        print_slowest(name, &pr);
        println!("{}", serde_json::to_string_pretty(&measured).unwrap());
        return measured;
    }
    let Some(engines) = engines_alone(name, dist, &c).await else {
        return Value::Null;
    };
    // The two pages, typed into the same way, alternately in one session.
    let both = type_both_pages(
        name,
        dist,
        &minisearch_source(),
        &c.docs,
        &c.facet_values,
        runs.min(3),
    )
    .await;
    let (raw, gz, br) = c.index_bytes;
    let mut report = json!({
        "papers": c.corpus.papers.len(),
        "compile_s": round(c.compile_s),
        "indexed_text_bytes": c.indexed_text,
        "index_bytes": { "raw": raw, "gzip": gz, "brotli": br },
        "page_runs": runs,
        "engine_only": engines_json(&engines),
        "pages_typed": both_pages_json(&both),
    });
    let report_map = report.as_object_mut().unwrap();
    report_map.extend(
        downloads(sizes(dist), &pr.fetched_first, &pr.fetched_started)
            .as_object()
            .unwrap()
            .clone(),
    );
    report_map.extend(measured.as_object().unwrap().clone());
    report
}

/// A corpus's figures as Markdown: its timings, the engines alone, the
/// renderer's split, the ratios to the plain page, and the downloads.
fn table(r: &Value) -> String {
    [
        timing_rows(r),
        engine_rows(r),
        renderer_lines(r),
        ratio_lines(r),
        both_pages_line(r),
        download_lines(r),
    ]
    .concat()
}

/// The page runs' figures, a row each: p50, p95, max, n.
fn timing_rows(r: &Value) -> String {
    let s = |k: &str, f: &str| r[k][f].clone();
    let mut md = format!(
        "### {} ({} papers)\n\n| measure | p50 | p95 | max | n |\n|---|---|---|---|---|\n",
        r["corpus"].as_str().unwrap(),
        r["papers"]
    );
    for (label, k) in [
        ("navigation → first results (ms)", "first_results_ms"),
        (
            "navigation → app started: the module instantiated (ms)",
            "app_started_ms",
        ),
        (
            "plain MiniSearch page: navigation → first results (ms)",
            "plain_page_first_results_ms",
        ),
        ("keystroke → DOM updated (ms)", "keystroke_ms"),
        (
            "keystroke → DOM updated, the script typed again (ms)",
            "keystroke_again_ms",
        ),
        (
            "plain MiniSearch page: keystroke → DOM updated (ms)",
            "plain_page_keystroke_ms",
        ),
        (
            "plain MiniSearch page: keystroke → DOM updated, typed again (ms)",
            "plain_page_keystroke_again_ms",
        ),
        (
            "keystroke → its frame painted: main-thread work, the wait for the frame left out (ms)",
            "keystroke_painted_ms",
        ),
        (
            "keystroke → its frame painted, the script typed again (ms)",
            "keystroke_painted_again_ms",
        ),
        (
            "plain MiniSearch page: keystroke → its frame painted (ms)",
            "plain_page_keystroke_painted_ms",
        ),
        (
            "plain MiniSearch page: keystroke → its frame painted, typed again (ms)",
            "plain_page_keystroke_painted_again_ms",
        ),
        (
            "input event, query unchanged (harness floor, ms)",
            "unchanged_input_ms",
        ),
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
    md
}

/// The engines alone, a row each, and their ratio in a sentence.
fn engine_rows(r: &Value) -> String {
    let mut md = String::new();
    let e = &r["engine_only"];
    for (label, k) in [
        ("engine only, per typed prefix (ms)", "ours_ms"),
        (
            "related by meaning: embed, score every paper, ten nearest (ms)",
            "meaning_ms",
        ),
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
    md
}

/// Where the renderer's time went over the typing, and the corpus's compile and memory.
fn renderer_lines(r: &Value) -> String {
    let mut md = String::new();
    let e = &r["engine_only"];
    let t = &r["renderer_during_typing_ms"];
    md += &format!(
        "Renderer over the typing script, typed twice (last run): script {} ms, style {} ms, layout {} ms, all tasks {} ms.\n",
        t["ScriptDuration"], t["RecalcStyleDuration"], t["LayoutDuration"], t["TaskDuration"],
    );
    // Where the time of an event goes, on average over the last run's
    // script (its keystrokes, unchanged inputs and clicks); the engine's
    // share from the engine-only run (its p50 per prefix).
    let events = (r["keystroke_ms"]["n"].as_f64().unwrap_or(0.0)
        + r["keystroke_again_ms"]["n"].as_f64().unwrap_or(0.0)
        + r["unchanged_input_ms"]["n"].as_f64().unwrap_or(0.0)
        + r["facet_click_ms"]["n"].as_f64().unwrap_or(0.0))
        / r["page_runs"].as_f64().unwrap_or(1.0);
    let per = |k: &str| t[k].as_f64().unwrap_or(0.0) / events.max(1.0);
    let engine = e["ours_ms"]["p50_ms"].as_f64().unwrap_or(0.0);
    let script = per("ScriptDuration");
    md += &format!(
        "Per event of that script ({events:.0} events), mean ms: engine ≈ {engine:.2}, \
         the rest of script (reactive graph, DOM calls, the harness) {:.2}, style {:.2}, layout {:.2}, \
         other renderer work {:.2}.\n",
        (script - engine).max(0.0),
        per("RecalcStyleDuration"),
        per("LayoutDuration"),
        (per("TaskDuration") - script - per("RecalcStyleDuration") - per("LayoutDuration")).max(0.0),
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
    md
}

/// Ours against the plain page, first results and keystrokes, and each run's p95.
fn ratio_lines(r: &Value) -> String {
    let mut md = String::new();
    let ratio = |ours: &str, plain: &str, at: &str| {
        r[ours][at].as_f64().unwrap_or(f64::NAN) / r[plain][at].as_f64().unwrap_or(f64::NAN)
    };
    let first_ratio = ratio("first_results_ms", "plain_page_first_results_ms", "p50_ms");
    md += &format!(
        "First results, ours ÷ plain page, p50: **{:.2}** (each page opened once a run, the first page of a fresh browser of its own).\n",
        first_ratio
    );
    md += &format!(
        "Keystroke → DOM updated, ours ÷ plain page (the same script, each page in a fresh browser of its own), \
         p50 / p95: first typing **{:.2} / {:.2}**, typed again **{:.2} / {:.2}**.\n",
        ratio("keystroke_ms", "plain_page_keystroke_ms", "p50_ms"),
        ratio("keystroke_ms", "plain_page_keystroke_ms", "p95_ms"),
        ratio("keystroke_again_ms", "plain_page_keystroke_again_ms", "p50_ms"),
        ratio("keystroke_again_ms", "plain_page_keystroke_again_ms", "p95_ms"),
    );
    md += &format!(
        "Keystroke → its frame painted, ours ÷ plain page, p50 / p95: first typing **{:.2} / {:.2}**, \
         typed again **{:.2} / {:.2}**.\n",
        ratio("keystroke_painted_ms", "plain_page_keystroke_painted_ms", "p50_ms"),
        ratio("keystroke_painted_ms", "plain_page_keystroke_painted_ms", "p95_ms"),
        ratio("keystroke_painted_again_ms", "plain_page_keystroke_painted_again_ms", "p50_ms"),
        ratio("keystroke_painted_again_ms", "plain_page_keystroke_painted_again_ms", "p95_ms"),
    );
    let per_run = |i: usize| {
        r["keystroke_p95_per_run_ms"]
            .as_array()
            .into_iter()
            .flatten()
            .map(|run| run[i].to_string())
            .collect::<Vec<_>>()
            .join(", ")
    };
    md += &format!(
        "Keystroke → DOM updated, p95 of each run alone (ms): first typing {}; typed again {}.\n",
        per_run(0),
        per_run(1)
    );
    md
}

/// Both pages typed into the same way, in a sentence.
fn both_pages_line(r: &Value) -> String {
    let mut md = String::new();
    let pt = &r["pages_typed"];
    md += &format!(
        "\nBoth pages typed into the same way ({}), p50 / p95 / max ms over {} keystrokes: \
         **ours {} / {} / {}**, plain MiniSearch page {} / {} / {} (n = {}). \
         Ours ÷ plain: **{} at p50, {} at p95**. Facet click → last mutation, ours: {} / {} / {} (n = {}).\n",
        pt["measure"].as_str().unwrap_or(""),
        pt["ours_ms"]["n"],
        pt["ours_ms"]["p50_ms"],
        pt["ours_ms"]["p95_ms"],
        pt["ours_ms"]["max_ms"],
        pt["plain_minisearch_page_ms"]["p50_ms"],
        pt["plain_minisearch_page_ms"]["p95_ms"],
        pt["plain_minisearch_page_ms"]["max_ms"],
        pt["plain_minisearch_page_ms"]["n"],
        pt["ratio_p50"],
        pt["ratio_p95"],
        pt["ours_facet_click_ms"]["p50_ms"],
        pt["ours_facet_click_ms"]["p95_ms"],
        pt["ours_facet_click_ms"]["max_ms"],
        pt["ours_facet_click_ms"]["n"],
    );
    md
}

/// What was downloaded by each moment, and every shipped file's sizes.
fn download_lines(r: &Value) -> String {
    let mut md = String::new();
    let files = |what: &str, v: &Value| {
        format!(
            "{what}: {} files, {} raw / {} gzip / **{} brotli** bytes ({}).\n",
            v["files"].as_array().map_or(0, Vec::len),
            v["raw"],
            v["gzip"],
            v["brotli"],
            v["files"]
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(|f| f["file"].as_str().or(f.as_str()))
                .collect::<Vec<_>>()
                .join(", "),
        )
    };
    md += &files(
        "Downloaded when the first result was shown",
        &r["before_first_results"],
    );
    md += &files(
        "Downloaded when the app had started (the module instantiated; typing searches from here on)",
        &r["before_app_started"],
    );
    md += &files(
        "What the first screen needs (the page with the first papers, its gate script, the stylesheets; \
         the module, its glue and the papers part come for the app, which takes over)",
        &r["first_screen_needs"],
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

/// Marks when the results of a query typed now are on screen: a result
/// card with a word of it highlighted (`window.__answered`, ms since
/// navigation); the results of a query before, shown while this one's
/// packs of postings come, do not count.
const ANSWER_SCRIPT: &str = r#"
const query = arguments[0];
const word = query.toLowerCase().slice(0, 4);
const input = document.querySelector('input[type=search]');
input.value = query;
window.__answered = undefined;
input.dispatchEvent(new Event('input', { bubbles: true }));
window.__typedAt = performance.now();
const answered = () => [...document.querySelectorAll('.results article mark')]
  .some((m) => m.textContent.toLowerCase().startsWith(word));
const mark = () => { if (window.__answered === undefined && answered()) { window.__answered = performance.now(); return true; } return false; };
if (!mark()) {
  new MutationObserver((_, o) => { if (mark()) o.disconnect(); })
    .observe(document.body, { childList: true, subtree: true, characterData: true });
}
"#;

/// The navigation and every file whose response ended by `arguments[0]`
/// ms, as the page saw them: name, transfer size (0 for a file its service
/// worker answered: [`on_the_wire`] counts the bytes), when it ended.
const FILES_SCRIPT: &str = r#"
const until = arguments[0];
return performance.getEntriesByType('navigation').concat(performance.getEntriesByType('resource'))
  .filter(e => e.responseEnd > 0 && e.responseEnd <= until)
  .map(e => [e.name.split('/').pop(), e.transferSize, Math.round(e.responseEnd)]);
"#;

/// The bytes the server sent (heads and bodies, as compressed) and how
/// many responses, for the requests that arrived from `from` ms to
/// `until` ms (all later ones without it) after `navigated`: whoever
/// asked, the page or its service worker (the page's Resource Timing gives
/// a file its worker answered no size).
fn on_the_wire(
    server: &browser_tests::Server,
    navigated: Instant,
    from: f64,
    until: Option<f64>,
) -> (usize, usize) {
    let within = wire_log(server, navigated, from, until);
    (within.iter().map(|(_, bytes)| bytes).sum(), within.len())
}

/// The responses of [`on_the_wire`], each as the file's name and the bytes
/// sent, in the order the requests arrived (a file asked for twice, by the
/// page and by its worker, is there twice).
fn wire_log(
    server: &browser_tests::Server,
    navigated: Instant,
    from: f64,
    until: Option<f64>,
) -> Vec<(String, usize)> {
    let at = |ms: f64| navigated + std::time::Duration::from_secs_f64(ms.max(0.0) / 1000.0);
    let (from, until) = (at(from), until.map(at));
    sent_where(server, |t| t >= from && until.is_none_or(|u| t <= u))
}

/// The responses whose requests arrived when `keep` says, each as the
/// file's name and the bytes sent, in the order they were sent.
fn sent_where(
    server: &browser_tests::Server,
    keep: impl Fn(Instant) -> bool,
) -> Vec<(String, usize)> {
    let sent = server.sent.lock().unwrap();
    sent.iter()
        .filter(|(t, ..)| keep(*t))
        .map(|(_, bytes, path)| (path.rsplit('/').next().unwrap_or("").to_string(), *bytes))
        .collect()
}

/// The emulated link of a field-size run: 20 Mbit/s down and up, 40 ms
/// round trip (Chromium's network emulation, on the page's requests).
const LINK: (f64, f64) = (20e6 / 8.0, 40.0);

/// [`LINK`] emulated for the page open in `b` and where it goes next.
async fn emulate_link(b: &Browser) {
    let (throughput, latency) = LINK;
    b.client
        .issue_cmd(Cdp("Network.enable", json!({})))
        .await
        .expect("CDP Network.enable");
    b.client
        .issue_cmd(Cdp(
            "Network.emulateNetworkConditions",
            json!({ "offline": false, "latency": latency,
                    "downloadThroughput": throughput, "uploadThroughput": throughput }),
        ))
        .await
        .expect("CDP network emulation");
}

/// One visit under [`LINK`]: navigation → first results, → the app, → the
/// first typed query answered, and the bytes and requests before that
/// answer. The browser `b` is cold (a new one) or warm (visited before:
/// the service worker's cache). The query is typed `at_once` (the moment
/// the app has started) or a second after the index's head is in.
async fn visit_over_link(b: &Browser, [query, next_query]: [&str; 2], at_once: bool) -> Value {
    emulate_link(b).await;
    let navigated = Instant::now();
    b.client.goto(&b.server.base).await.unwrap();
    // Polled here, not awaited in the page: over the link a field's start
    // and first answer take longer than the tests' waits and a script may.
    let first = poll(b, "window.__firstResults", "first results").await;
    poll(
        b,
        &format!("({}) || null", browser_tests::APP_STARTED),
        "the app",
    )
    .await;
    let started = b.js("return window.__started ?? null").await;
    // What a visitor who never types downloads: everything until the
    // index's head is in and a second has passed. A visitor who types at
    // once types the moment the app has started.
    let idle = if at_once {
        Value::Null
    } else {
        poll(
            b,
            "performance.getEntriesByType('resource').some(r => r.name.includes('/index-') && r.responseEnd > 0) || null",
            "the index's head",
        )
        .await;
        tokio::time::sleep(std::time::Duration::from_secs(1)).await;
        b.js("return performance.now()").await
    };
    b.client
        .execute(ANSWER_SCRIPT, vec![json!(query)])
        .await
        .expect("typing the query");
    let answered = poll(b, "window.__answered", "the answer").await;
    let files = b.js_with(FILES_SCRIPT, vec![answered.clone()]).await;
    // Read before the next query is typed, which sets it again.
    let typed_at = b.js("return window.__typedAt").await;
    // A new query: what it fetches, from its keystroke to its answer.
    b.client
        .execute(ANSWER_SCRIPT, vec![json!(next_query)])
        .await
        .expect("typing the next query");
    let next_answered = poll(b, "window.__answered", "the next answer").await;
    let next_typed = b.js("return window.__typedAt").await;
    let sent = |from: &Value, until: &Value| {
        on_the_wire(
            &b.server,
            navigated,
            from.as_f64().unwrap_or(0.0),
            until.as_f64(),
        )
    };
    let memory = b
        .js(
            "return { wasm: window.__wasm ? window.__wasm.memory.buffer.byteLength : null, \
             heap: performance.memory ? performance.memory.usedJSHeapSize : null }",
        )
        .await;
    json!({
        "first_results_ms": first,
        "app_started_ms": started,
        "typed_at_ms": typed_at,
        "answered_ms": answered.as_f64(),
        "bytes_before_answer": sent(&json!(0), &answered).0,
        "requests_before_answer": sent(&json!(0), &answered).1,
        "files_before_answer": files,
        "sent_before_answer": wire_log(&b.server, navigated, 0.0, answered.as_f64()),
        "bytes_never_typed": idle.as_f64().map(|_| sent(&json!(0), &idle).0),
        "next_query": {
            "query": next_query,
            "answered_after_ms": next_answered.as_f64().zip(next_typed.as_f64()).map(|(a, t)| a - t),
            "bytes": sent(&next_typed, &next_answered).0,
            "requests": sent(&next_typed, &next_answered).1,
            "sent": wire_log(&b.server, navigated, next_typed.as_f64().unwrap_or(0.0), next_answered.as_f64()),
        },
        "wasm_memory_bytes": memory["wasm"],
        "js_heap_bytes": memory["heap"],
    })
}

/// The value of `expr` once it is neither null nor undefined, polled
/// every 100 ms for up to 15 minutes.
async fn poll(b: &Browser, expr: &str, what: &str) -> Value {
    let t = Instant::now();
    loop {
        let v = b.js(&format!("return ({expr}) ?? null")).await;
        if !v.is_null() {
            return v;
        }
        assert!(t.elapsed().as_secs() < 900, "no {what} in 15 minutes");
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
}

/// A field-size build's figures: its time and peak memory (from
/// `target/dist-<name>.time`, written by `./dev bench`), the bytes of its
/// files, and the sizes of those fetched only when first needed.
fn build_figures(dist: &Path) -> Value {
    let build = std::fs::read_to_string(dist.with_extension("time")).unwrap_or_default();
    let mut build = build.split_whitespace().map(|v| v.parse::<f64>().ok());
    let (build_s, build_peak_kb) = (build.next().flatten(), build.next().flatten());
    let shipped: u64 = std::fs::read_dir(dist)
        .unwrap()
        .filter_map(Result::ok)
        .filter(|e| e.path().extension().is_none_or(|e| e != "br"))
        .filter_map(|e| e.metadata().ok())
        .filter(|m| m.is_file())
        .map(|m| m.len())
        .sum();
    // The files a first answer does not wait for, fetched when first
    // needed: the tags (by the answer's counts), the meaning file (by the
    // first query, after the tags), the map's (when it is opened).
    let later: serde_json::Map<String, Value> = ["tags", "meaning", "map"]
        .into_iter()
        .filter_map(|kind| {
            let file = browser_tests::build_file_if_any(dist, kind)?;
            let raw = std::fs::read(dist.join(file)).ok()?;
            Some((kind.to_string(), json!(compressed(&raw).1)))
        })
        .collect();
    json!({
        "build_s": build_s,
        "build_peak_bytes": build_peak_kb.map(|k| k * 1024.0),
        "dist_raw_bytes": shipped,
        "fetched_when_needed_brotli": later,
    })
}

/// A field-size list (`target/dist-<name>`, built by `./dev bench` with
/// its build time and peak memory in `target/dist-<name>.time`) under an
/// emulated link, files served brotli-compressed: a cold visit typed into
/// at once in a new browser; a cold visit in another, then a warm one in
/// the same browser, both typed into once the index's head is in.
async fn measure_field(name: &str, dist: &Path, papers: usize, queries: [&str; 2]) -> Value {
    eprintln!("bench: {name}: cold and warm visits over the emulated link");
    let build = build_figures(dist);
    browser_tests::precompress(dist);
    // A reader who types the moment the app has started, in a browser of
    // its own (nothing cached).
    let b = Browser::launch_dist(dist, "/", (1280, 900), true).await;
    b.server
        .brotli
        .store(true, std::sync::atomic::Ordering::SeqCst);
    let at_once = visit_over_link(&b, queries, true).await;
    b.close().await;
    let b = Browser::launch_dist(dist, "/", (1280, 900), true).await;
    b.server
        .brotli
        .store(true, std::sync::atomic::Ordering::SeqCst);
    let cold = visit_over_link(&b, queries, false).await;
    // Everything the service worker caches, in, before the warm visit.
    b.client
        .execute_async(
            "const done = arguments[arguments.length - 1]; navigator.serviceWorker.ready.then(() => done(true));",
            vec![],
        )
        .await
        .expect("the service worker installs");
    let warm = visit_over_link(&b, queries, false).await;
    // Typing once what it reads is in: the link's limits lifted, the
    // typing script's queries twice over, the second round measured (the
    // first brings the packs of its words in, from the service worker's
    // cache).
    b.client
        .issue_cmd(Cdp(
            "Network.emulateNetworkConditions",
            json!({ "offline": false, "latency": 0,
                    "downloadThroughput": -1, "uploadThroughput": -1 }),
        ))
        .await
        .expect("CDP network emulation off");
    long_scripts(&b).await;
    let _ = type_queries(&b, name).await;
    let typed = type_queries(&b, name).await;
    let typed_memory = b
        .js(
            "return { wasm: window.__wasm ? window.__wasm.memory.buffer.byteLength : null, \
             heap: performance.memory ? performance.memory.usedJSHeapSize : null }",
        )
        .await;
    b.close().await;
    let mut field = json!({
        "name": name,
        "link": { "down_up_bits_per_s": LINK.0 * 8.0, "round_trip_ms": LINK.1,
                  "how": "Chromium network emulation (CDP), the page's requests; files brotli q9 on the fly" },
        "queries": queries,
        "papers": papers,
        "cold_typed_at_once": at_once,
        "cold": cold,
        "warm": warm,
        "warm_keystroke_to_last_mutation": stats(&typed.times),
        "after_typing": { "wasm_memory_bytes": typed_memory["wasm"],
                          "js_heap_bytes": typed_memory["heap"] },
    });
    if let (Some(field), Value::Object(build)) = (field.as_object_mut(), build) {
        field.extend(build);
    }
    field
}

/// Installed in a first visit's page before any of its scripts
/// (`Page.addScriptToEvaluateOnNewDocument`), `CONFIG` and `APP_STARTED`
/// filled in: `window.__bench.key(value)` types one keystroke of a first
/// typing ([`FIRST_TYPING`]), and the first keystroke (`config.first`) is
/// typed by the page itself the moment the app has started and
/// `config.notBefore` ms have passed since navigation (WebDriver could
/// not: its navigation returns at the load event, after the app's start).
///
/// A keystroke: the box's value set and an input event sent; then, polled
/// every 10 ms, it is done once the page has had no DOM mutation for
/// `config.quiet` ms and nothing on it says it is loading: no element
/// `aria-busy="true"` (a card whose title or abstract is on its way, the
/// filters while their counts wait for the tags, a related paper's title)
/// and the status line saying none of `config.loading` (the search
/// index's packs, the tags, the titles' order on their way). A keystroke
/// whose words' packs are on the link mutates the page when it is typed
/// ("Loading the search index…") and again when they come: its last
/// mutation is the later one. It resolves to the input event's time (`t0`,
/// ms since navigation), the time to the last mutation (`ms`, null when
/// nothing changed), whether the page said it was loading at a poll, and
/// whether `config.cap` ms ran out first.
const TYPING_LIBRARY: &str = r#"
(() => {
  const config = CONFIG;
  const st = { last: 0 };
  new MutationObserver(() => { st.last = performance.now(); }).observe(document,
    { subtree: true, childList: true, attributes: true, characterData: true });
  const said = () => (document.querySelector('.status[role=status]') || {}).textContent || '';
  const busy = () => document.querySelector('[aria-busy="true"]') !== null
    || config.loading.some((sentence) => said().includes(sentence));
  const key = (value) => new Promise((resolve) => {
    const input = document.querySelector('input[type=search]');
    input.value = value;
    st.last = 0;
    const t0 = performance.now();
    input.dispatchEvent(new Event('input', { bubbles: true }));
    let saidLoading = false;
    const check = () => {
      const now = performance.now(), waiting = busy();
      saidLoading = saidLoading || waiting;
      const done = !waiting && now - Math.max(st.last, t0) >= config.quiet;
      if (done || now - t0 > config.cap) {
        resolve({ t0, ms: st.last ? st.last - t0 : null, said_loading: saidLoading, capped: !done });
      } else {
        setTimeout(check, 10);
      }
    };
    setTimeout(check, 10);
  });
  const bench = window.__bench = { key, first: null, ready: null };
  if (config.first === null) return;
  const go = () => {
    if ((APP_STARTED) && performance.now() >= config.notBefore) {
      bench.ready = performance.now();
      bench.first = key(config.first);
    } else {
      setTimeout(go, 2);
    }
  };
  go();
})();
"#;

/// Returns the first keystroke of [`TYPING_LIBRARY`] once it is done, with
/// when the page was ready to type and when the app started.
const FIRST_KEY_SCRIPT: &str = r#"
const done = arguments[arguments.length - 1];
const wait = () => window.__bench && window.__bench.first
  ? window.__bench.first.then((key) => done({ key, ready: window.__bench.ready, started: window.__started ?? null }))
  : setTimeout(wait, 10);
wait();
"#;

/// Types one keystroke through [`TYPING_LIBRARY`] and returns what it
/// measured.
const KEY_SCRIPT: &str = "const done = arguments[1]; window.__bench.key(arguments[0]).then(done);";

/// Installs [`TYPING_LIBRARY`] in the page open in `b`, typing nothing by
/// itself: keystrokes are typed by [`KEY_SCRIPT`].
async fn install_typing(b: &Browser) {
    let config = json!({
        "quiet": QUIET_MS,
        "cap": KEYSTROKE_CAP_MS,
        "loading": loading_sentences(),
        "first": null,
        "notBefore": 0,
    });
    let library = TYPING_LIBRARY
        .replace("CONFIG", &config.to_string())
        .replace("APP_STARTED", browser_tests::APP_STARTED);
    b.js(&library).await;
}

/// How long a keystroke of the first typing must leave the page quiet,
/// nothing on it loading, to be done ([`TYPING_LIBRARY`]).
const QUIET_MS: f64 = 250.0;

/// At most this long a keystroke of the first typing is waited for.
const KEYSTROKE_CAP_MS: f64 = 30_000.0;

/// When a first typing begins: at once (the moment the app has started),
/// or once the app has started and 2 s (3 s: the real list's target) have
/// passed since navigation.
const TYPING_STARTS: [(&str, f64); 3] =
    [("at_once", 0.0), ("from_2_s", 2000.0), ("from_3_s", 3000.0)];

/// What the status line says while an answer waits on a file, in every
/// language of the interface.
fn loading_sentences() -> Value {
    use explorer_core::view::Lang;
    let said: Vec<&str> = [Lang::En, Lang::Zh]
        .iter()
        .map(|l| l.strings())
        .flat_map(|t| [t.index_loading, t.tags_loading, t.title_order_loading])
        .collect();
    json!(said)
}

/// One keystroke of a first typing, as [`TYPING_LIBRARY`] measured it.
struct Keystroke {
    /// The box's value after it (empty: the box emptied).
    typed: String,
    /// The input event, ms since navigation.
    t0: f64,
    /// Input event → last DOM mutation; `None`: nothing changed.
    ms: Option<f64>,
    /// Whether the page said it was loading while it was waited for.
    said_loading: bool,
    /// Still loading, or still mutating, when [`KEYSTROKE_CAP_MS`] ran out.
    capped: bool,
    /// The responses to the requests that reached the server from this
    /// keystroke's start to the next's (whoever asked: the page, its
    /// service worker, a fetch in the background): file name, bytes.
    sent: Vec<(String, usize)>,
    /// The bytes of those whose requests arrived by its last DOM mutation:
    /// at most what it waited for (a fetch in the background asked for
    /// meanwhile is counted too).
    by_last_mutation: usize,
}

impl Keystroke {
    fn bytes(&self) -> usize {
        self.sent.iter().map(|(_, n)| n).sum()
    }
}

/// The values the box takes when `queries` are typed letter by letter,
/// the box emptied after each.
fn typed_letters(queries: &[&str]) -> Vec<String> {
    queries
        .iter()
        .flat_map(|q| {
            let chars: Vec<char> = q.chars().collect();
            (1..=chars.len())
                .map(move |i| chars[..i].iter().collect())
                .chain(std::iter::once(String::new()))
        })
        .collect()
}

impl Keystroke {
    /// A keystroke as [`TYPING_LIBRARY`] returned it, its bytes not yet
    /// read.
    fn from_page(typed: String, r: &Value) -> Keystroke {
        Keystroke {
            typed,
            t0: r["t0"].as_f64().unwrap_or(f64::NAN),
            ms: r["ms"].as_f64(),
            said_loading: r["said_loading"].as_bool().unwrap_or(false),
            capped: r["capped"].as_bool().unwrap_or(false),
            sent: Vec::new(),
            by_last_mutation: 0,
        }
    }
}

/// The moment of the page's time origin (`performance.now()` = 0) on our
/// clock, from the quickest of five round trips (within half of it): both
/// clocks are the system's monotonic one, so one offset holds for the
/// whole visit.
async fn page_clock(b: &Browser) -> Instant {
    let mut best: Option<(std::time::Duration, Instant)> = None;
    for _ in 0..5 {
        let asked = Instant::now();
        let now = b.js("return performance.now()").await.as_f64().unwrap();
        let answered = Instant::now();
        let trip = answered - asked;
        let origin = asked + trip / 2 - std::time::Duration::from_secs_f64(now / 1000.0);
        if best.is_none_or(|(quickest, _)| trip < quickest) {
            best = Some((trip, origin));
        }
    }
    best.unwrap().1
}

/// Types `queries` into the page open in `b` through its
/// [`TYPING_LIBRARY`], a keystroke a WebDriver call, each once the one
/// before is done; the first is `first` when the page typed it itself. A
/// keystroke's bytes are the server's responses to the requests that
/// arrived from its input event to the next keystroke's (the page's times
/// read on our clock through `origin`, [`page_clock`]).
async fn type_letters(
    b: &Browser,
    queries: &[&str],
    origin: Instant,
    mut first: Option<Value>,
) -> Vec<Keystroke> {
    let mut keys = Vec::new();
    for typed in typed_letters(queries) {
        let r = match first.take() {
            Some(r) => r,
            None => b
                .client
                .execute_async(KEY_SCRIPT, vec![json!(typed)])
                .await
                .unwrap_or_else(|e| panic!("typing {typed:?}: {e}")),
        };
        keys.push(Keystroke::from_page(typed, &r));
    }
    let end = Instant::now();
    let at = |ms: f64| origin + std::time::Duration::from_secs_f64(ms.max(0.0) / 1000.0);
    let starts: Vec<Instant> = keys.iter().map(|k| at(k.t0)).chain([end]).collect();
    for (k, w) in keys.iter_mut().zip(starts.windows(2)) {
        k.sent = sent_where(&b.server, |t| t >= w[0] && t < w[1]);
        let answered = at(k.t0 + k.ms.unwrap_or(0.0));
        let by_then = sent_where(&b.server, |t| t >= w[0] && t <= answered);
        k.by_last_mutation = by_then.iter().map(|(_, n)| n).sum();
    }
    keys
}

/// p50, p95, max and total of byte counts (nearest rank, as [`stats`]).
fn byte_stats(v: &[usize]) -> Value {
    let mut s = v.to_vec();
    s.sort_unstable();
    let pick = |q: f64| s.get(((s.len().max(1) - 1) as f64 * q).round() as usize);
    json!({
        "n": s.len(),
        "p50": pick(0.5),
        "p95": pick(0.95),
        "max": s.last(),
        "total": s.iter().sum::<usize>(),
    })
}

/// A typing's figures: keystroke → last mutation over the keystrokes that
/// changed the page, bytes a keystroke over all, and each keystroke as
/// `[typed, ms, bytes, files sent]`.
fn typing_json(keys: &[Keystroke]) -> Value {
    let times: Vec<f64> = keys.iter().filter_map(|k| k.ms).collect();
    let bytes: Vec<usize> = keys.iter().map(Keystroke::bytes).collect();
    let waited: Vec<usize> = keys.iter().map(|k| k.by_last_mutation).collect();
    let count = |f: fn(&Keystroke) -> bool| keys.iter().filter(|k| f(k)).count();
    let each: Vec<Value> = keys
        .iter()
        .map(|k| {
            let files: Vec<&str> = k.sent.iter().map(|(f, _)| f.as_str()).collect();
            json!([k.typed, k.ms.map(round), k.bytes(), files])
        })
        .collect();
    json!({
        "keystrokes": keys.len(),
        "to_last_mutation_ms": stats(&times),
        "unchanged": count(|k| k.ms.is_none()),
        "said_loading": count(|k| k.said_loading),
        "still_loading_at_cap": count(|k| k.capped),
        "bytes_a_keystroke": byte_stats(&bytes),
        "bytes_by_last_mutation": byte_stats(&waited),
        "requests": keys.iter().map(|k| k.sent.len()).sum::<usize>(),
        "began_ms": keys.first().map(|k| round(k.t0)),
        "each": each,
    })
}

/// A first visit under [`LINK`] in a fresh browser, files sent
/// brotli-compressed: [`FIRST_TYPING`] typed letter by letter once the
/// app has started and `from_ms` have passed since navigation, then
/// typed again on the same page (the second typing).
async fn first_typing_visit(dist: &Path, from_ms: f64) -> Value {
    let b = Browser::launch_dist(dist, "/", (1280, 900), true).await;
    b.server
        .brotli
        .store(true, std::sync::atomic::Ordering::SeqCst);
    long_scripts(&b).await;
    emulate_link(&b).await;
    let config = json!({
        "quiet": QUIET_MS,
        "cap": KEYSTROKE_CAP_MS,
        "loading": loading_sentences(),
        "first": typed_letters(FIRST_TYPING)[0],
        "notBefore": from_ms,
    });
    let library = TYPING_LIBRARY
        .replace("CONFIG", &config.to_string())
        .replace("APP_STARTED", browser_tests::APP_STARTED);
    b.client
        .issue_cmd(Cdp(
            "Page.addScriptToEvaluateOnNewDocument",
            json!({ "source": library }),
        ))
        .await
        .expect("CDP Page.addScriptToEvaluateOnNewDocument");
    b.client.goto(&b.server.base).await.unwrap();
    let origin = page_clock(&b).await;
    let start = b
        .client
        .execute_async(FIRST_KEY_SCRIPT, vec![])
        .await
        .expect("the first keystroke");
    let began = start["key"]["t0"].as_f64().unwrap_or(0.0);
    let began = origin + std::time::Duration::from_secs_f64(began / 1000.0);
    let before = sent_where(&b.server, |t| t < began);
    let first = type_letters(&b, FIRST_TYPING, origin, Some(start["key"].clone())).await;
    let second = type_letters(&b, FIRST_TYPING, origin, None).await;
    b.close().await;
    json!({
        "typing_from_ms": from_ms,
        "app_started_ms": start["started"],
        "ready_to_type_ms": start["ready"],
        "bytes_before_typing": before.iter().map(|(_, n)| n).sum::<usize>(),
        "requests_before_typing": before.len(),
        "sent_before_typing": before,
        "first_typing": typing_json(&first),
        "second_typing": typing_json(&second),
    })
}

/// A list's first typing over [`LINK`]: a first visit typed into at
/// once, one from 2 s after navigation (the real list's also from 3 s),
/// each in a fresh browser and then typed again.
async fn measure_first_typing(name: &str, dist: &Path) -> Value {
    browser_tests::precompress(dist);
    let starts = if name == "real" {
        &TYPING_STARTS[..]
    } else {
        &TYPING_STARTS[..2]
    };
    let mut visits = serde_json::Map::new();
    for &(start, from_ms) in starts {
        eprintln!("bench: {name}: a first visit over the emulated link, typed into {start}");
        let visit = first_typing_visit(dist, from_ms).await;
        print_first_typing(name, start, &visit);
        visits.insert(start.into(), visit);
    }
    json!({
        "name": name,
        "papers": papers_in(dist),
        "queries": FIRST_TYPING,
        "measure": format!(
            "each keystroke: input event → last DOM mutation, done once the page has been quiet \
             {QUIET_MS} ms and nothing on it says it is loading (status line, aria-busy); bytes: \
             the server's responses to the requests that arrived from the keystroke to the next"
        ),
        "link": { "down_up_bits_per_s": LINK.0 * 8.0, "round_trip_ms": LINK.1 },
        "visits": visits,
    })
}

/// The number of papers of the build in `dist` (from its papers part).
fn papers_in(dist: &Path) -> usize {
    let part = std::fs::read(dist.join(browser_tests::build_file(dist, "corpus"))).unwrap();
    explorer_core::Corpus::from_papers_part(&part)
        .expect("the build's papers decode")
        .papers
        .len()
}

/// A first-typing visit in a line, and its slowest keystrokes with what
/// they were sent.
fn print_first_typing(name: &str, start: &str, v: &Value) {
    let line = |t: &Value| {
        let (ms, b) = (&t["to_last_mutation_ms"], &t["bytes_a_keystroke"]);
        format!(
            "p50 {} / p95 {} / max {} ms, bytes a keystroke p95 {} (all {}, {} requests; \
             by its last mutation p95 {}), {} said loading, {} still loading at the cap",
            ms["p50_ms"],
            ms["p95_ms"],
            ms["max_ms"],
            b["p95"],
            b["total"],
            t["requests"],
            t["bytes_by_last_mutation"]["p95"],
            t["said_loading"],
            t["still_loading_at_cap"]
        )
    };
    let first = &v["first_typing"];
    eprintln!(
        "bench: {name}: {start}: app started {} ms, first keystroke {} ms; before it {} bytes",
        v["app_started_ms"], first["began_ms"], v["bytes_before_typing"]
    );
    eprintln!("bench: {name}: {start}: first typing {}", line(first));
    let mut each: Vec<&Value> = first["each"].as_array().into_iter().flatten().collect();
    each.sort_by(|a, b| {
        b[1].as_f64()
            .unwrap_or(0.0)
            .total_cmp(&a[1].as_f64().unwrap_or(0.0))
    });
    for k in each.iter().take(6) {
        eprintln!(
            "bench: {name}: {start}:   {:>8} ms {:>9} bytes  {}  {}",
            k[1], k[2], k[0], k[3]
        );
    }
    eprintln!(
        "bench: {name}: {start}: second typing {}",
        line(&v["second_typing"])
    );
}

/// Milliseconds as seconds (`41.9 s`); `–` when not measured.
fn secs(v: &Value) -> String {
    v.as_f64()
        .map_or("–".to_string(), |ms| format!("{:.1} s", ms / 1000.0))
}

/// Bytes as MB (`92.4 MB`, 10⁶ bytes); `–` when not measured.
fn megabytes(v: &Value) -> String {
    v.as_f64()
        .map_or("–".to_string(), |b| format!("{:.1} MB", b / 1e6))
}

/// A Markdown table: a column per item (headed `heads`), a row per
/// `(label, cell)`, `first` heading the labels' column.
fn markdown_table(
    first: &str,
    heads: &[String],
    rows: &[(&str, &Cell)],
    items: &[Value],
) -> String {
    let mut md = format!("| {first} | {} |\n|---|", heads.join(" | "));
    md += &"---|".repeat(heads.len());
    md += "\n";
    for (label, cell) in rows {
        md += &format!("| {label} |");
        for item in items {
            md += &format!(" {} |", cell(item));
        }
        md += "\n";
    }
    md
}

/// The field-size figures in a sentence per list, for the README (the
/// whole table is in the run's `results.md`).
fn field_summary(fields: &[Value], run: &str) -> String {
    if fields.is_empty() {
        return String::new();
    }
    let mut md = format!(
        "{FIELD_SUMMARY}{:.0} Mbit/s, {:.0} ms link ([`{run}`]({run}/results.md)), a query typed the moment the app has started is answered after:\n\n",
        LINK.0 * 8.0 / 1e6,
        LINK.1
    );
    for f in fields {
        md += &format!(
            "- {} papers: {} on a first visit ({} on the wire)\n",
            f["papers"],
            secs(&f["cold_typed_at_once"]["answered_ms"]),
            megabytes(&f["cold_typed_at_once"]["bytes_before_answer"]),
        );
    }
    md
}

/// A list's column head in a table of figures: `seed (57 papers)`.
fn column_head(name: &Value, papers: &Value) -> String {
    format!("{} ({papers} papers)", name.as_str().unwrap_or("?"))
}

/// A row of a table of figures: its label, and its cell from a list's
/// figures.
type Row = (&'static str, fn(&Value) -> String);

/// The rows of [`field_table`].
const FIELD_ROWS: [Row; 18] = [
    ("build time", |f| {
        secs(&(f["build_s"].as_f64().map(|x| x * 1000.0)).into())
    }),
    ("build peak memory", |f| megabytes(&f["build_peak_bytes"])),
    ("dist/ raw", |f| megabytes(&f["dist_raw_bytes"])),
    (
        "fetched when first needed (brotli): tags / meaning / map",
        |f| {
            let later = &f["fetched_when_needed_brotli"];
            ["tags", "meaning", "map"]
                .map(|k| match later[k].as_f64() {
                    Some(b) if b < 1e6 => format!("{:.0} KB", b / 1e3),
                    _ => megabytes(&later[k]),
                })
                .join(" / ")
        },
    ),
    ("cold: navigation → first results", |f| {
        secs(&f["cold"]["first_results_ms"])
    }),
    (
        "cold, typed as the app starts: navigation → query answered",
        |f| secs(&f["cold_typed_at_once"]["answered_ms"]),
    ),
    (
        "cold, typed as the app starts: bytes before that answer",
        |f| megabytes(&f["cold_typed_at_once"]["bytes_before_answer"]),
    ),
    (
        "cold, typed a second after the index's head is in: navigation → query answered",
        |f| secs(&f["cold"]["answered_ms"]),
    ),
    (
        "cold, typed a second after the index's head is in: bytes before that answer",
        |f| megabytes(&f["cold"]["bytes_before_answer"]),
    ),
    (
        "cold: bytes of a visit never typed into (until the index's head is in)",
        |f| megabytes(&f["cold"]["bytes_never_typed"]),
    ),
    ("cold: requests before that answer", |f| {
        f["cold"]["requests_before_answer"].to_string()
    }),
    (
        "cold: a new query: answered after / bytes / requests",
        |f| {
            let next = &f["cold"]["next_query"];
            format!(
                "{} / {:.0} KB / {}",
                secs(&next["answered_after_ms"]),
                next["bytes"].as_f64().unwrap_or(0.0) / 1e3,
                next["requests"]
            )
        },
    ),
    ("warm: navigation → first results", |f| {
        secs(&f["warm"]["first_results_ms"])
    }),
    (
        "warm, typed a second after the index's head is in: navigation → query answered",
        |f| secs(&f["warm"]["answered_ms"]),
    ),
    ("warm: keystroke → last DOM mutation, p50 / p95", |f| {
        let t = &f["warm_keystroke_to_last_mutation"];
        format!("{} / {} ms", t["p50_ms"], t["p95_ms"])
    }),
    ("WebAssembly memory after the answer", |f| {
        megabytes(&f["cold"]["wasm_memory_bytes"])
    }),
    ("JS heap after the answer", |f| {
        megabytes(&f["cold"]["js_heap_bytes"])
    }),
    ("WebAssembly memory / JS heap after typing (warm)", |f| {
        let m = &f["after_typing"];
        format!(
            "{} / {}",
            megabytes(&m["wasm_memory_bytes"]),
            megabytes(&m["js_heap_bytes"])
        )
    }),
];

/// The field-size figures as a Markdown table: one column per list, cold
/// and warm visit rows.
fn field_table(fields: &[Value]) -> String {
    if fields.is_empty() {
        return String::new();
    }
    let heads: Vec<String> = (fields.iter())
        .map(|f| column_head(&f["name"], &f["papers"]))
        .collect();
    let rows: Vec<(&str, &Cell)> = FIELD_ROWS.iter().map(|(l, f)| (*l, f as &Cell)).collect();
    format!(
        "### Field size, over an emulated link ({:.0} Mbit/s, {:.0} ms round trip, files brotli-compressed)\n\n{}\n",
        LINK.0 * 8.0 / 1e6,
        LINK.1,
        markdown_table("measure", &heads, &rows, fields)
    )
}

/// Bytes as KB (10³ bytes), MB from 10⁶; `–` when not measured.
fn kilobytes(v: &Value) -> String {
    match v.as_f64() {
        Some(b) if b >= 1e6 => megabytes(v),
        Some(b) => format!("{:.0} KB", b / 1e3),
        None => "–".to_string(),
    }
}

/// A typing's keystroke → last mutation, `p50 / p95 ms` (with the max
/// when `max`); `–` for a visit not made.
fn typing_ms(t: &Value, max: bool) -> String {
    let s = &t["to_last_mutation_ms"];
    if s.is_null() {
        return "–".into();
    }
    let ms = |k: &str| s[k].as_f64().map_or("–".into(), |v| format!("{v:.1}"));
    if max {
        format!("{} / {} / {} ms", ms("p50_ms"), ms("p95_ms"), ms("max_ms"))
    } else {
        format!("{} / {} ms", ms("p50_ms"), ms("p95_ms"))
    }
}

/// A typing's bytes a keystroke at p95, and all its bytes.
fn typing_bytes(t: &Value) -> String {
    let b = &t["bytes_a_keystroke"];
    if b.is_null() {
        return "–".into();
    }
    format!("{} ({})", kilobytes(&b["p95"]), kilobytes(&b["total"]))
}

/// How a first typing begins, in a row's label.
fn typing_start(start: &str) -> &'static str {
    match start {
        "at_once" => "at once",
        "from_2_s" => "from 2 s",
        _ => "from 3 s",
    }
}

/// The first typing of each list as a Markdown table (the run's
/// `results.md`): a column per list, rows per visit.
fn first_typing_table(lists: &[Value]) -> String {
    if lists.is_empty() {
        return String::new();
    }
    let heads: Vec<String> = (lists.iter())
        .map(|f| column_head(&f["name"], &f["papers"]))
        .collect();
    let rows: Vec<(String, Box<Cell>)> = (TYPING_STARTS.iter())
        .flat_map(|&(start, _)| first_typing_rows(start))
        .collect();
    let rows: Vec<(&str, &Cell)> = rows.iter().map(|(l, c)| (l.as_str(), &**c)).collect();
    format!(
        "### First typing, a first visit over an emulated link ({:.0} Mbit/s, {:.0} ms round trip, \
         files brotli-compressed)\n\n{}\n\n{}\n",
        LINK.0 * 8.0 / 1e6,
        LINK.1,
        first_typing_words(),
        markdown_table("measure", &heads, &rows, lists)
    )
}

/// A first-typing cell, from its visit.
type VisitCell = fn(&Value) -> String;

/// The first-typing table's rows of the visits typed into from `start`
/// (`HOW` in a label is where it says when).
fn first_typing_rows(start: &'static str) -> Vec<(String, Box<Cell<'static>>)> {
    let rows: [(&str, VisitCell); 7] = [
        (
            "first typing HOW: navigation → the module started / → the first keystroke (the app up)",
            |v| {
                let ms = |x: &Value| x.as_f64().unwrap_or(f64::NAN);
                let began = &v["first_typing"]["began_ms"];
                format!("{:.0} / {:.0}", ms(&v["app_started_ms"]), ms(began))
            },
        ),
        (
            "first typing HOW: bytes on the wire before the first keystroke; requests",
            |v| {
                let bytes = kilobytes(&v["bytes_before_typing"]);
                format!("{bytes}; {}", v["requests_before_typing"])
            },
        ),
        (
            "first typing HOW: keystroke → last DOM mutation, p50 / p95 / max",
            |v| typing_ms(&v["first_typing"], true),
        ),
        (
            "first typing HOW: bytes a keystroke, p95 (all the typing); requests",
            |v| {
                let t = &v["first_typing"];
                format!("{}; {}", typing_bytes(t), t["requests"])
            },
        ),
        (
            "first typing HOW: of those, requested by the keystroke's last mutation, p95 (all)",
            |v| {
                let b = &v["first_typing"]["bytes_by_last_mutation"];
                format!("{} ({})", kilobytes(&b["p95"]), kilobytes(&b["total"]))
            },
        ),
        (
            "first typing HOW: keystrokes that said loading / still loading after 30 s",
            |v| {
                let t = &v["first_typing"];
                format!("{} / {}", t["said_loading"], t["still_loading_at_cap"])
            },
        ),
        (
            "second typing, the page typed into HOW: p50 / p95 / max; bytes",
            |v| {
                let t = &v["second_typing"];
                let bytes = kilobytes(&t["bytes_a_keystroke"]["total"]);
                format!("{}; {bytes}", typing_ms(t, true))
            },
        ),
    ];
    let how = typing_start(start);
    (rows.into_iter())
        .map(|(label, each)| {
            // A cell of this visit's, `–` for a list not visited so.
            let cell: Box<Cell> = Box::new(move |f: &Value| {
                let v = &f["visits"][start];
                if v.is_null() {
                    "–".into()
                } else {
                    each(v)
                }
            });
            (label.replace("HOW", how), cell)
        })
        .collect()
}

/// What the first typing is, in a sentence.
fn first_typing_words() -> String {
    let queries: Vec<String> = FIRST_TYPING.iter().map(|q| format!("`{q}`")).collect();
    format!(
        "The script {} typed letter by letter, the box emptied after each query, into a fresh \
         browser's first visit; each keystroke to its last DOM mutation once the page is quiet \
         ({QUIET_MS} ms) and says nothing is loading; its bytes, the server's from it to the next \
         keystroke. Then the same script typed again on that page.",
        queries.join(", ")
    )
}

/// The first typing of each list for the README: a column per list.
fn first_typing_summary(lists: &[Value], run: &str) -> String {
    if lists.is_empty() {
        return String::new();
    }
    let heads: Vec<String> = (lists.iter())
        .map(|f| column_head(&f["name"], &f["papers"]))
        .collect();
    let visit = |f: &Value, start: &str, typing: &str| f["visits"][start][typing].clone();
    let rows: [(&str, &Cell); 8] = [
        (
            "a visit not typed into for 2 s: bytes on the wire by then",
            &|f| kilobytes(&f["visits"]["from_2_s"]["bytes_before_typing"]),
        ),
        (
            "first typing at once: keystroke → last DOM mutation, p50 / p95",
            &|f| typing_ms(&visit(f, "at_once", "first_typing"), false),
        ),
        (
            "first typing at once: bytes a keystroke, p95 (all the typing)",
            &|f| typing_bytes(&visit(f, "at_once", "first_typing")),
        ),
        (
            "first typing from 2 s: keystroke → last DOM mutation, p50 / p95",
            &|f| typing_ms(&visit(f, "from_2_s", "first_typing"), false),
        ),
        (
            "first typing from 2 s: bytes a keystroke, p95 (all the typing)",
            &|f| typing_bytes(&visit(f, "from_2_s", "first_typing")),
        ),
        (
            "first typing from 3 s: keystroke → last DOM mutation, p50 / p95",
            &|f| typing_ms(&visit(f, "from_3_s", "first_typing"), false),
        ),
        (
            "first typing from 3 s: bytes a keystroke, p95 (all the typing)",
            &|f| typing_bytes(&visit(f, "from_3_s", "first_typing")),
        ),
        (
            "second typing (the page typed into from 2 s), p50 / p95",
            &|f| typing_ms(&visit(f, "from_2_s", "second_typing"), false),
        ),
    ];
    format!(
        "{FIELD_SUMMARY}{:.0} Mbit/s, {:.0} ms link, a first visit ([`{run}`]({run}/results.md)). {}\n\n{}",
        LINK.0 * 8.0 / 1e6,
        LINK.1,
        first_typing_words(),
        markdown_table("", &heads, &rows, lists)
    )
}

/// `bench/runs/<date>-<commit>[-N]/`: a new folder for this run (the
/// commit's short hash, `-dirty` when the work tree has changes).
fn run_dir(top: &Path, only: Option<&str>) -> PathBuf {
    let git = |args: &[&str]| {
        std::process::Command::new("git")
            .args(args)
            .current_dir(top)
            .output()
            .ok()
            .filter(|o| o.status.success())
            .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
    };
    let commit = git(&["rev-parse", "--short=10", "HEAD"]).unwrap_or_else(|| "unknown".into());
    let dirty =
        git(&["status", "--porcelain", "--untracked-files=no"]).is_some_and(|s| !s.is_empty());
    let date = std::process::Command::new("date")
        .arg("-u")
        .arg("+%Y-%m-%d")
        .output()
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
        .unwrap_or_default();
    let mut stem = format!("{date}-{commit}{}", if dirty { "-dirty" } else { "" });
    if let Some(corpus) = only {
        stem += &format!("-{corpus}");
    }
    let runs = top.join("bench/runs");
    (1..)
        .map(|n| {
            runs.join(if n == 1 {
                stem.clone()
            } else {
                format!("{stem}-{n}")
            })
        })
        .find(|d| !d.exists())
        .unwrap()
}

/// One cell of the README's table, from a corpus's report.
type Cell<'a> = dyn Fn(&Value) -> String + 'a;

/// The README's performance table: one column per corpus of the run.
fn summary(reports: &[Value], run: &str) -> String {
    let ms = |v: &Value| v.as_f64().map_or("–".to_string(), |v| format!("{v:.1} ms"));
    let kb = |v: &Value| {
        v.as_u64().map_or("–".to_string(), |b| {
            format!("{:.0} KB", b as f64 / 1024.0)
        })
    };
    let mb = |b: u64| format!("{:.1} MB", b as f64 / 1048576.0);
    let with_plain = |r: &Value, ours: &str, plain: &str, at: &str| {
        format!("{} ({})", ms(&r[ours][at]), ms(&r[plain][at]))
    };
    let md = format!(
        "From [`{run}/results.md`]({run}/results.md), written by `./dev bench`. \
         The plain MiniSearch page's figure in parentheses.\n\n"
    );
    let heads: Vec<String> = (reports.iter())
        .map(|r| column_head(&r["corpus"], &r["papers"]))
        .collect();
    let rows: [(&str, &Cell); 9] = [
        ("navigation → first results, p50", &|r| {
            with_plain(
                r,
                "first_results_ms",
                "plain_page_first_results_ms",
                "p50_ms",
            )
        }),
        ("keystroke → its frame painted, p95", &|r| {
            with_plain(
                r,
                "keystroke_painted_ms",
                "plain_page_keystroke_painted_ms",
                "p95_ms",
            )
        }),
        ("keystroke → DOM updated, p95", &|r| {
            with_plain(r, "keystroke_ms", "plain_page_keystroke_ms", "p95_ms")
        }),
        ("facet click → DOM updated, p95", &|r| {
            ms(&r["facet_click_ms"]["p95_ms"])
        }),
        ("engine alone per typed prefix, p95", &|r| {
            ms(&r["engine_only"]["ours_ms"]["p95_ms"])
        }),
        ("related by meaning per prefix, p95", &|r| {
            ms(&r["engine_only"]["meaning_ms"]["p95_ms"])
        }),
        ("downloaded by the first results (brotli)", &|r| {
            kb(&r["before_first_results"]["brotli"])
        }),
        ("the whole page (brotli, all but the single file)", &|r| {
            let files = r["files"].as_array().map_or(&[][..], Vec::as_slice);
            mb(files
                .iter()
                .filter(|f| f["file"] != "explorer-single-file.html")
                .filter_map(|f| f["brotli"].as_u64())
                .sum())
        }),
        ("WebAssembly memory after typing", &|r| {
            r["memory_after_typing"]["wasm_memory_bytes"]
                .as_u64()
                .map_or("–".into(), mb)
        }),
    ];
    md + &markdown_table("", &heads, &rows, reports)
}

/// `readme` with the text between its bench markers replaced by `table`.
/// How the field-size part of the README's bench section begins.
const FIELD_SUMMARY: &str = "\nOver an emulated ";

/// The README's bench section with only its field-size part replaced (a
/// run of the field-size lists alone: `BENCH_CORPUS=field`).
fn with_field_summary(readme: &str, fields: &str) -> String {
    const BEGIN: &str = "<!-- bench:begin -->\n";
    const END: &str = "<!-- bench:end -->";
    match (readme.find(BEGIN), readme.find(END)) {
        (Some(b), Some(e)) if b < e => {
            let block = &readme[b + BEGIN.len()..e];
            let kept = block.find(FIELD_SUMMARY).map_or(block, |i| &block[..i]);
            with_summary(readme, &format!("{kept}{fields}"))
        }
        _ => with_summary(readme, fields),
    }
}

fn with_summary(readme: &str, table: &str) -> String {
    const BEGIN: &str = "<!-- bench:begin -->\n";
    const END: &str = "<!-- bench:end -->";
    match (readme.find(BEGIN), readme.find(END)) {
        (Some(b), Some(e)) if b < e => {
            format!("{}{BEGIN}{table}{}", &readme[..b], &readme[e..])
        }
        _ => {
            eprintln!("bench: README.md has no bench markers; its table is not updated");
            readme.to_string()
        }
    }
}

/// Whether `BENCH_CORPUS` (`only`) asks for the list `name`.
fn wanted(only: Option<&str>, name: &str) -> bool {
    only.is_none_or(|o| o == name)
}

/// Each corpus measured in the lab (no link): the seed, the real list
/// (`BENCH_REAL_DIR`), the 20,000-paper one; with `quick`, a field-size
/// list named alone.
async fn measure_corpora(top: &Path, only: Option<&str>, quick: bool) -> Vec<Value> {
    let mut reports = Vec::new();
    if wanted(only, "seed") {
        let runs = if quick { 1 } else { 5 };
        reports.push(measure("seed", &dist_dir(), &top.join("corpus"), runs, quick).await);
    }
    // The real list (`./dev bench` gives the ACL Anthology records, read
    // where they lie; never committed).
    let real = top.join("target/dist-real");
    if let Some(dir) = std::env::var_os("BENCH_REAL_DIR").filter(|_| wanted(only, "real")) {
        let runs = if quick { 1 } else { 3 };
        reports.push(measure("real", &real, Path::new(&dir), runs, quick).await);
    }
    let big = top.join("target/dist-20k");
    if wanted(only, "synthetic-20k") && big.join("index.html").is_file() {
        let (dir, runs) = (top.join("target/synthetic-20k"), if quick { 1 } else { 3 });
        reports.push(measure("synthetic-20k", &big, &dir, runs, quick).await);
    } else if wanted(only, "synthetic-20k") {
        eprintln!("bench: no target/dist-20k (./dev bench builds it); seed corpus only");
    }
    // One field-size list's page typed into as the pages above are, for
    // working on its keystrokes (`BENCH_QUICK=1 BENCH_CORPUS=field-100k`).
    for (name, _) in FIELDS {
        let dist = top.join(format!("target/dist-{name}"));
        if quick && only == Some(name) && dist.join("index.html").is_file() {
            let dir = top.join(format!("target/synthetic-{name}"));
            reports.push(measure(name, &dist, &dir, 1, quick).await);
        }
    }
    reports
}

/// Field-size lists (`./dev bench` builds them: target/dist-field-100k,
/// …), each visited over the emulated link, and the real list (one
/// conference's size) the same way.
async fn measure_fields(top: &Path, only: Option<&str>) -> Vec<Value> {
    let mut fields = Vec::new();
    if !wanted(only, "field") {
        return fields;
    }
    for (name, papers) in FIELDS {
        let dist = top.join(format!("target/dist-{name}"));
        if dist.join("index.html").is_file() {
            fields.push(measure_field(name, &dist, papers, FIELD_QUERIES).await);
        }
    }
    let real = top.join("target/dist-real");
    if real.join("index.html").is_file() {
        let papers = papers_in(&real);
        fields.push(measure_field("real", &real, papers, REAL_QUERIES).await);
    }
    fields
}

/// The first typing of each list built ([`measure_first_typing`]): all
/// five, or the one `BENCH_CORPUS` names (`field`: all five, being the
/// lists over the emulated link).
async fn first_typings(top: &Path, only: Option<&str>) -> Vec<Value> {
    let seed = std::env::var_os("EXPLORER_DIST").map_or_else(|| top.join("dist"), PathBuf::from);
    let lists = [
        ("seed", seed),
        ("real", top.join("target/dist-real")),
        ("synthetic-20k", top.join("target/dist-20k")),
        ("field-100k", top.join("target/dist-field-100k")),
        ("field-250k", top.join("target/dist-field-250k")),
    ];
    let mut measured = Vec::new();
    for (name, dist) in lists {
        if (wanted(only, name) || only == Some("field")) && dist.join("index.html").is_file() {
            measured.push(measure_first_typing(name, &dist).await);
        }
    }
    measured
}

/// Writes the run's folder (`results.json`, `results.md`) and, for a
/// whole run or one of the lists over the link (`field`), the README's
/// bench section.
fn write_run(
    top: &Path,
    only: Option<&str>,
    reports: &[Value],
    fields: &[Value],
    first: &[Value],
    opened: &[Value],
) {
    let report = json!({
        "opened_in_the_page": opened,
        "browser": "Debian Chromium, headless, via chromedriver",
        "peer": "MiniSearch 7.2.0 (npm), prefix + fuzzy 0.2, title boost 3, authors 2, AND",
        "corpora": reports,
        "fields": fields,
        "first_typing": first,
    });
    // Each run has a folder of its own, named for the day and the commit
    // measured, never overwritten (a second run of the day on the same
    // commit gets `-2`, …). One corpus alone (`BENCH_CORPUS`) is a run too.
    let md: String = reports.iter().map(table).collect::<String>()
        + &first_typing_table(first)
        + &field_table(fields)
        + &opened::opened_table(opened);
    let run = run_dir(top, only);
    std::fs::create_dir_all(&run).unwrap();
    std::fs::write(
        run.join("results.json"),
        serde_json::to_string_pretty(&report).unwrap() + "\n",
    )
    .unwrap();
    std::fs::write(run.join("results.md"), &md).unwrap();
    // The lists' vocabularies beside the law the synthetic ones follow
    // (written by `./dev bench` before the pages are measured).
    for file in ["vocab-fit.md", "vocab-fit.json"] {
        let made = top.join("target").join(file);
        if made.is_file() {
            std::fs::copy(&made, run.join(file)).unwrap();
        }
    }
    // The README's section is the whole run's summary; a run of the
    // lists over the link alone replaces its part about them.
    let readme = top.join("README.md");
    let text = std::fs::read_to_string(&readme).unwrap();
    let name = run.strip_prefix(top).unwrap().display().to_string();
    let over_the_link = first_typing_summary(first, &name) + &field_summary(fields, &name);
    if only.is_none() {
        let table = summary(reports, &name) + &over_the_link;
        std::fs::write(&readme, with_summary(&text, &table)).unwrap();
    } else if only == Some("field") {
        std::fs::write(&readme, with_field_summary(&text, &over_the_link)).unwrap();
    }
    write_runs_index(top);
    eprintln!("bench: written to {}", run.display());
    println!("{md}");
}

/// `bench/runs/README.md`: one line per run kept (its folder, date,
/// commit, what it measured, headline figures), written anew by every
/// `./dev bench` from the runs' own `results.json`. The runs the documents
/// cite are kept, and the last of each kind; the others live in git
/// history.
fn write_runs_index(top: &Path) {
    let runs = top.join("bench/runs");
    let mut names: Vec<String> = std::fs::read_dir(&runs)
        .map(|dir| {
            dir.filter_map(|e| e.ok())
                .filter(|e| e.path().join("results.json").is_file())
                .map(|e| e.file_name().to_string_lossy().to_string())
                .collect()
        })
        .unwrap_or_default();
    names.sort();
    let mut md = String::from(RUNS_INDEX_HEAD);
    for name in names.iter().rev() {
        let text = std::fs::read_to_string(runs.join(name).join("results.json")).unwrap();
        let Ok(run) = serde_json::from_str::<Value>(&text) else {
            continue;
        };
        md += &run_line(name, &run);
    }
    std::fs::write(runs.join("README.md"), md).unwrap();
}

/// The head of `bench/runs/README.md`.
const RUNS_INDEX_HEAD: &str = "# Bench runs\n\n\
Each folder is one `./dev bench` run (`<date>-<commit>[-dirty][-<lists>]`), \
never overwritten: `results.md` (every table), `results.json` (every figure), \
`vocab-fit.md` for a whole run. This page is written by `./dev bench` from \
them. The runs the documents cite are kept, and the last of each kind; the \
others are in git history.\n\n\
The same code measures differently from run to run on a shared machine: \
the column *spread* gives, for the real list, the keystroke p95 of each of \
the run's page runs alone (a fresh browser each), lowest to highest. Read a \
change against it, and figures as ratios to the peer measured in the same \
run.\n\n\
| run | measured | real list: keystroke p95, ours (MiniSearch) | spread | \
100k: typed at start → answer, bytes | 100k: first typing from 2 s, p95, bytes a keystroke | \
100k: warm keystroke p95 |\n|---|---|---|---|---|---|---|\n";

/// A run's line of `bench/runs/README.md`.
fn run_line(name: &str, run: &Value) -> String {
    let find = |list: &str, key: &str, value: &str| -> Value {
        (run[list].as_array().into_iter().flatten())
            .find(|v| v[key] == value)
            .cloned()
            .unwrap_or(Value::Null)
    };
    let ms = |v: &Value| v.as_f64().map_or("–".into(), |v| format!("{v:.1} ms"));
    let real = find("corpora", "corpus", "real");
    let spread: Vec<f64> = (real["keystroke_p95_per_run_ms"].as_array().into_iter())
        .flatten()
        .filter_map(|r| r[0].as_f64())
        .collect();
    let spread = match spread.iter().copied().reduce(f64::min) {
        Some(low) => format!(
            "{low:.1}–{:.1} ms",
            spread.iter().copied().fold(low, f64::max)
        ),
        None => "–".into(),
    };
    let field = find("fields", "name", "field-100k");
    let cold = &field["cold_typed_at_once"];
    let answered = match (
        cold["answered_ms"].as_f64(),
        cold["bytes_before_answer"].as_f64(),
    ) {
        (Some(t), Some(b)) => format!("{:.1} s, {:.1} MB", t / 1000.0, b / 1e6),
        _ => "–".into(),
    };
    let first = &find("first_typing", "name", "field-100k")["visits"]["from_2_s"]["first_typing"];
    let typing = match first["bytes_a_keystroke"]["p95"].is_null() {
        false => format!(
            "{}, {}",
            ms(&first["to_last_mutation_ms"]["p95_ms"]),
            kilobytes(&first["bytes_a_keystroke"]["p95"])
        ),
        true => "–".into(),
    };
    let lists: Vec<&str> = (run["corpora"].as_array().into_iter().flatten())
        .chain(run["fields"].as_array().into_iter().flatten())
        .filter_map(|c| c["corpus"].as_str().or(c["name"].as_str()))
        .chain(
            (run["opened_in_the_page"].as_array().into_iter().flatten())
                .filter_map(|c| c["list"].as_str())
                .map(|_| "opened in the page"),
        )
        .collect();
    let mut measured: Vec<&str> = Vec::new();
    for l in lists {
        if !measured.contains(&l) {
            measured.push(l);
        }
    }
    format!(
        "| [`{name}`]({name}/results.md) | {} | {} ({}) | {spread} | {answered} | {typing} | {} |\n",
        measured.join(", "),
        ms(&real["keystroke_ms"]["p95_ms"]),
        ms(&real["plain_page_keystroke_ms"]["p95_ms"]),
        ms(&field["warm_keystroke_to_last_mutation"]["p95_ms"]),
    )
}

#[tokio::main]
async fn main() {
    // Every page run starts a new browser: cold starts are what is measured.
    fresh_browsers();
    let top = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..");
    // BENCH_QUICK=1: one page run per corpus, no peer, nothing written; the
    // slowest keystrokes are printed (for working on speed).
    let quick = std::env::var_os("BENCH_QUICK").is_some();
    let only = std::env::var("BENCH_CORPUS").ok();
    let only = only.as_deref();
    // BENCH_INDEX=1: only bench/runs/README.md, written anew from the runs.
    if std::env::var_os("BENCH_INDEX").is_some() {
        write_runs_index(&top);
        return;
    }
    // BENCH_FIRST_TYPING=1: only the first typing, printed.
    if std::env::var_os("BENCH_FIRST_TYPING").is_some() {
        let first = first_typings(&top, only).await;
        println!("{}", serde_json::to_string_pretty(&first).unwrap());
        println!("{}", first_typing_table(&first));
        println!("{}", first_typing_summary(&first, "(this run)"));
        return;
    }
    // BENCH_OPEN=1: only lists opened in the page, a run of its own.
    if std::env::var_os("BENCH_OPEN").is_some() {
        let rows = opened::measure_opened(&top).await;
        write_run(&top, Some("open"), &[], &[], &[], &rows);
        return;
    }
    let reports = measure_corpora(&top, only, quick).await;
    if quick
        || ["BENCH_PAGES", "BENCH_MEANING"]
            .iter()
            .any(|v| std::env::var_os(v).is_some())
    {
        return;
    }
    let fields = measure_fields(&top, only).await;
    let first = first_typings(&top, only).await;
    let opened = if only.is_none() {
        opened::measure_opened(&top).await
    } else {
        Vec::new()
    };
    write_run(&top, only, &reports, &fields, &first, &opened);
}
