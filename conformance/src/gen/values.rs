//! Arrow IPC files holding values that Arrow C++'s full validation and arrow-rs judge
//! differently, one file per value class (committed vectors, see vectors.rs):
//!   - values arrow-rs reads and arrow-digest hashes, which Arrow C++'s ValidateFull refuses
//!     or never meets: decimals wider than their precision, times outside the day, dates
//!     and timestamps at the ends of their ranges, Date64 values that are not whole days;
//!   - values arrow-rs's IPC reader refuses, which Arrow C++ accepts: invalid UTF-8 or split
//!     characters in null slots, string and binary views in null slots that are malformed,
//!     nulls in non-nullable fields.
//! The arrays are built unchecked where arrow-rs would refuse them; arrow-rs's IPC writer
//! writes their buffers as they are.

use std::sync::Arc;

use arrow::array::{
    make_array, Array, ArrayData, ArrayRef, BinaryViewArray, FixedSizeListArray, Int32Array,
    LargeStringArray, ListArray, StringArray, StringViewArray, StructArray,
};
use arrow::buffer::{Buffer, NullBuffer, OffsetBuffer, ScalarBuffer};
use arrow::datatypes::{i256, DataType, Field, Fields, Schema, TimeUnit};
use arrow::record_batch::RecordBatch;

/// A named table (what arrow-rs makes of it is recorded in the vector, not assumed here).
pub struct ValueClass {
    pub name: &'static str,
    pub batch: RecordBatch,
}

fn nulls(valid: &[bool]) -> Option<NullBuffer> {
    Some(NullBuffer::from(valid.to_vec()))
}

fn fixed(dt: DataType, bytes: Vec<u8>, len: usize, valid: Option<&[bool]>) -> ArrayRef {
    let data = ArrayData::builder(dt)
        .len(len)
        .add_buffer(Buffer::from_vec(bytes))
        .nulls(valid.and_then(nulls))
        .build()
        .expect("fixed-width array");
    make_array(data)
}

fn le<T: Copy, const N: usize>(values: &[T], to: impl Fn(T) -> [u8; N]) -> Vec<u8> {
    values.iter().flat_map(|v| to(*v)).collect()
}

fn batch(fields: Vec<(Field, ArrayRef)>) -> RecordBatch {
    let (f, c): (Vec<Field>, Vec<ArrayRef>) = fields.into_iter().unzip();
    let schema = Arc::new(Schema::new(f));
    let rows = c.first().map_or(0, |a| a.len());
    // SAFETY (test data): some classes break arrow-rs's invariants on purpose; the IPC
    // writer only copies buffers.
    unsafe { RecordBatch::new_unchecked(schema, c, rows) }
}

fn nullable(name: &str, a: &ArrayRef) -> Field {
    Field::new(name, a.data_type().clone(), true)
}

/// Decimals wider than their precision (every width), valid and under nulls, top-level and
/// in a struct and a list.
fn decimals() -> RecordBatch {
    let v = [true, false, true, true];
    let d32 = fixed(DataType::Decimal32(3, 1), le(&[12345i32, 99999, i32::MIN, i32::MAX], i32::to_le_bytes), 4, Some(&v));
    let d64 = fixed(DataType::Decimal64(5, 0), le(&[123456i64, -999999, i64::MIN, i64::MAX], i64::to_le_bytes), 4, None);
    let d128 = fixed(DataType::Decimal128(4, 2), le(&[10i128.pow(20), -12345, i128::MIN, i128::MAX], i128::to_le_bytes), 4, Some(&v));
    let d256 = fixed(
        DataType::Decimal256(10, 0),
        le(&[i256::from_i128(10i128.pow(30)), i256::MIN, i256::MAX, i256::from_i128(-1)], i256::to_le_bytes),
        4,
        None,
    );
    let inner = fixed(DataType::Decimal128(2, 0), le(&[1000i128, 5, -1000, 77], i128::to_le_bytes), 4, None);
    let s = Arc::new(StructArray::new(
        Fields::from(vec![Field::new("d", DataType::Decimal128(2, 0), true)]),
        vec![inner.clone()],
        nulls(&[true, true, false, true]),
    )) as ArrayRef;
    let l = Arc::new(ListArray::new(
        Arc::new(Field::new("item", DataType::Decimal128(2, 0), true)),
        OffsetBuffer::from_lengths([2, 0, 1, 1]),
        inner,
        None,
    )) as ArrayRef;
    batch(vec![
        (nullable("d32", &d32), d32),
        (nullable("d64", &d64), d64),
        (nullable("d128", &d128), d128),
        (nullable("d256", &d256), d256),
        (nullable("s", &s), s),
        (nullable("l", &l), l),
    ])
}

