//! What the terminal takes: box-drawing characters (Unicode or ASCII) and colour.
//!
//! - **Characters.** Unicode box drawing unless `--ascii`, or the locale names another
//!   encoding: the first of `LC_ALL`, `LC_CTYPE` and `LANG` that is set and not empty
//!   decides, Unicode when it mentions UTF-8 (`C.UTF-8`, `en_US.utf8`), ASCII otherwise
//!   (`C`, `POSIX`, `en_US.ISO-8859-1`); with none set, Unicode. This does not depend on
//!   whether standard output is a terminal, so piped output is the same as on screen.
//! - **Colour** (`--color auto|always|never`): `auto` colours only when standard output
//!   is a terminal, `NO_COLOR` is unset or empty, and `TERM` is not `dumb`;
//!   `CLICOLOR_FORCE` (not `0`) turns it on even when piped, but `NO_COLOR` wins. The
//!   decision is `anstream`'s, as for clap's own help.

/// When to colour (`--color`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum ColorWhen {
    /// On a terminal, unless `NO_COLOR`; also when piped with `CLICOLOR_FORCE`.
    #[default]
    Auto,
    /// Always.
    Always,
    /// Never.
    Never,
}

/// Whether to colour standard output.
pub fn color_enabled(when: ColorWhen) -> bool {
    match when {
        ColorWhen::Always => true,
        ColorWhen::Never => false,
        ColorWhen::Auto => anstream::AutoStream::choice(&std::io::stdout()) != anstream::ColorChoice::Never,
    }
}

/// Whether the locale allows Unicode box drawing (see the module documentation).
pub fn unicode_locale() -> bool {
    for var in ["LC_ALL", "LC_CTYPE", "LANG"] {
        if let Ok(v) = std::env::var(var)
            && !v.is_empty()
        {
            let v = v.to_ascii_lowercase();
            return v.contains("utf-8") || v.contains("utf8");
        }
    }
    true
}
