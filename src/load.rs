//! Loading the build's files: the papers part first (everything the first
//! results need), then the search index, then the meaning file; each
//! decoded with bounds checks, and each failure a [`LoadError`] naming the
//! file.

use explorer_core::DecodeError;
use explorer_core::Engine;
use explorer_core::PaperPack;
use leptos::prelude::*;
use std::cell::RefCell;
use std::rc::Rc;
use wasm_bindgen::JsCast;

/// The engine over the corpus, once [`load_corpus`] has decoded it.
static ENGINE: std::sync::OnceLock<Engine> = std::sync::OnceLock::new();

/// The engine over the corpus, once [`load_corpus`] has fetched it (the app
/// is mounted only then).
pub fn engine() -> &'static Engine {
    ENGINE
        .get()
        .expect("the app is mounted after the corpus is loaded")
}

/// The engine, if the corpus is in.
pub fn engine_if_in() -> Option<&'static Engine> {
    ENGINE.get()
}

/// Why a file of the build could not be loaded, naming it.
#[derive(Debug, Clone)]
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
async fn fetch_kept(href: &str, priority: Priority) -> Result<&'static [u8], LoadError> {
    let bytes = fetch_array(href, priority).await?;
    Ok(Box::leak(bytes.to_vec().into_boxed_slice()))
}

