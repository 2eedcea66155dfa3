//! The app's module split at its `#[lazy]` functions (Leptos's, on
//! `wasm_split_helpers`): what a feature few visitors use (opening a list
//! of one's own, exporting, saving for offline) is fetched the first time
//! it is used, not with the page.
//!
//! The split reads the relocations of the module cargo linked (build.rs
//! asks wasm-ld to keep them), which wasm-bindgen drops; Trunk lets a
//! project act only in its hooks, after its own wasm-bindgen. So the
//! post-build hook's first step, [`place`], finds the module Trunk staged
//! unsplit (its glue imports the splitter's placeholder) and makes it
//! again from cargo's module, as Trunk would with the split first:
//!
//! 1. the module is split by `wasm_split_cli_support` into the main module
//!    and a chunk a split point, with the link module (JavaScript) that
//!    loads them;
//! 2. each chunk through wasm-opt and named for its content,
//!    `split-<hash>.wasm`; the link module likewise, `split-<hash>.js`;
//! 3. wasm-bindgen on the main module with Trunk's arguments, keeping the
//!    exports the chunks import (`--keep-lld-exports`), its glue pointed
//!    at the link module's name; the main module through `wasm-opt -Oz`
//!    in a release build (index.html turns Trunk's own wasm-opt off);
//! 4. the glue and the main module put in place of Trunk's, under Trunk's
//!    names, and the chunks and the link module beside them.
//!
//! `trunk build` and `trunk serve` alone and `./dev` make the same page.

use std::path::{Path, PathBuf};
use std::process::Command;

use explorer_core::build::single_file::chunk_import;

use crate::error::{read, read_text, write, Error, OnPath};

/// The link module's name as the splitter writes it into the main module
/// (and wasm-bindgen into its glue), before it is named for its content.
const LINK: &str = "./__wasm_split.js";

/// The glue's name as the link module imports it, before [`place`] puts
/// the staged glue's name in its place.
const MAIN: &str = "./main.js";

/// The module a lazy function's stub imports from until the module is
/// split (`wasm_split_helpers`): a glue that imports it cannot start.
const PLACEHOLDER: &str = "__wasm_split_placeholder__";

/// The features the app's module is built with (`.cargo/config.toml` and
/// the Rust target's defaults): wasm-opt keeps a chunk within them.
const FEATURES: [&str; 7] = [
    "--enable-simd",
    "--enable-bulk-memory",
    "--enable-sign-ext",
    "--enable-mutable-globals",
    "--enable-nontrapping-float-to-int",
    "--enable-reference-types",
    "--enable-multivalue",
];

/// A file name for `bytes`: `split-<hash>.<ext>`.
fn named(ext: &str, bytes: &[u8]) -> String {
    crate::single_file::hashed_name("split", ext, bytes)
}

/// wasm-bindgen on `module`, split first, into `out_dir` as Trunk calls it
/// (`--target=web`, the module's name, no TypeScript), the chunks and the
/// link module in `out_dir/split/`. Returns how many chunks.
fn bindgen(module: &Path, out_dir: &Path) -> Result<usize, Error> {
    let out_name = module
        .file_stem()
        .and_then(|s| s.to_str())
        .ok_or_else(|| Error::unexpected(module, "not a module's file name"))?;
    let work = out_dir.join("split-work");
    let split_dir = out_dir.join("split");
    for dir in [&work, &split_dir] {
        let _ = std::fs::remove_dir_all(dir);
        std::fs::create_dir_all(dir).on(dir)?;
    }
    let main = work.join("main.wasm");
    let (link_name, chunks) = split(module, &work, &main, &split_dir)?;
    run(Command::new("wasm-bindgen")
        .arg("--target=web")
        .arg(format!("--out-dir={}", out_dir.display()))
        .arg(format!("--out-name={out_name}"))
        .arg(&main)
        .args(["--no-typescript", "--keep-lld-exports", "--no-demangle"]))?;
    if chunks == 0 {
        // No lazy function: nothing to load, nothing to place.
        let _ = std::fs::remove_dir_all(&split_dir);
    } else {
        point_glue(&out_dir.join(format!("{out_name}.js")), &link_name)?;
    }
    let _ = std::fs::remove_dir_all(&work);
    Ok(chunks)
}

