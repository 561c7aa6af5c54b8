//! The canonical JSON text of any serialisable value, written straight from
//! it: the text `serde_json::to_value` then `to_string` gives (object keys
//! sorted as `serde_json::Map` sorts them, floats of `f32` fields widened as
//! `serde_json::Value` widens them), without building the JSON tree.
//!
//! The store hashes and keeps states, events and orders in this text, so it
//! must stay byte for byte what the tree gave: saved days re-run and compare
//! their hashes. The writer is serde_json's own serializer with a
//! [`Formatter`] that writes compactly into its own buffer and, as each
//! object ends, puts its entries in key order when they are not already.

use std::cell::RefCell;
use std::collections::HashMap;
use std::io;

use serde::Serialize;
use serde_json::ser::{CharEscape, CompactFormatter, Formatter};

/// The canonical text of `value` ([module](self)).
///
/// # Errors
/// What `serde_json::to_value` refuses: a map key that is not a string or
/// a number, or an integer beyond 64 bits.
pub fn to_canonical_text<T: Serialize + ?Sized>(value: &T) -> serde_json::Result<String> {
    let mut formatter = SortingFormatter::default();
    value.serialize(&mut serde_json::Serializer::with_formatter(
        io::sink(),
        &mut formatter,
    ))?;
    // Only whole strings, escaped by serde_json, are ever written.
    Ok(String::from_utf8(formatter.out).expect("serde_json writes UTF-8"))
}

/// One entry of an open object: `"key":value`, as byte ranges of the buffer.
#[derive(Clone, Copy)]
struct Entry {
    start: usize,
    key_end: usize,
    end: usize,
    /// Whether the key holds an escape, so must be unescaped to compare.
    escaped: bool,
}

/// An object being written: where its entries start, and whether they came
/// in key order so far (most do not: a struct writes its fields in
/// declaration order).
#[derive(Default)]
struct Open {
    entries: Vec<Entry>,
    sorted: bool,
}

/// The formatter: compact, into `out`, sorting each object as it closes.
#[derive(Default)]
struct SortingFormatter {
    out: Vec<u8>,
    /// The objects open, innermost last.
    open: Vec<Open>,
    /// Entry lists of closed objects, kept for the next ones.
    spare: Vec<Vec<Entry>>,
    /// Inside an object key, where numbers are written as the tree writes
    /// its keys (an `f32` key as an `f32`).
    in_key: bool,
    /// The sorted entries of the object being closed, reused.
    scratch: Vec<u8>,
    /// The quoted keys of the object being closed, in written order, reused.
    shape: Vec<u8>,
}

/// The key of an entry as `serde_json::Map` compares it: the unescaped text
/// (escapes are rare in keys, so only such a key is unescaped).
fn key<'a>(out: &'a [u8], entry: &Entry) -> std::borrow::Cow<'a, [u8]> {
    // The key is quoted: `"…"` from `start` to `key_end`.
    let quoted = &out[entry.start..entry.key_end];
    if entry.escaped {
        let text: String =
            serde_json::from_slice(quoted).expect("serde_json reads back the key it escaped");
        std::borrow::Cow::Owned(text.into_bytes())
    } else {
        std::borrow::Cow::Borrowed(&quoted[1..quoted.len() - 1])
    }
}

/// A number the JSON tree cannot hold, refused as `to_value` refuses it.
fn out_of_range() -> io::Error {
    io::Error::new(io::ErrorKind::InvalidData, "number out of range")
}

/// The most key sequences whose order is kept ([`ORDERS`]); beyond it all
/// are forgotten (only a map with ever new keys written in no order, which
/// no game state has, would get there).
const MOST_ORDERS: usize = 4096;

thread_local! {
    /// For each sequence of quoted keys an unsorted object was written
    /// with, the entries to write in order (the last of equal keys): a
    /// struct writes its fields in the same order every time, so each of
    /// its shapes is sorted once per thread, not once per object.
    static ORDERS: RefCell<HashMap<Vec<u8>, Vec<usize>>> = RefCell::new(HashMap::new());
}

/// The entries of an object in key order, the last of equal keys kept as a
/// map keeps it.
fn key_order(out: &[u8], entries: &[Entry]) -> Vec<usize> {
    let mut order: Vec<usize> = (0..entries.len()).collect();
    // Stable: of equal keys the last written comes last.
    order.sort_by(|&a, &b| key(out, &entries[a]).cmp(&key(out, &entries[b])));
    let mut kept = Vec::with_capacity(order.len());
    for (i, &this) in order.iter().enumerate() {
        let repeated = order
            .get(i + 1)
            .is_some_and(|&next| key(out, &entries[next]) == key(out, &entries[this]));
        if !repeated {
            kept.push(this);
        }
    }
    kept
}

