//! Media: what an image's or a file's bytes say it is, the checks each must pass to be shown,
//! and the markers written where one is not shown. One place each, shared by replay, the
//! renderers and the estimate.

pub(crate) mod file;
pub(crate) mod image;
pub(crate) mod marker;
pub(crate) mod signature;
