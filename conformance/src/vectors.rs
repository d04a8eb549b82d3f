//! The committed conformance vectors (tests/conformance/vectors.json):
//!   - generated tables, each focused on a group of types so a few dozen cover them all,
//!     written as IPC file / IPC stream / Parquet under data/gen/;
//!   - Parquet files written by pyarrow (make_pyarrow_fixtures.py) under data/pyarrow/.
//! Each entry carries the reference logical hash of the file (or the reference's error)
//! and its physical hash (the sha3 crate). `--check` regenerates the generated part in a
//! temporary directory and re-hashes every committed file, and fails on any difference.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use serde_json::{json, Value};

use crate::gen::types::{Leaf, ALL_LEAVES};
use crate::gen::{self, Coverage, TableProfile};
use crate::reference;
use crate::rng::Rng;

/// Seed of the committed generated vectors. Changing it (or the generator) changes the
/// committed files; the check test then fails until vectors are regenerated.
const VECTOR_SEED: u64 = 0x0DF0_4A54_2026;

const REFUSED_NOTE: &str = "arrow-rs refuses this file (so kamu cannot have hashed it): odf-hash \
must refuse it too, with an error (docs/divergences.md).";

/// Shaped files (gen/shapes.rs) committed: the first of the seeded stream until every
/// required shape category is covered, at most this many.
const MAX_SHAPED_VECTORS: u64 = 60;

const DIVERGENCE_NOTE: &str = "The reference (arrow-digest) cannot hash this file as arrow-rs reads it; odf-hash \
hashes the decoded values instead (docs/divergences.md). When 'equivalent' names another \
vector, odf-hash's hash of this file must equal that vector's reference hash.";

struct Group {
    name: &'static str,
    tables: usize,
    profile: TableProfile,
}

fn group(name: &'static str, tables: usize, leaves: &[Leaf], tweak: impl FnOnce(&mut TableProfile)) -> Group {
    let mut profile = TableProfile::default();
    profile.types.leaves = leaves.to_vec();
    profile.types.p_list = 0.0;
    profile.types.p_struct = 0.0;
    profile.types.p_negative_scale = 0.0;
    profile.min_columns = leaves.len().min(8);
    profile.max_columns = leaves.len().min(8) + 2;
    profile.cycle_leaves = leaves.len() < ALL_LEAVES.len();
    profile.max_batches = 4;
    profile.max_batch_rows = 40;
    tweak(&mut profile);
    Group { name, tables, profile }
}

fn groups() -> Vec<Group> {
    use Leaf::*;
    vec![
        group("ints", 2, &[Int8, Int16, Int32, Int64, UInt8, UInt16, UInt32, UInt64], |_| {}),
        group("floats", 1, &[Float16, Float32, Float64], |_| {}),
        group("decimals", 2, &[Decimal32, Decimal64, Decimal128, Decimal256], |_| {}),
        group("decimals_negative_scale", 1, &[Decimal32, Decimal64, Decimal128, Decimal256], |p| {
            p.types.p_negative_scale = 1.0
        }),
        group("dates_times", 2, &[Date32, Date64, Time32, Time64], |_| {}),
        group("timestamps", 3, &[Timestamp], |p| {
            p.min_columns = 6;
            p.max_columns = 10;
        }),
        group("binaries", 2, &[Binary, LargeBinary, FixedSizeBinary, BinaryView], |p| p.p_huge = 0.02),
        group("strings", 2, &[Utf8, LargeUtf8, Utf8View], |p| p.p_huge = 0.02),
        group("boolean", 1, &[Boolean], |_| {}),
        group("lists", 3, ALL_LEAVES, |p| {
            p.types.p_list = 0.85;
            p.min_columns = 2;
            p.max_columns = 5;
        }),
        group("structs", 3, ALL_LEAVES, |p| {
            p.types.p_struct = 0.7;
            p.types.p_list = 0.1;
            p.min_columns = 2;
            p.max_columns = 4;
        }),
        group("zero_rows", 2, ALL_LEAVES, |p| {
            p.p_zero_rows = 1.0;
            p.types.p_list = 0.2;
            p.types.p_struct = 0.2;
        }),
        group("mixed", 4, ALL_LEAVES, |p| {
            *p = TableProfile { max_batch_rows: 40, ..TableProfile::default() };
            p.types.p_negative_scale = 0.0;
        }),
    ]
}