impl SortingFormatter {
    /// Put the entries of the object that starts at `body` (just after its
    /// `{`) in key order ([`key_order`]).
    fn sort(&mut self, body: usize, entries: &[Entry]) {
        let mut shape = std::mem::take(&mut self.shape);
        shape.clear();
        for entry in entries {
            shape.extend_from_slice(&self.out[entry.start..entry.key_end]);
        }
        let mut scratch = std::mem::take(&mut self.scratch);
        scratch.clear();
        let out = &self.out;
        let mut write = |order: &[usize]| {
            for &i in order {
                if !scratch.is_empty() {
                    scratch.push(b',');
                }
                scratch.extend_from_slice(&out[entries[i].start..entries[i].end]);
            }
        };
        ORDERS.with_borrow_mut(|orders| {
            if let Some(order) = orders.get(&shape) {
                write(order);
                return;
            }
            let order = key_order(out, entries);
            write(&order);
            if orders.len() >= MOST_ORDERS {
                orders.clear();
            }
            orders.insert(shape.clone(), order);
        });
        self.out.truncate(body);
        self.out.extend_from_slice(&scratch);
        self.scratch = scratch;
        self.shape = shape;
    }
}

/// Every write goes to `out` through [`CompactFormatter`]; the writer
/// serde_json passes (a sink) is never written.
macro_rules! compact {
    ($($name:ident($($arg:ident: $ty:ty),*);)*) => {
        $(
            fn $name<W: ?Sized + io::Write>(&mut self, _: &mut W $(, $arg: $ty)*) -> io::Result<()> {
                CompactFormatter.$name(&mut self.out $(, $arg)*)
            }
        )*
    };
}

impl Formatter for &mut SortingFormatter {
    compact! {
        write_null();
        write_bool(value: bool);
        write_i8(value: i8);
        write_i16(value: i16);
        write_i32(value: i32);
        write_i64(value: i64);
        write_u8(value: u8);
        write_u16(value: u16);
        write_u32(value: u32);
        write_u64(value: u64);
        write_f64(value: f64);
        write_number_str(value: &str);
        begin_string();
        end_string();
        write_string_fragment(fragment: &str);
        write_char_escape(char_escape: CharEscape);
        write_byte_array(value: &[u8]);
        begin_array();
        end_array();
        begin_array_value(first: bool);
        end_array_value();
        write_raw_fragment(fragment: &str);
    }

    /// The tree holds an `f32` value as the `f64` it widens to, and writes
    /// that; a key stays the `f32` it was.
    fn write_f32<W: ?Sized + io::Write>(&mut self, _: &mut W, value: f32) -> io::Result<()> {
        if self.in_key {
            CompactFormatter.write_f32(&mut self.out, value)
        } else {
            CompactFormatter.write_f64(&mut self.out, f64::from(value))
        }
    }

    fn write_i128<W: ?Sized + io::Write>(&mut self, _: &mut W, value: i128) -> io::Result<()> {
        if !self.in_key && i64::try_from(value).is_err() && u64::try_from(value).is_err() {
            return Err(out_of_range());
        }
        CompactFormatter.write_i128(&mut self.out, value)
    }

    fn write_u128<W: ?Sized + io::Write>(&mut self, _: &mut W, value: u128) -> io::Result<()> {
        if !self.in_key && u64::try_from(value).is_err() {
            return Err(out_of_range());
        }
        CompactFormatter.write_u128(&mut self.out, value)
    }

    fn begin_object<W: ?Sized + io::Write>(&mut self, _: &mut W) -> io::Result<()> {
        let entries = self.spare.pop().unwrap_or_default();
        self.open.push(Open {
            entries,
            sorted: true,
        });
        CompactFormatter.begin_object(&mut self.out)
    }

    fn end_object<W: ?Sized + io::Write>(&mut self, _: &mut W) -> io::Result<()> {
        let Open {
            mut entries,
            sorted,
        } = self.open.pop().expect("an object ends after it began");
        if !sorted {
            self.sort(entries[0].start, &entries);
        }
        entries.clear();
        self.spare.push(entries);
        CompactFormatter.end_object(&mut self.out)
    }

    fn begin_object_key<W: ?Sized + io::Write>(
        &mut self,
        _: &mut W,
        first: bool,
    ) -> io::Result<()> {
        CompactFormatter.begin_object_key(&mut self.out, first)?;
        let start = self.out.len();
        self.open
            .last_mut()
            .expect("a key stands in an object")
            .entries
            .push(Entry {
                start,
                key_end: start,
                end: start,
                escaped: false,
            });
        self.in_key = true;
        Ok(())
    }

