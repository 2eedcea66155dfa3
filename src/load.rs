//! Loading the build's files: the papers part first (everything the first
//! results need), then the search index, then the meaning file; each
//! decoded with bounds checks, and each failure a [`LoadError`] naming the
//! file.

use explorer_core::DecodeError;
use explorer_core::Engine;
use explorer_core::PaperPack;
use leptos::prelude::*;
use wasm_bindgen::JsCast;

use crate::{engine, ENGINE};

/// Why a file of the build could not be loaded, naming it.
#[derive(Debug)]
pub enum LoadError {
    /// The page names no such file (`<link data-corpus …>`).
    NotNamed {
        /// The link's attribute that should name it.
        attribute: &'static str,
    },
    /// The request failed (offline, refused).
    Fetch { href: String, reason: String },
    /// The server answered with an error.
    Http { href: String, status: u16 },
    /// The file is not a valid part of this build.
    Decode { href: String, error: DecodeError },
    /// The papers part goes on after its last paper.
    Trailing { href: String },
}

impl std::fmt::Display for LoadError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            LoadError::NotNamed { attribute } => {
                write!(
                    f,
                    "the page names no corpus (<link data-corpus {attribute}>)"
                )
            }
            LoadError::Fetch { href, reason } => write!(f, "{href}: {reason}"),
            LoadError::Http { href, status } => write!(f, "{href}: HTTP {status}"),
            LoadError::Decode { href, error } => write!(f, "{href}: {error}"),
            LoadError::Trailing { href } => write!(f, "{href}: bytes after the papers part"),
        }
    }
}

impl std::error::Error for LoadError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            LoadError::Decode { error, .. } => Some(error),
            _ => None,
        }
    }
}

/// The corpus link in `index.html`: `<link data-corpus href=… data-index=…>`
/// (content-hashed files, or `data:` URLs in the single-file build).
fn corpus_link(attribute: &'static str) -> Result<String, LoadError> {
    document()
        .query_selector("link[data-corpus]")
        .ok()
        .flatten()
        .and_then(|l| l.get_attribute(attribute))
        .ok_or(LoadError::NotNamed { attribute })
}

/// The bytes at `href`, fetched into WebAssembly memory and kept for the
/// page's life: the index and the meaning file are used where they lie.
async fn fetch_kept(href: &str) -> Result<&'static [u8], LoadError> {
    Ok(Box::leak(
        fetch_array(href).await?.to_vec().into_boxed_slice(),
    ))
}

/// Fetches a file of this build, its bytes left in the browser's memory.
async fn fetch_array(href: &str) -> Result<js_sys::Uint8Array, LoadError> {
    read_array(href, window().fetch_with_str(href)).await
}

/// The bytes of a fetch already under way (`request`, of `href`).
async fn read_array(
    href: &str,
    request: impl Into<wasm_bindgen_futures::JsFuture>,
) -> Result<js_sys::Uint8Array, LoadError> {
    whole_body(href, response_of(href, request).await?).await
}

/// The whole body of `response` (from `href`), once it is in.
async fn whole_body(
    href: &str,
    response: web_sys::Response,
) -> Result<js_sys::Uint8Array, LoadError> {
    let buffer = wasm_bindgen_futures::JsFuture::from(
        response
            .array_buffer()
            .map_err(|e| fetch_failed(href, &e))?,
    )
    .await
    .map_err(|e| fetch_failed(href, &e))?;
    Ok(js_sys::Uint8Array::new(&buffer))
}

/// The response to a fetch under way (`request`, of `href`), if it is a
/// success.
async fn response_of(
    href: &str,
    request: impl Into<wasm_bindgen_futures::JsFuture>,
) -> Result<web_sys::Response, LoadError> {
    let response: web_sys::Response = request
        .into()
        .await
        .map_err(|e| fetch_failed(href, &e))?
        .unchecked_into();
    if !response.ok() {
        return Err(LoadError::Http {
            href: href.to_string(),
            status: response.status(),
        });
    }
    Ok(response)
}

/// A failed request or read of `href`, with what the browser said.
fn fetch_failed(href: &str, e: &wasm_bindgen::JsValue) -> LoadError {
    LoadError::Fetch {
        href: href.to_string(),
        reason: js_error(e),
    }
}

