//! Random arrays for a given type: every slot gets a value (slots under nulls hold non-zero
//! junk: values, non-empty strings and list segments), then a validity bitmap is laid over.

use std::collections::BTreeSet;
use std::sync::Arc;

use arrow::array::{
    make_array, ArrayRef, BinaryViewBuilder, BooleanArray, FixedSizeBinaryArray,
    FixedSizeListArray, GenericBinaryArray, GenericListArray, GenericStringArray,
    OffsetSizeTrait, StringViewBuilder, StructArray, BinaryViewArray, StringViewArray,
};
use arrow::buffer::{BooleanBuffer, Buffer, NullBuffer, OffsetBuffer};
use arrow::datatypes::{i256, DataType, FieldRef, TimeUnit};

use crate::rng::Rng;

pub struct ArrayGen<'a> {
    pub rng: &'a mut Rng,
    /// Data shapes met (empty strings, null parents over valid children, ...), for coverage.
    pub features: &'a mut BTreeSet<String>,
    /// Upper bound on list lengths at the top list level.
    pub max_list_len: usize,
    /// Probability of a long (> 1 KiB) string or binary value.
    pub p_huge: f64,
    /// See TableProfile.
    pub p_out_of_range: f64,
    pub p_invalid_under_null: f64,
}

impl ArrayGen<'_> {
    fn feature(&mut self, name: &str) {
        if !self.features.contains(name) {
            self.features.insert(name.to_string());
        }
    }

    /// Validity for `len` slots. A nullable field may get no bitmap, an all-valid one,
    /// random nulls or all nulls. A non-nullable struct child may only be null where its
    /// parent is (Arrow's rule), which produces the "null parent over null child" shape.
    fn validity(&mut self, nullable: bool, len: usize, parent: Option<&[bool]>) -> Option<Vec<bool>> {
        if nullable {
            match self.rng.below(20) {
                0..=4 => None,
                5..=6 => Some(vec![true; len]),
                7..=8 => Some(vec![false; len]),
                _ => {
                    let p = *self.rng.pick(&[0.05, 0.3, 0.5, 0.9]);
                    Some((0..len).map(|_| !self.rng.chance(p)).collect())
                }
            }
        } else if let Some(parent) = parent.filter(|p| p.iter().any(|v| !v)) {
            match self.rng.below(3) {
                0 => None,
                1 => Some(parent.to_vec()),
                _ => Some(parent.iter().map(|&v| v || self.rng.chance(0.5)).collect()),
            }
        } else {
            None
        }
    }

    pub fn array(&mut self, dt: &DataType, nullable: bool, len: usize,
                 parent: Option<&[bool]>) -> ArrayRef {
        let validity = self.validity(nullable, len, parent);
        if let (Some(parent), Some(v)) = (parent, validity.as_ref()) {
            if parent.iter().zip(v).any(|(p, c)| !p && !c) {
                self.feature("null parent over null child");
            }
        }
        if let Some(parent) = parent {
            let valid_under_null = match &validity {
                None => parent.iter().any(|p| !p),
                Some(v) => parent.iter().zip(v).any(|(p, c)| !p && *c),
            };
            if valid_under_null {
                self.feature("null parent over non-null child");
            }
        }
        let nulls = validity.as_ref().map(|v| NullBuffer::from(v.clone()));
        match dt {
            DataType::Boolean => {
                let bits: Vec<bool> = (0..len).map(|_| self.rng.chance(0.5)).collect();
                Arc::new(BooleanArray::new(BooleanBuffer::from(bits), nulls))
            }
            DataType::Utf8 => self.strings::<i32>(len, validity.as_deref(), nulls),
            DataType::LargeUtf8 => self.strings::<i64>(len, validity.as_deref(), nulls),
            DataType::Binary => self.binaries::<i32>(len, nulls),
            DataType::LargeBinary => self.binaries::<i64>(len, nulls),
            DataType::Utf8View => {
                let mut b = StringViewBuilder::new()
                    .with_fixed_block_size(*self.rng.pick(&[64u32, 1024, 32 * 1024]));
                for _ in 0..len {
                    let s = self.string();
                    b.append_value(&s);
                }
                let a = b.finish();
                let (views, buffers, _) = a.into_parts();
                Arc::new(StringViewArray::try_new(views, buffers, nulls).unwrap())
            }
            DataType::BinaryView => {
                let mut b = BinaryViewBuilder::new()
                    .with_fixed_block_size(*self.rng.pick(&[64u32, 1024, 32 * 1024]));
                for _ in 0..len {
                    let v = self.binary();
                    b.append_value(&v);
                }
                let (views, buffers, _) = b.finish().into_parts();
                Arc::new(BinaryViewArray::try_new(views, buffers, nulls).unwrap())
            }
            DataType::FixedSizeBinary(size) => {
                let values = self.rng.bytes(len * *size as usize);
                Arc::new(FixedSizeBinaryArray::try_new(*size, Buffer::from_slice_ref(&values), nulls).unwrap())
            }
            DataType::List(f) => self.list::<i32>(f, len, validity.as_deref(), nulls),
            DataType::LargeList(f) => self.list::<i64>(f, len, validity.as_deref(), nulls),
            DataType::FixedSizeList(f, size) => {
                let child = self.array(f.data_type(), f.is_nullable(), len * *size as usize, None);
                Arc::new(FixedSizeListArray::try_new(f.clone(), *size, child, nulls).unwrap())
            }
            DataType::Struct(fields) => {
                let children: Vec<ArrayRef> = fields
                    .iter()
                    .map(|f| self.array(f.data_type(), f.is_nullable(), len, validity.as_deref()))
                    .collect();
                Arc::new(StructArray::try_new(fields.clone(), children, nulls).unwrap())
            }
            _ => {
                let wild = self.p_out_of_range > 0.0
                    && matches!(dt, DataType::Decimal32(..) | DataType::Decimal64(..)
                        | DataType::Decimal128(..) | DataType::Decimal256(..)
                        | DataType::Time32(_) | DataType::Time64(_))
                    && self.rng.chance(self.p_out_of_range);
                let bytes = if wild {
                    self.feature("values outside precision / day");
                    let width = dt.primitive_width().expect("fixed width");
                    self.rng.bytes(len * width)
                } else {
                    self.fixed_values(dt, len)
                };
                let data = arrow::array::ArrayData::builder(dt.clone())
                    .len(len)
                    .add_buffer(Buffer::from_slice_ref(&bytes))
                    .nulls(nulls)
                    .build()
                    .unwrap();
                make_array(data)
            }
        }
    }

    /// Little-endian values of a fixed-width type. Integers and floats are random bits
    /// (NaNs with payloads included); temporal types stay in ranges the Parquet writer can
    /// convert between units without overflow; decimals stay within their precision.
    fn fixed_values(&mut self, dt: &DataType, len: usize) -> Vec<u8> {
        let mut out = Vec::new();
        for _ in 0..len {
            let r = self.rng.next_u64();
            match dt {
                DataType::Int8 | DataType::UInt8 => out.push(r as u8),
                DataType::Int16 | DataType::UInt16 | DataType::Float16 => {
                    out.extend_from_slice(&(r as u16).to_le_bytes())
                }
                DataType::Int32 | DataType::UInt32 | DataType::Float32 => {
                    out.extend_from_slice(&(r as u32).to_le_bytes())
                }
                DataType::Int64 | DataType::UInt64 | DataType::Float64 => {
                    out.extend_from_slice(&r.to_le_bytes())
                }
                DataType::Date32 => {
                    let v = self.signed(3_000_000) as i32;
                    out.extend_from_slice(&v.to_le_bytes())
                }
                DataType::Date64 => {
                    let day = self.signed(1_000_000) * 86_400_000;
                    let v = if self.rng.chance(0.5) { day } else { day + self.signed(86_399_999) };
                    out.extend_from_slice(&v.to_le_bytes())
                }
                DataType::Time32(u) => {
                    let per_day = if *u == TimeUnit::Second { 86_400 } else { 86_400_000 };
                    out.extend_from_slice(&(self.rng.below(per_day) as i32).to_le_bytes())
                }
                DataType::Time64(u) => {
                    let per_day = if *u == TimeUnit::Microsecond { 86_400_000_000 } else { 86_400_000_000_000 };
                    out.extend_from_slice(&(self.rng.below(per_day) as i64).to_le_bytes())
                }
                DataType::Timestamp(u, _) => {
                    // Within +-9e9 seconds so that every unit conversion fits in i64.
                    let bound: i64 = match u {
                        TimeUnit::Second => 9_000_000_000,
                        TimeUnit::Millisecond => 9_000_000_000_000,
                        TimeUnit::Microsecond => 9_000_000_000_000_000,
                        TimeUnit::Nanosecond => i64::MAX,
                    };
                    let v = if bound == i64::MAX { r as i64 } else { self.signed(bound) };
                    out.extend_from_slice(&v.to_le_bytes())
                }
                DataType::Decimal32(p, _) => {
                    let v = self.decimal(*p) as i32;
                    out.extend_from_slice(&v.to_le_bytes())
                }
                DataType::Decimal64(p, _) => {
                    let v = self.decimal(*p) as i64;
                    out.extend_from_slice(&v.to_le_bytes())
                }
                DataType::Decimal128(p, _) => out.extend_from_slice(&self.decimal(*p).to_le_bytes()),
                DataType::Decimal256(p, _) => {
                    let v = if *p <= 38 {
                        i256::from_i128(self.decimal(*p))
                    } else {
                        let hi = i256::from_i128(self.decimal(*p - 38));
                        let lo = i256::from_i128(self.decimal(38).abs());
                        let lo = if hi < i256::ZERO { lo.wrapping_neg() } else { lo };
                        hi.wrapping_mul(i256::from_i128(10i128.pow(38))).wrapping_add(lo)
                    };
                    out.extend_from_slice(&v.to_le_bytes())
                }
                other => panic!("no fixed-width generator for {other}"),
            }
        }
        out
    }

    fn signed(&mut self, bound: i64) -> i64 {
        (self.rng.below(2 * bound as u64 + 1) as i64).wrapping_sub(bound)
    }

    /// A value with at most `precision` decimal digits (precision <= 38).
    fn decimal(&mut self, precision: u8) -> i128 {
        let digits = self.rng.range(0, precision as usize) as u32;
        let max = 10i128.pow(digits) - 1;
        if max == 0 {
            return 0;
        }
        let v = ((self.rng.next_u64() as i128) << 64 | self.rng.next_u64() as i128).rem_euclid(max + 1);
        if self.rng.chance(0.5) { -v } else { v }
    }

    fn value_len(&mut self) -> usize {
        if self.rng.chance(self.p_huge) {
            self.feature("value > 1 KiB");
            return self.rng.range(1025, 4000);
        }
        match self.rng.below(10) {
            0..=1 => {
                self.feature("empty string/binary");
                0
            }
            2..=6 => self.rng.range(1, 12),
            _ => {
                self.feature("value > 12 bytes");
                self.rng.range(13, 60)
            }
        }
    }

    fn string(&mut self) -> String {
        const ALPHABET: &[&str] = &["a", "b", "Z", "0", " ", "é", "ж", "€", "😀", "\u{0}", "\n"];
        let n = self.value_len();
        let mut s = String::new();
        while s.len() < n {
            s.push_str(*self.rng.pick(ALPHABET));
        }
        s
    }

    fn binary(&mut self) -> Vec<u8> {
        let n = self.value_len();
        self.rng.bytes(n)
    }

    fn strings<O: OffsetSizeTrait>(&mut self, len: usize, validity: Option<&[bool]>,
                                   nulls: Option<NullBuffer>) -> ArrayRef {
        let values: Vec<String> = (0..len).map(|_| self.string()).collect();
        if let Some(v) = validity {
            if v.iter().zip(&values).any(|(ok, s)| !ok && !s.is_empty()) {
                self.feature("non-empty value under null");
            }
        }
        let a = GenericStringArray::<O>::from_iter_values(values.iter());
        let (offsets, data, _) = a.into_parts();
        let junk_slot = match validity {
            Some(v) if self.p_invalid_under_null > 0.0 => v
                .iter()
                .zip(&values)
                .position(|(ok, s)| !ok && !s.is_empty())
                .filter(|_| self.rng.chance(self.p_invalid_under_null)),
            _ => None,
        };
        if let Some(i) = junk_slot {
            // Invalid UTF-8 in a null slot: arrow-rs's IPC reader refuses the file.
            self.feature("invalid UTF-8 under null");
            let mut bytes = data.to_vec();
            bytes[offsets[i].as_usize()] = 0xff;
            // SAFETY (test data): invalid on purpose; only written out.
            return Arc::new(unsafe {
                GenericStringArray::<O>::new_unchecked(offsets, Buffer::from_vec(bytes), nulls)
            });
        }
        Arc::new(GenericStringArray::<O>::try_new(offsets, data, nulls).unwrap())
    }

    fn binaries<O: OffsetSizeTrait>(&mut self, len: usize, nulls: Option<NullBuffer>) -> ArrayRef {
        let values: Vec<Vec<u8>> = (0..len).map(|_| self.binary()).collect();
        let a = GenericBinaryArray::<O>::from_iter_values(values.iter());
        let (offsets, data, _) = a.into_parts();
        Arc::new(GenericBinaryArray::<O>::try_new(offsets, data, nulls).unwrap())
    }

    fn list<O: OffsetSizeTrait>(&mut self, f: &FieldRef, len: usize, validity: Option<&[bool]>,
                                nulls: Option<NullBuffer>) -> ArrayRef {
        let max = self.max_list_len;
        let mut lengths = Vec::with_capacity(len);
        for i in 0..len {
            let valid = validity.map_or(true, |v| v[i]);
            let n = self.rng.range(0, max);
            if n == 0 && valid {
                self.feature("empty list");
            }
            if !valid {
                self.feature("null list");
                if n > 0 {
                    self.feature("non-empty list segment under null");
                }
            }
            lengths.push(n);
        }
        let total: usize = lengths.iter().sum();
        let saved = self.max_list_len;
        self.max_list_len = (saved / 2).max(2);
        let child = self.array(f.data_type(), f.is_nullable(), total, None);
        self.max_list_len = saved;
        let offsets = OffsetBuffer::<O>::from_lengths(lengths);
        Arc::new(GenericListArray::<O>::try_new(f.clone(), offsets, child, nulls).unwrap())
    }
}
