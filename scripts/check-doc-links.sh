#!/usr/bin/env bash
# Checks that every relative link in README.md and docs/ (Markdown `[text](target)`)
# names a file or folder of the repository, that file names in code spans (`db/prober.h`,
# `FORMAT.md`) exist beside the document or from the repository's root, and that no
# document points outside the repository. Anchors (#...) are not checked. Exit status 1
# lists what is broken.
set -euo pipefail
cd "$(dirname "$0")/.."
status=0
# A path exists in the repository: present and not ignored by git (an ignored file such as
# one under data/ exists here but not in a fresh clone).
exists() { [[ -e $1 ]] && ! git check-ignore -q "$1"; }
# A file name in a Markdown code span (the backquotes are Markdown's, not the shell's).
# shellcheck disable=SC2016
code_span='`[A-Za-z0-9_./-]*\.\(md\|h\|cpp\|sh\|py\|js\)`'
while IFS= read -r file; do
  dir=$(dirname "$file")
  # Each link target, one a line: drop the text, keep what is between ( and ).
  while IFS= read -r target; do
    case $target in http://* | https://* | mailto:* | '#'*) continue ;; esac
    path=${target%%#*}
    if ! exists "$dir/$path"; then
      echo "$file: broken link ($target)"
      status=1
    fi
  done < <(grep -o '\]([^)]*)' "$file" | sed 's/^](//; s/)$//; s/ .*//')
  while IFS= read -r name; do
    if ! exists "$name" && ! exists "$dir/$name"; then
      echo "$file: names a missing file (\`$name\`)"
      status=1
    fi
  done < <(grep -o "$code_span" "$file" | tr -d '`' | sort -u)
done < <(git ls-files --cached --others --exclude-standard -- README.md 'docs/*.md' 'docs/**/*.md')
if git grep -n '\.\./shared' -- README.md docs; then
  echo "documents point outside the repository (the shared folder beside it)"
  status=1
fi
exit $status
