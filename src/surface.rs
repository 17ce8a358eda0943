//! What a provider is, as one value: each provider folder states its [`Surface`] once, in its
//! `mod.rs`, and [`Provider::surface`](crate::Provider::surface) (the one dispatcher,
//! `any_provider.rs`) reaches it. The shared code asks the surface (the request's path, headers
//! and key, the parameters' names, how the provider counts cached tokens, the image rule it
//! prices by default, its readers) and never names a provider itself.
//!
//! A new provider is its folder, one variant of [`Provider`] and one arm of the dispatcher;
//! `ARCHITECTURE.md` has the checklist.

use crate::body::request::Auth;
use crate::cost::ImageTokens;
use crate::errors::body::BodyError;
use crate::errors::provider::ProviderError;
use crate::provider::Provider;
use crate::render::rules::{CacheCounting, ImageLimits};
use crate::reply::{Reply, ReplyError};
use crate::stream::StreamReader;
use crate::turn::params::{Field, Params};
use crate::turn::tools::Tool;

/// One provider's own facts and readers, stated once in its folder.
pub(crate) struct Surface {
    /// The provider's documented image and file limits.
    pub(crate) limits: ImageLimits,
    /// The request around the body.
    pub(crate) request: RequestShape,
    /// The neutral parameters as the provider's top-level fields, in the order written.
    pub(crate) params: fn(&Params, Provider) -> Result<Vec<Field>, BodyError>,
    /// How the provider's usage counts the tokens read from and written to its cache.
    pub(crate) cache_counting: CacheCounting,
    /// How the provider's prompt cache reads and writes a request, as a forecast follows it.
    pub(crate) cache_rule: crate::cost::CacheRule,
    /// The image-token rule a model the family table does not know is priced by.
    pub(crate) image_rule: &'static ImageTokens,
    /// Reads a whole reply.
    pub(crate) read_reply: fn(&str, Provider) -> Result<Reply, ReplyError>,
    /// Starts a stream reader.
    pub(crate) stream: fn(Provider) -> StreamReader,
    /// Reads an error response from its status and body.
    pub(crate) read_error: fn(Provider, u16, &str) -> ProviderError,
    /// Reads an error response from its status, headers and body.
    pub(crate) read_error_with_headers: fn(Provider, u16, Headers<'_>, &str) -> ProviderError,
}

/// A response's headers, as name and value pairs.
pub(crate) type Headers<'h> = &'h [(&'h str, &'h str)];

/// The request around a provider's body: its path, its headers and where the key goes.
pub(crate) struct RequestShape {
    /// The path and query for a model, whole (`false`) or streamed (`true`).
    pub(crate) path: fn(Provider, &str, bool) -> String,
    /// The default base URL, for the turn's region when the provider's host names one.
    pub(crate) base_url: fn(Provider, Option<&str>) -> String,
    /// Where the caller's key goes.
    pub(crate) auth: Auth,
    /// The headers the provider requires beside `content-type`, in order.
    pub(crate) headers: &'static [(&'static str, &'static str)],
    /// The media type a streamed reply comes in, asked for with `accept`.
    pub(crate) stream_type: &'static str,
    /// The headers a body that carries the provider's own compaction natively needs beside
    /// the others (a beta the block belongs to).
    pub(crate) compaction_headers: &'static [(&'static str, &'static str)],
    /// The headers the turn's tools need beside the others (a beta a native tool belongs
    /// to), each once.
    pub(crate) tool_headers: fn(&[Tool]) -> Vec<(&'static str, &'static str)>,
}

/// No headers for any tools: a provider whose tools need none.
pub(crate) fn no_tool_headers(_tools: &[Tool]) -> Vec<(&'static str, &'static str)> {
    Vec::new()
}

/// A path segment as SigV4 and RFC 3986 encode it: the unreserved characters as they are,
/// every other byte of the UTF-8 as `%XY` in uppercase hex.
pub(crate) fn path_segment(text: &str) -> String {
    const HEX: &[u8; 16] = b"0123456789ABCDEF";
    let mut out = String::with_capacity(text.len());
    for byte in text.bytes() {
        if byte.is_ascii_alphanumeric() || matches!(byte, b'-' | b'.' | b'_' | b'~') {
            out.push(char::from(byte));
        } else {
            out.push('%');
            for nibble in [byte >> 4, byte & 0x0f] {
                out.push(
                    HEX.get(usize::from(nibble))
                        .map_or('0', |&hex| char::from(hex)),
                );
            }
        }
    }
    out
}
