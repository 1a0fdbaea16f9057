//! The `toguz` binary: parses the command line and hands over to `toguz::cli`.

fn main() -> std::process::ExitCode {
    toguz::cli::main()
}