    fn end_object_key<W: ?Sized + io::Write>(&mut self, _: &mut W) -> io::Result<()> {
        self.in_key = false;
        let key_end = self.out.len();
        let open = self.open.last_mut().expect("a key stands in an object");
        let n = open.entries.len();
        let this = &mut open.entries[n - 1];
        this.key_end = key_end;
        this.escaped = self.out[this.start..key_end].contains(&b'\\');
        if open.sorted && n > 1 {
            let (before, this) = (&open.entries[n - 2], &open.entries[n - 1]);
            // Equal keys are not in order either: the tree keeps one.
            open.sorted = key(&self.out, before) < key(&self.out, this);
        }
        Ok(())
    }

    fn begin_object_value<W: ?Sized + io::Write>(&mut self, _: &mut W) -> io::Result<()> {
        CompactFormatter.begin_object_value(&mut self.out)
    }

    fn end_object_value<W: ?Sized + io::Write>(&mut self, _: &mut W) -> io::Result<()> {
        let end = self.out.len();
        let open = self.open.last_mut().expect("a value stands in an object");
        open.entries
            .last_mut()
            .expect("a value follows its key")
            .end = end;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use serde::Serialize;

    use super::to_canonical_text;

    /// The text the JSON tree gives: the oracle the writer must match.
    pub(crate) fn through_the_tree<T: Serialize + ?Sized>(value: &T) -> String {
        serde_json::to_string(&serde_json::to_value(value).unwrap()).unwrap()
    }

    #[derive(Serialize)]
    struct Inner {
        zeta: u8,
        #[serde(rename = "a\"quoted")]
        quoted: &'static str,
        #[serde(rename = "a\\back")]
        back: bool,
        alpha: Vec<Inner>,
        by_number: BTreeMap<u32, &'static str>,
    }

    #[derive(Serialize)]
    struct Outer {
        z: Inner,
        #[serde(rename = "é")]
        accented: f32,
        m: Option<f64>,
        a: (i64, u64, u128, i128),
        nan: f32,
        infinite: f64,
        #[serde(rename = "\u{1}")]
        control: BTreeMap<i32, f32>,
        tag: Tagged,
        empty: BTreeMap<String, u8>,
    }

    #[derive(Serialize)]
    #[serde(tag = "kind", rename_all = "snake_case")]
    enum Tagged {
        Walk { to: String, by: Vec<String> },
    }

    fn inner(depth: u8) -> Inner {
        Inner {
            zeta: depth,
            quoted: "say \"hi\"\n",
            back: true,
            alpha: if depth == 0 {
                Vec::new()
            } else {
                vec![inner(depth - 1), inner(depth - 1)]
            },
            by_number: [(10, "ten"), (9, "nine"), (100, "hundred")].into(),
        }
    }

    #[test]
    fn hand_made_values_write_as_the_tree_writes_them() {
        let value = Outer {
            z: inner(2),
            accented: 0.1,
            m: Some(1.0),
            a: (-5, u64::MAX, u128::from(u64::MAX), i128::from(i64::MIN)),
            nan: f32::NAN,
            infinite: f64::INFINITY,
            control: [(-1, 2.5), (3, 0.3), (12, f32::MIN_POSITIVE)].into(),
            tag: Tagged::Walk {
                to: "CV4".into(),
                by: vec!["x".into()],
            },
            empty: BTreeMap::new(),
        };
        let text = to_canonical_text(&value).unwrap();
        assert_eq!(text, through_the_tree(&value));
        assert!(text.contains("0.10000000149011612"), "{text}");
    }

    #[test]
    fn repeated_keys_keep_the_last_as_the_tree_does() {
        let pairs = serde_json::json!({"b": 1, "a": 2});
        let text = to_canonical_text(&Repeated(&[("b", 1), ("a", 2), ("b", 3)])).unwrap();
        assert_eq!(text, r#"{"a":2,"b":3}"#);
        assert_eq!(to_canonical_text(&pairs).unwrap(), through_the_tree(&pairs));
    }

    /// A map that writes the keys it is given, repeats and all.
    struct Repeated(&'static [(&'static str, u8)]);

    impl Serialize for Repeated {
        fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
            use serde::ser::SerializeMap;
            let mut map = serializer.serialize_map(None)?;
            for (k, v) in self.0 {
                map.serialize_entry(k, v)?;
            }
            map.end()
        }
    }

    #[test]
    fn what_the_tree_refuses_is_refused() {
        assert!(serde_json::to_value(u128::MAX).is_err());
        assert!(to_canonical_text(&u128::MAX).is_err());
        let keyed: BTreeMap<(u8, u8), u8> = [((1, 2), 3)].into();
        assert!(to_canonical_text(&keyed).is_err());
    }
}
