//! The terminal adapter behind `toguz play` (issue 4).
