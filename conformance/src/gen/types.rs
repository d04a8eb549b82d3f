//! Random Arrow data types for the generated tables, and the coverage categories they count
//! towards.

use std::collections::BTreeSet;
use std::sync::Arc;

use arrow::datatypes::{DataType, Field, Fields, TimeUnit};

use crate::rng::Rng;

/// Leaf type families. A table may be restricted to some of them (the committed vectors
/// focus one table on each group, so every type is covered by a few dozen tables).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Leaf {
    Int8,
    Int16,
    Int32,
    Int64,
    UInt8,
    UInt16,
    UInt32,
    UInt64,
    Float16,
    Float32,
    Float64,
    Decimal32,
    Decimal64,
    Decimal128,
    Decimal256,
    Date32,
    Date64,
    Time32,
    Time64,
    Timestamp,
    Binary,
    LargeBinary,
    FixedSizeBinary,
    BinaryView,
    Utf8,
    LargeUtf8,
    Utf8View,
    Boolean,
}

pub const ALL_LEAVES: &[Leaf] = &[
    Leaf::Int8,
    Leaf::Int16,
    Leaf::Int32,
    Leaf::Int64,
    Leaf::UInt8,
    Leaf::UInt16,
    Leaf::UInt32,
    Leaf::UInt64,
    Leaf::Float16,
    Leaf::Float32,
    Leaf::Float64,
    Leaf::Decimal32,
    Leaf::Decimal64,
    Leaf::Decimal128,
    Leaf::Decimal256,
    Leaf::Date32,
    Leaf::Date64,
    Leaf::Time32,
    Leaf::Time64,
    Leaf::Timestamp,
    Leaf::Binary,
    Leaf::LargeBinary,
    Leaf::FixedSizeBinary,
    Leaf::BinaryView,
    Leaf::Utf8,
    Leaf::LargeUtf8,
    Leaf::Utf8View,
    Leaf::Boolean,
];

pub const TIME_ZONES: &[&str] = &["UTC", "+02:00", "Europe/Kyiv"];

/// What shapes a table may take.
#[derive(Clone, Debug)]
pub struct TypeProfile {
    pub leaves: Vec<Leaf>,
    /// Probability that a column (or struct child) is a list / struct rather than a leaf.
    pub p_list: f64,
    pub p_struct: f64,
    /// Maximum nesting of lists and of structs.
    pub max_list_depth: usize,
    pub max_struct_depth: usize,
    /// Probability of a negative decimal scale (Arrow allows them; Parquet writers may not).
    pub p_negative_scale: f64,
}

impl Default for TypeProfile {
    fn default() -> Self {
        TypeProfile {
            leaves: ALL_LEAVES.to_vec(),
            p_list: 0.2,
            p_struct: 0.15,
            max_list_depth: 3,
            max_struct_depth: 3,
            p_negative_scale: 0.1,
        }
    }
}

fn decimal_params(rng: &mut Rng, max_precision: u8, p_negative_scale: f64) -> (u8, i8) {
    let precision = rng.range(1, max_precision as usize) as u8;
    let scale = if rng.chance(p_negative_scale) {
        -(rng.range(1, 5) as i8)
    } else {
        rng.range(0, precision as usize) as i8
    };
    (precision, scale)
}

pub fn leaf_type(rng: &mut Rng, leaf: Leaf, p_negative_scale: f64) -> DataType {
    match leaf {
        Leaf::Int8 => DataType::Int8,
        Leaf::Int16 => DataType::Int16,
        Leaf::Int32 => DataType::Int32,
        Leaf::Int64 => DataType::Int64,
        Leaf::UInt8 => DataType::UInt8,
        Leaf::UInt16 => DataType::UInt16,
        Leaf::UInt32 => DataType::UInt32,
        Leaf::UInt64 => DataType::UInt64,
        Leaf::Float16 => DataType::Float16,
        Leaf::Float32 => DataType::Float32,
        Leaf::Float64 => DataType::Float64,
        Leaf::Decimal32 => {
            let (p, s) = decimal_params(rng, 9, p_negative_scale);
            DataType::Decimal32(p, s)
        }
        Leaf::Decimal64 => {
            let (p, s) = decimal_params(rng, 18, p_negative_scale);
            DataType::Decimal64(p, s)
        }
        Leaf::Decimal128 => {
            let (p, s) = decimal_params(rng, 38, p_negative_scale);
            DataType::Decimal128(p, s)
        }
        Leaf::Decimal256 => {
            let (p, s) = decimal_params(rng, 76, p_negative_scale);
            DataType::Decimal256(p, s)
        }
        Leaf::Date32 => DataType::Date32,
        Leaf::Date64 => DataType::Date64,
        Leaf::Time32 => {
            DataType::Time32(*rng.pick(&[TimeUnit::Second, TimeUnit::Millisecond]))
        }
        Leaf::Time64 => {
            DataType::Time64(*rng.pick(&[TimeUnit::Microsecond, TimeUnit::Nanosecond]))
        }
        Leaf::Timestamp => {
            let unit = *rng.pick(&[
                TimeUnit::Second,
                TimeUnit::Millisecond,
                TimeUnit::Microsecond,
                TimeUnit::Nanosecond,
            ]);
            let tz = if rng.chance(0.5) {
                None
            } else {
                Some(Arc::from(*rng.pick(TIME_ZONES)))
            };
            DataType::Timestamp(unit, tz)
        }
        Leaf::Binary => DataType::Binary,
        Leaf::LargeBinary => DataType::LargeBinary,
        Leaf::FixedSizeBinary => DataType::FixedSizeBinary(rng.range(1, 20) as i32),
        Leaf::BinaryView => DataType::BinaryView,
        Leaf::Utf8 => DataType::Utf8,
        Leaf::LargeUtf8 => DataType::LargeUtf8,
        Leaf::Utf8View => DataType::Utf8View,
        Leaf::Boolean => DataType::Boolean,
    }
}

