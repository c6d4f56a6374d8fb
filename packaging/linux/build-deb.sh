#!/usr/bin/env bash
# Build a Debian package of Kibitz: target/debian/kibitz_VERSION_ARCH.deb.
#
# Usage: packaging/linux/build-deb.sh
#
# Builds both programs (`cargo build --release --locked --workspace`), stages them with
# install.sh under /usr, strips them, and packs the tree with dpkg-deb. Needs dpkg-dev
# (dpkg-shlibdeps works out the libraries the binaries link). Install the result with
# `sudo apt install ./target/debian/kibitz_*.deb`.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
case "${1:-}" in
    -h|--help) sed -n '2,9p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; exit 0 ;;
    "") ;;
    *) echo "usage: $0" >&2; exit 2 ;;
esac
for tool in dpkg-deb dpkg-shlibdeps strip; do
    command -v "$tool" >/dev/null || { echo "error: $tool not found (apt-get install dpkg-dev binutils)" >&2; exit 1; }
done

(cd "$repo" && cargo build --release --locked --workspace)

version="$(sed -n 's/^version = "\(.*\)"$/\1/p' "$repo/Cargo.toml" | head -n 1)"
arch="$(dpkg --print-architecture)"
out="$repo/target/debian"
stage="$out/kibitz_${version}_$arch"
rm -rf "$stage"
mkdir -p "$stage/DEBIAN"

DESTDIR="$stage" "$here/install.sh" /usr >/dev/null
strip --strip-unneeded "$stage/usr/bin/kibitz" "$stage/usr/bin/kibitz-engine"
install -Dm644 "$here/debian-copyright" "$stage/usr/share/doc/kibitz/copyright"

# The libraries the binaries link, from the shlibs of the installed packages; dpkg-shlibdeps wants
# a debian/control, so it runs in a scratch folder with a minimal one.
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
mkdir "$scratch/debian"
printf 'Source: kibitz\n\nPackage: kibitz\nArchitecture: any\n' >"$scratch/debian/control"
linked="$(cd "$scratch" && dpkg-shlibdeps -O "$stage/usr/bin/kibitz" "$stage/usr/bin/kibitz-engine" |
    sed -n 's/^shlibs:Depends=//p')"
# The window system, fonts and graphics drivers are opened at run time (dlopen), so
# dpkg-shlibdeps cannot see them; these are what `LD_DEBUG=files kibitz` shows the binary itself
# loading: X11 (xcb, Xcursor, XInput) or Wayland, xkbcommon, fontconfig, and EGL or Vulkan for wgpu.
loaded="libx11-6, libx11-xcb1, libxcb1, libxcursor1, libxi6, libxkbcommon0, libxkbcommon-x11-0, libwayland-client0, libwayland-egl1, libfontconfig1, libegl1 | libvulkan1"

cat >"$stage/DEBIAN/control" <<EOF
Package: kibitz
Version: $version
Architecture: $arch
Maintainer: The Kibitz developers <kibitz@example.invalid>
Installed-Size: $(du -sk --exclude=DEBIAN "$stage" | cut -f1)
Depends: $linked, $loaded
Recommends: libegl-mesa0 | mesa-vulkan-drivers
Suggests: stockfish
Section: games
Priority: optional
Description: desktop chess program with its own engine
 Play against Kibitz at four strengths or against any UCI or xboard engine,
 or watch two engines play, with clocks (Crafty and PGN time-control
 notations), draw offers, draw claims and resignation explained. Its opening
 book learns from every game. Open PGN files as game lists and as studies
 with variations, glyphs and comments; set up positions in a board editor.
 .
 Also: headless commands (kibitz book, kibitz pgn, kibitz selfplay) and
 kibitz-engine, a UCI and xboard engine for other chess programs.
EOF

dpkg-deb --root-owner-group -Zxz --build "$stage" "$out/kibitz_${version}_$arch.deb" >/dev/null
rm -rf "$stage"
echo "$out/kibitz_${version}_$arch.deb"
