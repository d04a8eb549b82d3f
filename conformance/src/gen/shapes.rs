//! Parquet files laid out the way other writers lay them out (Spark, Hive, parquet-mr, Impala,
//! old Arrow C++ releases), written with parquet's low-level column writer from a random
//! Parquet schema, so that nothing is limited to what an Arrow writer produces:
//!   - INT96 timestamps with any bits: Spark's dates far from 1970 (outside the nanosecond
//!     range), day numbers >= 2^31, nanos-of-day >= 2^63, all-zero values; sometimes an
//!     embedded Arrow schema asking for another time unit and a zone;
//!   - legacy list encodings: two-level lists (`repeated int32 array`), three-level lists
//!     with Hive's and pyarrow's old names (`bag/array_element`, `list/item`), repeated
//!     fields without a LIST annotation, lists of lists;
//!   - every encoding arrow-rs writes (dictionary with small dictionary pages that fall back
//!     to plain, DELTA_BINARY_PACKED, DELTA_LENGTH_BYTE_ARRAY, DELTA_BYTE_ARRAY,
//!     BYTE_STREAM_SPLIT, RLE booleans), data page v1 and v2, every codec, many small row
//!     groups and pages, legacy converted types, values outside a decimal's precision or a
//!     time's day;
//!   - a footer whose dictionary_page_offset is 0 or missing though the chunk starts with a
//!     dictionary page (as parquet-mr and polars wrote).
//! Shapes the reference cannot hash at all (lists of structs, maps) are not generated.

use std::collections::BTreeSet;
use std::fs::File;
use std::path::Path;
use std::sync::Arc;

use arrow::datatypes::{DataType, Field, Schema, TimeUnit};
use parquet::basic::{
    BrotliLevel, Compression, ConvertedType, Encoding, GzipLevel, Repetition, Type as Physical,
    ZstdLevel,
};
use parquet::column::writer::ColumnWriter;
use parquet::data_type::{ByteArray, FixedLenByteArray, Int96};
use parquet::file::metadata::{KeyValue, ParquetMetaDataReader, ParquetMetaDataWriter};
use parquet::file::properties::{EnabledStatistics, WriterProperties, WriterVersion};
use parquet::file::writer::SerializedFileWriter;
use parquet::schema::types::{ColumnPath, SchemaDescriptor, Type, TypePtr};

use crate::rng::Rng;

/// Mixed into the seed of the shaped files' random stream (independent of the tables').
pub const SEED_SALT: u64 = 0x5_4A9E_5F11_E5;

/// Leaf columns: a physical type and the annotation other writers give it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum LeafKind {
    Boolean,
    Int32,
    Int8,
    UInt16,
    Date,
    TimeMillis,
    Decimal32 { precision: u8, scale: u8 },
    Int64,
    UInt64,
    TimestampMillis,
    TimestampMicros,
    TimeMicros,
    Decimal64 { precision: u8, scale: u8 },
    Int96,
    Float,
    Double,
    Utf8,
    Binary,
    Json,
    DecimalBytes { precision: u8, scale: u8 },
    Fixed(i32),
    DecimalFixed { len: i32, precision: u8, scale: u8 },
}

const KINDS: &[LeafKind] = &[
    LeafKind::Boolean,
    LeafKind::Int32,
    LeafKind::Int8,
    LeafKind::UInt16,
    LeafKind::Date,
    LeafKind::TimeMillis,
    LeafKind::Decimal32 { precision: 7, scale: 2 },
    LeafKind::Int64,
    LeafKind::UInt64,
    LeafKind::TimestampMillis,
    LeafKind::TimestampMicros,
    LeafKind::TimeMicros,
    LeafKind::Decimal64 { precision: 15, scale: 3 },
    LeafKind::Int96,
    LeafKind::Float,
    LeafKind::Double,
    LeafKind::Utf8,
    LeafKind::Binary,
    LeafKind::Json,
    LeafKind::DecimalBytes { precision: 30, scale: 4 },
    LeafKind::Fixed(5),
    LeafKind::DecimalFixed { len: 9, precision: 20, scale: 5 },
];

impl LeafKind {
    fn physical(self) -> Physical {
        use LeafKind::*;
        match self {
            Boolean => Physical::BOOLEAN,
            Int32 | Int8 | UInt16 | Date | TimeMillis | Decimal32 { .. } => Physical::INT32,
            Int64 | UInt64 | TimestampMillis | TimestampMicros | TimeMicros | Decimal64 { .. } => {
                Physical::INT64
            }
            Int96 => Physical::INT96,
            Float => Physical::FLOAT,
            Double => Physical::DOUBLE,
            Utf8 | Binary | Json | DecimalBytes { .. } => Physical::BYTE_ARRAY,
            Fixed(_) | DecimalFixed { .. } => Physical::FIXED_LEN_BYTE_ARRAY,
        }
    }

