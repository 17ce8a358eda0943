//! The keys the serde record reader knows, each read from a JSON object key without copying
//! it.

use std::fmt;

use serde::de::{self, Deserializer, Visitor};
use serde::Deserialize;

/// Declares an enum of the keys a reader knows, read from a JSON object key without copying
/// it; any other key is `Other`.
macro_rules! keys {
    ($name:ident { $($variant:ident = $key:literal,)* }) => {
        #[derive(Clone, Copy)]
        pub(super) enum $name {
            $($variant,)*
            Other,
        }

        // Only the block reader names a key (in an error, a duplicate field) or lists them.
        #[allow(dead_code)]
        impl $name {
            /// Every key the reader knows.
            pub(super) const ALL: &'static [$name] = &[$($name::$variant,)*];

            pub(super) fn name(self) -> &'static str {
                match self {
                    $($name::$variant => $key,)*
                    $name::Other => "other",
                }
            }
        }

        impl<'de> Deserialize<'de> for $name {
            fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
                struct KeyVisitor;

                impl Visitor<'_> for KeyVisitor {
                    type Value = $name;

                    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                        f.write_str("a field name")
                    }

                    fn visit_str<E: de::Error>(self, key: &str) -> Result<$name, E> {
                        Ok(match key {
                            $($key => $name::$variant,)*
                            _ => $name::Other,
                        })
                    }
                }

                deserializer.deserialize_identifier(KeyVisitor)
            }
        }
    };
}

keys!(FileKey {
    Version = "version",
    Messages = "messages",
});

keys!(MessageKey {
    Role = "role",
    Blocks = "blocks",
    Usage = "usage",
    Timestamp = "timestamp",
});

keys!(BlockKey {
    Type = "type",
    Text = "text",
    Id = "id",
    Name = "name",
    Input = "input",
    ToolUseId = "tool_use_id",
    ToolName = "tool_name",
    Output = "output",
    IsError = "is_error",
    Reasoning = "reasoning",
    MediaType = "media_type",
    Data = "data",
    ProviderExecuted = "provider_executed",
    Url = "url",
    Title = "title",
    CitedText = "cited_text",
    Summary = "summary",
    Provider = "provider",
});