/// A random field name: mostly ASCII, sometimes non-ASCII (names are hashed as UTF-8).
pub fn field_name(rng: &mut Rng, index: usize) -> String {
    match rng.below(6) {
        0 => format!("поле_{index}"),
        1 => format!("Col {index} é"),
        _ => format!("c{index}"),
    }
}

/// A random type: a leaf, a list of something (lists of lists included), or a struct
/// (structs nested up to the profile's depth). Structs are never generated inside lists:
/// the reference cannot hash them there.
pub fn random_type(rng: &mut Rng, p: &TypeProfile, list_depth: usize, struct_depth: usize,
                   in_list: bool) -> DataType {
    let roll = rng.next_u64() as f64 / u64::MAX as f64;
    if roll < p.p_list && list_depth < p.max_list_depth {
        let item = random_type(rng, p, list_depth + 1, struct_depth, true);
        let item = Arc::new(Field::new("item", item, rng.chance(0.7)));
        return match rng.below(3) {
            0 => DataType::List(item),
            1 => DataType::LargeList(item),
            _ => DataType::FixedSizeList(item, rng.range(1, 4) as i32),
        };
    }
    if !in_list && roll < p.p_list + p.p_struct && struct_depth < p.max_struct_depth {
        let n = rng.range(1, 4);
        let fields: Vec<Field> = (0..n)
            .map(|i| {
                let dt = random_type(rng, p, list_depth, struct_depth + 1, false);
                Field::new(field_name(rng, i), dt, rng.chance(0.6))
            })
            .collect();
        return DataType::Struct(Fields::from(fields));
    }
    let leaf = *rng.pick(&p.leaves);
    leaf_type(rng, leaf, p.p_negative_scale)
}

/// Coverage categories of a type: one per leaf type family and parameter that matters
/// (units, time zones, negative scales), one per list kind and nesting shape.
pub fn categorize(dt: &DataType, struct_depth: usize, out: &mut BTreeSet<String>) {
    let name = match dt {
        DataType::Decimal32(_, s)
        | DataType::Decimal64(_, s) => {
            if *s < 0 {
                out.insert("Decimal(negative scale)".into());
            }
            let w = if matches!(dt, DataType::Decimal32(..)) { 32 } else { 64 };
            format!("Decimal{w}")
        }
        DataType::Decimal128(_, s) | DataType::Decimal256(_, s) => {
            if *s < 0 {
                out.insert("Decimal(negative scale)".into());
            }
            let w = if matches!(dt, DataType::Decimal128(..)) { 128 } else { 256 };
            format!("Decimal{w}")
        }
        DataType::Time32(u) => format!("Time32({u:?})"),
        DataType::Time64(u) => format!("Time64({u:?})"),
        DataType::Timestamp(u, tz) => {
            out.insert(format!("Timestamp({u:?})"));
            match tz {
                None => "Timestamp(no tz)".to_string(),
                Some(tz) => format!("Timestamp(tz={tz})"),
            }
        }
        DataType::FixedSizeBinary(_) => "FixedSizeBinary".into(),
        DataType::List(f) | DataType::LargeList(f) | DataType::FixedSizeList(f, _) => {
            if matches!(
                f.data_type(),
                DataType::List(_) | DataType::LargeList(_) | DataType::FixedSizeList(..)
            ) {
                out.insert("list of lists".into());
            }
            categorize(f.data_type(), struct_depth, out);
            match dt {
                DataType::List(_) => "List".into(),
                DataType::LargeList(_) => "LargeList".into(),
                _ => "FixedSizeList".into(),
            }
        }
        DataType::Struct(fields) => {
            for f in fields {
                categorize(f.data_type(), struct_depth + 1, out);
            }
            format!("Struct(depth {})", struct_depth + 1)
        }
        other => format!("{other}"),
    };
    out.insert(name);
}

/// Every category a large enough campaign must reach (checked by the coverage summary).
pub fn required_categories() -> Vec<String> {
    let mut v: Vec<String> = [
        "Int8", "Int16", "Int32", "Int64", "UInt8", "UInt16", "UInt32", "UInt64", "Float16",
        "Float32", "Float64", "Decimal32", "Decimal64", "Decimal128", "Decimal256",
        "Decimal(negative scale)", "Date32", "Date64", "Time32(Second)", "Time32(Millisecond)",
        "Time64(Microsecond)", "Time64(Nanosecond)", "Timestamp(Second)",
        "Timestamp(Millisecond)", "Timestamp(Microsecond)", "Timestamp(Nanosecond)",
        "Timestamp(no tz)", "Binary", "LargeBinary", "FixedSizeBinary", "BinaryView", "Utf8",
        "LargeUtf8", "Utf8View", "Boolean", "List", "LargeList", "FixedSizeList",
        "list of lists", "Struct(depth 1)", "Struct(depth 2)", "Struct(depth 3)",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    for tz in TIME_ZONES {
        v.push(format!("Timestamp(tz={tz})"));
    }
    v
}