/// Splits `input` in `work`: the main module to `main`, each chunk through
/// wasm-opt and named for its content into `split_dir`, with the link
/// module pointed at their names. Returns the link module's name and how
/// many chunks.
fn split(
    input: &Path,
    work: &Path,
    main: &Path,
    split_dir: &Path,
) -> Result<(String, usize), Error> {
    let module = read(input)?;
    let split = wasm_split_cli_support::transform({
        let mut opts = wasm_split_cli_support::Options::new(&module);
        opts.output_dir = work;
        opts.main_out_path = main;
        opts.link_name = LINK;
        opts.main_module = MAIN;
        opts
    })
    .map_err(|e| Error::unexpected(input, format!("could not split the module: {e:#}")))?;
    let mut link = read_text(work.join(LINK))?;
    for chunk in &split.split_modules {
        let name = chunk
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or_default();
        let optimised = work.join(format!("opt-{name}"));
        run(Command::new("wasm-opt")
            .arg("-Oz")
            .args(FEATURES)
            .arg(chunk)
            .arg("-o")
            .arg(&optimised))?;
        let bytes = read(&optimised)?;
        let final_name = named("wasm", &bytes);
        write(split_dir.join(&final_name), &bytes)?;
        link = link.replace(&format!("\"./{name}\""), &format!("\"./{final_name}\""));
    }
    let link_name = named("js", link.as_bytes());
    write(split_dir.join(&link_name), &link)?;
    Ok((link_name, split.split_modules.len()))
}

/// Points the glue's import of the link module at its content name. The
/// import only: the imports object keeps the name the main module imports
/// from.
fn point_glue(glue_path: &Path, link_name: &str) -> Result<(), Error> {
    let glue = read_text(glue_path)?;
    let pointed = glue
        .replace(&format!("from '{LINK}'"), &format!("from './{link_name}'"))
        .replace(
            &format!("from \"{LINK}\""),
            &format!("from \"./{link_name}\""),
        );
    if pointed == glue {
        return Err(Error::unexpected(
            glue_path,
            "the glue does not import the split's link module",
        ));
    }
    write(glue_path, pointed)
}

/// Runs a tool, its failure an error naming it.
fn run(command: &mut Command) -> Result<(), Error> {
    let program = PathBuf::from(command.get_program());
    let status = command.status().on(&program)?;
    if status.success() {
        Ok(())
    } else {
        Err(Error::unexpected(&program, format!("failed ({status})")))
    }
}

/// The module Trunk staged in `dist` split (see the module's
/// documentation): made again from `module` (cargo's) in `work` when
/// Trunk staged it whole, `optimise` saying whether through wasm-opt (a
/// release build); then the link module and the chunks copied beside the
/// glue, the link module importing the glue by its name there. Returns
/// how many files were placed (none: the glue is split and placed
/// already, a page built from the staged app, or imports no chunk).
pub fn place(dist: &Path, module: &Path, work: &Path, optimise: bool) -> Result<usize, Error> {
    let (glue_name, link_name) = match glue_of(dist)? {
        Staged::NoChunk => return Ok(0),
        Staged::Split { glue, link } => (glue, link),
        Staged::Whole { glue } => {
            remake(dist, &glue, module, work, optimise)?;
            match glue_of(dist)? {
                Staged::Split { glue, link } => (glue, link),
                _ => {
                    return Err(Error::unexpected(
                        dist.join(&glue),
                        "the split left the glue whole",
                    ))
                }
            }
        }
    };
    if dist.join(&link_name).exists() {
        // Placed already: a page built from the staged app (`./dev`'s
        // corpus_build), whose split another build may since have replaced.
        return Ok(0);
    }
    let from = work.join("split");
    let mut placed = 0;
    for entry in std::fs::read_dir(&from).on(&from)?.flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        let bytes = read(entry.path())?;
        let bytes = if name == link_name {
            String::from_utf8_lossy(&bytes)
                .replace(&format!("\"{MAIN}\""), &format!("\"./{glue_name}\""))
                .into_bytes()
        } else {
            bytes
        };
        write(dist.join(&name), bytes)?;
        placed += 1;
    }
    Ok(placed)
}

