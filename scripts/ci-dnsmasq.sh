#!/usr/bin/env bash
# Installs dnsmasq for test/routing/dnsmasq.test.ts, which checks the kube-dns routing model against
# the real dnsmasq. Debian's dnsmasq-base ships the binary only (no system service is started);
# the test starts its own dnsmasq processes on loopback addresses and stops them itself.
# Does nothing when dnsmasq is already installed. Needs root (or sudo) to install.
set -euo pipefail

for candidate in /usr/sbin/dnsmasq /usr/bin/dnsmasq; do
  if [ -x "$candidate" ]; then
    echo "dnsmasq present: $("$candidate" --version | head -n 1)"
    exit 0
  fi
done

if [ "$(id -u)" -eq 0 ]; then
  as_root=()
elif command -v sudo >/dev/null 2>&1; then
  as_root=(sudo)
else
  echo "scripts/ci-dnsmasq.sh: dnsmasq is missing and installing it needs root" >&2
  exit 1
fi

export DEBIAN_FRONTEND=noninteractive
"${as_root[@]}" apt-get update -qq
"${as_root[@]}" apt-get install -y -qq --no-install-recommends dnsmasq-base
echo "dnsmasq installed: $(/usr/sbin/dnsmasq --version | head -n 1)"
