//! Harness for the browser tests: serves the release `dist/` on loopback and
//! drives a real browser through WebDriver (chromedriver + Debian's Chromium).
//!
//! The server injects one small script into `index.html` that records console
//! errors and uncaught exceptions, so every test can assert there were none.
//!
//! - [`corpus`]: what the tests expect, from the engine run natively on the
//!   same corpus (the oracle a page is compared with)
//! - [`server`]: the loopback HTTP server, one fresh port per test
//! - [`session`]: WebDriver sessions in Chromium, Firefox and WebKitGTK,
//!   started once and pooled across the tests of a process
//! - [`page`]: what a test does on the page (open, type, click, wait, read)

use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, Instant};

use explorer_core::{Engine, Sort};
use fantoccini::{Client, ClientBuilder, Locator};
use serde_json::{json, Value};

pub mod corpus;
pub mod page;
pub mod server;
pub mod session;

pub use corpus::*;
pub use page::*;
pub use server::*;
pub use session::*;
