//! Shared harness for the browser tests.
