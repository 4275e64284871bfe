#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| crossat_fuzz::run("ecma_match", data));
