//! The platform-neutral game manager (issue 4).
