//! The app's module is split at its lazy functions after linking
//! (crates/cli/src/split.rs): the splitter reads the linker's relocations,
//! which wasm-ld keeps only when asked. Only this crate's binary, and only
//! for WebAssembly (the page's compiler and native builds link as ever).
fn main() {
    if std::env::var("CARGO_CFG_TARGET_FAMILY").as_deref() == Ok("wasm") {
        println!("cargo:rustc-link-arg-bins=--emit-relocs");
    }
}
