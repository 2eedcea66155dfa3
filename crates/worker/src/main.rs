//! The corpus compiler in a Web Worker: a list opened in the page (a file,
//! or `?list=URL`) compiled by the same code as the CLI's into the same
//! files, stored in the browser's Cache Storage, off the page's thread so
//! that the list in view stays usable. Fetched only when a list is opened.
//! It also publishes a kept list: the site the CLI builds for it, as one
//! zip ([`publish`]). Messages: [`explorer_core::model::opened`].

mod publish;

use explorer_core::build::{
    compile_file, site, Options, PageParts, RecordFormat, Source, SourceError, StaticModel,
};
use explorer_core::model::opened::{
    CompilerReply, KeptList, OpenError, OpenRequest, OpenStage, MAX_OPEN_BYTES, MOST_SAID,
    PAGE_PARTS_FILE,
};
use explorer_core::search::LISTS_FROM;
use explorer_core::view::listing;
use js_sys::{Promise, Uint8Array};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;
use web_sys::{DedicatedWorkerGlobalScope, MessageEvent};

fn main() {
    console_error_panic_hook::set_once();
    let on_message = Closure::<dyn FnMut(MessageEvent)>::new(|e: MessageEvent| {
        wasm_bindgen_futures::spawn_local(answer(e.data()));
    });
    scope().set_onmessage(Some(on_message.as_ref().unchecked_ref()));
    on_message.forget();
}

pub(crate) fn scope() -> DedicatedWorkerGlobalScope {
    js_sys::global().unchecked_into()
}

fn reply(reply: &CompilerReply) {
    if let Ok(v) = serde_wasm_bindgen::to_value(reply) {
        let _ = scope().post_message(&v);
    }
}

fn stage(stage: OpenStage) {
    reply(&CompilerReply::Stage { stage });
}

/// Compiles the list a message asks for, and says how it went: the last
/// reply, when done, with the list's files (`[name, bytes]` pairs, their
/// buffers transferred to the page, not copied), which the page stores.
async fn answer(data: JsValue) {
    let message = js_sys::Array::from(&data);
    let request: Result<OpenRequest, _> = serde_wasm_bindgen::from_value(message.get(0));
    let Ok(request) = request else {
        return;
    };
    if let Some(id) = &request.publish {
        match publish::publish(id, &request.name).await {
            Ok((name, zip)) => hand_over(
                &CompilerReply::Published { name: name.clone() },
                vec![(name, zip)],
            ),
            Err(error) => reply(&CompilerReply::Failed { error }),
        }
        scope().close();
        return;
    }
    match open(&request, message.get(1)).await {
        Ok((list, files)) => {
            let memory_bytes = memory_bytes();
            hand_over(
                &CompilerReply::Done {
                    list: Box::new(list),
                    memory_bytes,
                },
                files,
            )
        }
        Err(error) => reply(&CompilerReply::Failed { error }),
    }
    scope().close();
}

/// The bytes of this worker's WebAssembly memory, all it has held at once
/// (a WebAssembly memory grows, never shrinks).
fn memory_bytes() -> u64 {
    let memory: js_sys::WebAssembly::Memory = wasm_bindgen::memory().unchecked_into();
    let buffer: js_sys::ArrayBuffer = memory.buffer().unchecked_into();
    u64::from(buffer.byte_length())
}

/// Posts the last reply with the files, their buffers moved to the page.
fn hand_over(last: &CompilerReply, files: Vec<(String, Vec<u8>)>) {
    let Ok(last) = serde_wasm_bindgen::to_value(last) else {
        return;
    };
    let (pairs, buffers) = (js_sys::Array::new(), js_sys::Array::new());
    for (name, bytes) in files {
        let body = Uint8Array::from(&bytes[..]);
        buffers.push(&body.buffer());
        pairs.push(&js_sys::Array::of2(&name.into(), &body));
    }
    let message = js_sys::Array::of2(&last, &pairs);
    let _ = scope().post_message_with_transfer(&message, &buffers);
}

