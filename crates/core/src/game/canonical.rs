//! The canonical JSON text of any serialisable value, written straight from
//! it: the text `serde_json::to_value` then `to_string` gives (object keys
//! sorted as `serde_json::Map` sorts them, floats of `f32` fields widened as
//! `serde_json::Value` widens them), without building the JSON tree.
//!
//! The store hashes and keeps states, events and orders in this text, so it
//! must stay byte for byte what the tree gave: saved days re-run and compare
//! their hashes. The writer is serde_json's own serializer with a
//! [`Formatter`] that writes compactly, in the order the value gives, into
//! its own buffer and notes where each object's entries lie; then the text
//! is copied out once, each object that is not already in key order with its
//! entries in key order. No byte moves while the value is written, and an
//! object in order with nothing out of order inside is copied whole.

use std::cell::RefCell;
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::io;

use serde::Serialize;
use serde_json::ser::{CharEscape, CompactFormatter, Formatter};

/// The canonical text of `value` ([module](self)).
///
/// # Errors
/// What `serde_json::to_value` refuses: a map key that is not a string or
/// a number, or an integer beyond 64 bits.
pub fn to_canonical_text<T: Serialize + ?Sized>(value: &T) -> serde_json::Result<String> {
    let mut formatter = SortingFormatter {
        orders: ORDERS.take(),
        ..SortingFormatter::default()
    };
    let written = value.serialize(&mut serde_json::Serializer::with_formatter(
        io::sink(),
        &mut formatter,
    ));
    ORDERS.set(std::mem::take(&mut formatter.orders));
    let text = written.map(|()| formatter.text());
    // Only whole strings, escaped by serde_json, are ever written.
    text.map(|text| String::from_utf8(text).expect("serde_json writes UTF-8"))
}

/// One entry of an open object: `"key":value`, as byte ranges of the buffer
/// (it ends where the next begins, before the `,`, or at the object's `}`).
#[derive(Clone, Copy)]
struct Entry {
    start: usize,
    key_end: usize,
    /// The first object noted ([`Written`]) that may lie inside the entry:
    /// the number noted when its key began.
    first_inner: usize,
    /// Whether the key holds an escape, so must be unescaped to compare.
    escaped: bool,
}

/// An object being written: its place among the objects noted, where its
/// entries begin among [`SortingFormatter::entries`], whether they came in
/// key order (most do not: a struct writes its fields in declaration
/// order), and whether an object inside it is out of order.
struct Open {
    noted: usize,
    first_entry: usize,
    sorted: bool,
    inner_unsorted: bool,
}

/// An object that is out of order or holds one that is, as written: from
/// its `{` at `start` to after its `}` at `end`. Objects are noted as they
/// begin, so the objects inside one follow it, up to `after`. An object
/// in order, with nothing out of order inside, is not kept: its bytes are
/// already final.
struct Written {
    start: usize,
    end: usize,
    after: usize,
    /// Its entries in key order, the last of equal keys kept, as spans of
    /// [`SortingFormatter::spans`]; `None` when they came in order.
    order: Option<(usize, usize)>,
}

/// An entry to copy, in the order the text wants: its bytes, and the first
/// object noted that may lie inside it.
#[derive(Clone, Copy)]
struct Span {
    start: usize,
    end: usize,
    first_inner: usize,
}

