//! The page's compiler, in a Web Worker: a list compiled (one at a time,
//! cancelled by the next) and kept, or a kept list's site made (as many
//! as asked for). All but starting and cancelling runs in the `open_list`
//! chunk ([`crate::chunks`]), fetched the first time a list is opened.

use explorer_core::model::opened::{CompilerReply, OpenError, OpenRequest, OpenStage};
use leptos::prelude::*;
use std::cell::RefCell;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

use super::compiler_href;
use super::kept::{kept_with, sweep, sweep_in_chunk};
use crate::said;

/// A compile under way: its worker, and the closures that hear it.
struct Running {
    worker: web_sys::Worker,
    _heard: Closure<dyn FnMut(web_sys::MessageEvent)>,
    _failed: Closure<dyn FnMut(web_sys::ErrorEvent)>,
}

/// A worker's job: the compile (one at a time), or the making of a kept
/// list's site (as many as asked for, each numbered).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Job {
    Compile,
    Publish(u32),
}

thread_local! {
    /// The compile under way.
    static COMPILING: RefCell<Option<Running>> = const { RefCell::new(None) };
    /// The sites being made, by number: publishing a list does not stop
    /// a compile, nor another publishing.
    static PUBLISHING: RefCell<Vec<(u32, Running)>> = const { RefCell::new(Vec::new()) };
    /// The number of the next site made.
    static NEXT_PUBLISH: std::cell::Cell<u32> = const { std::cell::Cell::new(0) };
    /// The number of the compile last asked for ([`next_compile`]): a
    /// compile whose number it no longer is was cancelled or replaced, and
    /// is not started, heard nor kept.
    static COMPILES: std::cell::Cell<u32> = const { std::cell::Cell::new(0) };
    /// The compiled list's opening, waiting for the sites being made
    /// ([`after_publishing`]).
    static OPENING: RefCell<Option<Box<dyn FnOnce()>>> = const { RefCell::new(None) };
}

/// Whether a site is being made.
fn publishing() -> bool {
    PUBLISHING.with(|p| !p.borrow().is_empty())
}

/// Opens a compiled list (`open`) now, or once no site is being made:
/// opening one reloads the page, which would drop a site unoffered.
fn after_publishing(open: impl FnOnce() + 'static) {
    if publishing() {
        OPENING.with(|o| *o.borrow_mut() = Some(Box::new(open)));
    } else {
        open();
    }
}

/// A site was offered (or failed): the list that waited opens once the
/// last one is, a moment later, so that the browser has taken the
/// download before the page reloads.
fn published() {
    if publishing() {
        return;
    }
    if let Some(open) = OPENING.with(|o| o.borrow_mut().take()) {
        set_timeout(open, std::time::Duration::from_secs(1));
    }
}

/// Takes a job's worker from where it is kept.
fn take(job: Job) -> Option<Running> {
    match job {
        Job::Compile => COMPILING.with(|r| r.borrow_mut().take()),
        Job::Publish(n) => PUBLISHING.with(|p| {
            let mut p = p.borrow_mut();
            let at = p.iter().position(|(m, _)| *m == n)?;
            Some(p.remove(at).1)
        }),
    }
}

/// Keeps a job's worker while it runs.
fn put(job: Job, running: Running) {
    match job {
        Job::Compile => COMPILING.with(|r| *r.borrow_mut() = Some(running)),
        Job::Publish(n) => PUBLISHING.with(|p| p.borrow_mut().push((n, running))),
    }
}

/// [`compile`], in a chunk of the module of its own ([`crate::chunks`]),
/// fetched the first time a list is opened or published: a visitor who
/// never opens a list does not download it.
#[leptos::wasm_split::wasm_split(open_list, fallible, wasm_split_path = ::leptos::wasm_split)]
fn compile_in_chunk(
    request: OpenRequest,
    file: Option<web_sys::File>,
    number: Option<u32>,
    heard: Box<dyn Fn(CompilerReply)>,
) -> Result<Result<(), OpenError>, crate::chunks::Unfetched> {
    Ok(compile(&request, file.as_ref(), number, heard))
}

/// Starts compiling (or publishing) as [`compile`] does, once the chunk it
/// is in has come; `heard` gets a failure to start, the chunk's included.
pub fn start_compile(
    request: OpenRequest,
    file: Option<web_sys::File>,
    heard: impl Fn(CompilerReply) + 'static,
) {
    // A compile's number is taken now: Cancel, or another list opened,
    // while the chunk comes moves it on, and this compile never starts.
    let number = request.publish.is_none().then(next_compile);
    let heard = std::rc::Rc::new(heard);
    leptos::task::spawn_local(async move {
        let hears = heard.clone();
        let in_chunk = compile_in_chunk(request, file, number, Box::new(move |r| hears(r)));
        let error = match in_chunk.await {
            Ok(Ok(())) => return,
            Ok(Err(error)) => error,
            Err(crate::chunks::Unfetched) => OpenError::Unfetched,
        };
        heard(CompilerReply::Failed { error });
    });
}

