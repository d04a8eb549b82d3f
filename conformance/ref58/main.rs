//! odf-hash-conformance-58: the reference logical hash at the versions the main ODF
//! implementation (kamu) pins: arrow-digest 58.0.0 over the batches arrow-rs 58.4.0 reads.
//!
//!   odf-hash-conformance-58 hash FILE...   one JSON line per file, as `odf-hash-conformance hash`
//!
//! The reading and hashing code is the 60 leg's (../src/reference.rs), compiled against the
//! older crates, so the two legs differ only by the versions of the reference.

#[allow(dead_code)]
#[path = "../src/reference.rs"]
mod reference;

use std::io::Write;
use std::path::Path;
use std::process::ExitCode;

use serde_json::json;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.first().map(String::as_str) != Some("hash") || args.len() < 2 {
        eprintln!("usage: odf-hash-conformance-58 hash FILE...");
        return ExitCode::from(2);
    }
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let mut failed = false;
    for f in &args[1..] {
        let line = match reference::hash_file(Path::new(f)) {
            Ok(h) => json!({"path": f, "format": h.format.name(), "logical": h.logical,
                            "rows": h.rows, "schema": h.schema}),
            Err(e) => {
                failed = true;
                json!({"path": f, "error": e})
            }
        };
        if writeln!(out, "{line}").is_err() {
            return ExitCode::from(2);
        }
    }
    if failed { ExitCode::from(1) } else { ExitCode::SUCCESS }
}
