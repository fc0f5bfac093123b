fn main() {
    // Output into a closed pipe (`nfold ... | head`) ends the process quietly, as for
    // any command-line tool, instead of failing a write.
    #[cfg(unix)]
    // SAFETY: restoring the default action of SIGPIPE before any thread starts.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
    // Should a bug ever panic, the user sees one line, never a backtrace.
    std::panic::set_hook(Box::new(|info| {
        eprintln!("nfold: internal error: {info}");
    }));
    let code = nfold::cli::main_with_args(std::env::args().collect());
    std::process::exit(code);
}
