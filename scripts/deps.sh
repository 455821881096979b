#!/usr/bin/env bash
# Installs what the project needs, only when it is missing or stale: npm packages (npm ci when
# node_modules does not match package-lock.json) and the Debian packages for the office apps,
# Thunderbird, a virtual display, a browser, GIMP, VLC, ffmpeg and shellcheck.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

if ! node scripts/npm-in-sync.mjs; then
  echo "deps: npm ci (node_modules does not match package-lock.json)"
  npm ci --no-audit --no-fund
fi

packages=(libreoffice-calc libreoffice-writer libreoffice-impress python3-uno thunderbird xvfb chromium gimp vlc ffmpeg shellcheck)
missing=()
for pkg in "${packages[@]}"; do
  if [[ "$(dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null || true)" != "install ok installed" ]]; then
    missing+=("$pkg")
  fi
done
if ((${#missing[@]} > 0)); then
  echo "deps: apt-get install ${missing[*]}"
  sudo=()
  if [[ "$(id -u)" != 0 ]]; then sudo=(sudo); fi
  "${sudo[@]}" apt-get update
  DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y --no-install-recommends "${missing[@]}"
fi