/// The formatter: compact, into `out`, noting what [`SortingFormatter::text`]
/// must reorder.
#[derive(Default)]
struct SortingFormatter {
    out: Vec<u8>,
    /// The objects open, innermost last.
    open: Vec<Open>,
    /// The entries of the objects open, each object's after those of the
    /// objects around it.
    entries: Vec<Entry>,
    /// The objects to rewrite, in the order they began.
    written: Vec<Written>,
    /// The entries of the objects to reorder, each object's in key order.
    spans: Vec<Span>,
    /// Inside an object key, where numbers are written as the tree writes
    /// its keys (an `f32` key as an `f32`).
    in_key: bool,
    /// The key orders known, taken from [`ORDERS`] for the call.
    orders: Orders,
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

/// Whether the key of `first` sorts strictly before that of `then` (equal
/// keys are not in order either: the tree keeps one).
fn comes_before(out: &[u8], first: &Entry, then: &Entry) -> bool {
    if first.escaped || then.escaped {
        return key(out, first) < key(out, then);
    }
    let (first, then) = (
        &out[first.start + 1..first.key_end - 1],
        &out[then.start + 1..then.key_end - 1],
    );
    // Keys are short and most differ early: a loop beats a call to memcmp.
    match first.iter().zip(then).find(|(a, b)| a != b) {
        Some((a, b)) => a < b,
        None => first.len() < then.len(),
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

/// A sequence of quoted keys an object out of order was written with, and
/// the entries to write in order (the last of equal keys).
#[derive(Default)]
struct Shape {
    keys: Vec<u8>,
    order: Vec<usize>,
}

/// The shapes known, by the [`shape_hash`] of their keys. The hash only
/// finds a shape: its keys are compared before its order is used, and a
/// shape whose hash another has replaces it.
type Orders = HashMap<u64, Shape, BuildHasherDefault<AlreadyHashed>>;

thread_local! {
    /// The key orders of the shapes seen: a struct writes its fields in the
    /// same order every time, so each of its shapes is sorted once per
    /// thread, not once per object.
    static ORDERS: RefCell<Orders> = RefCell::default();
}

/// A hasher for keys that are hashes already ([`Orders`]).
#[derive(Default)]
struct AlreadyHashed(u64);

impl Hasher for AlreadyHashed {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &byte in bytes {
            self.0 = self.0.rotate_left(8) ^ u64::from(byte);
        }
    }

    fn write_u64(&mut self, hash: u64) {
        self.0 = hash;
    }
}

/// A quick hash of the quoted keys of `entries`, in order, to find their
/// shape among [`Orders`]: of each key its length and first bytes (keys
/// alike in both only cost a fresh sort, being compared before use).
fn shape_hash(out: &[u8], entries: &[Entry]) -> u64 {
    let mut hash = 0_u64;
    for entry in entries {
        let len = entry.key_end - entry.start;
        let first = match out.get(entry.start..entry.start + 8) {
            Some(eight) => u64::from_le_bytes(eight.try_into().expect("8 bytes")),
            None => {
                let mut eight = [0; 8];
                let rest = &out[entry.start..];
                eight[..rest.len()].copy_from_slice(rest);
                u64::from_le_bytes(eight)
            }
        };
        // Only the key's own bytes: what follows it differs object to object.
        let mask = u64::MAX
            .checked_shr(8 * (8 - len.min(8)) as u32)
            .unwrap_or(0);
        hash = (hash.rotate_left(11) ^ (first & mask)).wrapping_add(len as u64);
    }
    (hash ^ hash >> 29).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95)
}

/// Whether `keys` are the quoted keys of `entries`, in order.
fn same_keys(out: &[u8], entries: &[Entry], keys: &[u8]) -> bool {
    let mut rest = keys;
    for entry in entries {
        let quoted = &out[entry.start..entry.key_end];
        match rest.split_at_checked(quoted.len()) {
            Some((these, after)) if these == quoted => rest = after,
            _ => return false,
        }
    }
    rest.is_empty()
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
    /// Note the entries of an object out of order in key order
    /// ([`key_order`], found once per shape), as [`Span`]s.
    fn note_order(&mut self, first_entry: usize) -> (usize, usize) {
        let (out, entries) = (&self.out, &self.entries[first_entry..]);
        if self.orders.len() >= MOST_ORDERS {
            self.orders.clear();
        }
        let shape = self.orders.entry(shape_hash(out, entries)).or_default();
        // A new shape has no keys, and an object out of order has two.
        if !same_keys(out, entries, &shape.keys) {
            shape.keys.clear();
            for entry in entries {
                shape
                    .keys
                    .extend_from_slice(&out[entry.start..entry.key_end]);
            }
            shape.order = key_order(out, entries);
        }
        let order = &shape.order;
        // Called as the object's `}` is written, which ends the last entry.
        let object_end = out.len() - 1;
        let first = self.spans.len();
        self.spans.extend(order.iter().map(|&i| Span {
            start: entries[i].start,
            end: entries.get(i + 1).map_or(object_end, |next| next.start - 1),
            first_inner: entries[i].first_inner,
        }));
        (first, self.spans.len())
    }

    /// The final text: the buffer, with each object noted rewritten.
    fn text(self) -> Vec<u8> {
        if self.written.is_empty() {
            return self.out;
        }
        let mut text = Vec::with_capacity(self.out.len());
        self.copy(&mut text, 0, self.out.len(), 0);
        text
    }

    /// Copy the bytes from `start` to `end` to `text`, each object noted
    /// among them, from the `first` on, rewritten ([`Self::rewrite`]).
    fn copy(&self, text: &mut Vec<u8>, start: usize, end: usize, first: usize) {
        let mut from = start;
        let mut next = first;
        while let Some(inner) = self.written.get(next).filter(|inner| inner.start < end) {
            text.extend_from_slice(&self.out[from..inner.start]);
            self.rewrite(text, next);
            from = inner.end;
            next = inner.after;
        }
        text.extend_from_slice(&self.out[from..end]);
    }

    /// Write the object noted `which`, its entries in key order.
    fn rewrite(&self, text: &mut Vec<u8>, which: usize) {
        let object = &self.written[which];
        let Some((first, last)) = object.order else {
            self.copy(text, object.start, object.end, which + 1);
            return;
        };
        text.push(b'{');
        for (i, span) in self.spans[first..last].iter().enumerate() {
            if i > 0 {
                text.push(b',');
            }
            self.copy(text, span.start, span.end, span.first_inner);
        }
        text.push(b'}');
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
        write_byte_array(value: &[u8]);
        begin_array();
        end_array();
        begin_array_value(first: bool);
        end_array_value();
        begin_object_value();
        end_object_value();
        write_raw_fragment(fragment: &str);
    }

    /// An escape in a key is noted: such a key is unescaped to compare.
    fn write_char_escape<W: ?Sized + io::Write>(
        &mut self,
        _: &mut W,
        char_escape: CharEscape,
    ) -> io::Result<()> {
        if self.in_key {
            self.entries.last_mut().expect("a key began").escaped = true;
        }
        CompactFormatter.write_char_escape(&mut self.out, char_escape)
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
        let start = self.out.len();
        self.open.push(Open {
            noted: self.written.len(),
            first_entry: self.entries.len(),
            sorted: true,
            inner_unsorted: false,
        });
        // Noted now, so that the objects inside follow it; what is left
        // unknown is filled in as it ends.
        self.written.push(Written {
            start,
            end: start,
            after: start,
            order: None,
        });
        CompactFormatter.begin_object(&mut self.out)
    }

    fn end_object<W: ?Sized + io::Write>(&mut self, _: &mut W) -> io::Result<()> {
        CompactFormatter.end_object(&mut self.out)?;
        let Open {
            noted,
            first_entry,
            sorted,
            inner_unsorted,
        } = self.open.pop().expect("an object ends after it began");
        if sorted && !inner_unsorted {
            // Its bytes are final: nothing inside was kept either.
            self.written.truncate(noted);
        } else {
            let order = (!sorted).then(|| self.note_order(first_entry));
            let (end, after) = (self.out.len(), self.written.len());
            let object = &mut self.written[noted];
            (object.end, object.after, object.order) = (end, after, order);
            if let Some(outer) = self.open.last_mut() {
                outer.inner_unsorted = true;
            }
        }
        self.entries.truncate(first_entry);
        Ok(())
    }

    fn begin_object_key<W: ?Sized + io::Write>(
        &mut self,
        _: &mut W,
        first: bool,
    ) -> io::Result<()> {
        CompactFormatter.begin_object_key(&mut self.out, first)?;
        let start = self.out.len();
        let first_inner = self.written.len();
        self.entries.push(Entry {
            start,
            key_end: start,
            first_inner,
            escaped: false,
        });
        self.in_key = true;
        Ok(())
    }

    fn end_object_key<W: ?Sized + io::Write>(&mut self, _: &mut W) -> io::Result<()> {
        self.in_key = false;
        let key_end = self.out.len();
        let n = self.entries.len();
        self.entries[n - 1].key_end = key_end;
        let open = self.open.last_mut().expect("a key stands in an object");
        if open.sorted && n > open.first_entry + 1 {
            let (before, this) = (&self.entries[n - 2], &self.entries[n - 1]);
            open.sorted = comes_before(&self.out, before, this);
        }
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
    struct Repeated<'a>(&'a [(&'a str, u8)]);

    impl Serialize for Repeated<'_> {
        fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
            use serde::ser::SerializeMap;
            let mut map = serializer.serialize_map(None)?;
            for (k, v) in self.0 {
                map.serialize_entry(k, v)?;
            }
            map.end()
        }
    }

    /// A value written as given: each map's entries in the order listed,
    /// repeats and all, so any order and any nesting can be made.
    enum Node {
        Map(Vec<(&'static str, Node)>),
        List(Vec<Node>),
        Number(u32),
    }

    impl Serialize for Node {
        fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
            use serde::ser::{SerializeMap, SerializeSeq};
            match self {
                Node::Map(entries) => {
                    let mut map = serializer.serialize_map(None)?;
                    for (k, v) in entries {
                        map.serialize_entry(k, v)?;
                    }
                    map.end()
                }
                Node::List(items) => {
                    let mut list = serializer.serialize_seq(Some(items.len()))?;
                    for item in items {
                        list.serialize_element(item)?;
                    }
                    list.end()
                }
                Node::Number(n) => serializer.serialize_u32(*n),
            }
        }
    }

    /// Keys that sort apart only on their escapes, their last bytes or
    /// beyond ASCII, few enough that shapes repeat, in order and not, and
    /// that objects repeat keys.
    const KEYS: [&str; 7] = ["a", "ab", "b", "a\"", "\u{1}", "é", "a\\"];

    /// A value of at most `depth` levels, drawn with `dice`.
    fn random_node(dice: &mut crate::dice::Dice, depth: u32) -> Node {
        let kind = if depth == 0 { 2 } else { dice.below("kind", 3) };
        match kind {
            0 => {
                let mut keys: Vec<&'static str> = (0..dice.below("length", 5))
                    .map(|_| KEYS[dice.below("key", 7) as usize])
                    .collect();
                // Half the maps come in key order, as a `BTreeMap` does.
                if dice.below("sorted", 2) == 0 {
                    keys.sort_unstable();
                    keys.dedup();
                }
                let entries = keys
                    .into_iter()
                    .map(|k| (k, random_node(dice, depth - 1)))
                    .collect();
                Node::Map(entries)
            }
            1 => {
                let items = (0..dice.below("length", 4))
                    .map(|_| random_node(dice, depth - 1))
                    .collect();
                Node::List(items)
            }
            _ => Node::Number(dice.below("number", 100)),
        }
    }

    #[test]
    fn values_of_every_nesting_and_order_write_as_the_tree_writes_them() {
        let mut dice = crate::dice::Dice::new(33, 0);
        for _ in 0..3000 {
            let value = random_node(&mut dice, 5);
            assert_eq!(to_canonical_text(&value).unwrap(), through_the_tree(&value));
        }
    }

    #[test]
    fn an_object_whose_keys_change_between_calls_is_sorted_anew() {
        let shapes: [&[(&str, u8)]; 4] = [
            &[("b", 1), ("a", 2)],
            &[("b", 1), ("c", 2), ("a", 3)],
            &[("b", 1), ("a", 2), ("a", 3)],
            &[("b", 1), ("a", 2)],
        ];
        let texts = [
            r#"{"a":2,"b":1}"#,
            r#"{"a":3,"b":1,"c":2}"#,
            r#"{"a":3,"b":1}"#,
            r#"{"a":2,"b":1}"#,
        ];
        for (shape, text) in shapes.into_iter().zip(texts) {
            assert_eq!(to_canonical_text(&Repeated(shape)).unwrap(), text);
        }
    }

    #[test]
    fn a_shape_found_by_its_hash_is_used_only_when_its_keys_match() {
        let known = |value: &Repeated| {
            super::ORDERS.with_borrow_mut(|orders| orders.clear());
            to_canonical_text(value).unwrap();
            super::ORDERS.with_borrow_mut(|orders| orders.drain().next().unwrap())
        };
        let wanted = Repeated(&[("c", 1), ("b", 2), ("a", 3)]);
        let (hash, _) = known(&wanted);
        // Another shape, of as many keys in another order, under its hash.
        let (_, other) = known(&Repeated(&[("b", 1), ("a", 2), ("c", 3)]));
        super::ORDERS.with_borrow_mut(|orders| orders.insert(hash, other));
        assert_eq!(
            to_canonical_text(&wanted).unwrap(),
            r#"{"a":3,"b":2,"c":1}"#
        );
    }

    #[test]
    fn what_the_tree_refuses_is_refused() {
        assert!(serde_json::to_value(u128::MAX).is_err());
        assert!(to_canonical_text(&u128::MAX).is_err());
        let keyed: BTreeMap<(u8, u8), u8> = [((1, 2), 3)].into();
        assert!(to_canonical_text(&keyed).is_err());
    }
}
