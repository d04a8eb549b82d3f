//! Reference logical hashes: the main ODF implementation's path, arrow-rs readers feeding
//! arrow-digest's RecordDigestV0<Sha3_256>.

use std::fs::File;
use std::io::Read;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::Path;
use std::sync::{Arc, Mutex};

use arrow::datatypes::SchemaRef;
use arrow::record_batch::RecordBatchReader;
use arrow::record_batch::RecordBatch;
use arrow_digest::{RecordDigest, RecordDigestV0};
use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;
use sha3::{Digest, Sha3_256};

/// Batch size of the main implementation's Parquet reading path.
pub const PARQUET_BATCH_SIZE: usize = 10_000;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    Parquet,
    IpcFile,
    IpcStream,
}

impl Format {
    pub fn name(self) -> &'static str {
        match self {
            Format::Parquet => "parquet",
            Format::IpcFile => "arrow-ipc-file",
            Format::IpcStream => "arrow-ipc-stream",
        }
    }
}

pub struct FileHash {
    pub logical: String,
    pub rows: u64,
    pub schema: String,
    pub format: Format,
}

/// Multibase (base16, 'f') of the multihash arrow0-sha3-256 (code 0x300016, 32 bytes).
pub fn logical_multibase(digest: &[u8]) -> String {
    format!("f9680c00120{}", hex(digest))
}

/// Multibase (base16, 'f') of the multihash sha3-256 (code 0x16, 32 bytes).
pub fn physical_multibase(digest: &[u8]) -> String {
    format!("f1620{}", hex(digest))
}

pub fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// Physical hash: SHA3-256 of the whole file (the sha3 crate, independent of odf-hash).
pub fn physical_hash(path: &Path) -> Result<String, String> {
    let mut file = File::open(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut hasher = Sha3_256::new();
    let mut buf = vec![0u8; 1 << 16];
    loop {
        let n = file.read(&mut buf).map_err(|e| format!("{}: {e}", path.display()))?;
        if n == 0 {
            break;
        }
        hasher.update(&buf[..n]);
    }
    Ok(physical_multibase(&hasher.finalize()))
}

/// Detects the format from the first bytes of the file, never from its name.
pub fn detect_format(path: &Path) -> Result<Format, String> {
    let mut head = [0u8; 8];
    let mut file = File::open(path).map_err(|e| e.to_string())?;
    let mut n = 0;
    while n < head.len() {
        let k = file.read(&mut head[n..]).map_err(|e| e.to_string())?;
        if k == 0 {
            break;
        }
        n += k;
    }
    if n >= 4 && &head[..4] == b"PAR1" {
        Ok(Format::Parquet)
    } else if n >= 6 && &head[..6] == b"ARROW1" {
        Ok(Format::IpcFile)
    } else if n >= 4 && head[..4] == [0xff, 0xff, 0xff, 0xff] {
        Ok(Format::IpcStream)
    } else {
        // (Streams written before Arrow 0.15 lack the continuation marker; not accepted.)
        Err("not a Parquet file or an Arrow IPC file or stream (unknown magic bytes)".to_string())
    }
}

fn digest_batches(
    schema: SchemaRef,
    batches: impl Iterator<Item = Result<RecordBatch, String>>,
) -> Result<(Vec<u8>, u64), String> {
    let mut hasher = RecordDigestV0::<arrow_digest_sha3::Sha3_256>::new(schema.as_ref());
    let mut rows = 0u64;
    for batch in batches {
        let batch = batch?;
        rows += batch.num_rows() as u64;
        hasher.update(&batch);
    }
    Ok((hasher.finalize().to_vec(), rows))
}

fn hash_unchecked(path: &Path) -> Result<FileHash, String> {
    let format = detect_format(path)?;
    let file = File::open(path).map_err(|e| e.to_string())?;
    let (schema, (digest, rows)) = match format {
        Format::Parquet => {
            let reader = ParquetRecordBatchReaderBuilder::try_new(file)
                .map_err(|e| e.to_string())?
                .with_batch_size(PARQUET_BATCH_SIZE)
                .build()
                .map_err(|e| e.to_string())?;
            let schema = reader.schema();
            let d = digest_batches(schema.clone(), reader.map(|b| b.map_err(|e| e.to_string())))?;
            (schema, d)
        }
        Format::IpcFile => {
            let reader = arrow::ipc::reader::FileReader::try_new(file, None)
                .map_err(|e| e.to_string())?;
            let schema = reader.schema();
            let d = digest_batches(schema.clone(), reader.map(|b| b.map_err(|e| e.to_string())))?;
            (schema, d)
        }
        Format::IpcStream => {
            let reader = arrow::ipc::reader::StreamReader::try_new(std::io::BufReader::new(file), None)
                .map_err(|e| e.to_string())?;
            let schema = reader.schema();
            let d = digest_batches(schema.clone(), reader.map(|b| b.map_err(|e| e.to_string())))?;
            (schema, d)
        }
    };
    Ok(FileHash {
        logical: logical_multibase(&digest),
        rows,
        schema: schema.to_string(),
        format,
    })
}

/// The reference logical hash of a file. arrow-digest panics on types it does not support
/// (and arrow-rs may panic on some corrupt inputs): a panic is reported as an error.
pub fn hash_file(path: &Path) -> Result<FileHash, String> {
    // The panic is expected and reported as a value: silence the default message meanwhile.
    // The hook keeps the formatted message (the payload alone may lose it).
    let message = Arc::new(Mutex::new(String::new()));
    let hook = std::panic::take_hook();
    {
        let message = message.clone();
        std::panic::set_hook(Box::new(move |info| {
            // "panicked at FILE:LINE:COL:\nMESSAGE" -> "MESSAGE (at CRATE/src/FILE:LINE:COL)"
            let full = info.to_string();
            let text = match full.strip_prefix("panicked at ").and_then(|r| r.split_once(":\n")) {
                Some((location, msg)) => {
                    let parts: Vec<&str> = location.rsplitn(4, '/').collect();
                    let short: Vec<&str> = parts.iter().take(3).rev().copied().collect();
                    format!("{msg} (at {})", short.join("/"))
                }
                None => full,
            };
            *message.lock().unwrap_or_else(|e| e.into_inner()) = text;
        }));
    }
    let result = catch_unwind(AssertUnwindSafe(|| hash_unchecked(path)));
    std::panic::set_hook(hook);
    match result {
        Ok(r) => r,
        Err(_) => {
            let msg = message.lock().unwrap_or_else(|e| e.into_inner()).clone();
            Err(format!("reference panicked: {msg}"))
        }
    }
}

mod arrow_digest_sha3 {
    pub use sha3::Sha3_256;
}