/// Time32 / Time64 outside [0, one day), every unit.
fn times() -> RecordBatch {
    let v = [true, true, false, true, true];
    let t32s = fixed(DataType::Time32(TimeUnit::Second), le(&[-1i32, 86400, 5, i32::MIN, i32::MAX], i32::to_le_bytes), 5, Some(&v));
    let t32ms = fixed(DataType::Time32(TimeUnit::Millisecond), le(&[86_400_000i32, -5, 0, i32::MAX, 1], i32::to_le_bytes), 5, None);
    let t64us = fixed(DataType::Time64(TimeUnit::Microsecond), le(&[86_400_000_000i64, -1, i64::MIN, i64::MAX, 7], i64::to_le_bytes), 5, Some(&v));
    let t64ns = fixed(DataType::Time64(TimeUnit::Nanosecond), le(&[86_400_000_000_000i64, -1, i64::MIN, i64::MAX, 7], i64::to_le_bytes), 5, None);
    batch(vec![
        (nullable("t32s", &t32s), t32s),
        (nullable("t32ms", &t32ms), t32ms),
        (nullable("t64us", &t64us), t64us),
        (nullable("t64ns", &t64ns), t64ns),
    ])
}

/// Dates and timestamps at the ends of their ranges; Date64 values that are not whole days.
fn dates_and_timestamps() -> RecordBatch {
    let d32 = fixed(DataType::Date32, le(&[i32::MIN, i32::MAX, -1, 0], i32::to_le_bytes), 4, None);
    let d64 = fixed(DataType::Date64, le(&[i64::MIN, i64::MAX, 1, -86_399_999], i64::to_le_bytes), 4, None);
    let mut out = vec![(nullable("d32", &d32), d32), (nullable("d64", &d64), d64)];
    for (name, unit) in [("ts_s", TimeUnit::Second), ("ts_ms", TimeUnit::Millisecond),
                         ("ts_us", TimeUnit::Microsecond), ("ts_ns", TimeUnit::Nanosecond)] {
        let a = fixed(DataType::Timestamp(unit, Some("UTC".into())),
                      le(&[i64::MIN, i64::MAX, -1, 0], i64::to_le_bytes), 4, None);
        out.push((nullable(name, &a), a));
    }
    batch(out)
}

fn utf8_with(bytes: &[u8], offsets: &[i32], valid: &[bool]) -> ArrayRef {
    // SAFETY (test data): the bytes may be invalid UTF-8 on purpose.
    Arc::new(unsafe {
        StringArray::new_unchecked(
            OffsetBuffer::new(ScalarBuffer::from(offsets.to_vec())),
            Buffer::from_slice_ref(bytes),
            nulls(valid),
        )
    })
}

/// Invalid UTF-8 in a null slot (arrow-rs validates the whole data span).
fn utf8_invalid_under_null() -> RecordBatch {
    let s = utf8_with(b"ab\xffcd", &[0, 2, 3, 5], &[true, false, true]);
    let large = Arc::new(unsafe {
        LargeStringArray::new_unchecked(
            OffsetBuffer::new(ScalarBuffer::from(vec![0i64, 2, 3, 5])),
            Buffer::from_slice_ref(b"ab\xfecd"),
            nulls(&[true, false, true]),
        )
    }) as ArrayRef;
    batch(vec![(nullable("s", &s), s), (nullable("large", &large), large)])
}

/// Offsets of null slots splitting a character (valid UTF-8 as a whole).
fn utf8_split_char_under_null() -> RecordBatch {
    let s = utf8_with("aéb".as_bytes(), &[0, 2, 4], &[false, false]);
    batch(vec![(nullable("s", &s), s)])
}

fn view(len: u32, prefix: [u8; 4], buffer: u32, offset: u32) -> u128 {
    let mut b = [0u8; 16];
    b[0..4].copy_from_slice(&len.to_le_bytes());
    b[4..8].copy_from_slice(&prefix);
    b[8..12].copy_from_slice(&buffer.to_le_bytes());
    b[12..16].copy_from_slice(&offset.to_le_bytes());
    u128::from_le_bytes(b)
}