/// The body of `response` as it arrives, chunk by chunk, to `take` (the
/// whole body at once where the browser gives no stream).
async fn read_streamed(
    href: &str,
    response: web_sys::Response,
    mut take: impl FnMut(&js_sys::Uint8Array) -> Result<(), LoadError>,
) -> Result<(), LoadError> {
    use wasm_bindgen_futures::JsFuture;
    let Some(stream) = response.body() else {
        return take(&whole_body(href, response).await?);
    };
    let reader: web_sys::ReadableStreamDefaultReader = stream.get_reader().unchecked_into();
    loop {
        let chunk = JsFuture::from(reader.read())
            .await
            .map_err(|e| fetch_failed(href, &e))?;
        let field = |name: &str| js_sys::Reflect::get(&chunk, &name.into()).ok();
        if field("done").and_then(|d| d.as_bool()).unwrap_or(true) {
            return Ok(());
        }
        if let Some(value) = field("value") {
            take(&value.unchecked_into())?;
        }
    }
}

/// Fetches the corpus's papers part (which the page preloads while the
/// WebAssembly compiles) and decodes it: everything the first results
/// need. The index comes after ([`load_index`]).
///
/// The part is decoded as it arrives, each chunk copied into WebAssembly
/// memory a window at a time: its bytes never sit there beside the papers
/// decoded from them (WebAssembly memory never shrinks: at 20,000 papers
/// those 38 MB stayed), nor whole in JavaScript's (at 100,000 papers the
/// part is 188 MB), and a field's papers are decoded while the rest is on
/// the link.
pub async fn load_corpus() -> Result<(), LoadError> {
    const WINDOW: u32 = 256 * 1024;
    let href = corpus_link("href")?;
    let response = response_of(&href, window().fetch_with_str(&href)).await?;
    let fail = |error| LoadError::Decode {
        href: href.clone(),
        error,
    };
    let mut decoder = explorer_core::model::PapersDecoder::default();
    let mut window = Vec::new();
    read_streamed(&href, response, |chunk| {
        let mut at = 0;
        while at < chunk.length() {
            let end = chunk.length().min(at + WINDOW);
            window.resize((end - at) as usize, 0);
            chunk.subarray(at, end).copy_to(&mut window);
            if std::hint::black_box(decode_part as DecodePart)(&mut decoder, &window)
                .map_err(fail)?
                < window.len()
            {
                return Err(LoadError::Trailing { href: href.clone() });
            }
            at = end;
        }
        Ok(())
    })
    .await?;
    std::hint::black_box(open_engine as OpenEngine)(decoder).map_err(fail)?;
    // The titles and bodies of the list's first screen, before the app
    // takes it over from the page's own first results (which have them).
    // Offline, or on a failed request, the app starts without them: its
    // cards say their title and abstract are loading, and ask again when
    // shown.
    // So too the bodies around a paper the link names: its card and its
    // neighbours' are written whole, and do not grow (a long list's
    // authors and chips come with the body) after the page has scrolled to
    // it, pushing it off the screen.
    // As many on either side as a window of cards can hold.
    let screen = explorer_core::view::FIRST_SCREEN as u32;
    let window = crate::cards::WINDOW_AT as u32;
    let linked = crate::explorer::location_fragment().and_then(|id| engine().doc_of(&id));
    let around = linked.map_or(0..0, |d| d.saturating_sub(window)..d + window);
    let first = engine().missing_card_packs((0..screen).chain(around));
    if let Err(e) = fetch_new_paper_packs(&first).await {
        leptos::logging::warn!("{e}");
    }
    // A link with a region of the topic map in it filters by the papers'
    // places: a long list's come before its results (or, failing that,
    // when the map asks for them again).
    let search = leptos::prelude::window()
        .location()
        .search()
        .unwrap_or_default();
    let opening = crate::url_state::ViewState::from_query_string(&search, &engine().corpus);
    if opening.region.is_some() {
        if let Err(e) = fetch_map().await {
            leptos::logging::warn!("{e}");
        }
    }
    // So does a link with a filter: by the papers' tags, which a long list
    // has in a file of their own (else fetched after the first answer).
    let filtered = opening.selection.iter().any(|s| !s.is_empty())
        || !engine().parse_query(&opening.query).filters.is_empty();
    if filtered {
        if let Err(e) = Apart::Tags.fetch().await {
            leptos::logging::warn!("{e}");
        }
    }
    Ok(())
}

type DecodePart = fn(
    &mut explorer_core::model::PapersDecoder,
    &[u8],
) -> Result<usize, explorer_core::DecodeError>;
type OpenEngine = fn(explorer_core::model::PapersDecoder) -> Result<(), explorer_core::DecodeError>;

