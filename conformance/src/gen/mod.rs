//! Seeded random tables, written as Arrow IPC and Parquet, with their reference hashes.

pub mod arrays;
pub mod shapes;
pub mod types;
pub mod values;

use std::collections::{BTreeMap, BTreeSet};
use std::fs::File;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use arrow::array::ArrayRef;
use arrow::datatypes::{Field, Schema, SchemaRef};
use arrow::ipc::writer::{FileWriter, IpcWriteOptions, StreamWriter};
use arrow::ipc::CompressionType;
use arrow::record_batch::RecordBatch;
use parquet::arrow::ArrowWriter;
use parquet::basic::{Compression, ZstdLevel};
use parquet::file::properties::{WriterProperties, WriterVersion};

use crate::rng::Rng;
use arrays::ArrayGen;
use types::TypeProfile;

#[derive(Clone, Debug)]
pub struct TableProfile {
    pub types: TypeProfile,
    pub min_columns: usize,
    pub max_columns: usize,
    /// Top-level column i is a leaf of type types.leaves[i % len] (focused vector tables).
    pub cycle_leaves: bool,
    pub max_batches: usize,
    pub max_batch_rows: usize,
    pub max_list_len: usize,
    pub p_zero_rows: f64,
    pub p_huge: f64,
    /// Per decimal / time column: values outside the precision or the day (arrow-rs reads
    /// them, Arrow C++'s full validation refuses them). 0 draws no random numbers.
    pub p_out_of_range: f64,
    /// Per string column with nulls: invalid UTF-8 under a null slot (arrow-rs's IPC reader
    /// refuses the file). 0 draws no random numbers.
    pub p_invalid_under_null: f64,
}

impl Default for TableProfile {
    fn default() -> Self {
        TableProfile {
            types: TypeProfile::default(),
            min_columns: 1,
            max_columns: 6,
            cycle_leaves: false,
            max_batches: 6,
            max_batch_rows: 80,
            max_list_len: 4,
            p_zero_rows: 0.03,
            p_huge: 0.005,
            p_out_of_range: 0.0,
            p_invalid_under_null: 0.0,
        }
    }
}

pub struct Table {
    pub schema: SchemaRef,
    pub batches: Vec<RecordBatch>,
    /// Type categories (see types::categorize) and data shapes met.
    pub categories: BTreeSet<String>,
}

impl Table {
    pub fn type_names(&self) -> Vec<String> {
        self.schema.fields().iter().map(|f| format!("{}", f.data_type())).collect()
    }
}

/// A random table: 1..max_columns columns, a number of batches of uneven sizes (empty
/// batches included), some batches sliced at a non-zero offset.
pub fn random_table(rng: &mut Rng, p: &TableProfile) -> Table {
    let ncols = rng.range(p.min_columns, p.max_columns.max(p.min_columns));
    let mut categories = BTreeSet::new();
    let fields: Vec<Field> = (0..ncols)
        .map(|i| {
            let dt = if p.cycle_leaves {
                let leaf = p.types.leaves[i % p.types.leaves.len()];
                types::leaf_type(rng, leaf, p.types.p_negative_scale)
            } else {
                types::random_type(rng, &p.types, 0, 0, false)
            };
            types::categorize(&dt, 0, &mut categories);
            Field::new(types::field_name(rng, i), dt, rng.chance(0.7))
        })
        .collect();
    let schema = Arc::new(Schema::new(fields));

    let zero_rows = rng.chance(p.p_zero_rows);
    let nbatches = if zero_rows { rng.range(0, 2) } else { rng.range(1, p.max_batches) };
    let mut batches = Vec::with_capacity(nbatches);
    for _ in 0..nbatches {
        let rows = if zero_rows {
            0
        } else {
            match rng.below(10) {
                0 => 0,
                1 => 1,
                2..=5 => rng.range(2, 16),
                _ => rng.range(16, p.max_batch_rows),
            }
        };
        let sliced = rng.chance(0.3);
        let (head, tail) = if sliced { (rng.range(1, 9), rng.range(0, 5)) } else { (0, 0) };
        let total = head + rows + tail;
        let columns: Vec<ArrayRef> = {
            let mut g = ArrayGen {
                rng: &mut *rng,
                features: &mut categories,
                max_list_len: p.max_list_len,
                p_huge: p.p_huge,
                p_out_of_range: p.p_out_of_range,
                p_invalid_under_null: p.p_invalid_under_null,
            };
            schema
                .fields()
                .iter()
                .map(|f| g.array(f.data_type(), f.is_nullable(), total, None))
                .collect()
        };
        let batch = RecordBatch::try_new(schema.clone(), columns).expect("generated batch is valid");
        if sliced {
            categories.insert("sliced batch".into());
        }
        if rows == 0 {
            categories.insert("empty batch".into());
        }
        batches.push(batch.slice(head, rows));
    }
    if batches.len() >= 4 {
        categories.insert("4+ batches".into());
    }
    if zero_rows {
        categories.insert("zero-row table".into());
    }
    Table { schema, batches, categories }
}

