//! Tests of the day engine.
