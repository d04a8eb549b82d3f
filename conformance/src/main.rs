//! odf-hash-conformance: the reference side of odf-hash's conformance tests.
//!
//!   hash FILE...                       reference logical hash of each file, one JSON per line
//!   gen --seed S --count N --out DIR   seeded random tables as IPC + Parquet + manifest.jsonl
//!   vectors --out DIR | --check DIR    (re)generate / check the committed vector set
//!   bench [--runs N] [--warmup N] FILE...  in-memory hashing speed (see bench.rs)
//!
//! The reference is arrow-digest's RecordDigestV0<Sha3_256> fed by the arrow-rs readers
//! exactly as the main ODF implementation reads data files.

mod bench;
mod gen;
mod reference;
mod rng;
mod vectors;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use serde_json::json;

const USAGE: &str = "usage:
  odf-hash-conformance hash FILE...
  odf-hash-conformance gen --seed S --count N --out DIR [--start I] [--require-coverage]
                           [--shapes-every K]   (also DIR/S_I.shapes.parquet for every K-th table)
  odf-hash-conformance vectors --out DIR
  odf-hash-conformance vectors --check DIR
  odf-hash-conformance inspect FILE     (validity of every column per batch, as arrow-rs reads it)
  odf-hash-conformance pages FILE       (every Parquet page header; byte arrays that are not UTF-8)
  odf-hash-conformance bench [--runs N] [--warmup N] FILE...   (in-memory hashing speed)";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args.first().map(String::as_str) {
        Some("hash") => cmd_hash(&args[1..]),
        Some("gen") => cmd_gen(&args[1..]),
        Some("vectors") => vectors::cmd_vectors(&args[1..]),
        Some("inspect") => cmd_inspect(&args[1..]),
        Some("pages") => cmd_pages(&args[1..]),
        Some("bench") => bench::cmd_bench(&args[1..]),
        _ => Err(USAGE.to_string()),
    };
    match result {
        Ok(code) => code,
        Err(e) => {
            eprintln!("odf-hash-conformance: {e}");
            ExitCode::from(2)
        }
    }
}

/// Value of `--name` in args, if present.
pub fn flag_value<'a>(args: &'a [String], name: &str) -> Option<&'a str> {
    args.iter().position(|a| a == name).and_then(|i| args.get(i + 1)).map(String::as_str)
}

fn parse_u64(args: &[String], name: &str) -> Result<Option<u64>, String> {
    flag_value(args, name)
        .map(|v| v.parse::<u64>().map_err(|_| format!("{name}: not a number: {v}")))
        .transpose()
}

fn cmd_hash(files: &[String]) -> Result<ExitCode, String> {
    if files.is_empty() {
        return Err(USAGE.to_string());
    }
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let mut failed = false;
    for f in files {
        let line = match reference::hash_file(Path::new(f)) {
            Ok(h) => json!({"path": f, "format": h.format.name(), "logical": h.logical,
                            "rows": h.rows, "schema": h.schema}),
            Err(e) => {
                failed = true;
                json!({"path": f, "error": e})
            }
        };
        writeln!(out, "{line}").map_err(|e| e.to_string())?;
    }
    Ok(if failed { ExitCode::from(1) } else { ExitCode::SUCCESS })
}

