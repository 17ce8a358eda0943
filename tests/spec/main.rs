//! The crate's specification, one property a module: each file under `tests/spec/` states one
//! property of the crate and checks it, and all of them link into this one test binary (one
//! binary links once, where a binary a file linked the crate dozens of times).

mod common;

mod approvals;
mod base_url;
mod body_golden;
mod budget_from_the_turn;
mod cache_forecast;
mod compaction;
mod conversation_file;
mod dialect_golden;
mod empty_tool_output;
mod estimate;
mod example_budget;
mod example_compaction;
mod example_program;
mod example_rounds;
mod failure_view;
mod file_golden;
mod fit_golden;
mod lenient_reading;
mod loop_errors;
mod model_family_golden;
mod models_catalog;
mod module_layout;
mod never_refused;
mod newer_records;
mod one_entry_point;
mod over_budget_parts;
mod parameter_pairs;
mod parse_errors;
mod provider_errors;
mod public_types;
mod reasoning_tags;
mod render_golden;
mod render_hand_built;
mod replay_golden;
mod reply_golden;
mod reply_metadata;
mod reply_schema;
mod request_golden;
mod request_limits;
mod request_params;
mod responses_tool_search_and_shell;
mod round_golden;
mod round_linkage;
mod server_tools;
mod stop_reasons;
mod stored_turn;
mod streamed_citations;
mod tool_declarations;
mod tool_files_carried;
