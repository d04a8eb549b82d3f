//! `bench`: the reference's in-memory logical hashing speed, for odf-hash's benchmark suite
//! (bench/logical.sh runs it beside build/bench/logical_compare on the same files).
//!
//!   bench [--runs N] [--warmup N] FILE...
//!
//! Each FILE (an Arrow IPC file, or anything `hash` reads) is read whole into memory first;
//! then RecordDigestV0<Sha3_256> hashes every batch, `--warmup` times untimed (default 1)
//! and `--runs` times timed (default 5). One JSON line per file: the median and every run's
//! seconds (wall, and CPU time of the hashing thread), the Arrow bytes held by the batches (every buffer's length, as arrow-rs sliced
//! it from the file), and the digest, so the caller can check both sides hashed the same.

use std::io::Write;
use std::path::Path;
use std::process::ExitCode;
use std::time::Instant;

use arrow::array::{Array, ArrayData};
use arrow::record_batch::RecordBatch;
use arrow_digest::{RecordDigest, RecordDigestV0};
use serde_json::json;

use crate::reference;

const USAGE: &str = "usage: odf-hash-conformance bench [--runs N] [--warmup N] FILE...";

pub fn cmd_bench(args: &[String]) -> Result<ExitCode, String> {
    let mut runs = 5usize;
    let mut warmup = 1usize;
    let mut files = Vec::new();
    let mut i = 0;
    while i < args.len() {
        match args[i].as_str() {
            "--runs" | "--warmup" => {
                let v = args.get(i + 1).ok_or(USAGE)?;
                let n: usize = v
                    .parse()
                    .map_err(|_| format!("{}: not a number: {v}", args[i]))?;
                if args[i] == "--runs" {
                    runs = n.max(1);
                } else {
                    warmup = n;
                }
                i += 2;
            }
            a if a.starts_with("--") => return Err(format!("bench: unknown option {a}\n{USAGE}")),
            f => {
                files.push(f.to_string());
                i += 1;
            }
        }
    }
    if files.is_empty() {
        return Err(USAGE.to_string());
    }
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    for f in &files {
        let path = Path::new(f);
        let batches = reference::read_batches(path).map_err(|e| format!("{f}: {e}"))?;
        let schema = match batches.first() {
            Some(b) => b.schema(),
            None => return Err(format!("{f}: no record batches")),
        };
        let rows: usize = batches.iter().map(RecordBatch::num_rows).sum();
        let arrow_bytes: usize = batches.iter().map(batch_bytes).sum();
        let hash_all = || {
            let mut hasher = RecordDigestV0::<sha3::Sha3_256>::new(schema.as_ref());
            for b in &batches {
                hasher.update(b);
            }
            hasher.finalize().to_vec()
        };
        let mut digest = Vec::new();
        for _ in 0..warmup {
            digest = hash_all();
        }
        let mut seconds = Vec::with_capacity(runs);
        let mut cpu_seconds = Vec::with_capacity(runs);
        for _ in 0..runs {
            let cpu_start = thread_cpu_seconds();
            let start = Instant::now();
            digest = std::hint::black_box(hash_all());
            seconds.push(start.elapsed().as_secs_f64());
            cpu_seconds.push(thread_cpu_seconds() - cpu_start);
        }
        let median_cpu = median(&mut cpu_seconds.clone());
        let median = median(&mut seconds.clone());
        let case = path
            .file_stem()
            .map_or(f.clone(), |s| s.to_string_lossy().into_owned());
        let line = json!({
            "case": case, "impl": "arrow-digest", "rows": rows, "arrow_bytes": arrow_bytes,
            "batches": batches.len(), "threads": 1, "seconds": median, "runs": seconds,
            "cpu_seconds": median_cpu, "cpu_runs": cpu_seconds,
            "mb_per_s": arrow_bytes as f64 / 1e6 / median,
            "logical": reference::logical_multibase(&digest),
        });
        writeln!(out, "{line}").map_err(|e| e.to_string())?;
    }
    Ok(ExitCode::SUCCESS)
}

/// CPU time of this thread (the hashing runs on it alone), from the scheduler's account in
/// /proc/thread-self/schedstat (nanoseconds; it may lag by one scheduler tick). On a loaded
/// machine it still measures the work when wall time measures the queue. NaN if unavailable.
fn thread_cpu_seconds() -> f64 {
    std::fs::read_to_string("/proc/thread-self/schedstat")
        .ok()
        .and_then(|s| {
            s.split_whitespace()
                .next()
                .and_then(|n| n.parse::<u64>().ok())
        })
        .map_or(f64::NAN, |ns| ns as f64 / 1e9)
}

fn median(v: &mut [f64]) -> f64 {
    v.sort_by(f64::total_cmp);
    let n = v.len();
    if n % 2 == 1 {
        v[n / 2]
    } else {
        (v[n / 2 - 1] + v[n / 2]) / 2.0
    }
}

fn batch_bytes(batch: &RecordBatch) -> usize {
    batch
        .columns()
        .iter()
        .map(|c| data_bytes(&c.to_data()))
        .sum()
}

fn data_bytes(data: &ArrayData) -> usize {
    let own: usize = data.buffers().iter().map(|b| b.len()).sum();
    let nulls = data.nulls().map_or(0, |n| n.buffer().len());
    own + nulls + data.child_data().iter().map(data_bytes).sum::<usize>()
}
