#!/usr/bin/env bash
# Installs Debian's `chromium` for the playground's browser test (test/playground/), unless
# /usr/bin/chromium is already there. Idempotent and quiet: prints one line, or apt's output on failure.
# `apt-get update` runs only when the install fails without it (a fresh image has no package lists).
set -euo pipefail

if [ -x /usr/bin/chromium ]; then
  exit 0
fi

export DEBIAN_FRONTEND=noninteractive
log="$(mktemp)"
trap 'rm -f "$log"' EXIT

install() {
  apt-get install -y -q --no-install-recommends chromium >>"$log" 2>&1
}

if ! install; then
  if ! { apt-get update -q >>"$log" 2>&1 && install; }; then
    cat "$log" >&2
    echo "ci-chromium: could not install Debian's chromium" >&2
    exit 1
  fi
fi

if [ ! -x /usr/bin/chromium ]; then
  cat "$log" >&2
  echo "ci-chromium: chromium installed but /usr/bin/chromium is missing" >&2
  exit 1
fi
echo "ci-chromium: installed $(/usr/bin/chromium --version 2>/dev/null || echo chromium)"