fn write_atomically(path: &Path, write: impl FnOnce(File) -> Result<(), String>) -> Result<(), String> {
    let tmp: PathBuf = path.with_extension("tmp");
    let file = File::create(&tmp).map_err(|e| format!("{}: {e}", tmp.display()))?;
    match write(file) {
        Ok(()) => std::fs::rename(&tmp, path).map_err(|e| e.to_string()),
        Err(e) => {
            let _ = std::fs::remove_file(&tmp);
            Err(e)
        }
    }
}

/// An Arrow IPC file; sometimes with LZ4 or ZSTD buffer compression.
pub fn write_ipc_file(path: &Path, t: &Table, rng: &mut Rng) -> Result<(), String> {
    let options = ipc_options(rng)?;
    write_atomically(path, |file| {
        let mut w = FileWriter::try_new_with_options(file, &t.schema, options)
            .map_err(|e| e.to_string())?;
        for b in &t.batches {
            w.write(b).map_err(|e| e.to_string())?;
        }
        w.finish().map_err(|e| e.to_string())
    })
}

/// An Arrow IPC stream (used by the committed vectors).
pub fn write_ipc_stream(path: &Path, t: &Table, rng: &mut Rng) -> Result<(), String> {
    let options = ipc_options(rng)?;
    write_atomically(path, |file| {
        let mut w = StreamWriter::try_new_with_options(file, &t.schema, options)
            .map_err(|e| e.to_string())?;
        for b in &t.batches {
            w.write(b).map_err(|e| e.to_string())?;
        }
        w.finish().map_err(|e| e.to_string())
    })
}

fn ipc_options(rng: &mut Rng) -> Result<IpcWriteOptions, String> {
    let compression = match rng.below(10) {
        0 => Some(CompressionType::LZ4_FRAME),
        1 => Some(CompressionType::ZSTD),
        _ => None,
    };
    IpcWriteOptions::default()
        .try_with_compression(compression)
        .map_err(|e| e.to_string())
}

/// A Parquet file from arrow-rs's ArrowWriter with small row groups and pages, dictionary
/// encoding on or off, format version 1 or 2 pages, and one of the usual codecs.
pub fn write_parquet(path: &Path, t: &Table, rng: &mut Rng) -> Result<String, String> {
    let row_group = rng.range(1, 200);
    let dictionary = rng.chance(0.5);
    let version = if rng.chance(0.5) { WriterVersion::PARQUET_1_0 } else { WriterVersion::PARQUET_2_0 };
    let compression = *rng.pick(&[
        Compression::UNCOMPRESSED,
        Compression::SNAPPY,
        Compression::ZSTD(ZstdLevel::default()),
        Compression::LZ4_RAW,
    ]);
    let page_rows = rng.range(1, 64);
    let props = WriterProperties::builder()
        .set_max_row_group_row_count(Some(row_group))
        .set_dictionary_enabled(dictionary)
        .set_writer_version(version)
        .set_compression(compression)
        .set_data_page_row_count_limit(page_rows)
        .set_write_batch_size(page_rows)
        .build();
    let describe = format!(
        "row_group={row_group} dictionary={dictionary} version={version:?} compression={compression:?} page_rows={page_rows}"
    );
    write_atomically(path, |file| {
        let mut w = ArrowWriter::try_new(file, t.schema.clone(), Some(props))
            .map_err(|e| e.to_string())?;
        for b in &t.batches {
            w.write(b).map_err(|e| e.to_string())?;
        }
        w.close().map(|_| ()).map_err(|e| e.to_string())
    })?;
    Ok(describe)
}

/// Per-format counts of tables reaching each category, and writer skips.
#[derive(Default)]
pub struct Coverage {
    pub counts: BTreeMap<String, [usize; 2]>,
    pub skipped: BTreeMap<String, Vec<String>>,
    pub files: [usize; 2],
}

impl Coverage {
    pub fn add(&mut self, format_index: usize, t: &Table) {
        self.files[format_index] += 1;
        for c in &t.categories {
            self.counts.entry(c.clone()).or_default()[format_index] += 1;
        }
    }

    pub fn skip(&mut self, what: &str, reason: String) {
        self.skipped.entry(what.to_string()).or_default().push(reason);
    }

    /// Prints the summary on stderr; returns the required categories never reached.
    pub fn report(&self) -> Vec<String> {
        eprintln!("coverage: {} IPC files, {} Parquet files", self.files[0], self.files[1]);
        eprintln!("  {:<36} {:>7} {:>7}", "category", "ipc", "parquet");
        for (c, [ipc, pq]) in &self.counts {
            eprintln!("  {c:<36} {ipc:>7} {pq:>7}");
        }
        for (what, reasons) in &self.skipped {
            let mut distinct: Vec<&String> = reasons.iter().collect();
            distinct.sort();
            distinct.dedup();
            eprintln!("  skipped {} {what} file(s) the writer cannot encode:", reasons.len());
            for r in distinct.iter().take(5) {
                eprintln!("    {r}");
            }
        }
        let missing: Vec<String> = types::required_categories()
            .into_iter()
            .filter(|c| self.counts.get(c).map_or(true, |[a, b]| a + b == 0))
            .collect();
        if missing.is_empty() {
            eprintln!("coverage: every required type category reached");
        } else {
            eprintln!("coverage: MISSING {}", missing.join(", "));
        }
        missing
    }
}