/// Views in null slots: non-zero inline padding, a buffer index out of range, a prefix that
/// differs from the data, invalid UTF-8 (each in a table of its own, so each is judged alone).
fn views(kind: usize) -> RecordBatch {
    let data = Buffer::from_slice_ref(b"abcdefghijklmnopqrstuvwxyz");
    let good = view(20, *b"abcd", 0, 0);
    let bad = match kind {
        0 => view(2, *b"xy\x01\x01", 0x0101_0101, 0x0101_0101), // inline, padding not zero
        1 => view(20, *b"abcd", 7, 0),                           // no buffer 7
        2 => view(20, *b"zzzz", 0, 0),                           // prefix differs
        _ => {
            let mut b = [0u8; 16];
            b[0..4].copy_from_slice(&2u32.to_le_bytes());
            b[4] = 0xff;
            b[5] = 0xfe;
            u128::from_le_bytes(b) // inline invalid UTF-8
        }
    };
    let views = ScalarBuffer::from(vec![good, bad, good]);
    let valid = nulls(&[true, false, true]);
    // SAFETY (test data): the null slot's view is malformed on purpose.
    let a: ArrayRef = if kind == 3 {
        Arc::new(unsafe { StringViewArray::new_unchecked(views, Arc::from(vec![data]), valid) })
    } else {
        Arc::new(unsafe { BinaryViewArray::new_unchecked(views, Arc::from(vec![data]), valid) })
    };
    batch(vec![(nullable("v", &a), a)])
}

/// Nulls in non-nullable fields: a top-level column, a struct child where its struct is
/// valid, a list item, a fixed-size list item where its list is valid.
fn non_nullable(kind: usize) -> RecordBatch {
    let ints = Arc::new(Int32Array::new(ScalarBuffer::from(vec![1, 2, 3, 4]), nulls(&[true, false, true, true])))
        as ArrayRef;
    let item = Arc::new(Field::new("item", DataType::Int32, false));
    let (field, column): (Field, ArrayRef) = match kind {
        0 => (Field::new("x", DataType::Int32, false), ints),
        1 => {
            let fields = Fields::from(vec![Field::new("a", DataType::Int32, false)]);
            let s = unsafe { StructArray::new_unchecked(fields, vec![ints], None) };
            (Field::new("s", s.data_type().clone(), true), Arc::new(s))
        }
        2 => {
            let l = unsafe {
                ListArray::new_unchecked(item, OffsetBuffer::from_lengths([1, 3, 0, 0]), ints, None)
            };
            (Field::new("l", l.data_type().clone(), true), Arc::new(l))
        }
        _ => {
            let l = unsafe { FixedSizeListArray::new_unchecked(item, 2, ints, None, 2) };
            (Field::new("f", l.data_type().clone(), true), Arc::new(l))
        }
    };
    batch(vec![(field, column)])
}

/// Writes `b` as an Arrow IPC file or stream, uncompressed.
pub fn write_ipc(path: &std::path::Path, b: &RecordBatch, stream: bool) -> Result<(), String> {
    use arrow::ipc::writer::{FileWriter, StreamWriter};
    let file = std::fs::File::create(path).map_err(|e| format!("{}: {e}", path.display()))?;
    if stream {
        let mut w = StreamWriter::try_new(file, &b.schema()).map_err(|e| e.to_string())?;
        w.write(b).map_err(|e| e.to_string())?;
        w.finish().map_err(|e| e.to_string())
    } else {
        let mut w = FileWriter::try_new(file, &b.schema()).map_err(|e| e.to_string())?;
        w.write(b).map_err(|e| e.to_string())?;
        w.finish().map_err(|e| e.to_string())
    }
}

/// Every class, in a fixed order (file names are stable).
pub fn classes() -> Vec<ValueClass> {
    let mut v = vec![
        ValueClass { name: "decimals_wider_than_precision", batch: decimals() },
        ValueClass { name: "times_outside_the_day", batch: times() },
        ValueClass { name: "dates_timestamps_range_ends", batch: dates_and_timestamps() },
        ValueClass { name: "utf8_invalid_under_null", batch: utf8_invalid_under_null() },
        ValueClass { name: "utf8_split_char_under_null", batch: utf8_split_char_under_null() },
    ];
    for (i, name) in ["view_padding_under_null", "view_buffer_index_under_null",
                      "view_prefix_under_null", "view_invalid_utf8_under_null"].iter().enumerate() {
        v.push(ValueClass { name, batch: views(i) });
    }
    for (i, name) in ["non_nullable_column_null", "non_nullable_struct_child_null",
                      "non_nullable_list_item_null", "non_nullable_fixed_list_item_null"].iter().enumerate() {
        v.push(ValueClass { name, batch: non_nullable(i) });
    }
    v
}