/// Makes the staged glue `glue` (and its `_bg.wasm`) again from `module`,
/// split, in `work` (see the module's documentation).
fn remake(
    dist: &Path,
    glue: &str,
    module: &Path,
    work: &Path,
    optimise: bool,
) -> Result<(), Error> {
    if !module.is_file() {
        return Err(Error::unexpected(
            module,
            "the app's module cargo built is not there to split (CARGO_TARGET_DIR and TRUNK_PROFILE name it)",
        ));
    }
    bindgen(module, work)?;
    let stem = module
        .file_stem()
        .and_then(|s| s.to_str())
        .unwrap_or_default();
    let staged_wasm = dist.join(format!("{}_bg.wasm", glue.trim_end_matches(".js")));
    let made_wasm = work.join(format!("{stem}_bg.wasm"));
    if optimise {
        // As Trunk runs it for `data-wasm-opt="z"`.
        let output = work.join(format!("opt-{stem}_bg.wasm"));
        run(Command::new("wasm-opt")
            .arg(format!("--output={}", output.display()))
            .arg("-Oz")
            .arg(&made_wasm))?;
        std::fs::rename(&output, &made_wasm).on(&made_wasm)?;
    }
    std::fs::copy(&made_wasm, &staged_wasm).on(&staged_wasm)?;
    let made_glue = work.join(format!("{stem}.js"));
    std::fs::copy(&made_glue, dist.join(glue)).on(&made_glue)?;
    for file in [
        glue.to_string(),
        format!("{}_bg.wasm", glue.trim_end_matches(".js")),
    ] {
        refresh_integrity(dist, &file)?;
    }
    Ok(())
}

/// Index.html's `integrity` of `file` (Trunk's subresource integrity,
/// SHA-384, on the glue's `modulepreload`) made the file's again: a
/// browser refuses a file whose digest is not the page's.
fn refresh_integrity(dist: &Path, file: &str) -> Result<(), Error> {
    use base64::Engine as _;
    use sha2::Digest as _;
    let path = dist.join("index.html");
    let index = read_text(&path)?;
    let digest = sha2::Sha384::digest(read(dist.join(file))?);
    let integrity = format!(
        "sha384-{}",
        base64::engine::general_purpose::STANDARD.encode(digest)
    );
    let names_file = |url: Option<String>| url.is_some_and(|u| u.rsplit('/').next() == Some(file));
    let html = lol_html::rewrite_str(
        &index,
        lol_html::RewriteStrSettings {
            element_content_handlers: vec![lol_html::element!("[integrity]", |el| {
                if names_file(el.get_attribute("href")) || names_file(el.get_attribute("src")) {
                    el.set_attribute("integrity", &integrity)?;
                }
                Ok(())
            })],
            ..lol_html::RewriteStrSettings::default()
        },
    )
    .map_err(|e| Error::unexpected(&path, e))?;
    write(&path, html)
}

/// The app's glue as staged.
enum Staged {
    /// No glue imports a chunk.
    NoChunk,
    /// The glue `glue` loads its chunks through the link module `link`.
    Split { glue: String, link: String },
    /// The glue `glue` imports the splitter's placeholder: made by
    /// wasm-bindgen from the module unsplit.
    Whole { glue: String },
}