    fn build(self, name: &str, rep: Repetition) -> TypePtr {
        use LeafKind::*;
        let (converted, length, precision, scale) = match self {
            Int8 => (ConvertedType::INT_8, -1, -1, -1),
            UInt16 => (ConvertedType::UINT_16, -1, -1, -1),
            Date => (ConvertedType::DATE, -1, -1, -1),
            TimeMillis => (ConvertedType::TIME_MILLIS, -1, -1, -1),
            UInt64 => (ConvertedType::UINT_64, -1, -1, -1),
            TimestampMillis => (ConvertedType::TIMESTAMP_MILLIS, -1, -1, -1),
            TimestampMicros => (ConvertedType::TIMESTAMP_MICROS, -1, -1, -1),
            TimeMicros => (ConvertedType::TIME_MICROS, -1, -1, -1),
            Utf8 => (ConvertedType::UTF8, -1, -1, -1),
            Json => (ConvertedType::JSON, -1, -1, -1),
            Decimal32 { precision, scale }
            | Decimal64 { precision, scale }
            | DecimalBytes { precision, scale } => {
                (ConvertedType::DECIMAL, -1, precision as i32, scale as i32)
            }
            DecimalFixed { len, precision, scale } => {
                (ConvertedType::DECIMAL, len, precision as i32, scale as i32)
            }
            Fixed(len) => (ConvertedType::NONE, len, -1, -1),
            Boolean | Int32 | Int64 | Int96 | Float | Double | Binary => {
                (ConvertedType::NONE, -1, -1, -1)
            }
        };
        Arc::new(
            Type::primitive_type_builder(name, self.physical())
                .with_repetition(rep)
                .with_converted_type(converted)
                .with_length(length)
                .with_precision(precision)
                .with_scale(scale)
                .build()
                .expect("valid leaf type"),
        )
    }

    /// Encodings arrow-rs's writer can write for this physical type (besides dictionary).
    fn encodings(self, v2: bool) -> Vec<Encoding> {
        match self.physical() {
            Physical::BOOLEAN if v2 => vec![Encoding::PLAIN, Encoding::RLE],
            Physical::BOOLEAN | Physical::INT96 => vec![Encoding::PLAIN],
            Physical::INT32 | Physical::INT64 => vec![
                Encoding::PLAIN,
                Encoding::DELTA_BINARY_PACKED,
                Encoding::BYTE_STREAM_SPLIT,
            ],
            Physical::FLOAT | Physical::DOUBLE => vec![Encoding::PLAIN, Encoding::BYTE_STREAM_SPLIT],
            Physical::BYTE_ARRAY => vec![
                Encoding::PLAIN,
                Encoding::DELTA_LENGTH_BYTE_ARRAY,
                Encoding::DELTA_BYTE_ARRAY,
            ],
            Physical::FIXED_LEN_BYTE_ARRAY => vec![
                Encoding::PLAIN,
                Encoding::DELTA_BYTE_ARRAY,
                Encoding::BYTE_STREAM_SPLIT,
            ],
        }
    }
}

/// How a list is laid out in Parquet (the reader's backward-compatibility rules decide what
/// each means; see parquet-format's LogicalTypes.md, "Lists").
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum ListLayout {
    /// `<r> group l (LIST) { repeated group list { <r> T element; } }`
    Standard,
    /// pyarrow before `use_compliant_nested_type`: `repeated group list { <r> T item; }`
    ArrowLegacy,
    /// Hive: `repeated group bag { <r> T array_element; }`
    Hive,
    /// parquet-mr / Avro two-level: `<r> group l (LIST) { repeated T array; }`
    TwoLevel,
    /// two-level with another name for the repeated element
    TwoLevelElement,
}

#[derive(Clone, Debug)]
pub enum Shape {
    Leaf(LeafKind),
    Struct(Vec<FieldSpec>),
    List { layout: ListLayout, element: Box<Shape>, element_rep: Repetition },
}

/// A field: `rep` REPEATED on a leaf is a repeated field without a LIST annotation.
#[derive(Clone, Debug)]
pub struct FieldSpec {
    pub name: String,
    pub rep: Repetition,
    pub shape: Shape,
}

#[derive(Clone, Debug)]
enum LeafValue {
    Bool(bool),
    I32(i32),
    I64(i64),
    I96([u32; 3]),
    F32(f32),
    F64(f64),
    Bytes(Vec<u8>),
}

#[derive(Clone, Debug)]
enum Value {
    Null,
    Leaf(LeafValue),
    Group(Vec<Value>),
    List(Vec<Value>),
}

/// A random Parquet file of other writers' shapes and what it exercises (coverage categories).
pub struct ShapedFile {
    pub fields: Vec<FieldSpec>,
    pub categories: BTreeSet<String>,
    pub describe: String,
}

fn random_leaf(rng: &mut Rng, p_int96: f64) -> LeafKind {
    if rng.chance(p_int96) {
        return LeafKind::Int96;
    }
    *rng.pick(KINDS)
}

