//! Tests of the magic rules (seed 001; seed 000 II.C.10; TABLES.md §5, §12).
