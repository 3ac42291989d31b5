//! The language server's transport and loop (issue 19) on arbitrary bytes as its standard
//! input: no panic, no hang, no allocation a header asks for; it ends when the input does.
#![no_main]

use libfuzzer_sys::fuzz_target;
use std::io::Cursor;

fuzz_target!(|data: &[u8]| {
    let (conn, threads) =
        mirrorless_lsp::transport::connect(Cursor::new(data.to_vec()), std::io::sink())
            .expect("threads");
    let _ = mirrorless_lsp::serve(conn);
    let _ = threads.join();
});