fn random_shape(rng: &mut Rng, depth: usize, in_list: bool, p_int96: f64) -> Shape {
    let roll = rng.below(10);
    if depth < 3 && roll < 3 {
        let layout = *rng.pick(&[
            ListLayout::Standard,
            ListLayout::ArrowLegacy,
            ListLayout::Hive,
            ListLayout::TwoLevel,
            ListLayout::TwoLevelElement,
        ]);
        let two_level = matches!(layout, ListLayout::TwoLevel | ListLayout::TwoLevelElement);
        // Two-level lists hold required leaves; three-level ones leaves or lists.
        let element = if two_level || !rng.chance(0.25) {
            Shape::Leaf(random_leaf(rng, p_int96))
        } else {
            random_shape_list_only(rng, depth + 1, p_int96)
        };
        let element_rep = if two_level || rng.chance(0.3) {
            Repetition::REQUIRED
        } else {
            Repetition::OPTIONAL
        };
        return Shape::List { layout, element: Box::new(element), element_rep };
    }
    if !in_list && depth < 3 && roll < 5 {
        let n = rng.range(1, 3);
        let fields = (0..n).map(|i| random_field(rng, &format!("f{i}"), depth + 1, p_int96)).collect();
        return Shape::Struct(fields);
    }
    Shape::Leaf(random_leaf(rng, p_int96))
}

fn random_shape_list_only(rng: &mut Rng, depth: usize, p_int96: f64) -> Shape {
    loop {
        let s = random_shape(rng, depth.min(2), true, p_int96);
        if matches!(s, Shape::List { .. }) {
            return s;
        }
    }
}

fn random_field(rng: &mut Rng, name: &str, depth: usize, p_int96: f64) -> FieldSpec {
    let shape = random_shape(rng, depth, false, p_int96);
    let rep = match (&shape, rng.below(10)) {
        // A repeated leaf without LIST annotation (Spark/parquet-mr protobuf and thrift style).
        (Shape::Leaf(_), 0..=1) => Repetition::REPEATED,
        (_, 2..=4) => Repetition::REQUIRED,
        _ => Repetition::OPTIONAL,
    };
    FieldSpec { name: name.to_string(), rep, shape }
}

/// One line per top-level field: its Parquet schema text, for manifests and messages.
pub fn describe_fields(fields: &[FieldSpec]) -> Vec<String> {
    fields
        .iter()
        .map(|f| {
            let mut text = Vec::new();
            parquet::schema::printer::print_schema(&mut text, &build_field(f));
            String::from_utf8_lossy(&text).split_whitespace().collect::<Vec<_>>().join(" ")
        })
        .collect()
}

fn build_field(f: &FieldSpec) -> TypePtr {
    build(&f.name, f.rep, &f.shape)
}

fn build(name: &str, rep: Repetition, shape: &Shape) -> TypePtr {
    match shape {
        Shape::Leaf(kind) => kind.build(name, rep),
        Shape::Struct(fields) => Arc::new(
            Type::group_type_builder(name)
                .with_repetition(rep)
                .with_fields(fields.iter().map(build_field).collect())
                .build()
                .expect("valid group"),
        ),
        Shape::List { layout, element, element_rep } => {
            let repeated = match layout {
                ListLayout::TwoLevel => build("array", Repetition::REPEATED, element),
                ListLayout::TwoLevelElement => build("element", Repetition::REPEATED, element),
                _ => {
                    let (group, item) = match layout {
                        ListLayout::Standard => ("list", "element"),
                        ListLayout::ArrowLegacy => ("list", "item"),
                        _ => ("bag", "array_element"),
                    };
                    Arc::new(
                        Type::group_type_builder(group)
                            .with_repetition(Repetition::REPEATED)
                            .with_fields(vec![build(item, *element_rep, element)])
                            .build()
                            .expect("valid list group"),
                    )
                }
            };
            Arc::new(
                Type::group_type_builder(name)
                    .with_repetition(rep)
                    .with_converted_type(ConvertedType::LIST)
                    .with_fields(vec![repeated])
                    .build()
                    .expect("valid list"),
            )
        }
    }
}

fn leaf_count(shape: &Shape) -> usize {
    match shape {
        Shape::Leaf(_) => 1,
        Shape::Struct(fields) => fields.iter().map(|f| leaf_count(&f.shape)).sum(),
        Shape::List { element, .. } => leaf_count(element),
    }
}