fn entry_for(dir: &Path, rel: &str, source: &str) -> Value {
    let path = dir.join(rel);
    let mut e = json!({"file": rel, "source": source});
    match reference::detect_format(&path) {
        Ok(f) => e["format"] = json!(f.name()),
        Err(err) => e["format_error"] = json!(err),
    }
    match reference::hash_file(&path) {
        Ok(h) => {
            e["logical"] = json!(h.logical);
            e["rows"] = json!(h.rows);
            e["schema"] = json!(h.schema);
        }
        Err(err) => {
            // A panic is arrow-digest meeting a type it cannot hash (a documented divergence);
            // any other error is arrow-rs refusing the file, which odf-hash must refuse too.
            let panicked = err.starts_with("reference panicked");
            e["reference_error"] = json!(err);
            e["note"] = json!(if panicked { DIVERGENCE_NOTE } else { REFUSED_NOTE });
            if !panicked {
                e["expect"] = json!("error");
            }
        }
    }
    match reference::physical_hash(&path) {
        Ok(p) => e["physical"] = json!(p),
        Err(err) => e["physical_error"] = json!(err),
    }
    e
}

/// Writes the generated tables under dir/data/gen and returns their entries.
fn generate(dir: &Path) -> Result<(Vec<Value>, Coverage), String> {
    let gen_dir = dir.join("data").join("gen");
    if gen_dir.exists() {
        std::fs::remove_dir_all(&gen_dir).map_err(|e| format!("{}: {e}", gen_dir.display()))?;
    }
    std::fs::create_dir_all(&gen_dir).map_err(|e| format!("{}: {e}", gen_dir.display()))?;
    let mut entries = Vec::new();
    let mut coverage = Coverage::default();
    let mut stream = 0u64;
    for g in groups() {
        for k in 0..g.tables {
            stream += 1;
            let mut rng = Rng::derive(VECTOR_SEED, stream);
            let table = gen::random_table(&mut rng, &g.profile);
            let base = format!("{}_{k}", g.name);
            // Every table as an IPC file and as Parquet; every other one also as a stream.
            let mut outputs = vec![(format!("{base}.arrow"), 0usize), (format!("{base}.parquet"), 1)];
            if k % 2 == 1 {
                outputs.push((format!("{base}.arrows"), 2));
            }
            for (name, kind) in outputs {
                let path = gen_dir.join(&name);
                let written = match kind {
                    0 => gen::write_ipc_file(&path, &table, &mut rng).map(|_| ()),
                    1 => gen::write_parquet(&path, &table, &mut rng).map(|_| ()),
                    _ => gen::write_ipc_stream(&path, &table, &mut rng),
                };
                if let Err(e) = written {
                    coverage.skip(if kind == 1 { "parquet" } else { "ipc" }, format!("{name}: {e}"));
                    continue;
                }
                coverage.add(if kind == 1 { 1 } else { 0 }, &table);
                let mut e = entry_for(dir, &format!("data/gen/{name}"), "generated");
                e["types"] = json!(table.type_names());
                e["categories"] = json!(table.categories.iter().collect::<Vec<_>>());
                entries.push(e);
            }
        }
    }
    // Parquet files of other writers' shapes, until every shape category is covered.
    let mut shape_cats = std::collections::BTreeSet::new();
    let required = gen::shapes::required_categories();
    for k in 0..MAX_SHAPED_VECTORS {
        if required.iter().all(|c| shape_cats.contains(c)) {
            break;
        }
        let mut rng = Rng::derive(VECTOR_SEED ^ gen::shapes::SEED_SALT, k);
        let name = format!("shapes_{k}.parquet");
        let shaped = gen::shapes::write_shaped(&gen_dir.join(&name), &mut rng)
            .map_err(|e| format!("{name}: {e}"))?;
        let mut e = entry_for(dir, &format!("data/gen/{name}"), "generated");
        e["types"] = json!(gen::shapes::describe_fields(&shaped.fields));
        e["writer"] = json!(shaped.describe);
        e["categories"] = json!(shaped.categories.iter().collect::<Vec<_>>());
        shape_cats.extend(shaped.categories);
        entries.push(e);
    }
    let missing: Vec<&String> = required.iter().filter(|c| !shape_cats.contains(*c)).collect();
    if !missing.is_empty() {
        return Err(format!("shaped vectors do not cover: {missing:?}"));
    }
    // Arrow IPC files of the value classes the Arrow libraries judge differently.
    for class in gen::values::classes() {
        for (ext, stream) in [("arrow", false), ("arrows", true)] {
            let name = format!("values_{}.{ext}", class.name);
            gen::values::write_ipc(&gen_dir.join(&name), &class.batch, stream)?;
            let mut e = entry_for(dir, &format!("data/gen/{name}"), "generated");
            e["types"] = json!(class.batch.schema().fields().iter()
                .map(|f| format!("{}", f.data_type())).collect::<Vec<_>>());
            e["categories"] = json!([format!("value class {}", class.name)]);
            entries.push(e);
        }
    }
    Ok((entries, coverage))
}

