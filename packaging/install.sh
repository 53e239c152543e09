#!/bin/sh
# Installs Zhiwen from this unpacked tarball for one user (PREFIX=~/.local) or, run as
# root with PREFIX=/usr/local, for everyone: the binary, its menu entry and icons, the
# man pages and the bash/zsh/fish completions. `./install.sh --uninstall` removes them.
set -eu
here="$(cd "$(dirname "$0")" && pwd)"
prefix="${PREFIX:-$HOME/.local}"
cd "$here"
files="$(find bin share -type f | sort)"
if [ "${1:-}" = "--uninstall" ]; then
    for f in $files; do rm -f "$prefix/$f"; done
    echo "removed Zhiwen from $prefix"
else
    for f in $files; do
        mkdir -p "$prefix/$(dirname "$f")"
        cp "$f" "$prefix/$f"
    done
    echo "installed Zhiwen into $prefix (the command: $prefix/bin/zhiwen)"
    case ":$PATH:" in *":$prefix/bin:"*) ;; *) echo "note: $prefix/bin is not on your PATH" ;; esac
fi
# Menu and icon caches, where the desktop has them.
command -v update-desktop-database >/dev/null 2>&1 && update-desktop-database -q "$prefix/share/applications" || true
command -v gtk-update-icon-cache >/dev/null 2>&1 && gtk-update-icon-cache -q -t "$prefix/share/icons/hicolor" || true
