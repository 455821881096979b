#!/usr/bin/env bash
# Builds the two service binaries of the local stack into a project-local folder with `go install`,
# pinned; a binary already present is skipped. Usage: scripts/build-binaries.sh [bin-dir]
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
bin_dir="$(mkdir -p "${1:-${FORGE_HOME:-$here/.forge}/bin}" && cd "${1:-${FORGE_HOME:-$here/.forge}/bin}" && pwd)"
log_dir="$(dirname "$bin_dir")/logs"
mkdir -p "$log_dir"

temporal_version="v1.5.1"
temporal_module="github.com/temporalio/cli/cmd/temporal@${temporal_version}"
temporal_ldflags="-s -w -X github.com/temporalio/cli/temporalcli.Version=${temporal_version#v}"
# MinIO publishes no semver tags the module proxy resolves, so the pin is the proxy's pseudo-version.
minio_module="github.com/minio/minio@v0.0.0-20260212201848-7aac2a2c5b7c"

if ! command -v go >/dev/null 2>&1; then
  echo "build-binaries: Go is required to build temporal and minio (Go 1.26 or newer)" >&2
  exit 1
fi

# Built binaries are also kept in a per-user cache keyed by module and version, so a fresh clone on a
# machine that built them once (CI clones anew every run) copies them instead of compiling for minutes.
cache_root="${FORGE_BIN_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/cua-forge/bin}"

build() { # name module ldflags
  local name="$1" module="$2" ldflags="$3" log="$log_dir/build-$1.log"
  if [[ -x "$bin_dir/$name" ]]; then
    echo "build-binaries: $name present"
    return 0
  fi
  local cached="$cache_root/${module//[\/@]/_}/$name"
  if [[ -x "$cached" ]]; then
    cp "$cached" "$bin_dir/.$name.tmp" && mv "$bin_dir/.$name.tmp" "$bin_dir/$name"
    echo "build-binaries: $name copied from $cached"
    return 0
  fi
  echo "build-binaries: building $name from $module (log: $log)"
  local start=$SECONDS
  # Build into a temporary GOBIN so an interrupted build never leaves a half binary in place.
  local tmp
  tmp="$(mktemp -d "$bin_dir/.build-$name.XXXXXX")"
  if GOBIN="$tmp" GOFLAGS=-buildvcs=false CGO_ENABLED=0 go install -trimpath -ldflags "$ldflags" "$module" >"$log" 2>&1; then
    mv "$tmp/$name" "$bin_dir/$name"
    rm -rf "$tmp"
    # Best effort: a read-only or full cache only costs the next clone a build.
    if mkdir -p "$(dirname "$cached")" 2>/dev/null && cp "$bin_dir/$name" "$cached.tmp" 2>/dev/null; then
      mv "$cached.tmp" "$cached"
    fi
    echo "build-binaries: $name built in $((SECONDS - start))s"
  else
    rm -rf "$tmp"
    echo "build-binaries: building $name failed; last lines of $log:" >&2
    tail -n 20 "$log" >&2
    return 1
  fi
}

# Both at once: downloads overlap and the Go builder shares the cores between them.
build temporal "$temporal_module" "$temporal_ldflags" &
temporal_pid=$!
build minio "$minio_module" "-s -w" &
minio_pid=$!
status=0
wait "$temporal_pid" || status=1
wait "$minio_pid" || status=1
exit "$status"
