#!/usr/bin/env bash
# Builds a release gh-users and installs it with its shell completions and man pages (gh-users(1) and one
# page per command, gh-users-COMMAND(1), in share/man/man1).
#
#   Scripts/install.sh                 # into /usr/local (PREFIX)
#   PREFIX=$HOME/.local Scripts/install.sh
#   DESTDIR=/tmp/pkg Scripts/install.sh   # staged, for packagers
#   Scripts/install.sh --binary=PATH   # install a gh-users built elsewhere instead of building one
#   Scripts/install.sh --check         # only say what the build needs and what would be run
#
# On Linux the Swift standard library and Foundation are linked statically, so the binary runs without a
# Swift toolchain; it still needs libcurl 4, libstdc++ and libgcc_s at run time (Debian and Ubuntu: libcurl4,
# libstdc++6, libgcc-s1). The static build needs libcurl's development files. When they are missing: as root,
# this script says so and runs 'apt-get install -y libcurl4-openssl-dev' with its output shown; as another
# user on a terminal it asks before running that with sudo, and without a terminal it stops and says what to
# run. Set NO_APT=1 to never run apt-get.
set -euo pipefail
caller=$PWD
cd "$(dirname "$0")/.."

PREFIX=${PREFIX:-/usr/local}
DESTDIR=${DESTDIR:-}
check_only=""
prebuilt=""
# Where libcurl's headers are looked for: /usr/include/curl, or a multiarch folder such as
# /usr/include/x86_64-linux-gnu/curl (where Debian and Ubuntu put them). Tests point it elsewhere.
include_root=${CURL_INCLUDE_ROOT:-/usr/include}
for argument in "$@"; do
    case "$argument" in
        --prefix=*) PREFIX=${argument#--prefix=} ;;
        --binary=*) prebuilt=${argument#--binary=}; [[ $prebuilt == /* ]] || prebuilt=$caller/$prebuilt ;;
        --check) check_only=1 ;;
        -h | --help) sed -n '2,16p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) echo "error: unknown argument '$argument' (try --help)" >&2; exit 64 ;;
    esac
done

have_curl_headers() {
    local header
    for header in "$include_root"/curl/curl.h "$include_root"/*/curl/curl.h; do
        [ -f "$header" ] && return 0
    done
    return 1
}

install_curl_headers() {
    local sudo="" command="apt-get install -y libcurl4-openssl-dev"
    echo "The static build needs libcurl's development files, which are missing under $include_root." >&2
    if [ -n "${NO_APT:-}" ] || ! command -v apt-get >/dev/null 2>&1; then
        echo "error: install them (Debian and Ubuntu: libcurl4-openssl-dev; Fedora: libcurl-devel), then run" \
            "this script again" >&2
        exit 1
    fi
    if [ "$(id -u)" -ne 0 ]; then
        sudo=sudo
        if [ -n "$check_only" ] || [ ! -t 0 ]; then
            echo "error: run 'sudo $command' (or NO_APT=1 to install them another way), then this script again" >&2
            exit 1
        fi
        read -r -p "Run 'sudo $command' now? [y/N] " answer
        case "$answer" in
            [yY] | [yY][eE][sS]) ;;
            *) echo "error: not installed; run '$sudo $command' yourself, then this script again" >&2; exit 1 ;;
        esac
    fi
    if [ -n "$check_only" ]; then
        echo "Would run: $command" >&2
        exit 0
    fi
    echo "Running: ${sudo:+sudo }$command" >&2
    $sudo apt-get install -y libcurl4-openssl-dev || { $sudo apt-get update && $sudo apt-get install -y libcurl4-openssl-dev; }
}

if [ -n "$prebuilt" ]; then
    [ -x "$prebuilt" ] || { echo "error: --binary=$prebuilt is not an executable file" >&2; exit 64; }
    bin=$prebuilt
    if [ -n "$check_only" ]; then
        echo "Ready: install $bin into $DESTDIR$PREFIX" >&2
        exit 0
    fi
else
    source Scripts/toolchain.sh
    build_flags=(-c release --product gh-users)
    if [ "$(uname -s)" = Linux ]; then
        have_curl_headers || install_curl_headers
        build_flags+=(--static-swift-stdlib)
    fi
    if [ -n "$check_only" ]; then
        echo "Ready: swift build ${build_flags[*]}, then install into $DESTDIR$PREFIX" >&2
        exit 0
    fi
    swift build "${build_flags[@]}"
    bin="$(swift build -c release --show-bin-path)/gh-users"
fi

root="$DESTDIR$PREFIX"
install -d "$root/bin" "$root/share/man/man1" "$root/share/bash-completion/completions" \
    "$root/share/zsh/site-functions" "$root/share/fish/vendor_completions.d"
install -m 0755 -s "$bin" "$root/bin/gh-users"
"$bin" completion bash >"$root/share/bash-completion/completions/gh-users"
"$bin" completion zsh >"$root/share/zsh/site-functions/_gh-users"
"$bin" completion fish >"$root/share/fish/vendor_completions.d/gh-users.fish"
Scripts/make-manpage "$bin" "$root/share/man/man1"
echo "Installed gh-users $("$bin" --version | awk '{print $2}') into $root" >&2