/// Decodes a window of the papers part (a function of its own in the
/// module, for a trap's stack: see [`start`]).
#[inline(never)]
fn decode_part(
    decoder: &mut explorer_core::model::PapersDecoder,
    part: &[u8],
) -> Result<usize, explorer_core::DecodeError> {
    decoder.push(part)
}

/// The decoded papers, as the page's engine (its index comes later).
#[inline(never)]
fn open_engine(
    decoder: explorer_core::model::PapersDecoder,
) -> Result<(), explorer_core::DecodeError> {
    let corpus = decoder.finish()?;
    let _ = ENGINE.set(Engine::without_index(corpus));
    Ok(())
}

/// Fetches the search index and opens it in the engine. Its automata and
/// postings are used where they lie, in bytes kept for the page's life.
pub async fn load_index() -> Result<(), LoadError> {
    let href = corpus_link("data-index")?;
    let bytes = fetch_kept(&href).await?;
    let fail = |error| LoadError::Decode {
        href: href.clone(),
        error,
    };
    let data = explorer_core::search::IndexData::from_static(bytes).map_err(fail)?;
    engine().open_index(data).map_err(fail)
}

thread_local! {
    /// The packs of postings asked for (in flight or in), so that a pack
    /// is fetched once however many answers name it.
    static ASKED: std::cell::RefCell<std::collections::HashSet<u32>> = Default::default();
}

/// Fetches the packs of postings an answer named
/// ([`explorer_core::Response::missing_packs`]) that are not already on
/// their way, all at once, from beside the index, and adds each to the
/// engine; `done` is told when they are all in, or of the first failure
/// (the packs that failed can be asked for again).
pub fn fetch_packs(packs: &[u32], done: impl FnOnce(Result<(), LoadError>) + 'static) {
    fetch_once(
        &ASKED,
        packs,
        |k| engine().has_pack(k),
        |new| async move { fetch_new_packs(&new).await },
        done,
    );
}

/// Packs asked for: their names, in flight or in.
type Asked<K> = std::thread::LocalKey<std::cell::RefCell<std::collections::HashSet<K>>>;

/// Fetches (`fetch`) those of `packs` neither in (`has`) nor already on
/// their way (in `asked`), then tells `done`; after a failure, the packs
/// that did not come can be asked for again.
fn fetch_once<K, F>(
    asked: &'static Asked<K>,
    packs: &[K],
    has: fn(K) -> bool,
    fetch: impl FnOnce(Vec<K>) -> F + 'static,
    done: impl FnOnce(Result<(), LoadError>) + 'static,
) where
    K: Copy + Eq + std::hash::Hash + 'static,
    F: std::future::Future<Output = Result<(), LoadError>>,
{
    let new: Vec<K> = asked.with_borrow_mut(|asked| {
        packs
            .iter()
            .copied()
            .filter(|&k| !has(k) && asked.insert(k))
            .collect()
    });
    if new.is_empty() {
        return;
    }
    leptos::task::spawn_local(async move {
        let result = fetch(new.clone()).await;
        if result.is_err() {
            asked.with_borrow_mut(|asked| {
                for k in new.iter().filter(|&&k| !has(k)) {
                    asked.remove(k);
                }
            });
        }
        done(result);
    });
}

thread_local! {
    /// The packs of titles and bodies asked for (in flight or in).
    static PAPER_PACKS_ASKED: std::cell::RefCell<std::collections::HashSet<PaperPack>> = Default::default();
    /// The requests for packs of titles and bodies on their way.
    static CARDS_IN_FLIGHT: std::cell::RefCell<InFlight> = Default::default();
}

/// How many requests are on their way, and what waits for none to be
/// ([`when_cards_settled`]).
#[derive(Default)]
struct InFlight {
    requests: usize,
    waiting: Vec<Box<dyn FnOnce()>>,
}

/// Calls `then` once no pack of titles or bodies is on its way (at once if
/// none is): what can wait for the cards on screen to be whole (a long
/// list's tags, for facet counts) does not share the link with them.
pub fn when_cards_settled(then: impl FnOnce() + 'static) {
    let now = CARDS_IN_FLIGHT.with_borrow_mut(|f| {
        if f.requests == 0 {
            return Some(then);
        }
        f.waiting.push(Box::new(then));
        None
    });
    if let Some(then) = now {
        then();
    }
}

