//! Command-line front end: argument definitions ([`args`]), their conversion into engine
//! options and the exit codes ([`run`]), output ([`render`]) and progress bars
//! ([`progress`]), the man pages and completions the packages ship ([`package_files`]). Nothing here is engine logic.
//!
//! Exit codes: 0 everything worked; 1 some files could not be imported or checked (the
//! others were); 2 usage error or a fatal error (e.g. the store cannot be opened).

mod args;
mod clusters;
mod common;
mod discover;
mod package_files;
mod progress;
mod render;
mod run;
mod scaleout;
mod watch;
mod works;

pub use args::Args;
pub use run::run;