/// What the app's glue in `dist` is.
fn glue_of(dist: &Path) -> Result<Staged, Error> {
    for entry in std::fs::read_dir(dist).on(dist)?.flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        if !name.ends_with(".js") || name.starts_with("split-") {
            continue;
        }
        let text = read_text(entry.path())?;
        if let Some((_, link)) = text.lines().find_map(chunk_import) {
            return Ok(Staged::Split {
                glue: name,
                link: link.to_string(),
            });
        }
        if text.contains(&format!("from \"{PLACEHOLDER}\""))
            || text.contains(&format!("from '{PLACEHOLDER}'"))
        {
            return Ok(Staged::Whole { glue: name });
        }
    }
    Ok(Staged::NoChunk)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dist(files: &[(&str, &str)]) -> PathBuf {
        let dir = std::env::temp_dir().join(format!(
            "split-{}-{:x}",
            std::process::id(),
            explorer_core::model::content_hash(format!("{files:?}").as_bytes())
        ));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        for (name, text) in files {
            std::fs::write(dir.join(name), text).unwrap();
        }
        dir
    }

    /// The loader is placed beside the glue, importing it by the name it
    /// has there; the chunks with it.
    #[test]
    fn the_split_is_placed_beside_the_glue_that_imports_it() {
        let work = dist(&[]);
        let from = work.join("split");
        std::fs::create_dir_all(&from).unwrap();
        std::fs::write(
            from.join("split-0123456789abcdef.js"),
            "import { initSync } from \"./main.js\";\n",
        )
        .unwrap();
        std::fs::write(from.join("split-fedcba9876543210.wasm"), "\0asm").unwrap();
        let staged = dist(&[(
            "app-1234.js",
            "import * as import1 from \"./split-0123456789abcdef.js\"\n",
        )]);
        let module = Path::new("/nonexistent/app.wasm");
        assert_eq!(place(&staged, module, &work, true).unwrap(), 2);
        let loader = std::fs::read_to_string(staged.join("split-0123456789abcdef.js")).unwrap();
        assert_eq!(loader, "import { initSync } from \"./app-1234.js\";\n");
        assert!(staged.join("split-fedcba9876543210.wasm").is_file());
        // Placed already (a page staged again for another list): kept.
        assert_eq!(
            place(&staged, module, Path::new("/nonexistent"), true).unwrap(),
            0
        );
    }

    /// A glue wasm-bindgen made from the module unsplit (Trunk's own) is
    /// made again from cargo's module: without it, an error that names
    /// it, never a page that cannot start; a glue that imports no chunk
    /// needs nothing.
    #[test]
    fn a_glue_made_whole_is_made_again_from_cargos_module() {
        let staged = dist(&[(
            "app-1234.js",
            "import * as import1 from \"__wasm_split_placeholder__\"\n",
        )]);
        let error = place(&staged, Path::new("/nonexistent/app.wasm"), &staged, true)
            .unwrap_err()
            .to_string();
        assert!(
            error.contains("/nonexistent/app.wasm") && error.contains("CARGO_TARGET_DIR"),
            "{error}"
        );
        let plain = dist(&[("app-1234.js", "export function initSync() {}\n")]);
        assert_eq!(
            place(&plain, Path::new("/nonexistent"), &plain, true).unwrap(),
            0
        );
    }

    /// The glue made again keeps the page's integrity true: its digest
    /// (SHA-384's test vector for "abc"), other elements untouched.
    #[test]
    fn the_pages_integrity_is_the_new_glues() {
        let staged = dist(&[
            ("app-1234.js", "abc"),
            (
                "index.html",
                "<link rel=\"modulepreload\" href=\"./app-1234.js\" integrity=\"sha384-old\">\
                 <link rel=\"stylesheet\" href=\"./style.css\" integrity=\"sha384-css\">",
            ),
        ]);
        refresh_integrity(&staged, "app-1234.js").unwrap();
        let index = std::fs::read_to_string(staged.join("index.html")).unwrap();
        assert!(
            index.contains("href=\"./app-1234.js\" integrity=\"sha384-ywB1P0WjXou1oD1pmsZQBycsMqsO3tFjGotgWkP/W+2AhgcroefMI1i67KE0yCWn\"")
                && index.contains("integrity=\"sha384-css\""),
            "{index}"
        );
    }
}
