#!/usr/bin/env bash
# Makes sure Debian's Chromium is installed: the suite drives a real browser
# and never downloads one of its own.
set -euo pipefail
if [ -n "${AGENTREADY_BROWSER_URL:-}" ]; then
  echo "chromium: attaching to ${AGENTREADY_BROWSER_URL%%\?*} (AGENTREADY_BROWSER_URL); not installing"
  exit 0
fi
for c in "${AGENTREADY_CHROMIUM:-}" chromium chromium-browser; do
  if [ -n "$c" ] && command -v "$c" >/dev/null 2>&1; then
    echo "chromium: $("$c" --version 2>/dev/null | head -1)"
    exit 0
  fi
done
echo "chromium: not found; installing Debian's package: apt-get install -y chromium"
SUDO=""
if [ "$(id -u)" != 0 ]; then
  command -v sudo >/dev/null || { echo "chromium: run as root, or install it yourself: apt-get install -y chromium"; exit 1; }
  SUDO="sudo"
fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq chromium >/dev/null
echo "chromium: $(chromium --version 2>/dev/null | head -1)"