/// An INT96 (nanoseconds of the day in the first eight bytes, little-endian, then the Julian
/// day) from one of the classes other writers and corrupt files produce.
fn int96_value(rng: &mut Rng, cats: &mut BTreeSet<String>) -> [u32; 3] {
    const NANOS_PER_DAY: u64 = 86_400_000_000_000;
    let (day, nanos, class): (u32, u64, &str) = match rng.below(10) {
        // Spark: any date of years 1..9999 (Julian days 1721426..5373484).
        0..=2 => (rng.range(1_721_426, 5_373_484) as u32, rng.below(NANOS_PER_DAY), "INT96 years 1..9999"),
        // Inside the nanosecond range (1677..2262).
        3..=4 => (rng.range(2_333_837, 2_547_338) as u32, rng.below(NANOS_PER_DAY), "INT96 in ns range"),
        5 => ((1u32 << 31) + rng.below(1 << 31) as u32, rng.below(NANOS_PER_DAY), "INT96 day >= 2^31"),
        6 => (rng.range(1_721_426, 5_373_484) as u32, (1u64 << 63) | rng.next_u64(), "INT96 nanos >= 2^63"),
        7 => (rng.next_u64() as u32, rng.next_u64(), "INT96 random bits"),
        8 => (0, 0, "INT96 zero"),
        _ => (
            rng.range(2_440_000, 2_450_000) as u32,
            NANOS_PER_DAY + rng.below(1 << 62),
            "INT96 nanos past the day",
        ),
    };
    cats.insert(class.to_string());
    [nanos as u32, (nanos >> 32) as u32, day]
}

fn leaf_value(rng: &mut Rng, kind: LeafKind, cats: &mut BTreeSet<String>) -> LeafValue {
    use LeafKind::*;
    let r = rng.next_u64();
    match kind {
        Boolean => LeafValue::Bool(r & 1 == 1),
        // Plain integers, dates and times: any bits (times past midnight, dates far away and
        // decimals wider than their precision are what files from other writers may hold).
        Int32 | Date | TimeMillis | Decimal32 { .. } => {
            let v = if rng.chance(0.5) { r as i32 } else { (r % 2000) as i32 - 1000 };
            if let Decimal32 { precision, .. } = kind {
                if (v as i64).unsigned_abs() >= 10u64.pow(precision as u32) {
                    cats.insert("decimal wider than its precision".into());
                }
            }
            if kind == TimeMillis && !(0..86_400_000).contains(&v) {
                cats.insert("time outside the day".into());
            }
            LeafValue::I32(v)
        }
        Int8 => LeafValue::I32(r as i8 as i32),
        UInt16 => LeafValue::I32(r as u16 as i32),
        Int64 | UInt64 | TimeMicros | Decimal64 { .. } => {
            LeafValue::I64(if rng.chance(0.5) { r as i64 } else { (r % 2000) as i64 - 1000 })
        }
        // Legacy timestamps stay within what every unit conversion holds.
        TimestampMillis => LeafValue::I64((r % 18_000_000_000_000) as i64 - 9_000_000_000_000),
        TimestampMicros => LeafValue::I64((r % 18_000_000_000_000_000) as i64 - 9_000_000_000_000_000),
        Int96 => LeafValue::I96(int96_value(rng, cats)),
        Float => LeafValue::F32(f32::from_bits(r as u32)),
        Double => LeafValue::F64(f64::from_bits(r)),
        Utf8 | Json => {
            const ALPHABET: &[&str] = &["a", "Z", "0", " ", "é", "€", "😀", "{", "\""];
            let n = rng.range(0, 12);
            let s: String = (0..n).map(|_| *rng.pick(ALPHABET)).collect();
            LeafValue::Bytes(s.into_bytes())
        }
        Binary => {
            let n = rng.range(0, 20);
            LeafValue::Bytes(rng.bytes(n))
        }
        DecimalBytes { .. } => {
            let n = rng.range(1, 16);
            LeafValue::Bytes(rng.bytes(n))
        }
        Fixed(len) | DecimalFixed { len, .. } => LeafValue::Bytes(rng.bytes(len as usize)),
    }
}

fn random_value(rng: &mut Rng, rep: Repetition, shape: &Shape, cats: &mut BTreeSet<String>) -> Value {
    if rep == Repetition::OPTIONAL && rng.chance(0.2) {
        return Value::Null;
    }
    if rep == Repetition::REPEATED {
        let n = rng.range(0, 3);
        return Value::List((0..n).map(|_| random_value(rng, Repetition::REQUIRED, shape, cats)).collect());
    }
    match shape {
        Shape::Leaf(kind) => Value::Leaf(leaf_value(rng, *kind, cats)),
        Shape::Struct(fields) => {
            Value::Group(fields.iter().map(|f| random_value(rng, f.rep, &f.shape, cats)).collect())
        }
        Shape::List { element, element_rep, .. } => {
            let n = rng.range(0, 4);
            Value::List((0..n).map(|_| random_value(rng, *element_rep, element, cats)).collect())
        }
    }
}

/// The levels and values of one leaf column (Dremel shredding).
#[derive(Default)]
struct ColumnData {
    defs: Vec<i16>,
    reps: Vec<i16>,
    values: Vec<LeafValue>,
}

struct Shredder<'a> {
    cols: &'a mut [ColumnData],
}

