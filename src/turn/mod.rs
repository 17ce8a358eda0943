//! The turn around the record: the tools it declares, its neutral parameters, the round in
//! flight and the prompt-cache breakpoints of its body.

pub(crate) mod cache;
pub(crate) mod params;
pub(crate) mod rounds;
pub(crate) mod tools;
