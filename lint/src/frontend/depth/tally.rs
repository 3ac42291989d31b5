//! The count behind [`super::estimate`]: a stack of bracket levels, and within each level the
//! tokens a separator ends (`pieces`) and those it cannot end (`angles`, `kept`).

use super::Nesting;

/// One bracket level.
#[derive(Debug, Default)]
struct Level {
    /// Tokens since the level's last `,` or `;`.
    pieces: usize,
    /// `<` not yet closed by a `>`: generic arguments (and JSX) span commas.
    angles: usize,
    /// Tokens whose construct spans a `,` until the next `;` (a closure's `|`).
    kept: usize,
    /// Of `kept`, brackets opened inside what was scanned as one token (a regular expression
    /// that may be misread code) and not closed there: the next closers close them.
    ghosts: usize,
}

/// What a `;` ended ([`Tally::end_statement`]).
#[derive(Debug)]
pub(super) struct Ended(Level);

/// The running estimate over one file's tokens.
#[derive(Debug)]
pub(super) struct Tally {
    levels: Vec<Level>,
    total: usize,
    max: Nesting,
}

impl Tally {
    pub(super) fn new() -> Tally {
        Tally {
            levels: vec![Level::default()],
            total: 1,
            max: Nesting { depth: 1, at: 0 },
        }
    }

    pub(super) fn finish(self) -> Nesting {
        self.max
    }

    fn top(&mut self) -> &mut Level {
        // The root level is never popped (`close` keeps it).
        let last = self.levels.len() - 1;
        &mut self.levels[last]
    }

    /// Records a new maximum; `at` is asked only then (a span's offset may cost a lookup).
    fn note(&mut self, at: impl FnOnce() -> usize) {
        if self.total > self.max.depth {
            self.max = Nesting {
                depth: self.total,
                at: at(),
            };
        }
    }

    /// One more token of the current level.
    pub(super) fn piece(&mut self, at: impl FnOnce() -> usize) {
        self.top().pieces += 1;
        self.total += 1;
        self.note(at);
    }

    /// A token whose construct a `,` does not end, only a `;` or the level's closing bracket.
    pub(super) fn kept(&mut self, at: impl FnOnce() -> usize) {
        self.top().kept += 1;
        self.total += 1;
        self.note(at);
    }

    /// `extra` more levels for a moment: the peak of what a construct scanned as one token
    /// (a regular expression) would nest if it were code.
    pub(super) fn peak(&mut self, extra: usize, at: impl FnOnce() -> usize) {
        self.total += extra;
        self.note(at);
        self.total -= extra;
    }

    /// `n` brackets opened inside what was scanned as one token and left open: counted as
    /// tokens a `,` does not end ([`Tally::kept`]), and closed by the level's next closers
    /// ([`Tally::close_ghost`]) rather than the scanner's own levels.
    pub(super) fn ghosts(&mut self, n: usize, at: impl FnOnce() -> usize) {
        let top = self.top();
        top.kept += n;
        top.ghosts += n;
        self.total += n;
        self.note(at);
    }

    /// Whether the current level has ghost brackets open ([`Tally::ghosts`]).
    pub(super) fn ghosted(&self) -> bool {
        self.levels.last().is_some_and(|l| l.ghosts > 0)
    }

    /// A closing bracket that closes a ghost bracket of the current level, if it has one.
    pub(super) fn close_ghost(&mut self) -> bool {
        let top = self.top();
        if top.ghosts == 0 {
            return false;
        }
        top.ghosts -= 1;
        top.kept -= 1;
        self.total -= 1;
        true
    }

    /// A `<`: kept until a `>` closes it.
    pub(super) fn angle_open(&mut self, at: impl FnOnce() -> usize) {
        self.top().angles += 1;
        self.total += 1;
        self.note(at);
    }

    /// A `>`: the innermost open `<` of the level becomes an ordinary piece (the closed
    /// argument list is one more piece of its path or chain).
    pub(super) fn angle_close(&mut self) {
        let top = self.top();
        if top.angles > 0 {
            top.angles -= 1;
            top.pieces += 1;
        }
    }

    /// A `,`: what came since the last separator ends, except what spans it.
    pub(super) fn comma(&mut self) {
        let top = self.top();
        let ended = std::mem::take(&mut top.pieces);
        self.total -= ended;
    }

    /// A `;`: everything since the last `;` ends.
    pub(super) fn semicolon(&mut self) {
        self.end_statement();
    }

    /// A `;` that may not end the statement (an `else` may follow): what it ended, for
    /// [`Tally::resume`].
    pub(super) fn end_statement(&mut self) -> Ended {
        let top = std::mem::take(self.top());
        self.total -= top.pieces + top.angles + top.kept;
        Ended(top)
    }

    /// The statement a `;` ended goes on (`if (a) b; else …`: an `else if` chain nests): what
    /// it ended counts again. Called before any token of the level since.
    pub(super) fn resume(&mut self, Ended(level): Ended) {
        self.total += level.pieces + level.angles + level.kept;
        *self.top() = level;
    }

    /// An opening bracket: a new level.
    pub(super) fn open(&mut self, at: impl FnOnce() -> usize) {
        self.levels.push(Level::default());
        self.total += 1;
        self.note(at);
    }

    /// A closing bracket: the level ends and is one piece of the enclosing one (`f()()…` and
    /// `a[0][0]…` nest in the tree without nesting brackets). A closer with no open level is
    /// ignored.
    pub(super) fn close(&mut self, at: impl FnOnce() -> usize) {
        if self.levels.len() > 1
            && let Some(level) = self.levels.pop()
        {
            self.total -= 1 + level.pieces + level.angles + level.kept;
            self.piece(at);
        }
    }
}
