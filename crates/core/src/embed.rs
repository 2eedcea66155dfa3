//! What an embedded explorer tells the page around it, as types: the app
//! turns them into JavaScript objects with serde-wasm-bindgen (no JSON text
//! in between), and a host reads them from `message` events.

use serde::Serialize;

/// The `type` of the height message, which a host page listens for.
pub const HEIGHT: &str = "paper-explorer:height";

/// “My content is this tall”: sent to the parent whenever it changes, so
/// the host can size the frame without scroll bars.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Height {
    #[serde(rename = "type")]
    /// The message's type tag ([`HEIGHT`]).
    pub kind: &'static str,
    /// CSS pixels.
    pub height: i32,
}

impl Height {
    /// The message for a document `height` CSS pixels tall.
    pub fn new(height: i32) -> Height {
        Height {
            kind: HEIGHT,
            height,
        }
    }
}
