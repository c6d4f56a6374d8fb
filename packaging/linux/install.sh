#!/usr/bin/env bash
# Install Kibitz (kibitz, kibitz-engine, desktop entry, AppStream metainfo, hicolor icons) into a prefix.
#
# Usage: packaging/linux/install.sh [PREFIX]      (default PREFIX: ~/.local)
#
# Build first with `cargo build --release --workspace` at the repository root. Environment overrides:
#   KIBITZ_BIN=/path/to/kibitz                 instead of target/release/kibitz
#   KIBITZ_ENGINE_BIN=/path/to/kibitz-engine   instead of target/release/kibitz-engine
#   DESTDIR=/staging                           prepend a staging root (packaging/linux/build-deb.sh uses it)
set -euo pipefail

APP_ID="io.github.kibitz.Kibitz"
SIZES=(16 24 32 48 64 128 256 512)

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/../.." && pwd)"

if [[ $# -gt 1 ]]; then
    echo "usage: $0 [PREFIX]   (default: ~/.local)" >&2
    exit 2
fi
case "${1:-}" in
    -h|--help) sed -n '2,9p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; exit 0 ;;
esac

prefix="${1:-$HOME/.local}"
if [[ "$prefix" != /* ]]; then
    prefix="$(pwd)/$prefix"
fi
root="${DESTDIR:-}${prefix}"

bin="${KIBITZ_BIN:-$repo/target/release/kibitz}"
engine_bin="${KIBITZ_ENGINE_BIN:-$repo/target/release/kibitz-engine}"
for b in "$bin" "$engine_bin"; do
    if [[ ! -f "$b" ]]; then
        echo "error: binary not found at: $b" >&2
        echo "       Build both first:  (cd \"$repo\" && cargo build --release --workspace)" >&2
        echo "       or point KIBITZ_BIN / KIBITZ_ENGINE_BIN at existing binaries." >&2
        exit 1
    fi
    if [[ ! -x "$b" ]]; then
        echo "error: $b exists but is not executable" >&2
        exit 1
    fi
done

desktop="$here/$APP_ID.desktop"
metainfo="$here/$APP_ID.metainfo.xml"
for f in "$desktop" "$metainfo"; do
    [[ -f "$f" ]] || { echo "error: missing packaging file: $f" >&2; exit 1; }
done
for s in "${SIZES[@]}"; do
    [[ -f "$repo/icons/kibitz-$s.png" ]] || { echo "error: missing icon: $repo/icons/kibitz-$s.png" >&2; exit 1; }
done

echo "Installing Kibitz into $root"
install -Dm755 "$bin"      "$root/bin/kibitz"
install -Dm755 "$engine_bin" "$root/bin/kibitz-engine"
install -Dm644 "$desktop"  "$root/share/applications/$APP_ID.desktop"
install -Dm644 "$metainfo" "$root/share/metainfo/$APP_ID.metainfo.xml"
for s in "${SIZES[@]}"; do
    install -Dm644 "$repo/icons/kibitz-$s.png" "$root/share/icons/hicolor/${s}x${s}/apps/$APP_ID.png"
done
install -Dm644 "$repo/icons/kibitz.svg" "$root/share/icons/hicolor/scalable/apps/$APP_ID.svg"
# Licence/attribution of the artwork (cburnett pieces and the icon's knight are GPL-2.0-or-later).
install -Dm644 "$repo/assets/pieces/cburnett/ATTRIBUTION.md"      "$root/share/doc/kibitz/cburnett-ATTRIBUTION.md"
install -Dm644 "$repo/assets/pieces/cburnett/LICENSE-GPL-2.0.txt" "$root/share/doc/kibitz/LICENSE-GPL-2.0.txt"
install -Dm644 "$repo/icons/README.md"                            "$root/share/doc/kibitz/ICON-README.md"

# Refresh caches when installing into a live system (not when staging with DESTDIR).
if [[ -z "${DESTDIR:-}" ]]; then
    if command -v update-desktop-database >/dev/null 2>&1; then
        update-desktop-database -q "$root/share/applications" || true
    fi
    if command -v gtk-update-icon-cache >/dev/null 2>&1 && [[ -f "$root/share/icons/hicolor/index.theme" ]]; then
        gtk-update-icon-cache -q -t "$root/share/icons/hicolor" || true
    fi
fi

echo "Done. Binaries: $root/bin/kibitz, $root/bin/kibitz-engine"
case ":$PATH:" in
    *":$prefix/bin:"*) ;;
    *) echo "note: $prefix/bin is not on your PATH; the desktop entry runs 'kibitz' via PATH." ;;
esac