/// Entries of the pyarrow fixtures listed in dir/data/pyarrow/fixtures.json.
fn pyarrow_entries(dir: &Path) -> Result<Vec<Value>, String> {
    let list = dir.join("data/pyarrow/fixtures.json");
    let text = std::fs::read_to_string(&list).map_err(|e| {
        format!("{}: {e} (run tests/conformance/make_pyarrow_fixtures.py first)", list.display())
    })?;
    let doc: Value = serde_json::from_str(&text).map_err(|e| format!("{}: {e}", list.display()))?;
    let mut out = Vec::new();
    for f in doc["fixtures"].as_array().ok_or("fixtures.json: no 'fixtures' array")? {
        let file = f["file"].as_str().ok_or("fixtures.json: entry without 'file'")?;
        let mut e = entry_for(dir, &format!("data/pyarrow/{file}"), "pyarrow");
        for key in ["description", "writer", "options"] {
            e[key] = f[key].clone();
        }
        if let Some(eq) = f["equivalent"].as_str() {
            e["equivalent"] = json!(format!("data/pyarrow/{eq}"));
        }
        out.push(e);
    }
    Ok(out)
}

fn document(entries: Vec<Value>) -> Value {
    json!({
        "description": "Conformance vectors for arrow0-sha3-256 (logical) and sha3-256 (physical) hashes. \
'logical' is the reference: arrow-digest 60.0.0 RecordDigestV0<Sha3_256> over the batches \
arrow-rs 60 reads from the file (Parquet: ParquetRecordBatchReaderBuilder at default options, \
batch size 10000; IPC: arrow-ipc readers). 'physical' is SHA3-256 of the file (sha3 crate). \
Regenerate with: odf-hash-conformance vectors --out tests/conformance",
        "generator": "conformance/ (odf-hash-conformance vectors)",
        "vectors": entries,
    })
}

pub fn cmd_vectors(args: &[String]) -> Result<ExitCode, String> {
    if let Some(out) = crate::flag_value(args, "--out") {
        let dir = PathBuf::from(out);
        let (mut entries, coverage) = generate(&dir)?;
        let missing = coverage.report();
        if !missing.is_empty() {
            return Err(format!("vectors do not cover: {}", missing.join(", ")));
        }
        entries.extend(pyarrow_entries(&dir)?);
        let n = entries.len();
        let text = serde_json::to_string_pretty(&document(entries)).map_err(|e| e.to_string())?;
        std::fs::write(dir.join("vectors.json"), text + "\n").map_err(|e| e.to_string())?;
        eprintln!("vectors: wrote {n} vectors to {}", dir.join("vectors.json").display());
        return Ok(ExitCode::SUCCESS);
    }
    if let Some(committed) = crate::flag_value(args, "--check") {
        return check(Path::new(committed));
    }
    Err("vectors: --out DIR or --check DIR".into())
}

const COMPARED: &[&str] = &["format", "logical", "rows", "reference_error", "physical"];

fn check(dir: &Path) -> Result<ExitCode, String> {
    let path = dir.join("vectors.json");
    let text = std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    let doc: Value = serde_json::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))?;
    let committed = doc["vectors"].as_array().ok_or("vectors.json: no 'vectors' array")?;
    let mut problems = Vec::new();

    // 1. Every committed file still hashes to its committed values.
    for v in committed {
        let rel = v["file"].as_str().unwrap_or_default();
        let now = entry_for(dir, rel, "");
        for key in COMPARED {
            if v.get(*key) != now.get(*key) {
                problems.push(format!("{rel}: committed {key} {} but the file now gives {}",
                    v.get(*key).unwrap_or(&Value::Null), now.get(*key).unwrap_or(&Value::Null)));
            }
        }
    }

    // 2. The generator still produces the committed generated vectors.
    let tmp = std::env::temp_dir().join(format!("odf-hash-vectors-{}", std::process::id()));
    let (fresh, _) = generate(&tmp)?;
    let _ = std::fs::remove_dir_all(&tmp);
    let committed_gen: Vec<&Value> = committed.iter().filter(|v| v["source"] == "generated").collect();
    if committed_gen.len() != fresh.len() {
        problems.push(format!("generator makes {} vectors, {} committed", fresh.len(), committed_gen.len()));
    }
    for f in &fresh {
        let rel = f["file"].as_str().unwrap_or_default();
        match committed_gen.iter().find(|v| v["file"] == f["file"]) {
            None => problems.push(format!("{rel}: generated but not committed")),
            Some(v) => {
                for key in ["logical", "rows", "reference_error"] {
                    if v.get(key) != f.get(key) {
                        problems.push(format!("{rel}: committed {key} {} but the generator now gives {}",
                            v.get(key).unwrap_or(&Value::Null), f.get(key).unwrap_or(&Value::Null)));
                    }
                }
            }
        }
    }
    for p in &problems {
        eprintln!("vectors: {p}");
    }
    eprintln!("vectors: checked {} committed vectors and {} regenerated: {} problem(s)",
              committed.len(), fresh.len(), problems.len());
    Ok(if problems.is_empty() { ExitCode::SUCCESS } else { ExitCode::from(1) })
}