/// Fetches a file of this build, its bytes left in the browser's memory,
/// counted as a reader's request when it is one.
async fn fetch_array(href: &str, priority: Priority) -> Result<js_sys::Uint8Array, LoadError> {
    counted_as(priority, read_array(href, request(href, priority))).await
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

/// What the link that opened the page shows first, beyond the list's
/// first screen, worked out (by [`load_corpus`]'s caller) once the papers
/// are decoded: its parts come before the app takes over.
#[derive(Debug, Default)]
pub struct Opening {
    /// The papers around one the link names, whose bodies come before the
    /// page scrolls to it: its card and its neighbours' are written whole,
    /// and do not grow (a long list's authors and chips come with the
    /// body) after the page has scrolled to it, pushing it off the screen.
    pub around: std::ops::Range<u32>,
    /// Whether the link has a region of the topic map: it filters by the
    /// papers' places, so a long list's come before its results (or,
    /// failing that, when the map asks for them again).
    pub map: bool,
    /// Whether the link has a filter: by the papers' tags, which a long
    /// list has in a file of their own (else fetched after the first
    /// answer).
    pub tags: bool,
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
pub async fn load_corpus(opening: impl FnOnce() -> Opening) -> Result<(), LoadError> {
    const WINDOW: u32 = 256 * 1024;
    let href = corpus_link("href")?;
    let response = response_of(&href, request(&href, Priority::Now)).await?;
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
    // So too what the link that opened the page shows first
    // ([`Opening`]).
    let screen = explorer_core::view::FIRST_SCREEN as u32;
    let opening = opening();
    let first = engine().missing_card_packs((0..screen).chain(opening.around));
    if let Err(e) = first_error(fetch_new_paper_packs(&first, Priority::Now).await) {
        leptos::logging::warn!("{e}");
    }
    if opening.map {
        if let Err(e) = fetch_map().await {
            leptos::logging::warn!("{e}");
        }
    }
    if opening.tags {
        if let Err(e) = Apart::Tags.fetch(Priority::Now).await {
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
    let bytes = fetch_kept(&href, Priority::Now).await?;
    let fail = |error| LoadError::Decode {
        href: href.clone(),
        error,
    };
    let data = explorer_core::search::IndexData::from_static(bytes).map_err(fail)?;
    engine().open_index(data).map_err(fail)
}

thread_local! {
    /// The packs of postings on their way, each with who waits for it.
    static ASKED: OnTheirWay<u32> = Default::default();
}

/// Fetches the packs of postings an answer named
/// ([`explorer_core::Response::missing_packs`]) that are not in, all at
/// once, from beside the index, and adds each to the engine; `done` is
/// told when they are all in, or of the first failure (the packs that
/// failed can be asked for again). A pack already on its way is not asked
/// for twice: `done` waits for it too.
pub fn fetch_packs(
    packs: &[u32],
    priority: Priority,
    done: impl FnOnce(Result<(), LoadError>) + 'static,
) -> bool {
    fetch_once(
        &ASKED,
        packs,
        |k| engine().has_pack(k),
        move |new| async move { fetch_new_packs(&new, priority).await },
        done,
    )
}

/// Who waits for packs on their way: told once the last of them came or
/// failed to.
struct Waiter {
    left: usize,
    error: Option<LoadError>,
    done: Option<Done>,
}

/// What a fetch tells once it is done: in, or why not.
pub type Done = Box<dyn FnOnce(Result<(), LoadError>)>;

/// Packs on their way, each with who waits for it.
type OnTheirWay<K> = RefCell<std::collections::HashMap<K, Vec<Rc<RefCell<Waiter>>>>>;

/// Packs asked for, per kind of pack.
type Asked<K> = std::thread::LocalKey<OnTheirWay<K>>;

/// Whether a request is for what a reader waits on, or made ahead of need
/// ([`crate::background`]): then the browser is asked for the lowest
/// priority, and it is counted apart, so that the background can wait for
/// no answer to be on its way.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Priority {
    /// Something shown waits for it.
    Now,
    /// Nothing waits for it yet.
    Ahead,
}

/// Fetches (`fetch`, which tells how each pack fared) those of `packs`
/// not in (`has`) and not already on their way (in `asked`), then tells
/// `done`, once every one of `packs` not in has come or failed (whoever
/// asked for it first). Nothing is told when all are in: the answer is
/// whether `done` will be. After a failure, the packs that did not come
/// can be asked for again.
fn fetch_once<K, F>(
    asked: &'static Asked<K>,
    packs: &[K],
    has: fn(K) -> bool,
    fetch: impl FnOnce(Vec<K>) -> F + 'static,
    done: impl FnOnce(Result<(), LoadError>) + 'static,
) -> bool
where
    K: Copy + Eq + std::hash::Hash + 'static,
    F: std::future::Future<Output = Fared<K>>,
{
    let mut seen = std::collections::HashSet::new();
    let wanted: Vec<K> = packs
        .iter()
        .copied()
        .filter(|&k| !has(k) && seen.insert(k))
        .collect();
    if wanted.is_empty() {
        return false;
    }
    let waiter = Rc::new(RefCell::new(Waiter {
        left: wanted.len(),
        error: None,
        done: Some(Box::new(done)),
    }));
    let new: Vec<K> = asked.with_borrow_mut(|asked| {
        wanted
            .into_iter()
            .filter(|&k| {
                let waiting = asked.entry(k).or_default();
                waiting.push(waiter.clone());
                waiting.len() == 1
            })
            .collect()
    });
    if !new.is_empty() {
        leptos::task::spawn_local(async move {
            let fared = fetch(new.clone()).await;
            for &k in new.iter().filter(|k| !fared.iter().any(|(f, _)| f == *k)) {
                // No file names it: nothing to wait for.
                settle(asked, k, Ok(()));
            }
            for (k, result) in fared {
                settle(asked, k, result);
            }
        });
    }
    true
}

/// Pack `k` came (or failed to): each waiter for it that waited for it
/// last is told.
fn settle<K: Copy + Eq + std::hash::Hash>(
    asked: &'static Asked<K>,
    k: K,
    result: Result<(), LoadError>,
) {
    let waiting = asked.with_borrow_mut(|asked| asked.remove(&k).unwrap_or_default());
    for waiter in waiting {
        let done = {
            let mut w = waiter.borrow_mut();
            w.left -= 1;
            if let Err(e) = &result {
                w.error.get_or_insert_with(|| e.clone());
            }
            if w.left > 0 {
                continue;
            }
            let error = w.error.take();
            w.done.take().map(|done| (done, error))
        };
        if let Some((done, error)) = done {
            done(error.map_or(Ok(()), Err));
        }
    }
}

thread_local! {
    /// The packs of titles and bodies on their way.
    static PAPER_PACKS_ASKED: OnTheirWay<PaperPack> = Default::default();
    /// The requests for packs of titles and bodies on their way.
    static CARDS_IN_FLIGHT: RefCell<Requests> = Default::default();
    /// The requests for what a reader waits on (an answer's packs, a
    /// card's, a file apart) on their way: the background waits for none
    /// to be ([`Priority`]).
    static NOW_IN_FLIGHT: RefCell<Requests> = Default::default();
}

/// How many requests are on their way, and what waits for none to be
/// ([`when_cards_settled`]).
#[derive(Default)]
struct Requests {
    requests: usize,
    waiting: Vec<Box<dyn FnOnce()>>,
}

/// Calls `then` once no pack of titles or bodies is on its way (at once if
/// none is): what can wait for the cards on screen to be whole (a long
/// list's tags, for facet counts) does not share the link with them.
pub fn when_cards_settled(then: impl FnOnce() + 'static) {
    when_settled(&CARDS_IN_FLIGHT, then);
}

/// Calls `then` once none of `requests` is on its way (at once if none
/// is).
fn when_settled(
    requests: &'static std::thread::LocalKey<RefCell<Requests>>,
    then: impl FnOnce() + 'static,
) {
    let now = requests.with_borrow_mut(|f| {
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

/// Counts a request of `requests` on its way while `request` runs, and
/// calls what waited for none to be once it is the last.
async fn counted<T>(
    requests: &'static std::thread::LocalKey<RefCell<Requests>>,
    request: impl std::future::Future<Output = T>,
) -> T {
    requests.with_borrow_mut(|f| f.requests += 1);
    let out = request.await;
    let settled = requests.with_borrow_mut(|f| {
        f.requests -= 1;
        if f.requests == 0 {
            std::mem::take(&mut f.waiting)
        } else {
            Vec::new()
        }
    });
    settled.into_iter().for_each(|then| then());
    out
}

/// Fetches the packs of titles and bodies `packs`
/// ([`explorer_core::Engine::missing_card_packs`]) not already on their
/// way, all at once, from beside the papers part, and adds each to the
/// engine; `done` is told once they are all in, or of the first failure
/// (the packs that failed can be asked for again).
pub fn fetch_paper_packs(
    packs: &[PaperPack],
    priority: Priority,
    done: impl FnOnce(Result<(), LoadError>) + 'static,
) -> bool {
    fetch_once(
        &PAPER_PACKS_ASKED,
        packs,
        |p| engine().has_paper_pack(p),
        move |new| async move { fetch_new_paper_packs(&new, priority).await },
        done,
    )
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
        done(first_error(
            fetch_new_paper_packs(&missing, Priority::Now).await,
        ));
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
    fetch_apart(engine().map_file(), Priority::Now, |bytes| {
        engine().add_map_part(bytes)
    })
    .await
}

/// Fetches a file of the build beside the papers part, when one is named
/// (`file`: its name and size), and gives its bytes to the engine (`add`).
async fn fetch_apart(
    file: Option<(String, usize)>,
    priority: Priority,
    add: impl FnOnce(&[u8]) -> Result<(), DecodeError>,
) -> Result<(), LoadError> {
    let Some(href) = file.and_then(|(name, _)| beside_papers(&name)) else {
        return Ok(());
    };
    let bytes = fetch_array(&href, priority).await?;
    add(&bytes.to_vec()).map_err(|error| LoadError::Decode { href, error })
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
    async fn fetch(self, priority: Priority) -> Result<(), LoadError> {
        fetch_apart(self.file(), priority, |bytes| self.add(bytes)).await
    }
}

thread_local! {
    /// The files apart on their way.
    static APART_ASKED: OnTheirWay<Apart> = Default::default();
}

/// Fetches a file apart, when the list has it and it is neither in nor on
/// its way, and adds it to the engine; `done` is told once it is in, or of
/// a failure (then it can be asked for again).
pub fn fetch_apart_once(
    which: Apart,
    priority: Priority,
    done: impl FnOnce(Result<(), LoadError>) + 'static,
) -> bool {
    fetch_once(
        &APART_ASKED,
        &[which],
        |w| w.file().is_none(),
        move |_| async move { vec![(which, which.fetch(priority).await)] },
        done,
    )
}

/// [`fetch_paper_packs`]' requests, and how each fared.
/// Only the cards' own requests are counted as the cards' (what waits for
/// them to settle, a long list's tags, would otherwise wait for the whole
/// list the background fetches).
async fn fetch_new_paper_packs(packs: &[PaperPack], priority: Priority) -> Fared<PaperPack> {
    let fetch = fetch_all(packs, priority, paper_pack_href, |p, bytes| {
        engine().add_paper_pack(p, &bytes)
    });
    match priority {
        Priority::Now => counted(&CARDS_IN_FLIGHT, fetch).await,
        Priority::Ahead => fetch.await,
    }
}

/// How each pack of a round of requests fared.
type Fared<K> = Vec<(K, Result<(), LoadError>)>;

/// The first failure of a round of requests, if any.
fn first_error<K>(fared: Fared<K>) -> Result<(), LoadError> {
    fared.into_iter().try_for_each(|(_, r)| r)
}

/// Fetches the file `href` names for each of `packs` and hands its bytes
/// to `add`; tells how each fared. Every request started is read (offline,
/// a request that failed is not left unhandled beside the first failure).
/// Requests made in the background ([`background`]) ask the browser for
/// the lowest priority.
async fn fetch_all<K: Copy>(
    packs: &[K],
    priority: Priority,
    href: impl Fn(K) -> Option<String>,
    add: impl Fn(K, Vec<u8>) -> Result<(), explorer_core::DecodeError>,
) -> Fared<K> {
    // Each request is a future from the start: its failure is handled
    // even while an earlier one is awaited (else offline it would be an
    // unhandled rejection).
    let requests: Vec<(K, String, wasm_bindgen_futures::JsFuture)> = packs
        .iter()
        .filter_map(|&k| {
            let href = href(k)?;
            let request = request(&href, priority).into();
            Some((k, href, request))
        })
        .collect();
    counted_as(priority, async move {
        let mut fared = Vec::with_capacity(requests.len());
        for (k, href, request) in requests {
            let added = match read_array(&href, request).await {
                Ok(bytes) => {
                    add(k, bytes.to_vec()).map_err(|error| LoadError::Decode { href, error })
                }
                Err(e) => Err(e),
            };
            fared.push((k, added));
        }
        fared
    })
    .await
}

/// A request for `href`: at the lowest priority when made ahead of need
/// (browsers without fetch priorities ignore it).
fn request(href: &str, priority: Priority) -> js_sys::Promise {
    if explorer_core::model::opened::is_kept_href(href) {
        return kept(href);
    }
    if priority == Priority::Now {
        return window().fetch_with_str(href);
    }
    let init = web_sys::RequestInit::new();
    let _ = js_sys::Reflect::set(&init, &"priority".into(), &"low".into());
    window().fetch_with_str_and_init(href, &init)
}

/// The response kept for `href` (a file of a list opened in the page,
/// kept in this browser's Cache Storage, not on the server), as a fetch's
/// would be; a failed one when it is not kept (storage cleared).
fn kept(href: &str) -> js_sys::Promise {
    let href = href.to_string();
    wasm_bindgen_futures::future_to_promise(async move {
        let caches = window().caches()?;
        let hit = wasm_bindgen_futures::JsFuture::from(caches.match_with_str(&href)).await?;
        if hit.is_undefined() {
            let said = format!("{href} is no longer kept in this browser");
            return Err(js_sys::Error::new(&said).into());
        }
        Ok(hit)
    })
}

/// `request`, counted among the requests a reader waits on when it is one
/// ([`Priority::Now`]).
async fn counted_as<T>(priority: Priority, request: impl std::future::Future<Output = T>) -> T {
    match priority {
        Priority::Now => counted(&NOW_IN_FLIGHT, request).await,
        Priority::Ahead => request.await,
    }
}

/// Calls `then` once no request a reader waits on is on its way (at once
/// if none is): what the background fetches never goes ahead of an
/// answer.
pub fn when_answers_settled(then: impl FnOnce() + 'static) {
    when_settled(&NOW_IN_FLIGHT, then);
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

/// [`fetch_packs`]' requests, and how each fared.
async fn fetch_new_packs(packs: &[u32], priority: Priority) -> Fared<u32> {
    fetch_all(packs, priority, pack_href, |k, bytes| {
        engine().add_pack(k, bytes.into())
    })
    .await
}

thread_local! {
    /// The lists of the papers' vectors on their way.
    static VECTORS_ASKED: OnTheirWay<u32> = Default::default();
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
            fetch_all(&new, Priority::Now, vectors_href, |l, bytes| {
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
    let meaning = meaning_bytes_not_in();
    if let (Ok(href), 1..) = (corpus_link("data-meaning"), meaning) {
        files.push((href, meaning));
    }
    files
}

/// The meaning file's size with its lists' (uncompressed), while it is
/// not open (0 when it is, or when the page names none).
pub fn meaning_bytes_not_in() -> usize {
    if engine().has_meaning() {
        return 0;
    }
    corpus_link("data-meaning-bytes")
        .ok()
        .and_then(|size| size.parse().ok())
        .unwrap_or(0)
}

/// The most the build lets the page fetch ahead of need, uncompressed
/// (`data-ahead-bytes`, from `CORPUS_AHEAD_BYTES`), when it says.
pub fn ahead_bytes() -> Option<usize> {
    corpus_link("data-ahead-bytes").ok()?.parse().ok()
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
pub async fn load_meaning(priority: Priority) -> Result<bool, LoadError> {
    let Ok(href) = corpus_link("data-meaning") else {
        return Ok(false);
    };
    let bytes = fetch_kept(&href, priority).await?;
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
