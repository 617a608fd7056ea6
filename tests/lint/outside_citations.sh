#!/usr/bin/env bash
# outside_citations.sh REPO_ROOT - the repository cites no material outside itself: fails naming each line of the
# sources, docs, tests, benchmarks and models that points at a path outside the repository (../shared, the project's
# shared/reference folder, /work/ paths, seeds/ of an outside corpus). Facts from elsewhere cite their public title
# and link in docs/sources.md instead.
set -euo pipefail
cd "$1"
pat='\.\./shared|shared/reference|(^|[^A-Za-z0-9_.-])/work/|\.\./seeds/'
bad=$(grep -rnIE "$pat" README.md docs src include tools python tests bench models presets .ci 2>/dev/null |
  grep -v '^tests/lint/outside_citations\.sh:' || true)
if [ -n "$bad" ]; then
  echo "citations of material outside the repository (cite the public source in docs/sources.md instead):"
  echo "$bad"
  exit 1
fi
echo "no citation of material outside the repository"