/// Fetches the packs of titles and bodies `packs`
/// ([`explorer_core::Engine::missing_card_packs`]) not already on their
/// way, all at once, from beside the papers part, and adds each to the
/// engine; `done` is told once they are all in, or of the first failure
/// (the packs that failed can be asked for again).
pub fn fetch_paper_packs(packs: &[PaperPack], done: impl FnOnce(Result<(), LoadError>) + 'static) {
    fetch_once(
        &PAPER_PACKS_ASKED,
        packs,
        |p| engine().has_paper_pack(p),
        |new| async move { fetch_new_paper_packs(&new).await },
        done,
    );
}

/// Calls `then` once the titles of `docs` are in: at once when they are,
/// else when their packs have come or failed to (offline, what is in is
/// shown, and a title not in says it is loading). `then` is told whether
/// any pack came: what was written with titles loading is written again
/// only then (offline, not again and again). For lists of titles: similar
/// and related papers, a dot of the topic map, a paper opened in a host
/// page, a shared list added to the reader's own.
pub fn when_titles_in(docs: impl IntoIterator<Item = u32>, then: impl FnOnce(bool) + 'static) {
    let missing = engine().missing_title_packs(docs);
    if missing.is_empty() {
        return then(false);
    }
    let asked = missing.clone();
    fetch_paper_packs_then(&asked, move |result| {
        if let Err(e) = result {
            leptos::logging::warn!("{e}");
        }
        then(engine().missing_paper_packs_of(&missing).len() < missing.len());
    });
}

/// Fetches every pack of `packs` not in yet (whether or not another
/// request has it on its way), then tells `done`: what needs them all at
/// once (an export of the results) waits for nothing else.
pub fn fetch_paper_packs_then(
    packs: &[PaperPack],
    done: impl FnOnce(Result<(), LoadError>) + 'static,
) {
    let packs = packs.to_vec();
    leptos::task::spawn_local(async move {
        let missing = engine().missing_paper_packs_of(&packs);
        done(fetch_new_paper_packs(&missing).await);
    });
}

/// The address of a pack of titles or bodies: its file, beside the papers
/// part.
fn paper_pack_href(p: PaperPack) -> Option<String> {
    beside_papers(&engine().paper_pack_file(p)?)
}

/// The address of the file `name` beside the papers part.
fn beside_papers(name: &str) -> Option<String> {
    beside_link("href", name)
}

/// The address of the file `name` in the folder of the file the corpus
/// link's `attribute` names.
fn beside_link(attribute: &'static str, name: &str) -> Option<String> {
    let href = corpus_link(attribute).ok()?;
    let folder = &href[..href.rfind('/').map_or(0, |i| i + 1)];
    Some(format!("{folder}{name}"))
}

/// Fetches the topic map's file, when the list has one and it is not in
/// (a long list's places and keywords: [`explorer_core::Engine::map_file`]).
pub async fn fetch_map() -> Result<(), LoadError> {
    fetch_apart(engine().map_file(), |bytes| engine().add_map_part(bytes)).await
}

/// Fetches a file of the build beside the papers part, when one is named
/// (`file`: its name and size), and gives its bytes to the engine (`add`).
async fn fetch_apart(
    file: Option<(String, usize)>,
    add: impl FnOnce(&[u8]) -> Result<(), DecodeError>,
) -> Result<(), LoadError> {
    let Some(href) = file.and_then(|(name, _)| beside_papers(&name)) else {
        return Ok(());
    };
    let bytes = fetch_array(&href).await?.to_vec();
    add(&bytes).map_err(|error| LoadError::Decode { href, error })
}

/// A file of a long list's build that comes whole, apart from the papers
/// part, when first needed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Apart {
    /// The papers' tags (facet counts and filters).
    Tags,
    /// The papers' places in title order (sorting by title).
    TitleOrder,
}

impl Apart {
    /// Its name and size while it is not in.
    fn file(self) -> Option<(String, usize)> {
        match self {
            Apart::Tags => engine().tag_part_file(),
            Apart::TitleOrder => engine().title_order_file(),
        }
    }

    /// Gives its bytes to the engine.
    fn add(self, bytes: &[u8]) -> Result<(), DecodeError> {
        match self {
            Apart::Tags => engine().add_tag_part(bytes),
            Apart::TitleOrder => engine().add_title_order(bytes),
        }
    }

    /// Fetches it and gives it to the engine (nothing when it is in).
    async fn fetch(self) -> Result<(), LoadError> {
        fetch_apart(self.file(), |bytes| self.add(bytes)).await
    }
}

thread_local! {
    /// The files apart asked for (in flight or in).
    static APART_ASKED: std::cell::RefCell<std::collections::HashSet<Apart>> = Default::default();
}