fn cmd_gen(args: &[String]) -> Result<ExitCode, String> {
    let seed = parse_u64(args, "--seed")?.ok_or("gen: --seed is required")?;
    let count = parse_u64(args, "--count")?.ok_or("gen: --count is required")?;
    let start = parse_u64(args, "--start")?.unwrap_or(0);
    let out = PathBuf::from(flag_value(args, "--out").ok_or("gen: --out is required")?);
    let require_coverage = args.iter().any(|a| a == "--require-coverage");
    let shapes_every = parse_u64(args, "--shapes-every")?.unwrap_or(1);
    std::fs::create_dir_all(&out).map_err(|e| format!("{}: {e}", out.display()))?;
    let manifest_path = out.join("manifest.jsonl");
    let mut manifest = std::io::BufWriter::new(
        std::fs::File::create(&manifest_path).map_err(|e| format!("{}: {e}", manifest_path.display()))?,
    );
    // The campaign's tables also hold values the Arrow libraries judge differently (the
    // committed vectors' groups keep the default profile, so their streams do not change).
    let profile = gen::TableProfile {
        p_out_of_range: 0.03,
        p_invalid_under_null: 0.01,
        ..gen::TableProfile::default()
    };
    let mut coverage = gen::Coverage::default();
    let mut shapes = std::collections::BTreeMap::<String, usize>::new();
    let mut shaped_files = 0usize;
    let mut reference_errors = 0usize;
    for index in start..start + count {
        let mut rng = rng::Rng::derive(seed, index);
        let table = gen::random_table(&mut rng, &profile);
        for (fi, ext) in ["arrow", "parquet"].iter().enumerate() {
            let name = format!("{seed}_{index}.{ext}");
            let path = out.join(&name);
            let written = if fi == 0 {
                gen::write_ipc_file(&path, &table, &mut rng).map(|_| String::new())
            } else {
                gen::write_parquet(&path, &table, &mut rng)
            };
            if let Err(e) = written {
                coverage.skip(ext, format!("{name}: {e}"));
                continue;
            }
            coverage.add(fi, &table);
            let mut line = json!({"file": name, "seed": seed, "index": index,
                                  "types": table.type_names()});
            match reference::hash_file(&path) {
                Ok(h) => {
                    line["format"] = json!(h.format.name());
                    line["logical"] = json!(h.logical);
                    line["rows"] = json!(h.rows);
                }
                Err(e) => {
                    reference_errors += 1;
                    eprintln!("gen: reference cannot read back {name}: {e}");
                    line["format"] = json!(if fi == 0 { "arrow-ipc-file" } else { "parquet" });
                    line["reference_error"] = json!(e);
                }
            }
            writeln!(manifest, "{line}").map_err(|e| e.to_string())?;
        }
        // A Parquet file of other writers' shapes (gen/shapes.rs), from its own stream of
        // random numbers so the tables above stay what they were for a seed.
        if shapes_every > 0 && index % shapes_every == 0 {
            let name = format!("{seed}_{index}.shapes.parquet");
            let path = out.join(&name);
            let mut rng = rng::Rng::derive(seed ^ gen::shapes::SEED_SALT, index);
            let shaped = gen::shapes::write_shaped(&path, &mut rng)
                .map_err(|e| format!("{name}: {e}"))?;
            shaped_files += 1;
            for c in &shaped.categories {
                *shapes.entry(c.clone()).or_default() += 1;
            }
            let mut line = json!({"file": name, "seed": seed, "index": index,
                                  "types": gen::shapes::describe_fields(&shaped.fields),
                                  "writer": shaped.describe});
            match reference::hash_file(&path) {
                Ok(h) => {
                    line["format"] = json!(h.format.name());
                    line["logical"] = json!(h.logical);
                    line["rows"] = json!(h.rows);
                }
                Err(e) => {
                    reference_errors += 1;
                    eprintln!("gen: reference cannot read back {name}: {e}");
                    line["format"] = json!("parquet");
                    line["reference_error"] = json!(e);
                }
            }
            writeln!(manifest, "{line}").map_err(|e| e.to_string())?;
        }
    }
    manifest.flush().map_err(|e| e.to_string())?;
    let mut missing = coverage.report();
    if shaped_files > 0 {
        eprintln!("coverage: {shaped_files} Parquet files of other writers' shapes");
        for (c, n) in &shapes {
            eprintln!("  {c:<36} {n:>7}");
        }
        let absent: Vec<String> = gen::shapes::required_categories()
            .into_iter()
            .filter(|c| !shapes.contains_key(c))
            .collect();
        if !absent.is_empty() {
            eprintln!("coverage: shapes MISSING {}", absent.join(", "));
        }
        missing.extend(absent);
    }
    if reference_errors > 0 {
        eprintln!("gen: {reference_errors} file(s) the reference could not read back");
    }
    if require_coverage && !missing.is_empty() {
        return Ok(ExitCode::from(1));
    }
    Ok(ExitCode::SUCCESS)
}