/// Starts compiling a list (a file, or `request.url`) in a new worker;
/// `heard` gets each reply, the last `Done` (the list kept) or `Failed`.
/// With `request.publish`, the worker makes a kept list's site instead,
/// offered as a download (`Published`). A compile (its `number`, from
/// [`next_compile`]) stops the one under way, and does not start if
/// another was asked for, or it was cancelled, since; publishing stops
/// nothing.
fn compile(
    request: &OpenRequest,
    file: Option<&web_sys::File>,
    number: Option<u32>,
    heard: impl Fn(CompilerReply) + 'static,
) -> Result<(), OpenError> {
    let wanted = move || number.is_none_or(|n| COMPILES.with(std::cell::Cell::get) == n);
    let job = match number {
        None => Job::Publish(NEXT_PUBLISH.with(|n| n.replace(n.get().wrapping_add(1)))),
        Some(_) if !wanted() => return Ok(()),
        Some(_) => {
            halt();
            sweep();
            Job::Compile
        }
    };
    let stopped = |reason: String| OpenError::Source { message: reason };
    let href = compiler_href().ok_or_else(|| stopped("no compiler in this page".into()))?;
    let worker = web_sys::Worker::new(&href).map_err(|e| stopped(said(&e)))?;
    let heard: std::rc::Rc<dyn Fn(CompilerReply)> = std::rc::Rc::new(heard);
    let on_reply = heard.clone();
    let heard_message = Closure::<dyn FnMut(_)>::new(move |e: web_sys::MessageEvent| {
        // The last reply comes with the list's files: `[reply, files]`.
        let data = e.data();
        let (reply, files) = match data.dyn_ref::<js_sys::Array>() {
            Some(pair) => (pair.get(0), pair.get(1)),
            None => (data, JsValue::UNDEFINED),
        };
        let Ok(reply) = serde_wasm_bindgen::from_value::<CompilerReply>(reply) else {
            return;
        };
        // A reply the worker sent before it was stopped, heard after.
        if !wanted() {
            return;
        }
        if matches!(reply, CompilerReply::Stage { .. }) {
            return on_reply(reply);
        }
        // The worker closes itself once it has said its last.
        forget_running(job);
        leptos::task::spawn_local(last_reply(job, reply, files, wanted, on_reply.clone()));
    });
    let heard_failure = Closure::<dyn FnMut(_)>::new(move |e: web_sys::ErrorEvent| {
        end(job);
        let error = stopped(format!("the compiler stopped: {}", e.message()));
        heard(CompilerReply::Failed { error });
        if job != Job::Compile {
            published();
        }
    });
    worker.set_onmessage(Some(heard_message.as_ref().unchecked_ref()));
    worker.set_onerror(Some(heard_failure.as_ref().unchecked_ref()));
    let message = js_sys::Array::of2(
        &serde_wasm_bindgen::to_value(request).map_err(|e| stopped(e.to_string()))?,
        file.map_or(&JsValue::NULL, |f| f.as_ref()),
    );
    worker
        .post_message(&message)
        .map_err(|e| stopped(said(&e)))?;
    put(
        job,
        Running {
            worker,
            _heard: heard_message,
            _failed: heard_failure,
        },
    );
    Ok(())
}

/// A worker's last reply, handed on once what it brought is dealt with:
/// a compiled list's `files` kept (opened once any site being made is
/// offered) while the compile is `wanted` (not stopped while they are
/// stored: then nothing is kept, nor said), a site's zip offered as a
/// download.
async fn last_reply(
    job: Job,
    reply: CompilerReply,
    files: JsValue,
    wanted: impl Fn() -> bool,
    on_reply: std::rc::Rc<dyn Fn(CompilerReply)>,
) {
    if let CompilerReply::Done { list, memory_bytes } = reply {
        on_reply(CompilerReply::Stage {
            stage: OpenStage::Storing,
        });
        match kept_with(*list, files.unchecked_into(), &wanted).await {
            Ok(Some(list)) => after_publishing(move || {
                on_reply(CompilerReply::Done {
                    list: Box::new(list),
                    memory_bytes,
                })
            }),
            Ok(None) => {}
            Err(error) if wanted() => on_reply(CompilerReply::Failed { error }),
            Err(_) => {}
        }
    } else if let CompilerReply::Published { name } = &reply {
        // `[[name, zip]]`: the site, offered as a download.
        let zip = js_sys::Array::from(&files).get(0);
        let zip: js_sys::Uint8Array = js_sys::Array::from(&zip).get(1).unchecked_into();
        on_reply(
            match crate::download::offer_bytes(&zip, "application/zip", name) {
                Ok(()) => reply,
                Err(e) => CompilerReply::Failed {
                    error: OpenError::Storage { reason: said(&e) },
                },
            },
        );
    } else {
        on_reply(reply);
    }
    if job != Job::Compile {
        published();
    }
}

/// Stops the compile under way, if any: nothing it stored is kept (a
/// list already stored, waiting for a site to be made, stays kept and is
/// not opened).
pub fn cancel() {
    next_compile();
    if halt() {
        leptos::task::spawn_local(async {
            let _ = sweep_in_chunk().await;
        });
    }
}

/// Moves the compile number on ([`COMPILES`]): whatever compile was
/// asked for before is no longer wanted (not started if its chunk is still
/// coming, not kept if the page is storing its list). The new number.
fn next_compile() -> u32 {
    COMPILES.with(|n| {
        n.set(n.get().wrapping_add(1));
        n.get()
    })
}

/// Ends the compile's worker, if it is still at work (whether it was),
/// and the opening of a list that waited for a site to be made.
fn halt() -> bool {
    OPENING.with(|o| o.borrow_mut().take());
    end(Job::Compile)
}

/// Lets go of the compile under way without stopping it (its worker
/// closes itself); its closures are dropped after the event that may be
/// running one of them.
fn forget_running(job: Job) {
    if let Some(running) = take(job) {
        leptos::task::spawn_local(async move { drop(running) });
    }
}

/// Ends the compile under way (its worker and what it stored in memory);
/// whether there was one. Its closures are dropped after the event that
/// may be running one of them.
fn end(job: Job) -> bool {
    let Some(running) = take(job) else {
        return false;
    };
    running.worker.terminate();
    leptos::task::spawn_local(async move { drop(running) });
    true
}
