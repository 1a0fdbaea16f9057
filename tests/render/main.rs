//! The boards: text snapshots and PNG images. One test binary.

mod png_board;
mod text_board;