/// Debugging aid: the pages of every column chunk as parquet's page reader returns them
/// (after decompression), and for PLAIN byte-array pages the values that are not UTF-8.
fn cmd_pages(files: &[String]) -> Result<ExitCode, String> {
    use parquet::column::page::Page;
    use parquet::file::reader::{FileReader, SerializedFileReader};
    for f in files {
        let file = std::fs::File::open(f).map_err(|e| format!("{f}: {e}"))?;
        let reader = SerializedFileReader::new(file).map_err(|e| e.to_string())?;
        for g in 0..reader.num_row_groups() {
            let rg = reader.get_row_group(g).map_err(|e| e.to_string())?;
            for c in 0..rg.num_columns() {
                let descr = rg.metadata().column(c).column_descr_ptr();
                let mut pages = rg.get_column_page_reader(c).map_err(|e| e.to_string())?;
                while let Some(page) = pages.get_next_page().map_err(|e| e.to_string())? {
                    let (kind, values, encoding, buf) = match &page {
                        Page::DataPage { buf, num_values, encoding, .. } => ("data v1", *num_values, *encoding, buf),
                        Page::DataPageV2 { buf, num_values, encoding, .. } => ("data v2", *num_values, *encoding, buf),
                        Page::DictionaryPage { buf, num_values, encoding, .. } => ("dictionary", *num_values, *encoding, buf),
                    };
                    println!("{f} row group {g} column {c} ({}): {kind} page, {values} values, {encoding:?}, {} bytes",
                             descr.path(), buf.len());
                    if kind == "dictionary" && descr.physical_type() == parquet::basic::Type::BYTE_ARRAY {
                        let mut at = 0usize;
                        let mut k = 0;
                        while at + 4 <= buf.len() {
                            let n = u32::from_le_bytes(buf[at..at + 4].try_into().unwrap()) as usize;
                            let v = &buf[at + 4..(at + 4 + n).min(buf.len())];
                            if std::str::from_utf8(v).is_err() {
                                println!("  dictionary value {k} is not UTF-8: {}", reference::hex(v));
                            }
                            at += 4 + n;
                            k += 1;
                        }
                    }
                }
            }
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// Debugging aid for mismatches: how arrow-rs represents each column's validity per batch.
fn cmd_inspect(files: &[String]) -> Result<ExitCode, String> {
    use arrow::array::{Array, StructArray};
    fn walk(prefix: &str, a: &dyn Array, out: &mut Vec<String>) {
        let nulls = a.nulls().map_or("no bitmap".to_string(), |n| {
            let at: Vec<String> = (0..n.len()).filter(|&i| n.is_null(i)).map(|i| i.to_string()).collect();
            format!("{} null at [{}]", n.null_count(), at.join(","))
        });
        out.push(format!("{prefix}: {} len {} offset {} {nulls}", a.data_type(), a.len(), a.offset()));
        if let Some(s) = a.as_any().downcast_ref::<StructArray>() {
            for (f, c) in s.fields().iter().zip(s.columns()) {
                walk(&format!("{prefix}.{}", f.name()), c.as_ref(), out);
            }
        }
    }
    for f in files {
        for (i, batch) in reference::read_batches(Path::new(f))?.iter().enumerate() {
            let mut out = Vec::new();
            for (field, col) in batch.schema().fields().iter().zip(batch.columns()) {
                walk(field.name(), col.as_ref(), &mut out);
            }
            println!("{f} batch {i} ({} rows)", batch.num_rows());
            for line in out {
                println!("  {line}");
            }
        }
    }
    Ok(ExitCode::SUCCESS)
}