impl Shredder<'_> {
    /// Every leaf under `shape` (columns from `first`) gets an undefined entry at (r, d).
    fn undefined(&mut self, shape: &Shape, first: usize, r: i16, d: i16) {
        for c in first..first + leaf_count(shape) {
            self.cols[c].reps.push(r);
            self.cols[c].defs.push(d);
        }
    }

    /// A field's value: `rl` is the number of repeated ancestors.
    fn field(&mut self, rep: Repetition, shape: &Shape, v: &Value, first: usize, r: i16, d: i16, rl: i16) {
        match rep {
            Repetition::REQUIRED => self.present(shape, v, first, r, d, rl),
            Repetition::OPTIONAL => match v {
                Value::Null => self.undefined(shape, first, r, d),
                _ => self.present(shape, v, first, r, d + 1, rl),
            },
            Repetition::REPEATED => self.repeated(shape, v, first, r, d, rl, |s, item, ri, di, rli| {
                s.present(shape, item, first, ri, di, rli)
            }),
        }
    }

    fn repeated(&mut self, shape: &Shape, v: &Value, first: usize, r: i16, d: i16, rl: i16,
                mut each: impl FnMut(&mut Self, &Value, i16, i16, i16)) {
        let items = match v {
            Value::List(items) => items,
            _ => panic!("repeated field without a list value"),
        };
        if items.is_empty() {
            self.undefined(shape, first, r, d);
        }
        for (i, item) in items.iter().enumerate() {
            let ri = if i == 0 { r } else { rl + 1 };
            each(self, item, ri, d + 1, rl + 1);
        }
    }

    fn present(&mut self, shape: &Shape, v: &Value, first: usize, r: i16, d: i16, rl: i16) {
        match (shape, v) {
            (Shape::Leaf(_), Value::Leaf(x)) => {
                self.cols[first].reps.push(r);
                self.cols[first].defs.push(d);
                self.cols[first].values.push(x.clone());
            }
            (Shape::Struct(fields), Value::Group(children)) => {
                let mut c = first;
                for (f, child) in fields.iter().zip(children) {
                    self.field(f.rep, &f.shape, child, c, r, d, rl);
                    c += leaf_count(&f.shape);
                }
            }
            (Shape::List { layout, element, element_rep }, Value::List(_)) => {
                let two_level = matches!(layout, ListLayout::TwoLevel | ListLayout::TwoLevelElement);
                let (element, element_rep) = (element.as_ref(), *element_rep);
                self.repeated(element, v, first, r, d, rl, |s, item, ri, di, rli| {
                    if two_level {
                        s.present(element, item, first, ri, di, rli)
                    } else {
                        s.field(element_rep, element, item, first, ri, di, rli)
                    }
                });
            }
            _ => panic!("value does not match its shape"),
        }
    }
}

fn compression(rng: &mut Rng) -> Compression {
    *rng.pick(&[
        Compression::UNCOMPRESSED,
        Compression::SNAPPY,
        Compression::GZIP(GzipLevel::default()),
        Compression::BROTLI(BrotliLevel::default()),
        Compression::LZ4,
        Compression::LZ4_RAW,
        Compression::ZSTD(ZstdLevel::default()),
    ])
}

/// The name parquet-format's tools print for a codec (coverage category).
pub fn codec_name(c: Compression) -> &'static str {
    match c {
        Compression::UNCOMPRESSED => "uncompressed",
        Compression::SNAPPY => "snappy",
        Compression::GZIP(_) => "gzip",
        Compression::BROTLI(_) => "brotli",
        Compression::LZ4 => "lz4",
        Compression::LZ4_RAW => "lz4_raw",
        Compression::ZSTD(_) => "zstd",
        Compression::LZO => "lzo",
    }
}

/// Leaves of the schema with their column paths, in column order.
fn leaves(fields: &[FieldSpec], prefix: &[String], out: &mut Vec<(Vec<String>, LeafKind)>) {
    fn walk(name: &str, shape: &Shape, prefix: &[String], out: &mut Vec<(Vec<String>, LeafKind)>) {
        let mut path = prefix.to_vec();
        path.push(name.to_string());
        match shape {
            Shape::Leaf(kind) => out.push((path, *kind)),
            Shape::Struct(fields) => leaves(fields, &path, out),
            Shape::List { layout, element, .. } => match layout {
                ListLayout::TwoLevel => walk("array", element, &path, out),
                ListLayout::TwoLevelElement => walk("element", element, &path, out),
                ListLayout::Standard => walk("element", element, &[path, vec!["list".into()]].concat(), out),
                ListLayout::ArrowLegacy => walk("item", element, &[path, vec!["list".into()]].concat(), out),
                ListLayout::Hive => walk("array_element", element, &[path, vec!["bag".into()]].concat(), out),
            },
        }
    }
    for f in fields {
        walk(&f.name, &f.shape, prefix, out);
    }
}

