#!/usr/bin/env bash
# Builds a release gh-users and installs it with its shell completions and man page.
#
#   Scripts/install.sh                 # into /usr/local (PREFIX)
#   PREFIX=$HOME/.local Scripts/install.sh
#   DESTDIR=/tmp/pkg Scripts/install.sh   # staged, for packagers
#
# On Linux the Swift standard library and Foundation are linked statically, so the binary runs without a
# Swift toolchain; it still needs libcurl 4 at run time (Debian and Ubuntu: libcurl4). The static build needs
# libcurl's development files: when they are missing, this script says so and installs the Debian package
# libcurl4-openssl-dev with apt-get (as root, or through sudo) before it builds. Set NO_APT=1 to be asked
# to install them yourself instead.
set -euo pipefail
cd "$(dirname "$0")/.."
source Scripts/toolchain.sh

PREFIX=${PREFIX:-/usr/local}
DESTDIR=${DESTDIR:-}
for argument in "$@"; do
    case "$argument" in
        --prefix=*) PREFIX=${argument#--prefix=} ;;
        -h | --help) sed -n '2,12p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) echo "error: unknown argument '$argument' (try --help)" >&2; exit 64 ;;
    esac
done

build_flags=(-c release --product gh-users)
if [ "$(uname -s)" = Linux ]; then
    if ! ls /usr/include/curl/curl.h /usr/include/*/curl/curl.h >/dev/null 2>&1; then
        if command -v apt-get >/dev/null 2>&1 && [ -z "${NO_APT:-}" ]; then
            sudo=""
            [ "$(id -u)" -eq 0 ] || sudo=sudo
            echo "The static build needs libcurl's development files, which are missing." >&2
            echo "Installing the Debian package libcurl4-openssl-dev: ${sudo:+sudo }apt-get install -y libcurl4-openssl-dev" >&2
            $sudo apt-get install -y libcurl4-openssl-dev >/dev/null 2>&1 \
                || { $sudo apt-get update >/dev/null && $sudo apt-get install -y libcurl4-openssl-dev >/dev/null; }
        else
            echo "error: libcurl's development files are needed for a static build; install them" \
                "(Debian and Ubuntu: libcurl4-openssl-dev; Fedora: libcurl-devel)" >&2
            exit 1
        fi
    fi
    build_flags+=(--static-swift-stdlib)
fi

swift build "${build_flags[@]}"
bin="$(swift build -c release --show-bin-path)/gh-users"

root="$DESTDIR$PREFIX"
install -d "$root/bin" "$root/share/man/man1" "$root/share/bash-completion/completions" \
    "$root/share/zsh/site-functions" "$root/share/fish/vendor_completions.d"
install -m 0755 -s "$bin" "$root/bin/gh-users"
"$bin" completion bash >"$root/share/bash-completion/completions/gh-users"
"$bin" completion zsh >"$root/share/zsh/site-functions/_gh-users"
"$bin" completion fish >"$root/share/fish/vendor_completions.d/gh-users.fish"
Scripts/make-manpage "$bin" >"$root/share/man/man1/gh-users.1"
echo "Installed gh-users $("$bin" --version | awk '{print $2}') into $root" >&2
