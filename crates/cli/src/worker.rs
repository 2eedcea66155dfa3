//! The page's compiler (the `compiler-worker` crate, which Trunk builds as
//! a Web Worker under fixed names: a worker's file is named at run time)
//! renamed for its content like every other file of the build, so that a
//! new compiler is never served from an old cache, and named in the page
//! by `<link data-compiler href=…>`, which the app reads only when a list is
//! opened.

use std::path::Path;

use crate::error::{read, read_text, write, Error};

/// The files Trunk writes for the worker.
const GLUE: &str = "compiler.js";
const MODULE: &str = "compiler_bg.wasm";
const SHIM: &str = "compiler_loader.js";

/// What a worker starts from: the page's message, posted as the worker
/// starts, is held until the module (which sets the worker's handler as
/// it starts) is in, then handed to it; a module that cannot start says
/// so as the compiler's failure would.
const START: &str = r#"const held = [];
self.onmessage = (e) => held.push(e);
importScripts("./{glue}");
wasm_bindgen("./{module}").then(
  () => held.forEach((e) => self.onmessage(e)),
  (e) => postMessage({ failed: { error: { source: { message: "the compiler could not start: " + e } } } }),
);
"#;

/// Renames the worker's module and glue in `dist` for their content,
/// writes the script a worker starts from (`compiler-start-<hash>.js`) and
/// links it from `index.html`. Returns its name.
pub fn name_compiler(dist: &Path) -> Result<String, Error> {
    let hashed = |stem: &str, ext: &str, bytes: &[u8]| {
        format!(
            "{stem}-{:016x}{ext}",
            explorer_core::model::content_hash(bytes)
        )
    };
    let module = read(dist.join(MODULE))?;
    let module_name = hashed("compiler", "_bg.wasm", &module);
    write(dist.join(&module_name), &module)?;
    let glue = read(dist.join(GLUE))?;
    let glue_name = hashed("compiler", ".js", &glue);
    write(dist.join(&glue_name), &glue)?;
    let start = START
        .replace("{glue}", &glue_name)
        .replace("{module}", &module_name);
    let start_name = hashed("compiler-start", ".js", start.as_bytes());
    write(dist.join(&start_name), &start)?;
    for old in [GLUE, MODULE, SHIM] {
        let path = dist.join(old);
        std::fs::remove_file(&path).map_err(|e| Error::unexpected(&path, e))?;
    }
    let index = dist.join("index.html");
    let html = read_text(&index)?;
    if !html.contains("</head>") || html.contains("data-compiler") {
        return Err(Error::unexpected(
            &index,
            "no </head>, or a compiler link already",
        ));
    }
    let link = format!("<link data-compiler href=\"./{start_name}\" />\n");
    write(&index, html.replacen("</head>", &(link + "</head>"), 1))?;
    Ok(start_name)
}
