//! The app's module split at its `#[lazy]` functions (Leptos's, on
//! `wasm_split_helpers`): what a feature few visitors use (opening a list
//! of one's own, exporting, saving for offline) is fetched the first time
//! it is used, not with the page.
//!
//! Trunk runs wasm-bindgen on the module cargo linked, and the split must
//! come before it (wasm-bindgen drops the relocations the splitter reads),
//! so `tools/bin/wasm-bindgen` stands in for wasm-bindgen on the `./dev`
//! commands' PATH and calls [`bindgen`] for the app's module:
//!
//! 1. the module (linked with `--emit-relocs`, build.rs) is split by
//!    `wasm_split_cli_support` into the main module and a chunk a split
//!    point, with the link module (JavaScript) that loads them;
//! 2. each chunk through wasm-opt (Trunk optimises only the main module)
//!    and named for its content, `split-<hash>.wasm`; the link module
//!    likewise, `split-<hash>.js`;
//! 3. the real wasm-bindgen on the main module, keeping the exports the
//!    chunks import (`--keep-lld-exports`), and its glue pointed at the
//!    link module's name;
//! 4. the chunks and the link module left in `<out-dir>/split/`, which
//!    [`place`] (the post-build hook's first step) copies beside the glue.

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

/// What a module built by Trunk alone (no split) is told.
const USE_DEV: &str = "build with ./dev (its PATH has tools/bin/wasm-bindgen), not trunk alone";

/// A file name for `bytes`: `split-<hash>.<ext>`.
fn named(ext: &str, bytes: &[u8]) -> String {
    crate::single_file::hashed_name("split", ext, bytes)
}

/// The value of wasm-bindgen's `--NAME=value` argument.
fn arg<'a>(args: &'a [String], name: &str) -> Option<&'a str> {
    let prefix = format!("--{name}=");
    args.iter().find_map(|a| a.strip_prefix(&prefix))
}

/// wasm-bindgen on the app's module, split first (see the module's
/// documentation). `real` is wasm-bindgen itself; `args` are Trunk's.
/// Returns how many chunks.
pub fn bindgen(real: &Path, args: &[String]) -> Result<usize, Error> {
    let input = (args.iter())
        .find(|a| !a.starts_with("--") && a.ends_with(".wasm"))
        .ok_or_else(|| Error::unexpected(".", "no module among wasm-bindgen's arguments"))?;
    let out_dir = PathBuf::from(
        arg(args, "out-dir")
            .ok_or_else(|| Error::unexpected(input, "wasm-bindgen has no --out-dir"))?,
    );
    let out_name = arg(args, "out-name").unwrap_or("index");
    let work = out_dir.join("split-work");
    let split_dir = out_dir.join("split");
    for dir in [&work, &split_dir] {
        let _ = std::fs::remove_dir_all(dir);
        std::fs::create_dir_all(dir).on(dir)?;
    }
    let main = work.join("main.wasm");
    let (link_name, chunks) = split(Path::new(input), &work, &main, &split_dir)?;
    let mut bindgen_args: Vec<String> = (args.iter())
        .map(|a| {
            if a == input {
                main.display().to_string()
            } else {
                a.clone()
            }
        })
        .collect();
    for extra in ["--keep-lld-exports", "--no-demangle"] {
        if !bindgen_args.iter().any(|a| a == extra) {
            bindgen_args.push(extra.into());
        }
    }
    run(Command::new(real).args(&bindgen_args))?;
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

/// Copies the split's chunks and link module (`from`, written by
/// [`bindgen`]) into `dist`, the link module importing the glue by the
/// name it has there. Returns how many files. A glue that imports the
/// link module with none to place was not built through
/// `tools/bin/wasm-bindgen`: an error that says so.
pub fn place(dist: &Path, from: &Path) -> Result<usize, Error> {
    let glue = glue_of(dist)?;
    let Some((glue_name, link_name)) = glue else {
        return Ok(0);
    };
    if dist.join(&link_name).exists() {
        // Placed already: a page built from the staged app (`./dev`'s
        // corpus_build), whose split another build may since have replaced.
        return Ok(0);
    }
    let link_from = from.join(&link_name);
    if !link_from.exists() {
        return Err(Error::unexpected(
            &link_from,
            format!(
                "the app's module imports its split's link module, which is not there: {USE_DEV}"
            ),
        ));
    }
    let mut placed = 0;
    for entry in std::fs::read_dir(from).on(from)?.flatten() {
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

/// The glue in `dist` that imports a split's link module, and that
/// module's name (`None`: no glue does).
fn glue_of(dist: &Path) -> Result<Option<(String, String)>, Error> {
    for entry in std::fs::read_dir(dist).on(dist)?.flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        if !name.ends_with(".js") || name.starts_with("split-") {
            continue;
        }
        let text = read_text(entry.path())?;
        if let Some((_, link)) = text.lines().find_map(chunk_import) {
            return Ok(Some((name, link.to_string())));
        }
        if text.contains(&format!("from \"{LINK}\"")) || text.contains(&format!("from '{LINK}'")) {
            return Err(Error::unexpected(
                entry.path(),
                format!("the glue imports the split's link module by its unsplit name: {USE_DEV}"),
            ));
        }
    }
    Ok(None)
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
        let from = dist(&[
            (
                "split-0123456789abcdef.js",
                "import { initSync } from \"./main.js\";\n",
            ),
            ("split-fedcba9876543210.wasm", "\0asm"),
        ]);
        let staged = dist(&[(
            "app-1234.js",
            "import * as import1 from \"./split-0123456789abcdef.js\"\n",
        )]);
        assert_eq!(place(&staged, &from).unwrap(), 2);
        let loader = std::fs::read_to_string(staged.join("split-0123456789abcdef.js")).unwrap();
        assert_eq!(loader, "import { initSync } from \"./app-1234.js\";\n");
        assert!(staged.join("split-fedcba9876543210.wasm").is_file());
        // Placed already (a page staged again for another list): kept.
        assert_eq!(place(&staged, Path::new("/nonexistent")).unwrap(), 0);
    }

    /// A glue that imports the loader by its unsplit name was built by
    /// Trunk's own wasm-bindgen: refused, saying how to build; a glue that
    /// imports no loader needs nothing.
    #[test]
    fn a_module_built_without_the_split_is_refused() {
        let staged = dist(&[(
            "app-1234.js",
            "import * as import1 from \"./__wasm_split.js\"\n",
        )]);
        let error = place(&staged, Path::new("/nonexistent"))
            .unwrap_err()
            .to_string();
        assert!(error.contains("./dev"), "{error}");
        let plain = dist(&[("app-1234.js", "export function initSync() {}\n")]);
        assert_eq!(place(&plain, Path::new("/nonexistent")).unwrap(), 0);
    }
}