fn categorize(shape: &Shape, rep: Repetition, cats: &mut BTreeSet<String>) {
    if rep == Repetition::REPEATED {
        cats.insert("repeated field without LIST".into());
    }
    match shape {
        Shape::Leaf(kind) => {
            cats.insert(format!("leaf {:?}", kind).split(' ').take(2).collect::<Vec<_>>().join(" "));
        }
        Shape::Struct(fields) => {
            cats.insert("group".into());
            for f in fields {
                categorize(&f.shape, f.rep, cats);
            }
        }
        Shape::List { layout, element, element_rep } => {
            cats.insert(format!("list {layout:?}"));
            if matches!(element.as_ref(), Shape::List { .. }) {
                cats.insert("list of lists".into());
            }
            categorize(element, *element_rep, cats);
        }
    }
}

/// An embedded Arrow schema (as pyarrow and arrow-rs write it) asking for other units and
/// zones for the INT96 columns: arrow-rs converts INT96 to the hinted unit.
fn int96_hint(rng: &mut Rng, descr: &SchemaDescriptor, cats: &mut BTreeSet<String>)
              -> Result<Option<String>, String> {
    fn retype(rng: &mut Rng, dt: &DataType, cats: &mut BTreeSet<String>) -> DataType {
        match dt {
            DataType::Timestamp(TimeUnit::Nanosecond, None) => {
                let unit = *rng.pick(&[TimeUnit::Second, TimeUnit::Millisecond, TimeUnit::Microsecond,
                                       TimeUnit::Nanosecond]);
                let tz = if rng.chance(0.5) { None } else { Some(Arc::from(*rng.pick(&["UTC", "+05:30"]))) };
                cats.insert(format!("INT96 hint unit {unit:?}"));
                DataType::Timestamp(unit, tz)
            }
            DataType::List(f) => DataType::List(Arc::new(field(rng, f, cats))),
            DataType::Struct(fields) => {
                DataType::Struct(fields.iter().map(|f| field(rng, f, cats)).collect())
            }
            other => other.clone(),
        }
    }
    fn field(rng: &mut Rng, f: &Field, cats: &mut BTreeSet<String>) -> Field {
        f.clone().with_data_type(retype(rng, f.data_type(), cats))
    }
    let schema = parquet::arrow::parquet_to_arrow_schema(descr, None).map_err(|e| e.to_string())?;
    let fields: Vec<Field> = schema.fields().iter().map(|f| field(rng, f, cats)).collect();
    Ok(Some(parquet::arrow::encode_arrow_schema(&Schema::new(fields))))
}

