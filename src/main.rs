fn main() {
    let code = nfold::cli::main_with_args(std::env::args().collect());
    std::process::exit(code);
}
