//! The browser tests, one test binary: its tests share a pool of started
//! browsers (see the harness), and a binary per file would start its own
//! pool and link the harness again. Each module is one area of the app.

mod csp;
mod deployment;
mod embed;
mod explorer;
mod first_screen;
mod host_api;
mod hostile;
mod meaning;
mod offline;
mod open_list;
mod reading_list;
mod real_list;
mod robustness;
mod scale;
mod shared_links;
mod topic_map;
