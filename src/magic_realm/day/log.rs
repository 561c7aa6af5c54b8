//! The GM's day log in the style of the BIMR day pages, built from the
//! day's events only.