/// Fetches a file apart, when the list has it and it is neither in nor on
/// its way, and adds it to the engine; `done` is told once it is in, or of
/// a failure (then it can be asked for again).
pub fn fetch_apart_once(which: Apart, done: impl FnOnce(Result<(), LoadError>) + 'static) {
    fetch_once(
        &APART_ASKED,
        &[which],
        |w| w.file().is_none(),
        move |_| which.fetch(),
        done,
    );
}

/// [`fetch_paper_packs`]' requests.
async fn fetch_new_paper_packs(packs: &[PaperPack]) -> Result<(), LoadError> {
    CARDS_IN_FLIGHT.with_borrow_mut(|f| f.requests += 1);
    let result = fetch_all(packs, paper_pack_href, |p, bytes| {
        engine().add_paper_pack(p, &bytes)
    })
    .await;
    let settled = CARDS_IN_FLIGHT.with_borrow_mut(|f| {
        f.requests -= 1;
        if f.requests == 0 {
            std::mem::take(&mut f.waiting)
        } else {
            Vec::new()
        }
    });
    settled.into_iter().for_each(|then| then());
    result
}

/// Fetches the file `href` names for each of `packs` and hands its bytes
/// to `add`: every request started before the first is read, and every
/// one read (offline, a request that failed is not left unhandled beside
/// the first failure, which is the answer).
async fn fetch_all<K: Copy>(
    packs: &[K],
    href: impl Fn(K) -> Option<String>,
    add: impl Fn(K, Vec<u8>) -> Result<(), explorer_core::DecodeError>,
) -> Result<(), LoadError> {
    // Each request is a future from the start: its failure is handled
    // even while an earlier one is awaited (else offline it would be an
    // unhandled rejection).
    let requests: Vec<(K, String, wasm_bindgen_futures::JsFuture)> = packs
        .iter()
        .filter_map(|&k| {
            let href = href(k)?;
            let request = window().fetch_with_str(&href).into();
            Some((k, href, request))
        })
        .collect();
    let mut first_error = None;
    for (k, href, request) in requests {
        let added = match read_array(&href, request).await {
            Ok(bytes) => add(k, bytes.to_vec()).map_err(|error| LoadError::Decode { href, error }),
            Err(e) => Err(e),
        };
        if let Err(e) = added {
            first_error.get_or_insert(e);
        }
    }
    first_error.map_or(Ok(()), Err)
}

/// The index link cut into its folder (with its last `/`) and its file's
/// name, if the page names an index.
fn index_link() -> Option<(String, String)> {
    let mut href = corpus_link("data-index").ok()?;
    let file = href.split_off(href.rfind('/').map_or(0, |i| i + 1));
    Some((href, file))
}

/// The address of pack `k` of the postings: its file, beside the index's.
fn pack_href(k: u32) -> Option<String> {
    beside_link("data-index", &engine().pack_file(k)?)
}

/// [`fetch_packs`]' requests.
async fn fetch_new_packs(packs: &[u32]) -> Result<(), LoadError> {
    fetch_all(packs, pack_href, |k, bytes| {
        engine().add_pack(k, bytes.into())
    })
    .await
}

thread_local! {
    /// The lists of the papers' vectors asked for (in flight or in).
    static VECTORS_ASKED: std::cell::RefCell<std::collections::HashSet<u32>> = Default::default();
}

/// Fetches the lists of a long list's paper vectors that rankings by
/// meaning wanted ([`explorer_core::Engine::take_wanted_vectors`]) and
/// that are not already on their way, all at once, from beside the
/// meaning file, and adds each to the engine; `done` is told when they are
/// all in, or of the first failure (those that failed can be asked for
/// again). Nothing is fetched when nothing was wanted.
pub fn fetch_wanted_vectors(done: impl FnOnce(Result<(), LoadError>) + 'static) {
    fetch_once(
        &VECTORS_ASKED,
        &engine().take_wanted_vectors(),
        |l| engine().has_vectors(l),
        |new| async move {
            fetch_all(&new, vectors_href, |l, bytes| {
                engine().add_vectors(l, bytes.into())
            })
            .await
        },
        done,
    );
}

/// The address of the file `name` beside the meaning file.
fn beside_meaning(name: &str) -> Option<String> {
    beside_link("data-meaning", name)
}

/// The address of list `l` of the papers' vectors.
fn vectors_href(l: u32) -> Option<String> {
    beside_meaning(&engine().vectors_file(l)?)
}

