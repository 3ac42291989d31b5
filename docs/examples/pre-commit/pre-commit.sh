#!/bin/sh
# A plain git pre-commit hook, without the pre-commit framework:
#   cp pre-commit.sh .git/hooks/pre-commit && chmod +x .git/hooks/pre-commit
# Lints the whole working tree; a commit with error-level findings is refused.
# Skip once with `git commit --no-verify`.
exec mirrorless lint --color always
