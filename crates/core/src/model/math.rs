//! Logarithms that give the same bits natively and in WebAssembly. The
//! platform's (glibc's, natively) and Rust's port of musl's (in the page)
//! differ in the last bit now and then, and a score or a weight that
//! differs by a bit orders ties otherwise: the page's compiler must write
//! the files the CLI writes, and the page must rank as the tests' native
//! engine does. Every logarithm of the core is one of these.

/// The natural logarithm of `x`.
pub fn ln(x: f32) -> f32 {
    libm::logf(x)
}

/// The natural logarithm of `x`, in double precision (the title ranker's).
#[cfg(feature = "compile")]
pub fn ln64(x: f64) -> f64 {
    libm::log(x)
}