/// Writes a random file of other writers' shapes to `path`.
pub fn write_shaped(path: &Path, rng: &mut Rng) -> Result<ShapedFile, String> {
    let mut cats = BTreeSet::new();
    let p_int96 = if rng.chance(0.4) { 0.5 } else { 0.05 };
    let ncols = rng.range(1, 5);
    let fields: Vec<FieldSpec> = (0..ncols).map(|i| random_field(rng, &format!("c{i}"), 0, p_int96)).collect();
    for f in &fields {
        categorize(&f.shape, f.rep, &mut cats);
    }
    let schema = Arc::new(
        Type::group_type_builder(if rng.chance(0.5) { "spark_schema" } else { "hive_schema" })
            .with_fields(fields.iter().map(build_field).collect())
            .build()
            .map_err(|e| e.to_string())?,
    );
    let descr = SchemaDescriptor::new(schema.clone());
    let mut leaf_list = Vec::new();
    leaves(&fields, &[], &mut leaf_list);
    assert_eq!(leaf_list.len(), descr.num_columns());

    let v2 = rng.chance(0.5);
    let mut codec = compression(rng);
    let dictionary = rng.chance(0.5);
    let dict_offset_shape = if dictionary { rng.below(6) } else { 5 }; // 0: zero, 1: absent
    if dict_offset_shape <= 1 && codec == Compression::LZ4 {
        // parquet's metadata writer drops the deprecated LZ4 codec from a rewritten footer.
        codec = Compression::LZ4_RAW;
    }
    let mut props = WriterProperties::builder()
        .set_writer_version(if v2 { WriterVersion::PARQUET_2_0 } else { WriterVersion::PARQUET_1_0 })
        .set_compression(codec)
        .set_dictionary_enabled(dictionary)
        .set_data_page_size_limit(*rng.pick(&[64usize, 256, 1024, 1 << 20]))
        .set_data_page_row_count_limit(rng.range(1, 50))
        .set_write_batch_size(rng.range(1, 64))
        .set_dictionary_page_size_limit(*rng.pick(&[16usize, 128, 1 << 20]));
    props = props.set_statistics_enabled(*rng.pick(&[
        EnabledStatistics::None,
        EnabledStatistics::Chunk,
        EnabledStatistics::Page,
    ]));
    if dict_offset_shape <= 1 {
        // The footer is rewritten: no page index pointing into it.
        props = props.set_offset_index_disabled(true).set_statistics_enabled(EnabledStatistics::Chunk);
    }
    let mut encodings_used = BTreeSet::new();
    for (path, kind) in &leaf_list {
        let choices = kind.encodings(v2);
        let e = *rng.pick(&choices);
        encodings_used.insert(format!("{e:?}"));
        props = props.set_column_encoding(ColumnPath::new(path.clone()), e);
    }
    let mut kv = vec![];
    if leaf_list.iter().any(|(_, k)| *k == LeafKind::Int96) {
        cats.insert("INT96 column".into());
        if rng.chance(0.5) {
            if let Some(hint) = int96_hint(rng, &descr, &mut cats)? {
                cats.insert("INT96 with Arrow schema hint".into());
                kv.push(KeyValue::new("ARROW:schema".to_string(), hint));
            }
        }
    }
    if rng.chance(0.3) {
        kv.push(KeyValue::new("org.apache.spark.version".to_string(), "3.5.1".to_string()));
    }
    let created_by = *rng.pick(&[
        "parquet-mr version 1.13.1 (build db4183109d5b734ec5930d870cdae161e408ddba)",
        "parquet-mr version 1.10.1 (build a89df8f9932b6ef6633d06069e50c9b7970bebd1)",
        "impala version 4.1.0-RELEASE (build 1b8e1b6c9b2b4b7b1bb6fa7f4ec8a2e4d4f4d8f6)",
        "parquet-cpp-arrow version 14.0.2",
        "parquet-rs version 60.0.0",
    ]);
    let props = props
        .set_key_value_metadata(if kv.is_empty() { None } else { Some(kv) })
        .set_created_by(created_by.to_string())
        .build();

    let rows = if rng.chance(0.03) { 0 } else { rng.range(1, 120) };
    let values: Vec<Vec<Value>> = (0..rows)
        .map(|_| fields.iter().map(|f| random_value(rng, f.rep, &f.shape, &mut cats)).collect())
        .collect();
    let mut row_groups = Vec::new();
    let mut start = 0;
    let max_group = *rng.pick(&[1usize, 3, 10, 50, 1000]);
    while start < rows {
        let n = rng.range(1, max_group).min(rows - start);
        row_groups.push(start..start + n);
        start += n;
    }
    if row_groups.len() >= 10 {
        cats.insert("10+ row groups".into());
    }

    let file = File::create(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut writer = SerializedFileWriter::new(file, schema, Arc::new(props)).map_err(|e| e.to_string())?;
    for range in &row_groups {
        let mut cols: Vec<ColumnData> = (0..leaf_list.len()).map(|_| ColumnData::default()).collect();
        {
            let mut s = Shredder { cols: &mut cols };
            for row in &values[range.clone()] {
                let mut c = 0;
                for (f, v) in fields.iter().zip(row) {
                    s.field(f.rep, &f.shape, v, c, 0, 0, 0);
                    c += leaf_count(&f.shape);
                }
            }
        }
        let mut rg = writer.next_row_group().map_err(|e| e.to_string())?;
        let mut i = 0;
        while let Some(mut col) = rg.next_column().map_err(|e| e.to_string())? {
            let descr = &descr.column(i);
            let data = &cols[i];
            let defs = (descr.max_def_level() > 0).then_some(data.defs.as_slice());
            let reps = (descr.max_rep_level() > 0).then_some(data.reps.as_slice());
            write_column(col.untyped(), &data.values, defs, reps)?;
            col.close().map_err(|e| e.to_string())?;
            i += 1;
        }
        rg.close().map_err(|e| e.to_string())?;
    }
    writer.close().map_err(|e| e.to_string())?;

    if dict_offset_shape <= 1 && rows > 0 {
        if rewrite_dictionary_offsets(path, dict_offset_shape == 0)? {
            cats.insert(if dict_offset_shape == 0 { "dictionary_page_offset 0" } else { "dictionary_page_offset missing" }.into());
        }
    }
    cats.insert(format!("codec {}", codec_name(codec)));
    cats.insert(if v2 { "data page v2".into() } else { "data page v1".to_string() });
    if dictionary {
        cats.insert("dictionary".into());
    }
    for e in &encodings_used {
        cats.insert(format!("encoding {e}"));
    }
    let describe = format!(
        "v2={v2} codec={} dictionary={dictionary} encodings={encodings_used:?} rows={rows} row_groups={} created_by={created_by:?}",
        codec_name(codec), row_groups.len()
    );
    Ok(ShapedFile { fields, categories: cats, describe })
}

fn write_column(w: &mut ColumnWriter<'_>, values: &[LeafValue], defs: Option<&[i16]>,
                reps: Option<&[i16]>) -> Result<(), String> {
    macro_rules! collect {
        ($variant:ident, $conv:expr) => {
            values.iter().map(|v| match v {
                LeafValue::$variant(x) => $conv(x),
                other => panic!("leaf value {other:?} in a column of another type"),
            }).collect::<Vec<_>>()
        };
    }
    let r = match w {
        ColumnWriter::BoolColumnWriter(w) => w.write_batch(&collect!(Bool, |x: &bool| *x), defs, reps),
        ColumnWriter::Int32ColumnWriter(w) => w.write_batch(&collect!(I32, |x: &i32| *x), defs, reps),
        ColumnWriter::Int64ColumnWriter(w) => w.write_batch(&collect!(I64, |x: &i64| *x), defs, reps),
        ColumnWriter::Int96ColumnWriter(w) => {
            let v = collect!(I96, |x: &[u32; 3]| {
                let mut i = Int96::new();
                i.set_data(x[0], x[1], x[2]);
                i
            });
            w.write_batch(&v, defs, reps)
        }
        ColumnWriter::FloatColumnWriter(w) => w.write_batch(&collect!(F32, |x: &f32| *x), defs, reps),
        ColumnWriter::DoubleColumnWriter(w) => w.write_batch(&collect!(F64, |x: &f64| *x), defs, reps),
        ColumnWriter::ByteArrayColumnWriter(w) => {
            w.write_batch(&collect!(Bytes, |x: &Vec<u8>| ByteArray::from(x.clone())), defs, reps)
        }
        ColumnWriter::FixedLenByteArrayColumnWriter(w) => w.write_batch(
            &collect!(Bytes, |x: &Vec<u8>| FixedLenByteArray::from(ByteArray::from(x.clone()))),
            defs,
            reps,
        ),
    };
    r.map(|_| ()).map_err(|e| e.to_string())
}

/// Rewrites the footer so that column chunks starting with a dictionary page say
/// dictionary_page_offset = 0 (`zero`) or nothing, with data_page_offset pointing at the
/// dictionary page: what parquet-mr before 1.11 and polars before 1.39 wrote. False when no
/// chunk has a dictionary page.
fn rewrite_dictionary_offsets(path: &Path, zero: bool) -> Result<bool, String> {
    let bytes = std::fs::read(path).map_err(|e| e.to_string())?;
    let n = bytes.len();
    let footer_len = u32::from_le_bytes(bytes[n - 8..n - 4].try_into().unwrap()) as usize;
    let footer_start = n - 8 - footer_len;
    let metadata = ParquetMetaDataReader::decode_metadata(&bytes[footer_start..n - 8])
        .map_err(|e| e.to_string())?;
    let mut changed = false;
    let mut builder = metadata.into_builder();
    let row_groups = builder.take_row_groups();
    let mut new_groups = Vec::new();
    for rg in row_groups {
        let mut rb = rg.into_builder();
        let cols = rb.take_columns();
        let mut new_cols = Vec::new();
        for c in cols {
            match c.dictionary_page_offset() {
                Some(dict) => {
                    changed = true;
                    new_cols.push(
                        c.into_builder()
                            .set_data_page_offset(dict)
                            .set_dictionary_page_offset(if zero { Some(0) } else { None })
                            .build()
                            .map_err(|e| e.to_string())?,
                    );
                }
                None => new_cols.push(c),
            }
        }
        new_groups.push(rb.set_column_metadata(new_cols).build().map_err(|e| e.to_string())?);
    }
    if !changed {
        return Ok(false);
    }
    let metadata = builder.set_row_groups(new_groups).build();
    let mut out = bytes[..footer_start].to_vec();
    ParquetMetaDataWriter::new(&mut out, &metadata).finish().map_err(|e| e.to_string())?;
    std::fs::write(path, out).map_err(|e| e.to_string())?;
    Ok(true)
}

/// Coverage categories every campaign of shaped files must reach.
pub fn required_categories() -> Vec<String> {
    let mut v: Vec<String> = [
        "INT96 years 1..9999", "INT96 in ns range", "INT96 day >= 2^31", "INT96 nanos >= 2^63",
        "INT96 random bits", "INT96 zero", "INT96 nanos past the day", "INT96 with Arrow schema hint",
        "INT96 hint unit Second", "INT96 hint unit Millisecond", "INT96 hint unit Microsecond",
        "INT96 hint unit Nanosecond",
        "list Standard", "list ArrowLegacy", "list Hive", "list TwoLevel", "list TwoLevelElement",
        "list of lists", "repeated field without LIST", "group", "data page v1", "data page v2",
        "dictionary", "dictionary_page_offset 0", "dictionary_page_offset missing",
        "encoding PLAIN", "encoding DELTA_BINARY_PACKED", "encoding DELTA_LENGTH_BYTE_ARRAY",
        "encoding DELTA_BYTE_ARRAY", "encoding BYTE_STREAM_SPLIT", "encoding RLE",
        "decimal wider than its precision", "time outside the day", "10+ row groups",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    for c in ["uncompressed", "snappy", "gzip", "brotli", "lz4", "lz4_raw", "zstd"] {
        v.push(format!("codec {c}"));
    }
    v
}