/// The index file's name (it changes with every build that changes the
/// list), if the page names one.
pub fn index_file() -> Option<String> {
    index_link().map(|(_, file)| file)
}

/// What saving for offline use would fetch: the packs of postings, titles
/// and bodies not in (uncompressed sizes), the topic map's, the tags' and
/// the title order's files, the lists of the papers' vectors not in, and
/// the meaning file unless it is open (its size then counts its lists:
/// [`save_for_offline`] fetches those it names after it).
fn offline_files() -> Vec<(String, usize)> {
    let mut files: Vec<(String, usize)> = engine()
        .packs_not_in()
        .into_iter()
        .filter_map(|(k, size)| Some((pack_href(k)?, size)))
        .collect();
    files.extend(
        engine()
            .paper_packs_not_in()
            .into_iter()
            .filter_map(|(p, size)| Some((paper_pack_href(p)?, size))),
    );
    for (name, size) in engine()
        .map_file()
        .into_iter()
        .chain(engine().tag_part_file())
        .chain(engine().title_order_file())
    {
        files.extend(beside_papers(&name).map(|href| (href, size)));
    }
    files.extend(
        engine()
            .vectors_not_in()
            .into_iter()
            .filter_map(|(l, size)| Some((vectors_href(l)?, size))),
    );
    if !engine().has_meaning() {
        if let (Ok(href), Ok(size)) = (
            corpus_link("data-meaning"),
            corpus_link("data-meaning-bytes"),
        ) {
            files.push((href, size.parse().unwrap_or(0)));
        }
    }
    files
}

/// The bytes saving for offline use would fetch, at most (uncompressed).
pub fn offline_bytes() -> usize {
    offline_files().iter().map(|(_, size)| size).sum()
}

/// Fetches every file [`offline_bytes`] counts, eight at a time, only for
/// the service worker to keep (the page does not open them: the postings
/// of a whole field would fill its memory); `progress` is told the percent
/// of the bytes in, `done` the end.
pub fn save_for_offline(
    progress: impl Fn(u32) + 'static,
    done: impl FnOnce(Result<(), LoadError>) + 'static,
) {
    let mut files = offline_files();
    let total = files.iter().map(|(_, size)| size).sum::<usize>().max(1);
    // The meaning file, when not open, counts its lists' bytes: they are
    // fetched after it, from the names it gives.
    let meaning = (!engine().has_meaning())
        .then(|| corpus_link("data-meaning").ok())
        .flatten();
    let mut lists = Vec::new();
    leptos::task::spawn_local(async move {
        let mut got = 0;
        while !files.is_empty() {
            let wave: Vec<(String, usize)> = files.drain(..files.len().min(8)).collect();
            let requests: Vec<_> = wave
                .iter()
                .map(|(href, size)| (href, *size, window().fetch_with_str(href)))
                .collect();
            for (href, size, request) in requests {
                let bytes = match read_array(href, request).await {
                    Ok(bytes) => bytes,
                    Err(e) => return done(Err(e)),
                };
                if meaning.as_ref() == Some(href) {
                    let named = explorer_core::search::Meaning::list_files_named(&bytes.to_vec());
                    lists = named.unwrap_or_default();
                    got += bytes.length() as usize;
                } else {
                    got += size;
                }
                progress((got * 100 / total).min(100) as u32);
            }
            if files.is_empty() {
                let named = std::mem::take(&mut lists).into_iter();
                files.extend(named.filter_map(|(name, size)| Some((beside_meaning(&name)?, size))));
            }
        }
        done(Ok(()));
    });
}

/// Fetches the meaning file, if the page names one (the single-file build
/// does not carry it), and attaches it: false when there is none. Its
/// arrays are used where they lie, in bytes kept for the page's life.
pub async fn load_meaning() -> Result<bool, LoadError> {
    let Ok(href) = corpus_link("data-meaning") else {
        return Ok(false);
    };
    let bytes = fetch_kept(&href).await?;
    let fail = |error| LoadError::Decode {
        href: href.clone(),
        error,
    };
    let meaning = explorer_core::search::Meaning::from_static(bytes).map_err(fail)?;
    engine().open_meaning(meaning).map_err(fail)?;
    Ok(true)
}

/// A thrown JavaScript value as text.
fn js_error(e: &wasm_bindgen::JsValue) -> String {
    e.dyn_ref::<js_sys::Error>()
        .map(|e| String::from(e.message()))
        .or_else(|| e.as_string())
        .unwrap_or_else(|| "the request failed".into())
}