async fn open(
    request: &OpenRequest,
    file: JsValue,
) -> Result<(KeptList, Vec<(String, Vec<u8>)>), OpenError> {
    let known = |name: &str| RecordFormat::of(std::path::Path::new(name)).is_some();
    if request.url.is_none() && !known(&request.name) {
        return Err(OpenError::Format {
            name: request.name.clone(),
        });
    }
    stage(OpenStage::Reading);
    let bytes = read(request, file).await?;
    stage(OpenStage::Compiling);
    // An address need not end in its format's extension (a gist's raw
    // text): its first characters tell.
    let mut name = request.name.clone();
    if !known(&name) {
        name.push_str(sniffed_extension(&bytes));
    }
    let source = Source { file: name, bytes };
    let id = format!("{:016x}", explorer_core::model::content_hash(&source.bytes));
    let compiled = compile_file(&source, Options::default()).map_err(source_error)?;
    drop(source);
    stage(OpenStage::Packing);
    let (skipped, without_abstract) = (compiled.skipped(), compiled.without_abstract());
    let corpus = compiled.corpus;
    let built = site(&corpus, &StaticModel::committed(), LISTS_FROM);
    let list = KeptList {
        id,
        name: corpus.title(),
        file: request.name.clone(),
        url: request.url.clone(),
        papers: corpus.papers.len() as u32,
        skipped: skipped as u32,
        records: compiled.records as u32,
        without_abstract: without_abstract as u32,
        said: (compiled.warnings.iter().take(MOST_SAID))
            .map(ToString::to_string)
            .collect(),
        bytes: built.files.iter().map(|(_, b)| b.len() as u64).sum(),
        date: js_sys::Date::now(),
        papers_file: built.link.papers.clone(),
        index_file: built.link.index.clone(),
        meaning_file: built.link.meaning.clone(),
        meaning_bytes: built.link.meaning_bytes as u64,
    };
    // Kept to publish the list later: what its page shows before the app
    // starts and its manifest's name, and its no-JavaScript listing.
    let parts = PageParts::of(&corpus, &built.link, None);
    let mut files = built.files;
    let parts = serde_json::to_vec(&parts).expect("the page's parts serialize");
    files.push((PAGE_PARTS_FILE.to_string(), parts));
    files.extend(
        listing(&corpus)
            .into_iter()
            .map(|(n, html)| (n, html.into_bytes())),
    );
    drop(corpus);
    Ok((list, files))
}

/// The extension of the format a list's text begins as: BibTeX (`@`),
/// RIS (`TY  -`), a JSON array, JSON Lines (`{`); else plain abstracts.
fn sniffed_extension(bytes: &[u8]) -> &'static str {
    let text = String::from_utf8_lossy(&bytes[..bytes.len().min(256)]);
    let start = text.trim_start_matches('\u{feff}').trim_start();
    match start.chars().next() {
        Some('@') => ".bib",
        Some('[') => ".json",
        Some('{') => ".jsonl",
        _ if start.starts_with("TY  -") => ".ris",
        _ => ".txt",
    }
}

fn source_error(e: SourceError) -> OpenError {
    OpenError::Source {
        message: e.to_string(),
    }
}

/// The list's bytes: the file sent with the request, or the URL's body.
async fn read(request: &OpenRequest, file: JsValue) -> Result<Vec<u8>, OpenError> {
    let (promise, url) = match &request.url {
        Some(url) => (fetched(url).await?, url.clone()),
        None => {
            let file: web_sys::Blob = file.unchecked_into();
            too_large(file.size() as u64)?;
            (file.array_buffer(), request.name.clone())
        }
    };
    let buffer = JsFuture::from(promise)
        .await
        .map_err(|_| OpenError::Fetch { url })?;
    let bytes = Uint8Array::new(&buffer);
    too_large(u64::from(bytes.length()))?;
    Ok(bytes.to_vec())
}

fn too_large(bytes: u64) -> Result<(), OpenError> {
    if bytes > MAX_OPEN_BYTES {
        return Err(OpenError::TooLarge {
            bytes,
            limit: MAX_OPEN_BYTES,
        });
    }
    Ok(())
}

/// The body of `url`, as a promise of its bytes, once it answered well
/// (and within [`MAX_OPEN_BYTES`], when it says its length).
pub(crate) async fn fetched(url: &str) -> Result<Promise, OpenError> {
    let failed = || OpenError::Fetch {
        url: url.to_string(),
    };
    let response: web_sys::Response = JsFuture::from(scope().fetch_with_str(url))
        .await
        .map_err(|_| failed())?
        .unchecked_into();
    if !response.ok() {
        return Err(OpenError::Http {
            url: url.to_string(),
            status: response.status(),
        });
    }
    if let Ok(Some(length)) = response.headers().get("content-length") {
        too_large(length.parse().unwrap_or(0))?;
    }
    response.array_buffer().map_err(|_| failed())
}
